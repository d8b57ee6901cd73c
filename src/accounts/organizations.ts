import { randomUUID } from 'node:crypto';
import { sql } from '../db/statements.ts';
import { type StateDb, inWriteTransaction } from './state-db.ts';
import { type Plan, STARTER_CREDITS } from './plans.ts';
import { utcMonth } from './time.ts';

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  require_two_factor: boolean;
  created_at: string;
}

export interface User {
  id: string;
  organization_id: string;
  name: string;
  email: string | null;
  verified: boolean;
  two_factor_enabled: boolean;
  created_at: string;
}

export interface OrganizationRow { id: string; name: string; plan: Plan; require_two_factor: number; created_at: string }
export interface UserRow {
  id: string; organization_id: string; name: string; email: string | null;
  verified_at: string | null; two_factor_enabled: number; created_at: string;
}

export const toOrganization = (row: OrganizationRow): Organization => ({ ...row, require_two_factor: row.require_two_factor === 1 });
export const toUser = ({ verified_at, two_factor_enabled, ...rest }: UserRow): User => ({
  ...rest,
  verified: verified_at !== null,
  two_factor_enabled: two_factor_enabled === 1,
});

/** The statements of the accounts, shared by both state engines (PostgreSQL: src/state/postgres-admin.ts). */
export const ACCOUNT_SQL = {
  organization: 'SELECT id, name, plan, require_two_factor, created_at FROM organizations WHERE id = ? AND deleted_at IS NULL',
  organizations: 'SELECT id, name, plan, require_two_factor, created_at FROM organizations WHERE deleted_at IS NULL ORDER BY created_at, id',
  insertOrganization: 'INSERT INTO organizations (id, name, plan, require_two_factor, created_at) VALUES (?, ?, ?, ?, ?)',
  user: 'SELECT * FROM users WHERE id = ?',
  users: 'SELECT * FROM users WHERE organization_id = ? ORDER BY created_at, id',
  insertUser: 'INSERT INTO users (id, organization_id, name, email, created_at) VALUES (?, ?, ?, ?, ?)',
  verifyUser: 'UPDATE users SET verified_at = ? WHERE id = ?',
  /** Parameters: organization, at, month, credits, note. */
  starterCredits: `INSERT INTO ledger (organization_id, at, month, kind, bonus_delta, note) VALUES (?, ?, ?, 'starter', ?, ?)`,
  twoFactor: 'UPDATE users SET two_factor_enabled = ? WHERE id = ?',
} as const;

/** The ledger row's parameters of the starter credits a user's first verification gives. */
export const starterCreditsRow = (organizationId: string, userId: string, now: Date) =>
  [organizationId, now.toISOString(), utcMonth(now), STARTER_CREDITS, `starter credits for user ${userId}`];

export function getOrganization(db: StateDb, id: string): Organization | undefined {
  const row = sql<[string], OrganizationRow>(db, ACCOUNT_SQL.organization).get(id);
  return row && toOrganization(row);
}

export function getUser(db: StateDb, id: string): User | undefined {
  const row = sql<[string], UserRow>(db, ACCOUNT_SQL.user).get(id);
  return row && toUser(row);
}

export function listUsers(db: StateDb, organizationId: string): User[] {
  return sql<[string], UserRow>(db, ACCOUNT_SQL.users).all(organizationId).map(toUser);
}

/**
 * Creates an organization with its first user, verified (so the organization receives the starter credits).
 *
 * @example createOrganization(db, { name: 'Kanzlei Muster', plan: 'starter' }, new Date())
 */
export function createOrganization(
  db: StateDb,
  input: { name: string; plan?: Plan; requireTwoFactor?: boolean; userName?: string; email?: string },
  now: Date,
): { organization: Organization; user: User } {
  return inWriteTransaction(db, () => {
    const id = randomUUID();
    sql(db, ACCOUNT_SQL.insertOrganization).run(id, input.name, input.plan ?? 'free', input.requireTwoFactor ? 1 : 0, now.toISOString());
    const user = createUser(db, { organizationId: id, name: input.userName ?? 'owner', email: input.email }, now);
    verifyUser(db, user.id, now);
    return { organization: getOrganization(db, id)!, user: getUser(db, user.id)! };
  });
}

/** Soft-deletes an organization: its tokens are refused from then on (401). */
export function deleteOrganization(db: StateDb, id: string, now: Date): boolean {
  return sql(db, 'UPDATE organizations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL')
    .run(now.toISOString(), id).changes === 1;
}

export function createUser(
  db: StateDb,
  input: { organizationId: string; name: string; email?: string },
  now: Date,
): User {
  if (!getOrganization(db, input.organizationId)) throw new Error(`No organization ${input.organizationId}.`);
  const id = randomUUID();
  sql(db, ACCOUNT_SQL.insertUser).run(id, input.organizationId, input.name, input.email ?? null, now.toISOString());
  return getUser(db, id)!;
}

/** Verifies a user; the first verification grants the organization the starter credits, once. */
export function verifyUser(db: StateDb, userId: string, now: Date): User {
  return inWriteTransaction(db, () => {
    const user = getUser(db, userId);
    if (!user) throw new Error(`No user ${userId}.`);
    if (user.verified) return user;
    sql(db, ACCOUNT_SQL.verifyUser).run(now.toISOString(), userId);
    sql(db, ACCOUNT_SQL.starterCredits).run(...starterCreditsRow(user.organization_id, userId, now));
    return getUser(db, userId)!;
  });
}

export function setTwoFactor(db: StateDb, userId: string, enabled: boolean): User {
  const changed = sql(db, ACCOUNT_SQL.twoFactor).run(enabled ? 1 : 0, userId).changes;
  if (changed === 0) throw new Error(`No user ${userId}.`);
  return getUser(db, userId)!;
}

/** Every organization not deleted, oldest first (`juralite org list`). */
export function listOrganizations(db: StateDb): Organization[] {
  return sql<[], OrganizationRow>(db, ACCOUNT_SQL.organizations).all().map(toOrganization);
}
