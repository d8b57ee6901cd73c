/**
 * Cluster (issue [cluster]): the search mix (GET /decisions/search and GET /search alike, paid calls, so each commits
 * its charge) against one node on SQLite, one node on PostgreSQL, and two nodes on one PostgreSQL, in one run, each
 * node a `juralite serve` process. A throwaway PostgreSQL is started as the tests do (test/helpers/postgres.ts). The
 * load spreads over 30 organizations and 300 tokens, so that the per-token rate limits stay out of the way; the two
 * nodes share the connections half and half. Not part of `npm test`:
 *
 *   node bench/cluster.ts [--db .tmp/bench-demo.db] [--connections 20] [--duration 10]
 *
 * On a machine of two cores, two nodes compete with each other, PostgreSQL and the load generator for the same cores:
 * the figures compare the state engines' cost per call; they cannot show two machines' throughput.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openState } from '../src/accounts/state-db.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { createToken } from '../src/accounts/tokens.ts';
import { openPostgresStore } from '../src/state/postgres-store.ts';
import { createOrganizationPg, createTokenPg } from '../src/state/postgres-admin.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { startServeProcess } from '../test/helpers/serve-process.ts';
import { ensureDemoCorpus, printTable } from './lib.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string', default: '.tmp/bench-demo.db' },
  connections: { type: 'string', default: '20' },
  duration: { type: 'string', default: '10' },
} });

interface AutocannonResult { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }
const autocannon = createRequire(import.meta.url)('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;

const WORDS = ['Kündigung', 'Mietvertrag', 'Schadensersatz', 'Eigenbedarf', 'Revision', 'Urlaub', 'Arbeitsvertrag',
  'Verwaltungsakt', 'Baugenehmigung', 'Steuerbescheid', 'Unterhalt', 'Berufung'];
const ORGANIZATIONS = 30;
const TOKENS_PER_ORGANIZATION = 10;
const dir = mkdtempSync(join(tmpdir(), 'juralite-bench-cluster-'));
const children: ChildProcess[] = [];

async function startNode(state: string, corpus: string, name: string): Promise<string> {
  const { child, url } = await startServeProcess(['--state', state, '--db', corpus, '--data', join(dir, name)]);
  children.push(child);
  return url;
}

/** The search mix over `urls`, half the connections each; requests per second summed, latencies of the first. */
async function load(urls: string[], tokens: string[]): Promise<{ rps: number; p50: number; p99: number; failed: number }> {
  let next = 0;
  const setupRequest = (request: Record<string, unknown>) => {
    const n = next++;
    const word = WORDS[n % WORDS.length];
    const path = n % 2 ? `/api/v1/decisions/search?query=${encodeURIComponent(word)}` : `/api/v1/search?query=${encodeURIComponent(word)}`;
    return { ...request, method: 'GET', path, headers: { authorization: `Bearer ${tokens[n % tokens.length]}` } };
  };
  const connections = Math.max(1, Math.floor(Number(values.connections) / urls.length));
  const results = await Promise.all(urls.map((url) => autocannon({
    url, connections, duration: Number(values.duration), requests: [{ setupRequest }],
  })));
  return {
    rps: results.reduce((sum, result) => sum + result.requests.average, 0),
    p50: results[0].latency.p50,
    p99: results[0].latency.p99,
    failed: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
  };
}

async function main(): Promise<void> {
  await ensureDemoCorpus(values.db);
  const rows: (string | number)[][] = [['set-up', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'non-2xx+errors']];
  let baseline = 0;
  const record = (name: string, result: Awaited<ReturnType<typeof load>>) => {
    baseline ||= result.rps;
    rows.push([name, result.rps.toFixed(0), (result.rps / baseline).toFixed(2), String(result.p50), String(result.p99), String(result.failed)]);
  };

  // 1. One node, SQLite.
  const statePath = join(dir, 'state.db');
  const state = openState(statePath);
  const sqliteTokens: string[] = [];
  for (let o = 0; o < ORGANIZATIONS; o++) {
    const { organization } = createOrganization(state, { name: `Bench ${o}`, plan: 'enterprise' }, new Date());
    for (let t = 0; t < TOKENS_PER_ORGANIZATION; t++) {
      sqliteTokens.push(createToken(state, { organizationId: organization.id, abilities: ['search'] }, new Date()).token);
    }
  }
  state.close();
  const sqliteNode = await startNode(statePath, values.db, 'sqlite');
  record('1 node, SQLite', await load([sqliteNode], sqliteTokens));
  children.pop()!.kill();

  // 2. and 3. PostgreSQL: one node, then two.
  const postgres = await startPostgres();
  try {
    const url = await postgres.newDatabase();
    const store = await openPostgresStore(url);
    const pgTokens: string[] = [];
    for (let o = 0; o < ORGANIZATIONS; o++) {
      const { organizationId } = await createOrganizationPg(store, { name: `Bench ${o}`, plan: 'enterprise' }, new Date());
      for (let t = 0; t < TOKENS_PER_ORGANIZATION; t++) {
        pgTokens.push(await createTokenPg(store, { organizationId, abilities: ['search'] }, new Date()));
      }
    }
    await store.close();
    const first = await startNode(url, values.db, 'pg-a');
    // The rate windows are per token and minute: the next run waits for a new minute, so the runs start alike.
    record('1 node, PostgreSQL', await load([first], pgTokens));
    await new Promise((resolve) => setTimeout(resolve, (61 - new Date().getUTCSeconds()) * 1000));
    const second = await startNode(url, values.db, 'pg-b');
    record('2 nodes, one PostgreSQL', await load([first, second], pgTokens));
  } finally {
    for (const child of children) child.kill();
    await postgres.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`search mix, ${values.connections} connections, ${values.duration} s per set-up, corpus ${values.db}`);
  printTable(rows);
}

await main();
