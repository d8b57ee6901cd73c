/**
 * The reliability suites once per state engine: SQLite (a file in the test's temp directory) and PostgreSQL (one
 * throwaway server per test file, test/helpers/postgres.ts, and a fresh database per suite). Organizations, tokens,
 * balances and queries of the state go through the engine-neutral StateAdmin and StateStore, so a suite's body is the
 * same for both. Without PostgreSQL binaries the PostgreSQL suites skip, saying why.
 *
 * @example for (const engine of ENGINES) describe(engine.name, { skip: engine.skip }, () => { ... startOn(engine) ... });
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { after } from 'node:test';
import { startApi, type Api } from '../../helpers/api.ts';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../../helpers/postgres.ts';
import { loadConfig } from '../../../src/config.ts';
import { ABILITIES, type Ability } from '../../../src/accounts/tokens.ts';
import type { Organization } from '../../../src/accounts/organizations.ts';
import type { Plan } from '../../../src/accounts/plans.ts';
import { stateAdmin, type StateAdmin } from '../../../src/state/admin.ts';
import { openStateStore } from '../../../src/state/open.ts';
import type { PostgresStore } from '../../../src/state/postgres-store.ts';
import type { SqliteStore } from '../../../src/state/sqlite-store.ts';

export interface Engine { name: 'sqlite' | 'postgres'; skip: string | false }

/** Both engines; the PostgreSQL one skips (with the reason) where its binaries are absent. */
export const ENGINES: readonly Engine[] = [{ name: 'sqlite', skip: false }, { name: 'postgres', skip: POSTGRES_MISSING }];

/** An organization made through the engine's StateAdmin; money read and moved through its StateStore. */
export interface EngineOrg {
  id: string;
  organization: Organization;
  token(abilities?: Ability[], days?: number): Promise<string>;
  balance(): Promise<number>;
  grant(amount: number): Promise<void>;
  /** Spends the whole balance outside the API (one charge through the store), for 402 tests. */
  spendAll(): Promise<void>;
}

export interface EngineApi extends Omit<Api, 'org'> {
  engine: Engine['name'];
  admin: StateAdmin;
  /** The state's URL (PostgreSQL) or file (SQLite), as `--state` takes it. */
  stateLocation: string;
  org(options?: { plan?: Plan }): Promise<EngineOrg>;
  /** Rows of a query on the state (`?` placeholders; plain SQL both engines read alike). */
  rows<Row = any>(text: string, params?: unknown[]): Promise<Row[]>;
}

type ApiOptions = NonNullable<Parameters<typeof startApi>[0]>;

let postgres: Promise<TestPostgres> | undefined;
// Registered when a test file imports this (on the file's root): the server stops after the file's last test.
after(async () => (await postgres)?.close());

/** A server of the file's own, started at its first PostgreSQL suite. */
function testPostgres(): Promise<TestPostgres> {
  postgres ??= startPostgres();
  return postgres;
}

/** startApi on the engine's state: a new SQLite file, or a new database on the file's PostgreSQL. */
export async function startOn(engine: Engine, options: ApiOptions = {}): Promise<EngineApi> {
  let state: ApiOptions['state'];
  let uploadsDir: string | undefined;
  let stateLocation = '';
  if (engine.name === 'postgres') {
    stateLocation = await (await testPostgres()).newDatabase();
    state = await openStateStore(stateLocation);
    // Beside no state file: the uploads wait in a directory of this suite's (as serve puts them in its data directory).
    uploadsDir = mkdtempSync(join(tmpdir(), 'juralite-pg-uploads-'));
    const config = { ...loadConfig({}), ...options.config };
    options = { ...options, config: { ...options.config, uploads: { ...config.uploads, dir: uploadsDir } } };
  }
  const api = await startApi({ ...options, state });
  const { store } = api.services;
  if (!stateLocation) stateLocation = (store as SqliteStore).filePath;
  const admin = stateAdmin(store);
  const rows = engine.name === 'postgres'
    ? async (text: string, params: unknown[] = []) => (await (store as PostgresStore).query(text, params)).rows
    : async (text: string, params: unknown[] = []) => api.services.state.prepare(text).all(...params);
  return {
    ...api,
    engine: engine.name,
    admin,
    stateLocation,
    rows: rows as EngineApi['rows'],
    org: async ({ plan = 'free' } = {}) => {
      const { organization } = await admin.createOrganization({ name: 'Test org', plan }, api.now());
      const balance = async () => (await store.balanceOf(organization, api.services.config.plans, api.services.clock())).total;
      return {
        id: organization.id,
        organization,
        token: async (abilities = [...ABILITIES], days) =>
          (await admin.createToken({ organizationId: organization.id, abilities, days }, api.services.clock())).token,
        balance,
        grant: (amount) => admin.grantCredits(organization.id, amount, 'test', api.now()),
        spendAll: async () => {
          await store.commitCall({ organization, terms: api.services.config.plans, writes: [],
            charge: { operation: 'test', resultKey: `spend-all-${randomUUID()}`, cost: await balance() } }, api.services.clock());
        },
      };
    },
    close: async () => {
      await api.close();
      if (uploadsDir) rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
