/**
 * Load (issue [reliability]): autocannon against a juralite server on the 100k generated corpus, with the mix
 * search 50% (GET /decisions/search and GET /search alike), get_decision 30%, graph 10%, check 10%, at 50
 * connections for 60 s. Not part of `npm test`:
 *
 *   npm run bench:load                      (copies .tmp/bench-100k.db to .tmp/load-100k.db once; never touches the source)
 *   node bench/load.ts [--db .tmp/load-100k.db] [--source .tmp/bench-100k.db] [--connections 50] [--duration 60] [--warmup 10]
 *
 * The server runs in its own process (this file with --serve: openServices + listen, as `juralite serve` does, after
 * upgradeCorpus, which builds the search index of an older corpus in place and may take minutes the first time), so
 * its RSS is its own. The bench organization's plan has its monthly credits and daily caps lifted (an operator's
 * configuration, like bench/search.ts does); the per-token rate limits (60 and, for checks, 10 a minute) stay, and
 * every request takes the next token of a pool large enough to stay under them. Any 429 is still counted, apart
 * from errors. Per kind of request, the hooks count what was sent and answered and time each answer.
 *
 * Prints a table and writes .tmp/load-result.json.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { upgradeCorpus } from '../src/corpus/open.ts';
import { registerTextFunctions } from '../src/corpus/stored-text.ts';
import { listen, openServices } from '../src/server.ts';
import { openState } from '../src/accounts/state-db.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { ABILITIES, createToken } from '../src/accounts/tokens.ts';
import { textProblem } from '../src/operations/check-citations.ts';
import { printTable, reportServerSide, stats } from './lib.ts';

const { values } = parseArgs({ options: {
  serve: { type: 'boolean', default: false },
  db: { type: 'string', default: '.tmp/load-100k.db' },
  source: { type: 'string', default: '.tmp/bench-100k.db' },
  state: { type: 'string' },
  connections: { type: 'string', default: '50' },
  duration: { type: 'string', default: '60' },
  warmup: { type: 'string', default: '10' },
} });

// --- the load -------------------------------------------------------------------------------------------------------

interface AutocannonRequest { method?: string; path?: string; headers?: Record<string, string>; body?: string }
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
  throughput: { average: number };
  errors: number; timeouts: number; non2xx: number; duration: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

type Kind = 'search_decisions' | 'search' | 'get_decision' | 'graph' | 'check';
/** The mix: search 50% (both search endpoints), get_decision 30%, graph 10%, check 10%. */
const MIX: [Kind, number][] = [['search_decisions', 25], ['search', 25], ['get_decision', 30], ['graph', 10], ['check', 10]];

// Topic words of bench/generate.ts (legal register) and lay phrasings of the same matters (as bench/search.ts).
const LEGAL = ['Eigenbedarfskündigung', 'Härtegründe', 'Wohnraum', 'Verkehrssicherungspflicht', 'Glätte', 'Streupflicht',
  'Sachmangel', 'Nacherfüllung', 'Gebrauchtwagen', 'Fristsetzung', 'Werkvertrag', 'Vermögensschaden', 'Strafzumessung',
  'Baugenehmigung', 'Rücksichtnahme', 'Versammlungsfreiheit', 'Flüchtlingseigenschaft', 'Bedarfsgemeinschaft',
  'Genehmigungsfiktion', 'Erwerbsminderungsrente', 'Kündigungsschutz', 'Sozialauswahl', 'Abmahnung', 'Urlaubsabgeltung',
  'Werbungskosten', 'Arbeitszimmer', 'Steuerschulden', 'Meinungsfreiheit', 'Berufsfreiheit', 'Verhältnismäßigkeit'];
const LAY = ['Vermieter will mich rauswerfen, weil sein Sohn einziehen soll', 'auf dem vereisten Gehweg ausgerutscht',
  'gebrauchtes Auto gekauft und es ist kaputt', 'der Chef hat mich rausgeschmissen', 'Jobcenter zahlt die Miete nicht',
  'Urlaub verfallen nach der Kündigung', 'Finanzamt erkennt mein Arbeitszimmer nicht an', 'Nachbar baut zu nah an mein Haus'];

let seed = 11;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];

function pickKind(): Kind {
  let roll = random() * 100;
  for (const [kind, weight] of MIX) if ((roll -= weight) < 0) return kind;
  return 'get_decision';
}

/** Random rowids of a table (seeded), for drawing inputs without sorting the whole table. */
function rowids(db: Database.Database, table: string, count: number): number[] {
  const max = (db.prepare(`SELECT max(rowid) AS n FROM ${table}`).get() as { n: number }).n;
  return Array.from({ length: count }, () => 1 + Math.floor(random() * max));
}

/** Decision ids, graph sources (decisions citing a decision of the corpus) and check texts, drawn from the corpus. */
function inputsFrom(corpusPath: string) {
  const db = new Database(corpusPath, { readonly: true });
  registerTextFunctions(db);
  try {
    const byRowid = (query: string, ids: number[]) => ids.map((rowid) => db.prepare(query).get(rowid) as Record<string, string> | undefined).filter((row) => row !== undefined);
    const decisions = byRowid('SELECT id, decision_text(text_zstd) AS full_text FROM decisions WHERE rowid = ?', rowids(db, 'decisions', 3000));
    // The edges' table (citation_links): the view citation_edges has no rowid of its own, its id is the table's.
    const sources = byRowid(`SELECT from_decision_id AS id FROM citation_edges WHERE id = ? AND reference_type = 'case' AND to_decision_id IS NOT NULL`,
      rowids(db, 'citation_links', 6000)).map((row) => row.id);
    // Briefs of 2,000 to 6,000 characters: the start of a decision, which cites statutes and decisions.
    const texts = decisions.slice(0, 400).map((row) => row.full_text.slice(0, 2000 + Math.floor(random() * 4000)))
      .filter((text) => textProblem(text) === null);
    return { ids: decisions.map((row) => row.id), sources, texts };
  } finally {
    db.close();
  }
}

/** Tokens of one organization, used in turn: each stays under its 60 (checks: 10) calls a minute at up to `rate` req/s. */
function tokenPools(statePath: string, rate: number) {
  const state = openState(statePath);
  try {
    const { organization } = createOrganization(state, { name: 'load bench', plan: 'enterprise' }, new Date());
    const make = (count: number) => state.transaction(() => Array.from({ length: count }, () =>
      createToken(state, { organizationId: organization.id, abilities: [...ABILITIES] }, new Date()).token))();
    // Per minute at `rate` req/s: rate*60 calls over `light` tokens (<= 50 each) and rate*6 checks over `heavy` (<= 8 each).
    return { light: make(Math.ceil((rate * 60) / 50)), heavy: make(Math.ceil((rate * 6) / 8)) };
  } finally {
    state.close();
  }
}

function requestFor(kind: Kind, inputs: ReturnType<typeof inputsFrom>, token: string): AutocannonRequest {
  const headers = { authorization: `Bearer ${token}` };
  const query = () => encodeURIComponent(random() < 0.7 ? `${pick(LEGAL)}${random() < 0.6 ? ` ${pick(LEGAL)}` : ''}` : pick(LAY));
  switch (kind) {
    case 'search_decisions': return { method: 'GET', path: `/api/v1/decisions/search?query=${query()}`, headers };
    case 'search': return { method: 'GET', path: `/api/v1/search?query=${query()}`, headers };
    case 'get_decision': return { method: 'GET', path: `/api/v1/decisions/${pick(inputs.ids)}`, headers };
    case 'graph': return { method: 'GET', path: `/api/v1/decisions/${pick(inputs.sources)}/citations`, headers };
    case 'check': return {
      method: 'POST', path: '/api/v1/citation-checks', headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text: pick(inputs.texts) }),
    };
  }
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

async function runLoad(): Promise<void> {
  const connections = Number(values.connections);
  const duration = Number(values.duration);
  const warmup = Number(values.warmup);
  if (!existsSync(values.db!)) {
    if (!existsSync(values.source!)) throw new Error(`no corpus at ${values.db} nor ${values.source} (bench/generate.ts, then juralite import)`);
    console.log(`copying ${values.source} to ${values.db} (the source is never opened for writing) ...`);
    copyFileSync(values.source!, values.db!);
  }
  let started = performance.now();
  upgradeCorpus(values.db!);
  console.log(`upgrade (search index where older): ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const dir = mkdtempSync(join(tmpdir(), 'juralite-load-'));
  const statePath = join(dir, 'state.db');
  const inputs = inputsFrom(values.db!);
  const pools = tokenPools(statePath, 2500);
  console.log(`inputs: ${inputs.ids.length} ids, ${inputs.sources.length} graph sources, ${inputs.texts.length} check texts; `
    + `tokens: ${pools.light.length} + ${pools.heavy.length} for checks`);

  const server = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve', '--db', values.db!, '--state', statePath], {
    stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, JURALITE_EXTRACTION_WORKERS: '1' },
  });
  const lines = createInterface({ input: server.stdout! });
  const nextLine = () => new Promise<string>((resolve) => lines.once('line', resolve));
  try {
    const { url, pid } = JSON.parse(await nextLine());
    let light = 0;
    let heavy = 0;
    const nextRequest = () => {
      const kind = pickKind();
      const token = kind === 'check' ? pools.heavy[heavy++ % pools.heavy.length] : pools.light[light++ % pools.light.length];
      return { kind, request: requestFor(kind, inputs, token) };
    };
    // Per kind: statuses, requests sent, and the time from building a request (just before it is sent on its
    // connection) to its answer.
    const byKind = new Map<Kind, { statuses: Map<number, number>; sent: number; times: number[] }>();
    const tally = (kind: Kind) => byKind.get(kind) ?? byKind.set(kind, { statuses: new Map(), sent: 0, times: [] }).get(kind)!;
    const fire = (seconds: number, record: boolean) => autocannon({
      url, connections, duration: seconds, timeout: 30,
      requests: [{
        setupRequest: (request: AutocannonRequest, context: { kind?: Kind; at?: number }) => {
          const next = nextRequest();
          context.kind = next.kind;
          context.at = performance.now();
          if (record) tally(next.kind).sent++;
          return { ...request, ...next.request };
        },
        onResponse: (status: number, _body: string, context: { kind?: Kind; at?: number }) => {
          if (!record || !context.kind) return;
          const entry = tally(context.kind);
          entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
          entry.times.push(performance.now() - context.at!);
        },
      }],
    });

    if (warmup > 0) {
      console.log(`warm-up: ${warmup} s ...`);
      await fire(warmup, false);
    }
    server.stdin!.write('reset\n');
    const rss: number[] = [rssMb(pid)];
    const rssTimer = setInterval(() => rss.push(rssMb(pid)), 1000);
    console.log(`load: ${connections} connections for ${duration} s ...`);
    started = performance.now();
    const result = await fire(duration, true);
    clearInterval(rssTimer);
    rss.push(rssMb(pid));
    server.stdin!.write('report\n');
    const serverSide = JSON.parse(await nextLine()) as ReturnType<typeof stats> & { utilization: number };

    const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]));
    const limited = statuses['429'] ?? 0;
    const otherErrors = result.non2xx - limited;
    const machine = `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}`;
    console.log(`\nmachine: ${machine}; load average (1, 5, 15 min): ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    printTable([
      ['measure', 'value'],
      ['requests', String(result.requests.total)],
      ['throughput req/s (mean)', result.requests.average.toFixed(1)],
      ['latency p50 ms', String(result.latency.p50)],
      ['latency p90 ms', String(result.latency.p90)],
      ['latency p99 ms', String(result.latency.p99)],
      ['latency max ms', String(result.latency.max)],
      ['2xx', String(result.requests.total - result.non2xx)],
      ['429 (limits)', String(limited)],
      ['other non-2xx', String(otherErrors)],
      ['errors / timeouts', `${result.errors} / ${result.timeouts}`],
      ['server side: answers, p50 / p99 ms', `${serverSide.n}, ${serverSide.p50.toFixed(0)} / ${serverSide.p99.toFixed(0)}`],
      ['server event-loop utilization', serverSide.utilization.toFixed(3)],
      ['server RSS MB (start / max / end)', `${rss[0].toFixed(0)} / ${Math.max(...rss).toFixed(0)} / ${rss.at(-1)!.toFixed(0)}`],
    ]);
    console.log('');
    const kinds = MIX.map(([kind]) => {
      const entry = tally(kind);
      const answered = entry.times.length;
      return { kind, sent: entry.sent, answered, statuses: Object.fromEntries(entry.statuses), ...stats(answered ? entry.times : [0]) };
    });
    printTable([['kind', 'sent', 'answered', 'statuses', 'p50 ms', 'p99 ms'], ...kinds.map((entry) => [entry.kind, String(entry.sent),
      String(entry.answered), Object.entries(entry.statuses).map(([status, count]) => `${status}:${count}`).join(' '), entry.p50.toFixed(0), entry.p99.toFixed(0)])]);
    mkdirSync('.tmp', { recursive: true });
    writeFileSync('.tmp/load-result.json', JSON.stringify({ machine, connections, duration, result, statuses, kinds, serverSide, rss, at: new Date().toISOString() }, null, 1));
    console.log(`\nwritten .tmp/load-result.json (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- the server process, or the load ----------------------------------------------------------------------------------

/**
 * The server, with its own view of the run (bench/lib.ts reportServerSide): each request's time from its arrival
 * (parsed) to its answer handed to the socket, and the event loop's utilization; a line `reset` on stdin empties both,
 * `report` prints them.
 */
async function serveForLoad(): Promise<void> {
  const services = openServices({ corpusPath: values.db!, statePath: values.state! });
  const enterprise = services.config.plans.enterprise;
  Object.assign(enterprise, { monthlyCredits: Number.MAX_SAFE_INTEGER, dailyRows: Number.MAX_SAFE_INTEGER, dailyDocuments: Number.MAX_SAFE_INTEGER });
  const { server, url } = await listen(services, '127.0.0.1', 0);
  reportServerSide(server);
  console.log(JSON.stringify({ url, pid: process.pid }));
}

await (values.serve ? serveForLoad() : runLoad());
