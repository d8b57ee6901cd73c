// The shared state: PostgreSQL (13 or newer) through `pg`, for N serving nodes (docs/cluster.md). The same rules as
// the SQLite functions, with one difference that makes them hold across processes: every transaction that may spend
// credits, count volume or take an upload place first locks the organization's row (SELECT ... FOR UPDATE), so that
// calls of one organization commit one after another whichever node answers them, each reading what the one before
// committed (READ COMMITTED takes a new snapshot per statement). Deadlocks and serialization failures are retried.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { ApiError, backendUnavailable, unauthenticated } from '../errors.ts';
import { balanceFrom, chargedOutcome, splitCharge, type Balance, type ChargeOutcome, type LedgerSums } from '../accounts/ledger.ts';
import { assertRoom, capOf, type VolumeUnit } from '../accounts/limits.ts';
import { toOrganization, toUser, type Organization, type OrganizationRow, type UserRow } from '../accounts/organizations.ts';
import type { Plan, PlanTerms } from '../accounts/plans.ts';
import { berlinDay, utcMonth } from '../accounts/time.ts';
import { bearerToken, verifiedToken, type Caller, type TokenRow } from '../accounts/tokens.ts';
import { consumed, CONSUME, READINESS, readyFrom, runFrom, type UploadReadiness } from '../checks/runs.ts';
import type { CheckRun } from '../citations/check.ts';
import { checkPrice } from '../operations/check-citations.ts';
import type { ExtractionOutcome } from '../uploads/extract/extract-document.ts';
import { assertQuotaLeft, COLUMNS, HOLDS_QUOTA, type UploadRow } from '../uploads/store.ts';
import { rm } from 'node:fs/promises';
import { redactedUrl } from './location.ts';
import { MIGRATIONS } from './postgres-schema.ts';
import type { CallerAndRoom, CallRecord, StateStore, StateWrite } from './store.ts';

/** Runs one statement; `?` placeholders, as in the SQLite code, become $1, $2, ... */
export type Query = <Row = any>(text: string, params?: unknown[]) => Promise<{ rows: Row[]; rowCount: number }>;

const numbered = new Map<string, string>();
/** `?` to `$n`, once per statement text (our statements hold no `?` inside literals). */
function placeholders(text: string): string {
  let converted = numbered.get(text);
  if (converted === undefined) {
    let n = 0;
    numbered.set(text, (converted = text.replace(/\?/g, () => `$${++n}`)));
  }
  return converted;
}

function queryOf(client: pg.Pool | pg.PoolClient): Query {
  return async (text, params = []) => {
    const result = await client.query(placeholders(text), params);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };
}

// bigint (count, sums, amounts) and numeric (sum of bigint) as numbers: credits stay far below 2^53 (MAX_GRANT).
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 || oid === 1700
    ? (value: string) => Number(value)
    : pg.types.getTypeParser(oid, format as 'text')),
};

/** SQLSTATEs after which a transaction is simply run again: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);


/**
 * Opens the PostgreSQL state at `url` and brings its schema up to date.
 *
 * @example const store = await openPostgresStore('postgres://juralite@db.internal/juralite');
 */
export async function openPostgresStore(url: string, options: { max?: number } = {}): Promise<PostgresStore> {
  // A call waits up to 30 s for a connection: calls of one organization commit one after another, and a burst of them
  // queues here rather than failing; a PostgreSQL that is down refuses the connection at once (503).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20, types, connectionTimeoutMillis: 30_000 });
  // An idle connection the server dropped (PostgreSQL restarted) must not take the process down.
  pool.on('error', (error) => console.error('juralite: a PostgreSQL connection failed:', error.message));
  // Nor one lost while checked out between two statements: the statement after it fails, and the call with it (503).
  pool.on('connect', (client) => client.on('error', () => {}));
  const store = new PostgresStore(pool);
  try {
    await store.migrate();
  } catch (error) {
    await pool.end();
    throw new Error(`cannot open the state at ${redactedUrl(url)}: ${(error as Error).message}`);
  }
  return store;
}

/** How long a caller authenticated on this node is still recognised while PostgreSQL cannot be reached. */
const OUTAGE_CALLER_MS = 10 * 60_000;
const REMEMBERED_CALLERS = 10_000;

/**
 * The state on PostgreSQL. While PostgreSQL cannot be reached, metered calls are 503 with nothing charged, and free
 * calls that write nothing go on (docs/cluster.md): their callers are recognised from this node's recent
 * authentications, and credits_remaining is the last balance this node saw.
 */
export class PostgresStore implements StateStore {
  readonly kind = 'postgres';
  readonly filePath = null;
  readonly pool: pg.Pool;
  readonly query: Query;
  private readonly recentCallers = new Map<string, { caller: Caller; at: number }>();
  private readonly lastBalances = new Map<string, Balance>();

  constructor(pool: pg.Pool) {
    this.pool = pool;
    this.query = queryOf(pool);
  }

  /** Applies the migrations not yet recorded, each in its own transaction, one node at a time. */
  async migrate(): Promise<number> {
    return this.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock(727351)');
      await query('CREATE TABLE IF NOT EXISTS juralite_schema (version integer PRIMARY KEY, applied_at text NOT NULL)');
      const { rows } = await query<{ version: number | null }>('SELECT max(version) AS version FROM juralite_schema');
      const current = rows[0].version ?? 0;
      for (let version = current + 1; version <= MIGRATIONS.length; version++) {
        await query(MIGRATIONS[version - 1]);
        await query('INSERT INTO juralite_schema (version, applied_at) VALUES (?, ?)', [version, new Date().toISOString()]);
      }
      return MIGRATIONS.length;
    }, { raw: true });
  }

  /**
   * Runs `work` in one transaction on one connection; retried when PostgreSQL aborts it for a deadlock or a
   * serialization failure. Failures that are not ours (connection refused, server gone) become 503.
   */
  async transaction<T>(work: (query: Query) => Promise<T>, options: { raw?: boolean } = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient | undefined;
      try {
        client = await this.pool.connect();
        await client.query('BEGIN');
        const result = await work(queryOf(client));
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        if (client) {
          // A connection whose ROLLBACK fails is broken: it is destroyed, not returned to the pool.
          const broken = await client.query('ROLLBACK').then(() => false, () => true);
          client.release(broken);
        }
        const code = (error as { code?: string }).code;
        if (code && RETRYABLE.has(code) && attempt < 5) continue;
        throw options.raw ? error : unreachable(error);
      }
    }
  }

  private async read<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw unreachable(error);
    }
  }

  async authenticate(authorization: string | null | undefined, now: Date): Promise<Caller> {
    return (await this.callerAndRoom(authorization, now)).caller;
  }

  /**
   * The token's row first; then its organization, user, balance and today's volume at once (two round trips). While
   * PostgreSQL cannot be reached, a caller this node authenticated recently is recognised, without balance or volume.
   */
  async callerAndRoom(authorization: string | null | undefined, now: Date,
    room?: Parameters<StateStore['callerAndRoom']>[2]): Promise<CallerAndRoom> {
    const key = createHash('sha256').update(authorization ?? '').digest('base64');
    try {
      const read = await this.callerAndRoomNow(authorization, now, room);
      if (this.recentCallers.size >= REMEMBERED_CALLERS) this.recentCallers.clear();
      this.recentCallers.set(key, { caller: read.caller, at: Date.now() });
      return read;
    } catch (error) {
      const known = this.recentCallers.get(key);
      if (!isOutage(error) || !known || Date.now() - known.at > OUTAGE_CALLER_MS) throw unreachable(error);
      if (known.caller.token.expires_at <= now.toISOString()) throw unauthenticated('This token has expired.');
      return { caller: known.caller };
    }
  }

  private async callerAndRoomNow(authorization: string | null | undefined, now: Date,
    room?: Parameters<StateStore['callerAndRoom']>[2]): Promise<CallerAndRoom> {
    const { id, secret } = bearerToken(authorization);
    const { rows: [row] } = await this.query<TokenRow>('SELECT * FROM tokens WHERE id = ?', [id]);
    const { token, organizationId } = verifiedToken(row, secret, now);
    const [organization, user, sums, used] = await Promise.all([
      this.query<OrganizationRow>('SELECT id, name, plan, require_two_factor, created_at FROM organizations WHERE id = ? AND deleted_at IS NULL', [organizationId]),
      token.user_id ? this.query<UserRow>('SELECT * FROM users WHERE id = ?', [token.user_id]) : undefined,
      room && ledgerSums(this.query, organizationId, now),
      room?.unit && volumeUsed(this.query, organizationId, room.unit, now),
    ]);
    if (!organization.rows[0]) throw unauthenticated();
    const userRow = user?.rows[0];
    const caller = { token, organization: toOrganization(organization.rows[0]), user: userRow && toUser(userRow) };
    return { caller, balance: sums && room && balanceFrom(sums, caller.organization, room.terms), volumeUsed: used };
  }

  alreadyPaid(organizationId: string, operation: string, resultKey: string, now: Date): Promise<boolean> {
    return this.read(() => alreadyPaid(this.query, organizationId, operation, resultKey, now));
  }

  balanceOf(organization: Organization, terms: Record<Plan, PlanTerms>, now: Date): Promise<Balance> {
    return this.read(async () => balanceFrom(await ledgerSums(this.query, organization.id, now), organization, terms));
  }

  volumeUsed(organizationId: string, unit: VolumeUnit, now: Date): Promise<number> {
    return this.read(() => volumeUsed(this.query, organizationId, unit, now));
  }

  async commitCall(call: CallRecord, now: Date): Promise<ChargeOutcome> {
    try {
      const outcome = await this.commitNow(call, now);
      this.lastBalances.set(call.organization.id, outcome.balance);
      return outcome;
    } catch (error) {
      if (isOutage(error) && call.charge.cost === 0 && call.writes.length === 0) {
        return { charged: true, cost: 0, balance: this.lastBalances.get(call.organization.id) ?? { monthly: 0, bonus: 0, total: 0 } };
      }
      throw unreachable(error);
    }
  }

  private commitNow(call: CallRecord, now: Date): Promise<ChargeOutcome> {
    const { organization, terms, charge } = call;
    return this.transaction(async (query) => {
      await query('SELECT 1 FROM organizations WHERE id = ? FOR UPDATE', [organization.id]);
      const month = utcMonth(now);
      const sums = await ledgerSums(query, organization.id, now);
      const before = balanceFrom(sums, organization, terms);
      let outcome: ChargeOutcome;
      if (charge.cost === 0 || await alreadyPaid(query, organization.id, charge.operation, charge.resultKey, now)) {
        outcome = { charged: true, cost: 0, balance: before };
      } else if (before.total < charge.cost) {
        return { charged: false, cost: charge.cost, balance: before };
      } else {
        if (!sums.allotted) {
          await query(`INSERT INTO ledger (organization_id, at, month, kind, monthly_delta, note) VALUES (?, ?, ?, 'allotment', ?, ?)
                       ON CONFLICT (organization_id, month) WHERE kind = 'allotment' DO NOTHING`,
          [organization.id, now.toISOString(), month, terms[organization.plan].monthlyCredits, `monthly allotment, plan ${organization.plan}`]);
        }
        const { fromMonthly, fromBonus } = splitCharge(before, charge.cost);
        const { rows: [ledger] } = await query<{ id: number }>(
          `INSERT INTO ledger (organization_id, at, month, kind, monthly_delta, bonus_delta, operation, result_key)
           VALUES (?, ?, ?, 'charge', ?, ?, ?, ?) RETURNING id`,
          [organization.id, now.toISOString(), month, -fromMonthly, -fromBonus, charge.operation, charge.resultKey]);
        await query('INSERT INTO paid_results (organization_id, month, operation, result_key, ledger_id) VALUES (?, ?, ?, ?, ?)',
          [organization.id, month, charge.operation, charge.resultKey, ledger.id]);
        outcome = chargedOutcome(before, charge.cost);
      }
      if (call.volume && call.volume.amount > 0) {
        const { unit, amount } = call.volume;
        assertRoom(capOf(terms[organization.plan], unit), await volumeUsed(query, organization.id, unit, now), unit, now, amount);
        await query(`INSERT INTO daily_counters AS c (organization_id, day, unit, amount) VALUES (?, ?, ?, ?)
                     ON CONFLICT (organization_id, day, unit) DO UPDATE SET amount = c.amount + excluded.amount`,
        [organization.id, berlinDay(now), unit, amount]);
      }
      for (const write of call.writes) await applyWrite(query, write, now);
      return outcome;
    }, { raw: true });
  }

  readRun(organizationId: string, id: string): Promise<CheckRun> {
    return this.read(async () => runFrom((await this.query<{ body: string }>(
      'SELECT body FROM runs WHERE id = ? AND organization_id = ?', [id, organizationId])).rows[0], id));
  }

  readyUpload(organizationId: string, id: string, now: Date) {
    return this.read(async () => readyFrom((await this.query<UploadReadiness>(READINESS, [id, organizationId])).rows[0], now));
  }

  findUpload(organizationId: string, id: string): Promise<UploadRow | undefined> {
    return this.read(async () => (await this.query<UploadRow>(
      `SELECT ${COLUMNS} FROM uploads WHERE id = ? AND organization_id = ?`, [id, organizationId])).rows[0]);
  }

  waitingUpload(id: string): Promise<UploadRow | undefined> {
    return this.read(async () => (await this.query<UploadRow>(
      `SELECT ${COLUMNS} FROM uploads WHERE id = ? AND status = 'uploaded'`, [id])).rows[0]);
  }

  waitingUploads(): Promise<UploadRow[]> {
    return this.read(async () => (await this.query<UploadRow>(
      `SELECT ${COLUMNS} FROM uploads WHERE status = 'uploaded' ORDER BY created_at, id`)).rows);
  }

  waitingPaths(): Promise<Set<string>> {
    return this.read(async () => new Set((await this.query<{ stored_path: string }>(
      "SELECT stored_path FROM uploads WHERE status = 'uploaded' AND stored_path IS NOT NULL")).rows.map((row) => row.stored_path)));
  }

  recordExtraction(id: string, outcome: ExtractionOutcome): Promise<boolean> {
    const measures = [outcome.char_count, outcome.page_count, outcome.pages_without_text_layer];
    return this.read(async () => (outcome.status === 'ready'
      ? await this.query(`UPDATE uploads SET status = 'ready', text = ?, char_count = ?, page_count = ?, pages_without_text_layer = ?,
          quoted_credits = ?, stored_path = NULL WHERE id = ? AND status = 'uploaded'`,
      [outcome.text, ...measures, checkPrice(outcome.char_count!), id])
      : await this.query(`UPDATE uploads SET status = 'failed', error_code = ?, char_count = ?, page_count = ?, pages_without_text_layer = ?,
          stored_path = NULL WHERE id = ? AND status = 'uploaded'`,
      [outcome.error_code, ...measures, id])).rowCount > 0);
  }

  async expireDue(now: Date, id?: string): Promise<number> {
    const filter = id === undefined ? '' : 'AND id = ?';
    const params = id === undefined ? [now.toISOString()] : [now.toISOString(), id];
    const { rows } = await this.read(() => this.query<{ stored_path: string | null }>(
      `UPDATE uploads u SET status = 'expired', text = NULL, stored_path = NULL
       FROM (SELECT id, stored_path FROM uploads WHERE status <> 'expired' AND expires_at <= ? ${filter} FOR UPDATE) due
       WHERE u.id = due.id RETURNING due.stored_path`, params));
    // Files are deleted only after the row that named them no longer does (another node's files are not here).
    await Promise.all(rows.map((row) => row.stored_path && rm(row.stored_path, { force: true })));
    return rows.length;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function alreadyPaid(query: Query, organizationId: string, operation: string, resultKey: string, now: Date): Promise<boolean> {
  return (await query('SELECT 1 FROM paid_results WHERE organization_id = ? AND month = ? AND operation = ? AND result_key = ?',
    [organizationId, utcMonth(now), operation, resultKey])).rowCount > 0;
}

async function ledgerSums(query: Query, organizationId: string, now: Date): Promise<LedgerSums> {
  const { rows } = await query<{ month: string; monthly: number; allotted: number; bonus: number }>(
    "SELECT month, monthly, allotted, bonus FROM ledger_sums WHERE organization_id = ? AND month IN (?, '')",
    [organizationId, utcMonth(now)]);
  const monthRow = rows.find((row) => row.month !== '');
  return { monthly: monthRow?.monthly ?? 0, allotted: monthRow?.allotted ?? 0, bonus: rows.find((row) => row.month === '')?.bonus ?? 0 };
}

async function volumeUsed(query: Query, organizationId: string, unit: VolumeUnit, now: Date): Promise<number> {
  return (await query<{ amount: number }>('SELECT amount FROM daily_counters WHERE organization_id = ? AND day = ? AND unit = ?',
    [organizationId, berlinDay(now), unit])).rows[0]?.amount ?? 0;
}

async function applyWrite(query: Query, write: StateWrite, now: Date): Promise<void> {
  switch (write.kind) {
    case 'save_run': {
      const { run } = write;
      await query('INSERT INTO runs (id, organization_id, source, created_at, body) VALUES (?, ?, ?, ?, ?)',
        [run.id, write.organizationId, run.source, run.created_at, JSON.stringify(run)]);
      return;
    }
    case 'consume_upload':
      return consumed((await query(CONSUME, [write.id])).rowCount);
    case 'insert_upload': {
      const { row, quota } = write;
      const { rows: [held] } = await query<{ n: number; next: string | null }>(
        `SELECT count(*) AS n, min(expires_at) AS next FROM uploads WHERE organization_id = ? AND ${HOLDS_QUOTA} AND expires_at > ?`,
        [row.organization_id, now.toISOString()]);
      assertQuotaLeft(held, quota);
      const columns = COLUMNS.split(', ');
      await query(`INSERT INTO uploads (${COLUMNS}) VALUES (${columns.map(() => '?').join(', ')})`,
        columns.map((column) => row[column as keyof UploadRow]));
    }
  }
}

/**
 * Whether an error means PostgreSQL could not be reached (no connection, connection lost, server shutting down or
 * starting), rather than that it refused the statement.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof ApiError) return false;
  const code = (error as { code?: string }).code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/u.test(code) || code.startsWith('08') || code.startsWith('57P');
}

/** An ApiError passes; anything else means the state could not be reached or refused the work: 503, logged. */
export function unreachable(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  console.error('juralite: the PostgreSQL state failed:', (error as Error).message);
  return backendUnavailable('The service cannot reach its state database; retry in a few seconds.');
}
