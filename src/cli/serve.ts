import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { join } from 'node:path';
import { describeSummary, importCommand } from './import.ts';
import { corpusNeedsUpgrade, upgradeCorpus } from '../corpus/open.ts';
import { openServices, listen, closeServices, reopenOnHangup } from '../server.ts';
import { loadConfig } from '../config.ts';
import { createOrganization } from '../accounts/organizations.ts';
import { ABILITIES, createToken } from '../accounts/tokens.ts';
import type { StateDb } from '../accounts/state-db.ts';
import { openStateStore } from '../state/open.ts';
import { isPostgresUrl, redactedUrl } from '../state/location.ts';
import type { PostgresStore } from '../state/postgres-store.ts';
import { UsageError, type Flags } from './flags.ts';
import { requireDatabaseOrNothing, requireNoFileAt } from './files.ts';
import { createObservability, observabilitySettings } from '../observability/observability.ts';
import { listenMetrics } from '../observability/metrics-server.ts';
import { withDemoFixtures } from '../runtime/demo-fixtures.ts';

/**
 * On the first start against an empty state database: a local organization and an all-abilities token, stored in
 * DATA/token.txt (mode 0600) and printed once when stdout is a terminal (only the file's path otherwise).
 */
function bootstrapLocalAccount(state: StateDb, dataDir: string): void {
  const tokenFile = join(dataDir, 'token.txt');
  const hasOrganization = state.prepare('SELECT 1 FROM organizations LIMIT 1').get() !== undefined;
  if (hasOrganization) {
    if (existsSync(tokenFile)) console.log(`juralite: the local token is in ${tokenFile}`);
    return;
  }
  const now = new Date();
  const { organization } = createOrganization(state, { name: 'Local organization', plan: 'enterprise' }, now);
  const { token } = createToken(state, { organizationId: organization.id, abilities: [...ABILITIES], name: 'local' }, now);
  writeTokenFile(token, dataDir);
}

/**
 * On the first start against an empty PostgreSQL state: the same local organization and token, made once however
 * many nodes start together (an advisory lock orders them). The token file is on the node that made it.
 */
async function bootstrapSharedAccount(store: PostgresStore, dataDir: string): Promise<void> {
  const { createOrganizationPg, createTokenPg } = await import('../state/postgres-admin.ts');
  const client = await store.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727352)');
    if ((await store.query('SELECT 1 FROM organizations LIMIT 1')).rowCount > 0) return;
    const now = new Date();
    const { organizationId } = await createOrganizationPg(store, { name: 'Local organization', plan: 'enterprise' }, now);
    const token = await createTokenPg(store, { organizationId, abilities: [...ABILITIES], name: 'local' }, now);
    writeTokenFile(token, dataDir);
  } finally {
    await client.query('SELECT pg_advisory_unlock(727352)').catch(() => {});
    client.release();
  }
}

function writeTokenFile(token: string, dataDir: string): void {
  const tokenFile = join(dataDir, 'token.txt');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
  // Shown only to a person at a terminal: printed to a pipe it would land in a journal or a log file.
  if (process.stdout.isTTY) console.log(`juralite: created a local organization and a token with all abilities (shown once):\n\n  ${token}\n`);
  else console.log('juralite: created a local organization and a token with all abilities');
  console.log(`juralite: the token is stored in ${tokenFile} (mode 0600)`);
}

/** The demo corpus: built on first start when no corpus exists, from fixtures/ (a checkout) or from the executable. */
async function buildDemoCorpus(corpusPath: string): Promise<void> {
  if (existsSync(corpusPath)) return;
  await withDemoFixtures(async (folders, where) => {
    console.log(`juralite: no corpus at ${corpusPath}; building the demo corpus from ${where} ...`);
    const started = performance.now();
    const { summary } = await importCommand(corpusPath, folders);
    console.log(describeSummary(summary, (performance.now() - started) / 1000));
  });
}

/** --host and --port (else $JURALITE_HOST and $JURALITE_PORT), checked before anything is built or opened. */
export function listenAddress(flags: Flags, env: NodeJS.ProcessEnv = process.env): { host: string; port: number } {
  const [hostName, hostValue] = flags.host !== undefined ? ['--host', flags.host as string] : ['JURALITE_HOST', env.JURALITE_HOST || '127.0.0.1'];
  const host = hostValue.trim();
  if (host === '') throw new UsageError(`${hostName} must not be empty`);
  const [portName, port] = flags.port !== undefined ? ['--port', flags.port as string] : ['JURALITE_PORT', env.JURALITE_PORT || '8080'];
  if (!/^\d{1,5}$/u.test(port) || Number(port) > 65535) throw new UsageError(`${portName} must be a whole number from 0 to 65535, not "${port}"`);
  return { host, port: Number(port) };
}

/** The data files serve makes on a first start must not collide with a file or database of another kind. */
function checkDataFiles(options: { corpusPath: string; statePath: string; dataDir: string }): void {
  requireNoFileAt(options.dataDir, 'the data directory');
  if (!isPostgresUrl(options.statePath)) requireDatabaseOrNothing(options.statePath, 'a juralite state database');
  requireDatabaseOrNothing(options.corpusPath, 'a juralite corpus');
}

/** A --host that names no address is refused before a corpus is built or an account created. */
async function requireKnownHost(host: string): Promise<void> {
  try {
    await lookup(host);
  } catch {
    throw new Error(`cannot listen: --host ${host} is no address (the name does not resolve)`);
  }
}

/** Plain words for the usual reasons a server cannot listen. */
function listenError(error: unknown, host: string, port: number): Error {
  const reasons = new Map([
    ['EADDRINUSE', `port ${port} on ${host} is in use (another juralite?); choose another with --port`],
    ['EACCES', `port ${port} needs privileges this user lacks; choose one from 1024 with --port`],
    ['EADDRNOTAVAIL', `--host ${host} is not an address of this machine`],
  ]);
  const reason = reasons.get((error as NodeJS.ErrnoException).code ?? '');
  return reason ? new Error(`cannot listen: ${reason}`) : error as Error;
}

export async function serve(options: { corpusPath: string; statePath: string; dataDir: string; host: string; port: number; demo: boolean;
  /** --metrics: off, on, PORT or HOST:PORT (else JURALITE_METRICS; docs/operations.md). */
  metrics?: string }) {
  // Logging and metrics settings are checked before anything is built or opened.
  const settings = observabilitySettings(process.env, options.metrics);
  checkDataFiles(options);
  await requireKnownHost(options.host);
  // Client text lives here (state, uploads, backups beside it): the directory is this user's alone when serve makes it.
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  if (options.demo) await buildDemoCorpus(options.corpusPath);
  if (existsSync(options.corpusPath) && corpusNeedsUpgrade(options.corpusPath)) {
    console.log(`juralite: upgrading ${options.corpusPath} to this release (citation graph, search indexes and vectors; `
      + 'minutes for a large corpus) ...');
    upgradeCorpus(options.corpusPath);
  }
  const shared = isPostgresUrl(options.statePath);
  const { store, rates } = await openStateStore(options.statePath);
  const config = loadConfig(process.env, options);
  // Beside no state file on PostgreSQL: an upload's file waits in this node's data directory until extracted.
  if (shared) config.uploads.dir ??= join(options.dataDir, 'uploads');
  const services = openServices({ ...options, store, rates, config });
  if (store.kind === 'postgres') await bootstrapSharedAccount(store as PostgresStore, options.dataDir);
  else bootstrapLocalAccount(services.state, options.dataDir);
  if (shared) console.log(`juralite: the state is on PostgreSQL at ${redactedUrl(options.statePath)} (shared by every node)`);
  if (!services.corpus) {
    console.warn(`juralite: no corpus at ${options.corpusPath}; corpus operations answer 503 until one is placed there and `
      + `the service restarted (or build one: juralite import --db ${options.corpusPath} SOURCES)`);
  }
  const observability = createObservability(services, settings);
  const { server, url } = await listen(services, options.host, options.port, undefined, observability).catch((error: unknown) => {
    closeServices(services);
    throw listenError(error, options.host, options.port);
  });
  console.log(`juralite: serving ${url}/api/v1 (OpenAPI: ${url}/api/v1/openapi.json)`);
  console.log(`juralite: pages for the browser at ${url}/ (sign in there with the token)`);
  const apart = typeof settings.metricsAt === 'object' ? settings.metricsAt : null;
  const metricsServer = apart && await listenMetrics(observability.metrics!, apart.host, apart.port).catch((error: unknown) => {
    server.close();
    closeServices(services);
    throw listenError(error, apart.host, apart.port);
  });
  if (settings.metricsAt !== 'off') console.log(`juralite: metrics at ${metricsServer ? metricsServer.url : `${url}/metrics`}`);
  const stop = () => server.close(() => {
    metricsServer?.server.close();
    closeServices(services);
    process.exit(0);
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  reopenOnHangup(services, options.corpusPath);
}
