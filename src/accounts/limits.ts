import { ApiError } from '../errors.ts';
import { sql } from '../db/statements.ts';
import type { StateDb } from './state-db.ts';
import type { Organization } from './organizations.ts';
import type { Plan, PlanTerms } from './plans.ts';
import { berlinDay, nextBerlinMidnight } from './time.ts';

/** Requests per token and minute: every call counts against `all`; heavy operations also against `heavy`. */
export const RATE_LIMITS = { all: 60, heavy: 10 } as const;
export type RateBucket = keyof typeof RATE_LIMITS;

const WINDOW_SECONDS = 60;
/** Past this many tracked token buckets, windows that have ended are dropped. */
const SWEEP_AT = 10_000;

/**
 * Request slots per token, bucket and fixed one-minute window, held in memory: the server is one process, a window
 * lives a minute, and a restart forgetting the current minute harms no one, while a write transaction per request
 * would cost as much as the lookup it guards. Single-threaded, so a check and its increment never interleave.
 */
export class RateWindows {
  private readonly used = new Map<string, { windowStart: number; count: number }>();

  /**
   * Takes one slot from each bucket, all or none. Over a limit: 429 rate_limited with the seconds until the window
   * ends; the refused request takes no slot.
   */
  take(tokenId: string, buckets: readonly RateBucket[], now: Date): void {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
    const countIn = (bucket: RateBucket) => {
      const entry = this.used.get(`${tokenId} ${bucket}`);
      return entry?.windowStart === windowStart ? entry.count : 0;
    };
    for (const bucket of buckets) {
      if (countIn(bucket) >= RATE_LIMITS[bucket]) {
        const retryAfter = Math.max(1, windowStart + WINDOW_SECONDS - nowSeconds);
        throw new ApiError('rate_limited',
          `Rate limit of ${RATE_LIMITS[bucket]} requests per minute reached; retry in ${retryAfter} s.`,
          { retry_after_seconds: retryAfter });
      }
    }
    if (this.used.size >= SWEEP_AT) this.sweep(windowStart);
    for (const bucket of buckets) this.used.set(`${tokenId} ${bucket}`, { windowStart, count: countIn(bucket) + 1 });
  }

  private sweep(windowStart: number): void {
    for (const [key, entry] of this.used) if (entry.windowStart < windowStart) this.used.delete(key);
  }
}

export type VolumeUnit = 'rows' | 'documents';

/** The daily cap of a plan for a unit. */
export const capOf = (terms: PlanTerms, unit: VolumeUnit) => (unit === 'rows' ? terms.dailyRows : terms.dailyDocuments);

/** What the organization served today of `unit` (Berlin day). */
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
