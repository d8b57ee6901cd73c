import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { sql } from '../db/statements.ts';
import { ApiError, unauthenticated } from '../errors.ts';
import type { StateDb } from './state-db.ts';
import { type Organization, type User, getOrganization, getUser, listUsers } from './organizations.ts';

export const ABILITIES = ['search', 'read', 'graph', 'datapackage', 'citation-check'] as const;
export type Ability = (typeof ABILITIES)[number];

export const MAX_TOKEN_DAYS = 365;

/** A token as shown to its owner once: `jl_<16 hex id>_<43 base64url secret>`. */
const TOKEN_PATTERN = /^jl_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface TokenRecord {
  id: string;
  organization_id: string | null;
  user_id: string | null;
  abilities: Ability[];
  name: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface TokenRow extends Omit<TokenRecord, 'abilities'> { abilities: string; secret_sha256: Buffer }

// One-shot (no Hash object per call): every metered call hashes its token's secret.
const sha256 = (text: string) => hash('sha256', text, 'buffer');

/** A stored token as its owner sees it: without the hash, its abilities a list (a row may carry more columns). */
export function toRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id, organization_id: row.organization_id, user_id: row.user_id, name: row.name, created_at: row.created_at,
    expires_at: row.expires_at, revoked_at: row.revoked_at, abilities: row.abilities.split(',').filter(Boolean) as Ability[],
  };
}

/** Parses a comma-separated list; `all` (in any case, also among others) is every ability. Throws on an unknown one. */
export function parseAbilities(list: string): Ability[] {
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.some((name) => name.toLowerCase() === 'all')) return [...ABILITIES];
  const unknown = names.filter((name) => !(ABILITIES as readonly string[]).includes(name));
  if (unknown.length || names.length === 0) {
    throw new Error(`Unknown abilities: ${unknown.join(', ') || '(none given)'}; choose from ${ABILITIES.join(', ')} or all.`);
  }
  return [...new Set(names)] as Ability[];
}

/**
 * Creates a token acting for an organization, as its user (default: the organization's first user). The plain token
 * is returned once and never stored: the database keeps only the SHA-256 of its secret.
 *
 * @example const { token } = createToken(db, { organizationId, abilities: ['read'] }, new Date());
 */
export function createToken(
  db: StateDb,
  input: { organizationId: string; userId?: string; abilities: Ability[]; days?: number; name?: string },
  now: Date,
): { token: string; record: TokenRecord } {
  const organization = getOrganization(db, input.organizationId);
  if (!organization) throw new Error(`No organization ${input.organizationId}.`);
  const userId = input.userId ?? listUsers(db, organization.id)[0]?.id;
  const user = userId ? getUser(db, userId) : undefined;
  if (!user || user.organization_id !== organization.id) {
    throw new Error(`No user ${userId ?? '(none)'} in organization ${organization.id}.`);
  }
  const minted = mintToken({ ...input, organizationId: organization.id, userId: user.id }, now);
  sql(db, TOKEN_INSERT).run(...minted.row);
  return { token: minted.token, record: getToken(db, minted.id)! };
}

/** The statement that stores a minted token (parameters: `mintToken(...).row`). */
export const TOKEN_INSERT = `INSERT INTO tokens (id, organization_id, user_id, secret_sha256, abilities, name, created_at, expires_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

/** A new token of a checked organization and user: the plain token (shown once) and the row that stores its hash. */
export function mintToken(
  input: { organizationId: string; userId: string; abilities: Ability[]; days?: number; name?: string }, now: Date,
): { id: string; token: string; row: unknown[] } {
  const days = input.days ?? MAX_TOKEN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS) {
    throw new Error(`A token lives 1 to ${MAX_TOKEN_DAYS} days, not ${days}.`);
  }
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + days * 86_400_000).toISOString();
  return {
    id,
    token: `jl_${id}_${secret}`,
    row: [id, input.organizationId, input.userId, sha256(secret), input.abilities.join(','), input.name ?? null, now.toISOString(), expiresAt],
  };
}

/** The statements of tokens, shared by both state engines (PostgreSQL: src/state/postgres-admin.ts). */
export const TOKEN_SQL = {
  byId: 'SELECT * FROM tokens WHERE id = ?',
  all: 'SELECT * FROM tokens ORDER BY created_at, id',
  of: 'SELECT * FROM tokens WHERE organization_id = ? ORDER BY created_at, id',
  revoke: 'UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
} as const;

export function getToken(db: StateDb, id: string): TokenRecord | undefined {
  const row = sql<[string], TokenRow>(db, TOKEN_SQL.byId).get(id);
  return row && toRecord(row);
}

export function revokeToken(db: StateDb, id: string, now: Date): boolean {
  return sql(db, TOKEN_SQL.revoke).run(now.toISOString(), id).changes === 1;
}

export interface Caller {
  token: TokenRecord;
  organization: Organization;
  user: User | undefined;
}

/** A fixed hash to compare against when the token id is unknown, so that miss and mismatch cost the same. */
const DECOY_HASH = sha256(randomUUID());

/**
 * Turns an Authorization header into the caller: 401 for a missing, malformed, unknown, revoked or expired token or a
 * deleted organization; 409 for a token that predates organization binding.
 */
export function authenticate(db: StateDb, authorization: string | undefined | null, now: Date): Caller {
  const { id, secret } = bearerToken(authorization);
  const row = sql<[string], TokenRow>(db, TOKEN_SQL.byId).get(id);
  const { token, organizationId } = verifiedToken(row, secret, now);
  const organization = getOrganization(db, organizationId);
  if (!organization) throw unauthenticated();
  return { token, organization, user: token.user_id ? getUser(db, token.user_id) : undefined };
}

/** The id and secret of an Authorization header's bearer token; 401 when it is missing or malformed. */
export function bearerToken(authorization: string | undefined | null): { id: string; secret: string } {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const parts = match && TOKEN_PATTERN.exec(match[1]);
  if (!parts) throw unauthenticated();
  return { id: parts[1], secret: parts[2] };
}

/**
 * The token a stored row (or none) makes of `secret`, compared in constant time: 401 unless it matches and is neither
 * revoked nor expired, 409 when it names no organization.
 */
export function verifiedToken(
  row: (Omit<TokenRecord, 'abilities'> & { abilities: string; secret_sha256: Buffer }) | undefined, secret: string, now: Date,
): { token: TokenRecord; organizationId: string } {
  const matches = timingSafeEqual(sha256(secret), row?.secret_sha256 ?? DECOY_HASH);
  if (!row || !matches) throw unauthenticated();
  if (row.revoked_at) throw unauthenticated('This token has been revoked.');
  if (row.expires_at <= now.toISOString()) throw unauthenticated('This token has expired.');
  if (row.organization_id === null) {
    throw new ApiError('token_org_missing',
      'This token was created before tokens named an organization; create a new token.');
  }
  return { token: toRecord(row), organizationId: row.organization_id };
}

/** Every token, or an organization's, oldest first, without their hashes (`juralite token list`). */
export function listTokens(db: StateDb, organizationId?: string): TokenRecord[] {
  const rows = organizationId === undefined
    ? sql<[], TokenRow>(db, TOKEN_SQL.all).all()
    : sql<[string], TokenRow>(db, TOKEN_SQL.of).all(organizationId);
  return rows.map(toRecord);
}
