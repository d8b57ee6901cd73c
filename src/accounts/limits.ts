import { ApiError } from '../errors.ts';
import { sql } from '../db/statements.ts';
import type { StateDb } from './state-db.ts';
import type { Organization } from './organizations.ts';
import type { Plan, PlanTerms } from './plans.ts';
import { berlinDay, nextBerlinMidnight } from './time.ts';

/** Requests per token and minute: every call counts against `all`; heavy operations also against `heavy`. */
export const RATE_LIMITS = { all: 60, heavy: 10 } as const;
export type RateBucket = keyof typeof RATE_LIMITS;

/** The sliding minute of the rate limits, on every state engine. */
export const RATE_WINDOW_MS = 60_000;
/** Past this many tracked token buckets, buckets without a call in the last minute are dropped. */
const SWEEP_AT = 10_000;

/**
 * Request slots per token and bucket in a sliding minute: a call passes if fewer than the limit were taken in the 60
 * seconds before it, in any minute, not only in clock minutes (fixed windows let 120 calls through in one second
 * across a minute's boundary). Each bucket keeps the times of its last calls, at most the limit (60 numbers), held
 * in memory: the server is one process, a restart forgetting the last minute harms no one, while a write
 * transaction per request would cost as much as the lookup it guards. Single-threaded, so a check and its taking
 * never interleave.
 */
export class RateWindows {
  /** Per `token bucket`: the times (ms) of the calls within the last minute, oldest first. */
  private readonly used = new Map<string, number[]>();

  /**
   * Takes one slot from each bucket, all or none. Over a limit: 429 rate_limited with the seconds until the oldest
   * call of the minute leaves it; the refused request takes no slot.
   */
  take(tokenId: string, buckets: readonly RateBucket[], now: Date): void {
    const time = now.getTime();
    const recent = buckets.map((bucket) => {
      const calls = this.used.get(`${tokenId} ${bucket}`) ?? [];
      while (calls.length && calls[0] <= time - RATE_WINDOW_MS) calls.shift();
      return calls;
    });
    buckets.forEach((bucket, index) => {
      const calls = recent[index];
      if (calls.length >= RATE_LIMITS[bucket]) throw rateLimited(bucket, calls[0], time);
    });
    if (this.used.size >= SWEEP_AT) this.sweep(time);
    buckets.forEach((bucket, index) => {
      recent[index].push(time);
      this.used.set(`${tokenId} ${bucket}`, recent[index]);
    });
  }

  private sweep(time: number): void {
    for (const [key, calls] of this.used) if (!calls.length || calls[calls.length - 1] <= time - RATE_WINDOW_MS) this.used.delete(key);
  }
}

/** 429 rate_limited for `bucket`, retry once its oldest call of the minute (`oldest`, ms) has left the minute. */
export function rateLimited(bucket: RateBucket, oldest: number, time: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((oldest + RATE_WINDOW_MS - time) / 1000));
  return new ApiError('rate_limited', `Rate limit of ${RATE_LIMITS[bucket]} requests per minute reached; retry in ${retryAfter} s.`,
    { retry_after_seconds: retryAfter });
}

export type VolumeUnit = 'rows' | 'documents';

/** The daily cap of a plan for a unit. */
export const capOf = (terms: PlanTerms, unit: VolumeUnit) => (unit === 'rows' ? terms.dailyRows : terms.dailyDocuments);

/** What the organization has served of `unit` today (the Berlin calendar day). */
export function usedToday(db: StateDb, organizationId: string, unit: VolumeUnit, now: Date): number {
  return sql<[string, string, string], { amount: number }>(db, 
    'SELECT amount FROM daily_counters WHERE organization_id = ? AND day = ? AND unit = ?',
  ).get(organizationId, berlinDay(now), unit)?.amount ?? 0;
}

/**
 * 429 volume_cap unless the organization's daily cap for `unit` has room for `amount` more: before a call runs, room
 * for one; in the charging transaction, room for all the call served (a call never carries the day past the cap).
 */
export function assertVolumeLeft(
  db: StateDb, organization: Organization, terms: Record<Plan, PlanTerms>, unit: VolumeUnit, now: Date, amount = 1,
): void {
  assertRoom(capOf(terms[organization.plan], unit), usedToday(db, organization.id, unit, now), unit, now, amount);
}

/** 429 volume_cap unless `used + amount` stays within `cap` (the check of assertVolumeLeft, for any state engine). */
export function assertRoom(cap: number, used: number, unit: VolumeUnit, now: Date, amount = 1): void {
  if (used + amount <= cap) return;
  const resetsAt = nextBerlinMidnight(now);
  const detail = used >= cap
    ? `The organization's daily cap of ${cap} ${unit} is reached`
    : `This call would serve ${amount} ${unit}, and ${cap - used} of the organization's daily cap of ${cap} are left`;
  throw new ApiError('volume_cap', `${detail}; it resets at midnight Europe/Berlin.`, {
    unit, cap, resets_at: resetsAt, retry_after_seconds: Math.max(1, Math.ceil((Date.parse(resetsAt) - now.getTime()) / 1000)),
  });
}

/** Adds served volume; call inside the charging transaction. */
export function addVolume(db: StateDb, organizationId: string, unit: VolumeUnit, amount: number, now: Date): void {
  if (amount <= 0) return;
  sql(db, `INSERT INTO daily_counters (organization_id, day, unit, amount) VALUES (?, ?, ?, ?)
              ON CONFLICT DO UPDATE SET amount = amount + excluded.amount`)
    .run(organizationId, berlinDay(now), unit, amount);
}
