// Rate limits shared by every node of a cluster: the same per-token buckets, limits and sliding minute as RateWindows
// (src/accounts/limits.ts), counted in PostgreSQL so that a token's 60 per minute are 60 whichever node answers.
import { RATE_LIMITS, RateWindows, rateLimited, type RateBucket } from './limits.ts';
import { isOutage, unreachable, type Query } from '../state/postgres-store.ts';
import type { RateLimiter } from '../state/store.ts';

/**
 * A sliding minute per token and bucket in the `rate_windows` table: a call passes if fewer than the limit were
 * taken in the 60 seconds before it, on any node. One statement per request (`juralite_take_rate` takes a slot of
 * each bucket, all or none, under the buckets' row locks, so calls of one token on several nodes are counted one
 * after another). The times are the nodes' clocks (keep them in step with NTP). While PostgreSQL cannot be reached,
 * each node counts in memory (RateWindows), so that free reads stay limited per node.
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
    const time = now.getTime();
    let refused: { refused: RateBucket | null; oldest: number | null };
    try {
      ({ rows: [refused] } = await this.query<typeof refused>('SELECT refused, oldest FROM juralite_take_rate(?, ?, ?, ?)',
        [tokenId, buckets, buckets.map((bucket) => RATE_LIMITS[bucket]), time]));
    } catch (error) {
      if (!isOutage(error)) throw unreachable(error);
      return this.outage.take(tokenId, buckets, now);
    }
    if (refused.refused !== null) throw rateLimited(refused.refused, refused.oldest!, time);
  }
}
