// Accounts on the PostgreSQL state: what the first start (a local organization and token) and the tests need. The
// rules are the SQLite functions' (src/accounts/organizations.ts, tokens.ts, ledger.ts).
import { randomUUID } from 'node:crypto';
import { MAX_GRANT } from '../accounts/ledger.ts';
import { STARTER_CREDITS, type Plan } from '../accounts/plans.ts';
import { utcMonth } from '../accounts/time.ts';
import { mintToken, TOKEN_INSERT, type Ability } from '../accounts/tokens.ts';
import type { PostgresStore } from './postgres-store.ts';

/**
 * An organization with its first user, verified (the starter credits), in one transaction.
 *
 * @example const { organizationId } = await createOrganizationPg(store, { name: 'Kanzlei', plan: 'starter' }, new Date());
 */
export function createOrganizationPg(
  store: PostgresStore, input: { name: string; plan?: Plan; requireTwoFactor?: boolean }, now: Date,
): Promise<{ organizationId: string; userId: string }> {
  const organizationId = randomUUID();
  const userId = randomUUID();
  const at = now.toISOString();
  return store.transaction(async (query) => {
    await query('INSERT INTO organizations (id, name, plan, require_two_factor, created_at) VALUES (?, ?, ?, ?, ?)',
      [organizationId, input.name, input.plan ?? 'free', input.requireTwoFactor ? 1 : 0, at]);
    await query('INSERT INTO users (id, organization_id, name, created_at, verified_at) VALUES (?, ?, ?, ?, ?)',
      [userId, organizationId, 'owner', at, at]);
    await query(`INSERT INTO ledger (organization_id, at, month, kind, bonus_delta, note) VALUES (?, ?, ?, 'starter', ?, ?)`,
      [organizationId, at, utcMonth(now), STARTER_CREDITS, `starter credits for user ${userId}`]);
    return { organizationId, userId };
  });
}

/** A token for the organization's first user; the plain token is returned once. */
export async function createTokenPg(
  store: PostgresStore, input: { organizationId: string; abilities: Ability[]; days?: number; name?: string }, now: Date,
): Promise<string> {
  const { rows: [user] } = await store.query<{ id: string }>(
    'SELECT id FROM users WHERE organization_id = ? ORDER BY created_at, id LIMIT 1', [input.organizationId]);
  if (!user) throw new Error(`No organization ${input.organizationId} with a user.`);
  const minted = mintToken({ ...input, userId: user.id }, now);
  await store.query(TOKEN_INSERT, minted.row);
  return minted.token;
}

/** Adds bonus credits (an operator's grant). */
export async function grantCreditsPg(store: PostgresStore, organizationId: string, amount: number, note: string, now: Date): Promise<void> {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_GRANT) {
    throw new Error(`A grant is a positive whole number up to ${MAX_GRANT}, not ${amount}.`);
  }
  await store.query(`INSERT INTO ledger (organization_id, at, month, kind, bonus_delta, note) VALUES (?, ?, ?, 'grant', ?, ?)`,
    [organizationId, now.toISOString(), utcMonth(now), amount, note]);
}
