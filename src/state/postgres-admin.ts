// Accounts on the PostgreSQL state (StateAdmin, src/state/admin.ts): the rules and statements of the SQLite functions
// (src/accounts/organizations.ts, tokens.ts, ledger.ts), asynchronous.
import { randomUUID } from 'node:crypto';
import { GRANT_INSERT, grantRow } from '../accounts/ledger.ts';
import {
  ACCOUNT_SQL, starterCreditsRow, toOrganization, toUser, type OrganizationRow, type UserRow,
} from '../accounts/organizations.ts';
import { mintToken, TOKEN_INSERT, TOKEN_SQL, toRecord, type Ability, type TokenRow } from '../accounts/tokens.ts';
import type { OrganizationInput, StateAdmin, TokenInput } from './admin.ts';
import type { PostgresStore, Query } from './postgres-store.ts';

/**
 * The administration of a PostgreSQL state. Writes that belong together (an organization, its user and its starter
 * credits) are one transaction.
 *
 * @example await new PostgresAdmin(store).grantCredits(organizationId, 100, 'Kulanz', new Date());
 */
export class PostgresAdmin implements StateAdmin {
  private readonly store: PostgresStore;

  constructor(store: PostgresStore) {
    this.store = store;
  }

  async getOrganization(id: string, query: Query = this.store.query) {
    const { rows: [row] } = await query<OrganizationRow>(ACCOUNT_SQL.organization, [id]);
    return row && toOrganization(row);
  }

  async listOrganizations() {
    return (await this.store.query<OrganizationRow>(ACCOUNT_SQL.organizations)).rows.map(toOrganization);
  }

  createOrganization(input: OrganizationInput, now: Date) {
    return this.store.transaction(async (query) => {
      const id = randomUUID();
      await query(ACCOUNT_SQL.insertOrganization, [id, input.name, input.plan ?? 'free', input.requireTwoFactor ? 1 : 0, now.toISOString()]);
      const user = await this.insertUser(query, { organizationId: id, name: input.userName ?? 'owner', email: input.email }, now);
      return { organization: (await this.getOrganization(id, query))!, user: await this.verify(query, user.id, now) };
    }, { raw: true });
  }

  async listUsers(organizationId: string, query: Query = this.store.query) {
    return (await query<UserRow>(ACCOUNT_SQL.users, [organizationId])).rows.map(toUser);
  }

  createUser(input: { organizationId: string; name: string; email?: string }, now: Date) {
    return this.insertUser(this.store.query, input, now);
  }

  verifyUser(userId: string, now: Date) {
    return this.store.transaction((query) => this.verify(query, userId, now), { raw: true });
  }

  async setTwoFactor(userId: string, enabled: boolean) {
    if ((await this.store.query(ACCOUNT_SQL.twoFactor, [enabled ? 1 : 0, userId])).rowCount === 0) throw new Error(`No user ${userId}.`);
    return (await this.user(this.store.query, userId))!;
  }

  async createToken(input: TokenInput, now: Date) {
    const { query } = this.store;
    const organization = await this.getOrganization(input.organizationId);
    if (!organization) throw new Error(`No organization ${input.organizationId}.`);
    const userId = input.userId ?? (await this.listUsers(organization.id))[0]?.id;
    const user = userId ? await this.user(query, userId) : undefined;
    if (!user || user.organization_id !== organization.id) {
      throw new Error(`No user ${userId ?? '(none)'} in organization ${organization.id}.`);
    }
    const minted = mintToken({ ...input, organizationId: organization.id, userId: user.id }, now);
    await query(TOKEN_INSERT, minted.row);
    const { rows: [row] } = await query<TokenRow>(TOKEN_SQL.byId, [minted.id]);
    return { token: minted.token, record: toRecord(row) };
  }

  async listTokens(organizationId?: string) {
    const { rows } = organizationId === undefined
      ? await this.store.query<TokenRow>(TOKEN_SQL.all)
      : await this.store.query<TokenRow>(TOKEN_SQL.of, [organizationId]);
    return rows.map(toRecord);
  }

  async revokeToken(id: string, now: Date) {
    return (await this.store.query(TOKEN_SQL.revoke, [now.toISOString(), id])).rowCount === 1;
  }

  async grantCredits(organizationId: string, amount: number, note: string, now: Date) {
    await this.store.query(GRANT_INSERT, grantRow(organizationId, amount, note, now));
  }

  private async user(query: Query, id: string) {
    const { rows: [row] } = await query<UserRow>(ACCOUNT_SQL.user, [id]);
    return row && toUser(row);
  }

  private async insertUser(query: Query, input: { organizationId: string; name: string; email?: string }, now: Date) {
    if (!await this.getOrganization(input.organizationId, query)) throw new Error(`No organization ${input.organizationId}.`);
    const id = randomUUID();
    await query(ACCOUNT_SQL.insertUser, [id, input.organizationId, input.name, input.email ?? null, now.toISOString()]);
    return (await this.user(query, id))!;
  }

  /** Verifies under the user's row lock, so that two verifications at once give the starter credits once. */
  private async verify(query: Query, userId: string, now: Date) {
    const { rows: [row] } = await query<UserRow>('SELECT * FROM users WHERE id = ? FOR UPDATE', [userId]);
    if (!row) throw new Error(`No user ${userId}.`);
    if (row.verified_at !== null) return toUser(row);
    await query(ACCOUNT_SQL.verifyUser, [now.toISOString(), userId]);
    await query(ACCOUNT_SQL.starterCredits, starterCreditsRow(row.organization_id, userId, now));
    return (await this.user(query, userId))!;
  }
}

/** The first start's local organization (src/cli/serve.ts): its id. */
export async function createOrganizationPg(
  store: PostgresStore, input: OrganizationInput, now: Date,
): Promise<{ organizationId: string; userId: string }> {
  const { organization, user } = await new PostgresAdmin(store).createOrganization(input, now);
  return { organizationId: organization.id, userId: user.id };
}

/** A token of the organization's first user; the plain token. */
export async function createTokenPg(
  store: PostgresStore, input: { organizationId: string; abilities: Ability[]; days?: number; name?: string }, now: Date,
): Promise<string> {
  return (await new PostgresAdmin(store).createToken(input, now)).token;
}

/** Adds bonus credits (an operator's grant). */
export function grantCreditsPg(store: PostgresStore, organizationId: string, amount: number, note: string, now: Date): Promise<void> {
  return new PostgresAdmin(store).grantCredits(organizationId, amount, note, now);
}
