/**
 * A real juralite server on 127.0.0.1 over real SQLite files in a temp directory, with helpers to create
 * organizations and tokens and to call the API. Each `startApi()` gets its own files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { openServices, closeServices, listen } from '../../src/server.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createOrganization, setTwoFactor } from '../../src/accounts/organizations.ts';
import { ABILITIES, createToken, type Ability } from '../../src/accounts/tokens.ts';
import { randomUUID } from 'node:crypto';
import { balanceOf, chargeInTransaction } from '../../src/accounts/ledger.ts';
import { inWriteTransaction } from '../../src/accounts/state-db.ts';
import type { Plan } from '../../src/accounts/plans.ts';
import type { Operation, Services } from '../../src/operations/operation.ts';
import { buildSmallCorpus } from './small-corpus.ts';
import { demoCorpus } from './demo-corpus.ts';
import type { Observability } from '../../src/observability/observability.ts';
import type { RateLimiter, StateStore } from '../../src/state/store.ts';

export interface Api {
  url: string;
  services: Services;
  dir: string;
  /** Moves the server's clock. */
  setNow(date: Date): void;
  now(): Date;
  org(options?: { plan?: Plan; requireTwoFactor?: boolean; twoFactorEnabled?: boolean }): TestOrg;
  call(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Reply>;
  close(): Promise<void>;
}

export interface TestOrg {
  id: string;
  userId: string;
  token(abilities?: Ability[], days?: number): string;
  balance(): number;
  /** Spends the whole balance outside the API (a charge straight into the ledger), for 402 tests. */
  spendAll(): void;
}

export interface Reply {
  status: number;
  /** The reason phrase of the status line ("OK", "Not Found"). */
  statusText?: string;
  headers: Headers;
  body: any;
  /** The body's length in bytes as received. */
  bytes?: number;
}

export async function startApi(options: {
  /** 'small' (default): a handful of decisions; 'demo': the fixtures/ corpus (shared, read-only); or a path. */
  corpus?: 'small' | 'demo' | 'none' | string;
  config?: Partial<Config>;
  operations?: readonly Operation[];
  /** The access log and metrics (default: none), made for the server's services. */
  observability?: (services: Services) => Observability;
  /** Another state than a SQLite file in the temp directory (PostgreSQL: test/reliability/helpers/engines.ts). */
  state?: { store: StateStore; rates?: RateLimiter };
} = {}): Promise<Api> {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-test-'));
  const corpusPath = options.corpus === 'demo' ? await demoCorpus()
    : options.corpus && !['small', 'none'].includes(options.corpus) ? options.corpus : join(dir, 'corpus.db');
  if ((options.corpus ?? 'small') === 'small') buildSmallCorpus(corpusPath);
  let now = new Date();
  const services = openServices({
    corpusPath,
    statePath: join(dir, 'state.db'),
    ...options.state,
    config: { ...loadConfig({}), ...options.config },
    clock: () => now,
  });
  const { server, url } = await listen(services, '127.0.0.1', 0, options.operations, options.observability?.(services));
  return {
    url,
    services,
    dir,
    setNow: (date) => { now = date; },
    now: () => now,
    org: (orgOptions = {}) => createTestOrg(services, orgOptions, now),
    call: (method, path, callOptions = {}) => call(url, method, path, callOptions),
    close: () => closeServer(server, services, dir),
  };
}

function createTestOrg(services: Services, options: { plan?: Plan; requireTwoFactor?: boolean; twoFactorEnabled?: boolean }, now: Date): TestOrg {
  const { organization, user } = createOrganization(services.state,
    { name: 'Test org', plan: options.plan ?? 'free', requireTwoFactor: options.requireTwoFactor }, now);
  if (options.twoFactorEnabled) setTwoFactor(services.state, user.id, true);
  return {
    id: organization.id,
    userId: user.id,
    token: (abilities = [...ABILITIES], days) =>
      createToken(services.state, { organizationId: organization.id, abilities, days }, services.clock()).token,
    balance: () => balanceOf(services.state, organization, services.config.plans, services.clock()).total,
    spendAll: () => inWriteTransaction(services.state, () => chargeInTransaction(services.state, organization,
      services.config.plans, { operation: 'test', resultKey: `spend-all-${randomUUID()}`,
        cost: balanceOf(services.state, organization, services.config.plans, services.clock()).total }, services.clock())),
  };
}

async function call(url: string, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* not JSON: keep the text */ }
  return { status: response.status, statusText: response.statusText, headers: response.headers, body: parsed, bytes: Buffer.byteLength(text) };
}

async function closeServer(server: Server, services: Services, dir: string): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  closeServices(services);
  rmSync(dir, { recursive: true, force: true });
}
