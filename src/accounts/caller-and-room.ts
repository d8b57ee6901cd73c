import { sql } from '../db/statements.ts';
import { unauthenticated } from '../errors.ts';
import type { CallerAndRoom } from '../state/store.ts';
import { balanceFrom } from './ledger.ts';
import type { VolumeUnit } from './limits.ts';
import { toOrganization, toUser } from './organizations.ts';
import type { Plan, PlanTerms } from './plans.ts';
import { berlinDay, utcMonth } from './time.ts';
import { bearerToken, verifiedToken, type TokenRow } from './tokens.ts';
import type { StateDb } from './state-db.ts';

/** A token's row and, prefixed, what the statement joins to it (NULL where the organization or user is missing). */
interface CallerAndRoomRow extends TokenRow {
  organization_name: string | null;
  organization_plan: Plan | null;
  organization_require_two_factor: number | null;
  organization_created_at: string | null;
  user_id_found: string | null;
  user_organization_id: string | null;
  user_name: string | null;
  user_email: string | null;
  user_verified_at: string | null;
  user_two_factor_enabled: number | null;
  user_created_at: string | null;
  monthly: number | null;
  allotted: number | null;
  bonus: number | null;
  used: number | null;
}

/**
 * The token's row with its organization and user, the organization's ledger sums (this month's and the bonus
 * pool's) and what it served today of one unit: one statement, so one snapshot of the file without a transaction
 * around six lookups (BEGIN, six statements and COMMIT took a quarter more; bench/README, Session 22). `+@id`: a
 * parameter compared to an indexed column of a join makes SQLite compile the statement anew on every call (the
 * statement took 5x the time); the unary plus keeps the plan (the token's primary key) and spares that.
 */
const CALLER_AND_ROOM = `SELECT t.id, t.organization_id, t.user_id, t.secret_sha256, t.abilities, t.name, t.created_at, t.expires_at, t.revoked_at,
    o.name AS organization_name, o.plan AS organization_plan, o.require_two_factor AS organization_require_two_factor,
    o.created_at AS organization_created_at,
    u.id AS user_id_found, u.organization_id AS user_organization_id, u.name AS user_name, u.email AS user_email,
    u.verified_at AS user_verified_at, u.two_factor_enabled AS user_two_factor_enabled, u.created_at AS user_created_at,
    (SELECT monthly FROM ledger_sums WHERE organization_id = t.organization_id AND month = @month) AS monthly,
    (SELECT allotted FROM ledger_sums WHERE organization_id = t.organization_id AND month = @month) AS allotted,
    (SELECT bonus FROM ledger_sums WHERE organization_id = t.organization_id AND month = '') AS bonus,
    (SELECT amount FROM daily_counters WHERE organization_id = t.organization_id AND day = @day AND unit = @unit) AS used
  FROM tokens t
  LEFT JOIN organizations o ON o.id = t.organization_id AND o.deleted_at IS NULL
  LEFT JOIN users u ON u.id = t.user_id
  WHERE t.id = +@id`;

/**
 * The caller of an Authorization header (refused as `authenticate` refuses: 401, 409), the organization's balance and,
 * where a unit is asked for, what it served of it today: what a metered call reads before it runs, read at once.
 *
 * @example const { caller, balance } = callerAndRoomOf(db, 'Bearer jl_…', new Date(), DEFAULT_PLAN_TERMS, 'rows');
 */
export function callerAndRoomOf(db: StateDb, authorization: string | null | undefined, now: Date,
  terms: Record<Plan, PlanTerms>, unit: VolumeUnit | undefined): CallerAndRoom {
  const { id, secret } = bearerToken(authorization);
  const row = sql<[Record<string, string | null>], CallerAndRoomRow>(db, CALLER_AND_ROOM)
    .get({ id, month: utcMonth(now), day: berlinDay(now), unit: unit ?? null });
  const { token, organizationId } = verifiedToken(row, secret, now);
  if (!row || row.organization_name === null) throw unauthenticated();
  // The rows as their own lookups read them (src/accounts/organizations.ts), in their columns' order.
  const organization = toOrganization({ id: organizationId, name: row.organization_name, plan: row.organization_plan!,
    require_two_factor: row.organization_require_two_factor!, created_at: row.organization_created_at! });
  const user = row.user_id_found === null ? undefined : toUser({ id: row.user_id_found, organization_id: row.user_organization_id!,
    name: row.user_name!, email: row.user_email, verified_at: row.user_verified_at, two_factor_enabled: row.user_two_factor_enabled!,
    created_at: row.user_created_at! });
  return {
    caller: { token, organization, user },
    balance: balanceFrom({ monthly: row.monthly ?? 0, allotted: row.allotted ?? 0, bonus: row.bonus ?? 0 }, organization, terms),
    volumeUsed: unit && (row.used ?? 0),
  };
}
