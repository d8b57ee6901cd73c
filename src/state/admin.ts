// The administration of accounts (organizations, users, tokens, grants) on either state engine: what the `org`,
// `user`, `token` and `credits` commands and the tests use. The rules are the SQLite functions' in src/accounts/;
// PostgreSQL holds the same ones in src/state/postgres-admin.ts.
import { grantCredits } from '../accounts/ledger.ts';
import {
  createOrganization, createUser, getOrganization, listOrganizations, listUsers, setTwoFactor, verifyUser,
  type Organization, type User,
} from '../accounts/organizations.ts';
import type { Plan } from '../accounts/plans.ts';
import { createToken, listTokens, revokeToken, type Ability, type TokenRecord } from '../accounts/tokens.ts';
import { PostgresAdmin } from './postgres-admin.ts';
import type { PostgresStore } from './postgres-store.ts';
import type { SqliteStore } from './sqlite-store.ts';
import type { StateStore } from './store.ts';

export interface OrganizationInput { name: string; plan?: Plan; requireTwoFactor?: boolean; userName?: string; email?: string }
export interface TokenInput { organizationId: string; userId?: string; abilities: Ability[]; days?: number; name?: string }

/** Accounts on a state, asynchronous so that either engine serves it; errors are plain (the CLI prints them). */
export interface StateAdmin {
  getOrganization(id: string): Promise<Organization | undefined>;
  listOrganizations(): Promise<Organization[]>;
  /** An organization with its first user, verified (the starter credits), in one transaction. */
  createOrganization(input: OrganizationInput, now: Date): Promise<{ organization: Organization; user: User }>;
  listUsers(organizationId: string): Promise<User[]>;
  createUser(input: { organizationId: string; name: string; email?: string }, now: Date): Promise<User>;
  /** The first verification of a user gives the organization the starter credits, once. */
  verifyUser(userId: string, now: Date): Promise<User>;
  setTwoFactor(userId: string, enabled: boolean): Promise<User>;
  /** The plain token is returned once; the state keeps its hash. */
  createToken(input: TokenInput, now: Date): Promise<{ token: string; record: TokenRecord }>;
  listTokens(organizationId?: string): Promise<TokenRecord[]>;
  revokeToken(id: string, now: Date): Promise<boolean>;
  grantCredits(organizationId: string, amount: number, note: string, now: Date): Promise<void>;
}

/**
 * The administration of the state `store` holds.
 *
 * @example const { organization } = await stateAdmin(store).createOrganization({ name: 'Kanzlei' }, new Date());
 */
export function stateAdmin(store: StateStore): StateAdmin {
  if (store.kind === 'postgres') return new PostgresAdmin(store as PostgresStore);
  const { db } = store as SqliteStore;
  return {
    getOrganization: async (id) => getOrganization(db, id),
    listOrganizations: async () => listOrganizations(db),
    createOrganization: async (input, now) => createOrganization(db, input, now),
    listUsers: async (organizationId) => listUsers(db, organizationId),
    createUser: async (input, now) => createUser(db, input, now),
    verifyUser: async (userId, now) => verifyUser(db, userId, now),
    setTwoFactor: async (userId, enabled) => setTwoFactor(db, userId, enabled),
    createToken: async (input, now) => createToken(db, input, now),
    listTokens: async (organizationId) => listTokens(db, organizationId),
    revokeToken: async (id, now) => revokeToken(db, id, now),
    grantCredits: async (...args) => grantCredits(db, ...args),
  };
}
