// The state behind the request path, on either engine: SQLite (embedded, one process; src/state/sqlite-store.ts) or
// PostgreSQL (shared by N serving nodes; src/state/postgres-store.ts). Every operation, REST and MCP, reaches the
// state only through this interface, so it runs unchanged on either (docs/cluster.md).
import type { Balance, ChargeOutcome } from '../accounts/ledger.ts';
import type { RateBucket, VolumeUnit } from '../accounts/limits.ts';
import type { Organization } from '../accounts/organizations.ts';
import type { Plan, PlanTerms } from '../accounts/plans.ts';
import type { Caller } from '../accounts/tokens.ts';
import type { ReadyUpload } from '../checks/runs.ts';
import type { CheckRun } from '../citations/check.ts';
import type { ExtractionOutcome } from '../uploads/extract/extract-document.ts';
import type { UploadRow } from '../uploads/store.ts';

/** A write an operation adds to its call's charging transaction (`ctx.onCommit`): all commit together or none. */
export type StateWrite =
  | { kind: 'save_run'; organizationId: string; run: CheckRun }
  /** 422 on document_id (and nothing of the call commits) when another call consumed the upload first. */
  | { kind: 'consume_upload'; id: string }
  /** 422 on file (and nothing commits) when the organization's upload quota is full. */
  | { kind: 'insert_upload'; row: UploadRow; quota: number };

/** What one metered call commits: its charge, the volume it served and its own writes. */
export interface CallRecord {
  organization: Organization;
  terms: Record<Plan, PlanTerms>;
  charge: { operation: string; resultKey: string; cost: number };
  /** The daily-cap unit and how much the call served; re-checked against the cap inside the transaction. */
  volume?: { unit: VolumeUnit; amount: number };
  writes: readonly StateWrite[];
}

/**
 * What a metered call reads before it runs, read together (`StateStore.callerAndRoom`): the caller, and the
 * organization's balance and what it served today of the operation's daily-cap unit. Either of the two is left out
 * when the engine could not read it with the caller (PostgreSQL unreachable, the caller known from before), or when
 * no unit was asked for: the call then reads it on its own, as before.
 */
export interface CallerAndRoom {
  caller: Caller;
  balance?: Balance;
  volumeUsed?: number;
}

/**
 * The state, asynchronous so that it may live in another process. Methods answer `ApiError`s as the synchronous
 * SQLite functions do (401, 404, 422, 429); an engine that cannot be reached answers 503 backend_unavailable.
 *
 * @example const caller = await services.store.authenticate(request.headers.authorization, now);
 */
export interface StateStore {
  readonly kind: 'sqlite' | 'postgres';
  /** The SQLite file (uploads wait beside it by default); null on PostgreSQL. */
  readonly filePath: string | null;
  /** The caller of a bearer token, or 401/409 (src/accounts/tokens.ts authenticate). */
  authenticate(authorization: string | null | undefined, now: Date): Promise<Caller>;
  /**
   * `authenticate`, and with it the organization's balance and today's use of `unit`: on SQLite in one read
   * transaction (one lock cycle instead of three), on PostgreSQL in two round trips instead of four. Refuses as
   * `authenticate` does; the call checks what it read in the contract's order (src/operations/execute.ts).
   */
  callerAndRoom(authorization: string | null | undefined, now: Date,
    room: { terms: Record<Plan, PlanTerms>; unit?: VolumeUnit }): Promise<CallerAndRoom>;
  alreadyPaid(organizationId: string, operation: string, resultKey: string, now: Date): Promise<boolean>;
  balanceOf(organization: Organization, terms: Record<Plan, PlanTerms>, now: Date): Promise<Balance>;
  /** What the organization served today of a daily-cap unit (Berlin day). */
  volumeUsed(organizationId: string, unit: VolumeUnit, now: Date): Promise<number>;
  /**
   * One write transaction: re-reads the balance and charges (free repeats cost 0), re-checks the daily cap for all
   * the call served (429 volume_cap) and adds it, and applies the call's writes; or nothing. `charged: false` (nothing
   * written) when the balance no longer covers the cost. Concurrent calls, on any node, can never overdraw.
   */
  commitCall(call: CallRecord, now: Date): Promise<ChargeOutcome>;
  readRun(organizationId: string, id: string): Promise<CheckRun>;
  readyUpload(organizationId: string, id: string, now: Date): Promise<ReadyUpload>;
  findUpload(organizationId: string, id: string): Promise<UploadRow | undefined>;
  waitingUpload(id: string): Promise<UploadRow | undefined>;
  waitingUploads(): Promise<UploadRow[]>;
  waitingPaths(): Promise<Set<string>>;
  recordExtraction(id: string, outcome: ExtractionOutcome): Promise<boolean>;
  /** Expires what is due (or only `id`); deletes their files; how many expired. */
  expireDue(now: Date, id?: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Requests per token and minute: `take` one slot of each bucket or throw 429 rate_limited. In memory per process
 * (RateWindows, src/accounts/limits.ts) on SQLite; shared by every node on PostgreSQL (src/accounts/postgres-rate-limits.ts).
 */
export interface RateLimiter {
  take(tokenId: string, buckets: readonly RateBucket[], now: Date): void | Promise<void>;
}
