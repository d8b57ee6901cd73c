// Rate limits shared by every node of a cluster: the same per-token buckets and limits as RateWindows
// (src/accounts/limits.ts), counted in PostgreSQL so that a token's 60 per minute are 60 whichever node answers.
import { ApiError } from '../errors.ts';
import { RATE_LIMITS, RateWindows, type RateBucket } from './limits.ts';
import { isOutage, unreachable, type Query } from '../state/postgres-store.ts';
import type { RateLimiter } from '../state/store.ts';

const WINDOW_SECONDS = 60;

/**
 * Fixed one-minute windows per token and bucket in the `rate_windows` table; one round trip per request
 * (`juralite_take_rate` takes a slot of each bucket, all or none, under row locks). While PostgreSQL cannot be
 * reached, each node counts in memory (RateWindows), so that free reads stay limited per node.
 *
 * @example services.rates = new PostgresRateLimits(store.query);
 */
export class PostgresRateLimits implements RateLimiter {
  private readonly query: Query;
  private readonly outage = new RateWindows();

  constructor(query: Query) {
    this.query = query;
  }

  async take(tokenId: string, buckets: readonly RateBucket[], now: Date): Promise<void> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
    let refused: RateBucket | null;
    try {
      ({ rows: [{ refused }] } = await this.query<{ refused: RateBucket | null }>(
        'SELECT juralite_take_rate(?, ?, ?, ?) AS refused', [tokenId, buckets, buckets.map((bucket) => RATE_LIMITS[bucket]), windowStart]));
    } catch (error) {
      if (!isOutage(error)) throw unreachable(error);
      return this.outage.take(tokenId, buckets, now);
    }
    if (refused === null) return;
    const retryAfter = Math.max(1, windowStart + WINDOW_SECONDS - nowSeconds);
    throw new ApiError('rate_limited',
      `Rate limit of ${RATE_LIMITS[refused]} requests per minute reached; retry in ${retryAfter} s.`,
      { retry_after_seconds: retryAfter });
  }
}
