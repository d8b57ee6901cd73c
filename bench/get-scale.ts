/**
 * GET /decisions/{id} at two corpus sizes in one run (issue [scale]: p50 <= 1 ms over HTTP at 500k): where a read's
 * time goes, step by step in-process, and the whole request over HTTP, each corpus beside the other, and (--before)
 * an older checkout beside this tree with their answers compared byte for byte.
 *
 *   node bench/get-scale.ts --db .tmp/bench-100k-s4.db --db .tmp/scale-500000.db [--requests 1000] [--before DIR]
 *
 * In-process (this tree, one read-only connection per corpus, opened as `juralite serve` opens it): the operation's
 * normalize (the decision looked up by its name, the request made canonical, and since Session 21 the answer read),
 * its handler called alone (the decision read, decompressed and cut), the text's decompression alone, the answer's
 * JSON, and the metered call whole (execute(): token, rate limit, balance and cap reads, the charging transaction),
 * with --before that tree's metered call right after it; ids in turn over the corpora.
 *
 * Over HTTP: one server process per corpus and tree (this file with --serve ROOT: `juralite serve`'s services, its
 * JSON access log on /dev/null), one kept-alive connection each, requests alternating between them. Rows: a
 * decision read before by the server (an untimed pass first, as bench/scale.ts), and one it reads for the first
 * time (its pages in SQLite's cache or not: what a new decision costs). Every timed call is a new result for its
 * organization, so it is charged (ledger row, paid result, daily counter). --before: every answer of the compared
 * variants (whole, a section, a Randnummer range, max_chars, by ECLI and Aktenzeichen) byte for byte, credits and all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { printTable, reportServerSide, stats } from './lib.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string', multiple: true }, requests: { type: 'string', default: '1000' }, before: { type: 'string' },
  serve: { type: 'string' }, state: { type: 'string' },
} });

const load = (root: string, path: string) => import(pathToFileURL(join(resolve(root), path)).href);

// --- a server process: ROOT's services over one corpus, as `juralite serve` runs them ---------------------------------
if (values.serve) {
  const root = values.serve;
  const [server, accessLog, observability] = await Promise.all([
    load(root, 'src/server.ts'), load(root, 'src/observability/access-log.ts'), load(root, 'src/observability/observability.ts'),
  ]);
  const services = server.openServices({ corpusPath: values.db![0], statePath: values.state! });
  Object.assign(services.config.plans.enterprise, {
    monthlyCredits: Number.MAX_SAFE_INTEGER, dailyRows: Number.MAX_SAFE_INTEGER, dailyDocuments: Number.MAX_SAFE_INTEGER,
  });
  const pino = (await import('pino')).default;
  const destination = accessLog.bufferedLogDestination?.('/dev/null') ?? { dest: '/dev/null', sync: false };
  const observed = { ...observability.quietObservability(),
    log: accessLog.createAccessLog({ level: 'info', format: 'json', destination: pino.destination(destination) }) };
  const { server: http, url } = await server.listen(services, '127.0.0.1', 0, undefined, observed);
  http.keepAliveTimeout = 600_000;
  // The server's own view (the request's time inside it, its CPU per request): `reset` and `report` on stdin.
  reportServerSide(http);
  // An ordinary exit on SIGINT, so that a run under --cpu-prof writes its profile.
  process.once('SIGINT', () => process.exit(0));
  console.log(JSON.stringify({ url, pid: process.pid }));
} else {
  await measure();
}

async function measure(): Promise<void> {
  const corpora = values.db ?? [];
  if (corpora.length === 0) {
    console.error('usage: node bench/get-scale.ts --db CORPUS [--db CORPUS ...] [--requests N] [--before DIR]');
    process.exit(2);
  }
  const requests = Number(values.requests);
  const trees = [{ label: 'this tree', root: '.' }, ...(values.before ? [{ label: 'before', root: values.before }] : [])];
  const [{ openServices, closeServices }, { openState }, { createOrganization }, { createToken }, { OPERATIONS }, { execute },
    { decompressText }] = await Promise.all([
    load('.', 'src/server.ts'), load('.', 'src/accounts/state-db.ts'), load('.', 'src/accounts/organizations.ts'),
    load('.', 'src/accounts/tokens.ts'), load('.', 'src/operations/index.ts'), load('.', 'src/operations/execute.ts'),
    load('.', 'src/corpus/stored-text.ts'),
  ]);
  const getDecision = OPERATIONS.find((operation: { name: string }) => operation.name === 'get_decision');
  const dir = mkdtempSync(join(tmpdir(), 'juralite-get-scale-'));
  const load1 = loadavg()[0];

  /** A new enterprise organization in `state` and a caller giving each of its tokens at most 50 calls. */
  const callers = (state: ReturnType<typeof openState>, calls: number) => {
    const { organization } = createOrganization(state, { name: 'bench', plan: 'enterprise' }, new Date());
    const tokens = state.transaction(() => Array.from({ length: Math.ceil(calls / 50) + 1 }, () =>
      createToken(state, { organizationId: organization.id, abilities: ['read'] }, new Date()).token))();
    let turn = 0;
    return () => `Bearer ${tokens[Math.floor(turn++ / 50) % tokens.length]}`;
  };

  // --before: that tree's metered call in this process too, over the same corpora (a state of its own per corpus).
  const beforeModules = values.before === undefined ? undefined : await Promise.all([
    load(values.before, 'src/server.ts'), load(values.before, 'src/operations/index.ts'), load(values.before, 'src/operations/execute.ts'),
  ]);
  const unlimited = (services: { config: { plans: { enterprise: object } } }) => Object.assign(services.config.plans.enterprise, {
    monthlyCredits: Number.MAX_SAFE_INTEGER, dailyRows: Number.MAX_SAFE_INTEGER, dailyDocuments: Number.MAX_SAFE_INTEGER,
  });

  // Inputs per corpus: ids read twice (warm), ids read once (first read), and a sample for the compared variants.
  const sides = corpora.map((path, index) => {
    const services = openServices({ corpusPath: path, statePath: join(dir, `state-${index}.db`) });
    unlimited(services);
    const before = beforeModules && (() => {
      const [server, { OPERATIONS: operations }, { execute: run }] = beforeModules;
      const beforeServices = server.openServices({ corpusPath: path, statePath: join(dir, `state-before-${index}.db`) });
      unlimited(beforeServices);
      const operation = operations.find((candidate: { name: string }) => candidate.name === 'get_decision');
      const caller = callers(beforeServices.state, 4 * requests);
      return { services: beforeServices, close: () => server.closeServices(beforeServices),
        call: (id: string) => run(operation, { authorization: caller(), args: { id } }, beforeServices) };
    })();
    const corpus = services.corpus!;
    const n = corpus.prepare('SELECT count(*) FROM decisions').pluck().get() as number;
    // Spread over the whole file (rowid order is import order): 2 x requests ids, the odd ones never warmed.
    const every = Math.max(1, Math.floor(n / (2 * requests + 1)));
    const all = corpus.prepare('SELECT id FROM decisions WHERE rowid % ? = 7 % ? LIMIT ?').pluck().all(every, every, 2 * requests) as string[];
    const warm = all.filter((_, i) => i % 2 === 0);
    const first = all.filter((_, i) => i % 2 === 1);
    const stored = corpus.prepare('SELECT text_zstd FROM decisions WHERE id = ?').pluck();
    return { path, name: `${basename(path)} (${n} decisions)`, services, corpus, stored, n, warm, first, caller: callers(services.state, 4 * requests), before };
  });

  // 1. In-process steps, this tree, ids in turn over the corpora (one untimed pass first).
  type Step = [string, (side: typeof sides[number], id: string) => unknown];
  const context = (side: typeof sides[number]) => ({ services: side.services, caller: undefined, now: new Date(),
    onCommit: () => undefined, afterCommit: () => undefined });
  const steps: Step[] = [
    // Since Session 21 normalize reads the answer too, and the handler serves it; called alone, the handler reads it.
    ['normalize: find by id, canonical request, the answer read', (side, id) => getDecision.normalize({ id, max_chars: 40_000 }, context(side))],
    ['handler alone: find, decompress, read the parts, cut', (side, id) => getDecision.handler({ id, max_chars: 40_000 }, context(side))],
    ['  the text\'s decompression alone', (side, id) => decompressText(side.stored.get(id))],
    ['  JSON of the answer', (side, id) => JSON.stringify(getDecision.handler({ id, max_chars: 40_000 }, context(side)))],
    ['execute() whole, charged, no HTTP', (side, id) => execute(getDecision, { authorization: side.caller(), args: { id } }, side.services)],
    ...(beforeModules ? [['execute() whole, before (the same ids, in turn with the row above)', (side, id) => side.before!.call(id)] as Step] : []),
  ];
  const stepSamples = sides.map(() => steps.map((): number[] => []));
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < requests; i++) {
      for (const [s, side] of sides.entries()) {
        // With --before, the two metered calls (the last two rows) take turns at going first.
        const order = [...steps.keys()];
        if (beforeModules && i % 2 === 1) order.push(...order.splice(-2).reverse());
        for (const k of order) {
          const [, run] = steps[k];
          const started = performance.now();
          await run(side, side.warm[i]);
          if (pass === 1) stepSamples[s][k].push(performance.now() - started);
        }
      }
    }
  }
  // The JSON row times the handler too: shown alone, less the handler's p50.
  console.log(`GET /decisions/{id}: ${requests} decisions per corpus, node ${process.version}, load ${load1.toFixed(2)} at the start`);
  const stepRows: (string | number)[][] = [['in-process, this tree (p50 ms / p95 ms)', ...sides.map((side) => side.name)]];
  for (const [k, [name]] of steps.entries()) {
    stepRows.push([name, ...sides.map((_, s) => {
      const { p50, p95 } = stats(stepSamples[s][k]);
      const less = k === 3 ? stats(stepSamples[s][1]).p50 : 0;
      return `${(p50 - less).toFixed(3)} / ${(p95 - less).toFixed(3)}`;
    })]);
  }
  printTable(stepRows);
  for (const side of sides) {
    closeServices(side.services);
    side.before?.close();
  }

  // 2. Over HTTP: a server process per corpus and tree.
  const servers: { tree: string; side: number; url: string; child: ChildProcess; agent: Agent; warm: () => string; timed: () => string;
    first: () => string; compare: () => string; report: () => Promise<{ p50: number; p95: number; n: number; cpuUs: number }> }[] = [];
  try {
    for (const tree of trees) {
      for (const [s, side] of sides.entries()) {
        const statePath = join(dir, `serve-${tree.label.replace(/\W/g, '')}-${s}.db`);
        const state = openState(statePath);
        const roles = { warm: callers(state, requests), timed: callers(state, requests), first: callers(state, requests), compare: callers(state, 40 * 8) };
        state.close();
        const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve', tree.root, '--db', side.path, '--state', statePath],
          { stdio: ['pipe', 'pipe', 'inherit'] });
        const lines = createInterface({ input: child.stdout! });
        const line = () => new Promise<string>((done) => lines.once('line', done));
        const { url } = JSON.parse(await line());
        const report = async () => {
          child.stdin!.write('report\n');
          return JSON.parse(await line());
        };
        servers.push({ tree: tree.label, side: s, url, child, agent: new Agent({ keepAlive: true, maxSockets: 1 }), report, ...roles });
      }
    }
    const call = (server: typeof servers[number], path: string, authorization: string) =>
      new Promise<{ ms: number; status: number; body: string }>((done, fail) => {
        const at = performance.now();
        const req = request(`${server.url}/api/v1/decisions/${path}`, { agent: server.agent, headers: { authorization } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => done({ ms: performance.now() - at, status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', fail);
        req.end();
      });
    const ok = <T extends { status: number; body: string }>(answer: T): T => {
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
      return answer;
    };

    // The compared variants (untimed, before anything else: every server in the same state), byte for byte.
    let compared = 0;
    let differ = 0;
    if (trees.length > 1) {
      for (const [s, side] of sides.entries()) {
        const db = (await load('.', 'src/corpus/open.ts')).openCorpus(side.path, { readonly: true });
        const sample = side.warm.filter((_, i) => i % Math.max(1, Math.floor(requests / 40)) === 0).slice(0, 40);
        const rows = sample.map((id) => db.prepare('SELECT id, ecli, aktenzeichen, rn_from, rn_to FROM decisions WHERE id = ?').get(id) as
          { id: string; ecli: string | null; aktenzeichen: string | null; rn_from: number | null; rn_to: number | null });
        db.close();
        const variants = rows.flatMap((row) => [row.id, `${row.id}?max_chars=500`, `${row.id}?section=tenor`, `${row.id}?section=Gr%C3%BCnde&max_chars=900`,
          `${row.id}?rn_from=${(row.rn_from ?? 1) + 1}&rn_to=${(row.rn_from ?? 1) + 2}`, `${row.id}?rn_from=${row.rn_to ?? 1}`,
          ...(row.ecli ? [encodeURIComponent(row.ecli)] : []), ...(row.aktenzeichen ? [encodeURIComponent(row.aktenzeichen)] : [])]);
        const pair = servers.filter((server) => server.side === s);
        for (const variant of variants) {
          const answers: string[] = [];
          for (const server of pair) answers.push((await call(server, variant, server.compare())).body);
          compared++;
          if (answers.some((answer) => answer !== answers[0]) && ++differ <= 3) console.log(`differs: ${side.name} ${variant}`);
        }
      }
      console.log(`\nanswers compared byte for byte, this tree against ${values.before}: ${compared}, ${differ} differ`);
    }

    // Untimed pass over the warm ids (each server), then the timed rows, servers in turn per id.
    for (let i = 0; i < requests; i++) for (const server of servers) ok(await call(server, sides[server.side].warm[i], server.warm()));
    for (const server of servers) server.child.stdin!.write('reset\n');
    const samples = servers.map(() => ({ warm: [] as number[], first: [] as number[] }));
    for (let i = 0; i < requests; i++) {
      const order = i % 2 === 0 ? servers.entries() : [...servers.entries()].reverse();
      for (const [index, server] of order) {
        samples[index].warm.push(ok(await call(server, sides[server.side].warm[i], server.timed())).ms);
        samples[index].first.push(ok(await call(server, sides[server.side].first[i], server.first())).ms);
      }
    }
    const base = stats(samples[0].warm).p50;
    const rows: (string | number)[][] = [['HTTP GET /decisions/{id}, charged', 'p50 ms', 'p95 ms', 'p99 ms', 'x first row p50', 'server CPU ms']];
    for (const [index, server] of servers.entries()) {
      for (const kind of ['warm', 'first'] as const) {
        const { p50, p95, p99 } = stats(samples[index][kind]);
        rows.push([`${server.tree}, ${sides[server.side].name}, ${kind === 'warm' ? 'read before' : 'first read'}`, p50, p95, p99, (p50 / base).toFixed(2), '']);
      }
      // Both kinds together, as the server saw them: from the request parsed to the answer handed to the socket, and
      // the server process's CPU time (user + system, every thread) per request.
      const inside = await server.report();
      rows.push([`  inside the server (arrival to answer written), both kinds`, inside.p50, inside.p95, '', (inside.p50 / base).toFixed(2),
        (inside.cpuUs / 1000).toFixed(3)]);
    }
    console.log(`\nover HTTP: ${requests} requests per row, servers in turn per id; load ${loadavg()[0].toFixed(2)} at the end`);
    printTable(rows);
  } finally {
    for (const server of servers) {
      server.agent.destroy();
      server.child.kill('SIGTERM');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
