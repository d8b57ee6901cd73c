/** Small helpers for benchmarks: timing, percentiles, printed tables. Benchmarks print; they never assert. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Agent, request, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { openCorpus, upgradeCorpus } from '../src/corpus/open.ts';
import { importPaths } from '../src/ingest/import-paths.ts';
import { closeServices, listen, openServices } from '../src/server.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { createToken } from '../src/accounts/tokens.ts';
import type { Services } from '../src/operations/operation.ts';

/** Builds the demo corpus from fixtures/ at `path`, or upgrades the file already there to the current schema. */
export async function ensureDemoCorpus(path: string): Promise<void> {
  if (existsSync(path)) {
    upgradeCorpus(path);
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  const db = openCorpus(path);
  try {
    await importPaths(db, ['fixtures/laws', 'fixtures/decisions']);
  } finally {
    db.close();
  }
}

export interface Stats { n: number; p50: number; p95: number; p99: number; mean: number }

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

/** Times `run` once per input, after `warmup` untimed calls; milliseconds. */
export async function timeEach<T>(inputs: T[], run: (input: T) => unknown, warmup = 50): Promise<number[]> {
  for (const input of inputs.slice(0, warmup)) await run(input);
  const samples: number[] = [];
  for (const input of inputs) {
    const started = performance.now();
    await run(input);
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * Times several measures over the same inputs interleaved: each input runs every measure in turn, so a machine that
 * speeds up or slows down during the run moves all of them alike and their ratios stay comparable. Milliseconds, one
 * array per measure, after `warmup` untimed rounds.
 */
export async function timeInterleaved<T>(inputs: T[], runs: ((input: T) => unknown)[], warmup = 50): Promise<number[][]> {
  for (const input of inputs.slice(0, warmup)) for (const run of runs) await run(input);
  const samples = runs.map((): number[] => []);
  for (const input of inputs) {
    for (const [index, run] of runs.entries()) {
      const started = performance.now();
      await run(input);
      samples[index].push(performance.now() - started);
    }
  }
  return samples;
}

/** Prints a table of rows (first row: headers). */
export function printTable(rows: (string | number)[][]): void {
  const text = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? cell.toFixed(3) : cell)));
  const widths = text[0].map((_, column) => Math.max(...text.map((row) => row[column].length)));
  for (const [index, row] of text.entries()) {
    console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** A GET over one kept-alive connection with node:http (lighter than fetch, so the client distorts less). */
export function httpGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return httpRequest('GET', url, headers);
}

/** A POST of a JSON body over the same kept-alive connection. */
export function httpPost(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  return httpRequest('POST', url, { ...headers, 'content-type': 'application/json' }, JSON.stringify(body));
}

function httpRequest(method: string, url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: keepAlive, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Ends a benchmark: its HTTP servers (kept-alive sockets too), its services and its temporary folder. */
export function tearDown(servers: Server[], services: Services, dir: string): void {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  closeServices(services);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The service over `corpusPath` listening on 127.0.0.1 with a throwaway state, for search benches: an enterprise
 * organization without limits, and `authorization()` (a fresh token every 50 calls keeps the per-token rate limit out
 * of the measurement). `close()` ends it all.
 */
export async function searchService(corpusPath: string) {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-bench-'));
  const services = openServices({ corpusPath, statePath: join(dir, 'state.db') });
  services.config.plans.enterprise.dailyRows = Number.MAX_SAFE_INTEGER;
  services.config.plans.enterprise.monthlyCredits = Number.MAX_SAFE_INTEGER;
  const { organization } = createOrganization(services.state, { name: 'bench', plan: 'enterprise' }, new Date());
  let calls = 0;
  let token = '';
  const authorization = () => {
    if (calls++ % 50 === 0) token = createToken(services.state, { organizationId: organization.id, abilities: ['search'] }, new Date()).token;
    return `Bearer ${token}`;
  };
  const { server, url } = await listen(services, '127.0.0.1', 0);
  server.keepAliveTimeout = 600_000;
  return { services, corpus: services.corpus!, url, server, authorization, close: (others: Server[] = []) => tearDown([server, ...others], services, dir) };
}

/**
 * The server's own view of what it answers, for a server process driven over stdin: each request's time from its
 * arrival (parsed) to its answer handed to the socket, the event loop's utilization and the process's CPU time (user
 * and system, every thread) per request. A line `reset` on stdin empties it, `report` prints it as one JSON line.
 */
export function reportServerSide(server: Server): void {
  let times: number[] = [];
  let utilization = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  server.on('request', (_request, response) => {
    const at = performance.now();
    response.on('finish', () => times.push(performance.now() - at));
  });
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'reset') {
      times = [];
      utilization = performance.eventLoopUtilization();
      cpu = process.cpuUsage();
    } else if (line === 'report') {
      const used = process.cpuUsage(cpu);
      console.log(JSON.stringify({ ...stats(times.length ? times : [0]), cpuUs: (used.user + used.system) / Math.max(1, times.length),
        utilization: performance.eventLoopUtilization(utilization).utilization }));
    }
  });
}
