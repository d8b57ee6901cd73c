/**
 * The citation graph (depth 1 and 2) and 10-decision excerpt datapackages through HTTP, against the raw SQL that
 * fetches the same neighbours and rows, in one run:
 *
 *   node bench/generate.ts --count 100000 --out .tmp/gen-100k
 *   node bin/juralite import --db .tmp/bench-100k.db .tmp/gen-100k
 *   node bench/graph.ts --db .tmp/bench-100k.db [--requests 1000]
 *
 * Per measure four rows: the raw SQL in-process, the same raw SQL served by a bare node:http server (the floor of
 * any HTTP answer: socket, JSON), the operation in-process, and the full HTTP round trip (auth, rate limit, ledger
 * transaction, JSON). Sources are decisions with at least one citation edge, drawn at random.
 */
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { openServices, listen } from '../src/server.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { createToken } from '../src/accounts/tokens.ts';
import { findDecision } from '../src/corpus/find-decision.ts';
import { citationGraph } from '../src/graph/neighbours.ts';
import { assembleDatapackage } from '../src/graph/datapackage.ts';
import { httpGet, httpPost, printTable, stats, tearDown, timeEach } from './lib.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, requests: { type: 'string', default: '1000' } } });
if (!values.db) {
  console.error('usage: node bench/graph.ts --db CORPUS [--requests N]');
  process.exit(2);
}
const requests = Number(values.requests);
const dir = mkdtempSync(join(tmpdir(), 'juralite-bench-'));
const services = openServices({ corpusPath: values.db, statePath: join(dir, 'state.db') });
const corpus = services.corpus!;
const publicUrl = services.config.publicUrl;
services.config.plans.enterprise.dailyRows = Number.MAX_SAFE_INTEGER;
services.config.plans.enterprise.monthlyCredits = Number.MAX_SAFE_INTEGER;
const { organization } = createOrganization(services.state, { name: 'bench', plan: 'enterprise' }, new Date());
/** A fresh token every `per` calls keeps the per-token rate limits (60 and 10 a minute) out of the measurement. */
function tokens(per: number, ability: 'graph' | 'datapackage'): () => string {
  let call = 0;
  let token = '';
  return () => {
    if (call++ % per === 0) token = createToken(services.state, { organizationId: organization.id, abilities: [ability] }, new Date()).token;
    return token;
  };
}

const sources = (corpus.prepare(`SELECT DISTINCT from_decision_id AS id FROM citation_edges
  WHERE reference_type = 'case' AND to_decision_id IS NOT NULL ORDER BY random() LIMIT ?`).all(requests) as { id: string }[]).map((row) => row.id);
const packages = Array.from({ length: requests }, (_, i) => Array.from({ length: 10 }, (__, j) => sources[(i * 10 + j) % sources.length]));
const counts = corpus.prepare(`SELECT (SELECT count(*) FROM decisions) AS decisions,
  (SELECT count(*) FROM citation_edges WHERE reference_type = 'case' AND to_decision_id IS NOT NULL) AS edges`).get() as { decisions: number; edges: number };

// The raw SQL: the same neighbours and rows (with the cited decisions' metadata), without totals, caps or shaping.
const rawDepthOne = corpus.prepare(`
  SELECT d.id, d.court, d.date, d.aktenzeichen, d.ecli FROM decisions d WHERE d.id IN
    (SELECT DISTINCT to_decision_id FROM citation_edges WHERE from_decision_id = @id AND to_decision_id IS NOT NULL LIMIT 25)
  UNION ALL
  SELECT d.id, d.court, d.date, d.aktenzeichen, d.ecli FROM decisions d WHERE d.id IN
    (SELECT DISTINCT from_decision_id FROM citation_edges WHERE to_decision_id = @id LIMIT 25)`);
const rawDepthTwo = corpus.prepare(`
  WITH RECURSIVE walk(node, hop) AS (
    SELECT @id, 0
    UNION
    SELECT e.to_decision_id, w.hop + 1 FROM walk w JOIN citation_edges e ON e.from_decision_id = w.node
    WHERE w.hop < 2 AND e.to_decision_id IS NOT NULL ORDER BY 2 LIMIT 20000)
  SELECT d.id, d.court, d.date, d.aktenzeichen, d.ecli, min(w.hop) AS hop FROM walk w JOIN decisions d ON d.id = w.node
  WHERE w.node <> @id GROUP BY w.node ORDER BY hop, d.date DESC LIMIT 50`);
const rawPackage = corpus.prepare(`
  SELECT id, court, date, aktenzeichen, ecli, substr(decision_text(text_zstd), 1, 700) AS excerpt,
    (SELECT json_group_array(json_object('c', e.reference_canonical, 'rn', e.rn, 'to', t.id, 'court', t.court, 'date', t.date,
                                         'az', t.aktenzeichen, 'type', t.document_type, 'ecli', t.ecli))
     FROM citation_edges e LEFT JOIN decisions t ON t.id = e.to_decision_id
     WHERE e.from_decision_id = decisions.id AND e.reference_type = 'case') AS edges
  FROM decisions WHERE id IN (SELECT value FROM json_each(?))`);

// A bare HTTP server answering the raw SQL as JSON: the floor any HTTP endpoint stands on.
const bare = createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  let rows: unknown;
  if (url.pathname === '/depth1') rows = rawDepthOne.all({ id: url.searchParams.get('id') });
  else if (url.pathname === '/depth2') rows = rawDepthTwo.all({ id: url.searchParams.get('id') });
  else rows = rawPackage.all(url.searchParams.get('ids'));
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(rows));
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
const { server, url } = await listen(services, '127.0.0.1', 0);
// The in-process phases between HTTP phases may idle a kept-alive socket longer than the servers' default timeout.
server.keepAliveTimeout = bare.keepAliveTimeout = 600_000;
const graphToken = tokens(50, 'graph');
const packageToken = tokens(9, 'datapackage');
const ok = (response: { status: number; body: string }) => {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
};

// One untimed pass of every operation over every input first: whichever row is measured first would otherwise pay
// for reading the pages from disk into the cache, and the later rows would look cheap beside it.
for (const id of sources) {
  for (const depth of [1, 2] as const) citationGraph(corpus, publicUrl, findDecision(corpus, id), { direction: 'both', depth, page: 1 });
}
for (const ids of packages) assembleDatapackage(corpus, publicUrl, { ids, include_citations: true, full_text: false, max_chars: 60000 }, new Date());

const measures: [string, number[]][] = [];
for (const depth of [1, 2] as const) {
  const raw = depth === 1 ? rawDepthOne : rawDepthTwo;
  measures.push([`depth ${depth}: raw SQL`, await timeEach(sources, (id) => raw.all({ id }))]);
  measures.push([`depth ${depth}: raw SQL over bare HTTP`, await timeEach(sources, async (id) => ok(await httpGet(`${bareUrl}/depth${depth}?id=${id}`, {})))]);
  measures.push([`depth ${depth}: operation in-process`, await timeEach(sources, (id) =>
    JSON.stringify(citationGraph(corpus, publicUrl, findDecision(corpus, id), { direction: 'both', depth, page: 1 })))]);
  measures.push([`depth ${depth}: HTTP GET /decisions/{id}/citations`, await timeEach(sources, async (id) =>
    ok(await httpGet(`${url}/api/v1/decisions/${id}/citations?depth=${depth}`, { authorization: `Bearer ${graphToken()}` })))]);
}
measures.push(['datapackage: raw SQL', await timeEach(packages, (ids) => rawPackage.all(JSON.stringify(ids)))]);
measures.push(['datapackage: raw SQL over bare HTTP', await timeEach(packages, async (ids) =>
  ok(await httpGet(`${bareUrl}/package?ids=${encodeURIComponent(JSON.stringify(ids))}`, {})))]);
measures.push(['datapackage: operation in-process', await timeEach(packages, (ids) =>
  JSON.stringify(assembleDatapackage(corpus, publicUrl, { ids, include_citations: true, full_text: false, max_chars: 60000 }, new Date())))]);
measures.push(['datapackage: HTTP POST /datapackages (10 ids)', await timeEach(packages, async (ids) =>
  ok(await httpPost(`${url}/api/v1/datapackages`, { authorization: `Bearer ${packageToken()}` }, { ids })))]);

console.log(`citation graph and datapackages: ${sources.length} sources of ${counts.decisions} decisions, ${counts.edges} resolved edge rows, node ${process.version}`);
const table: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'p99 ms', 'x raw SQL p50', 'x bare HTTP p50']];
for (let group = 0; group < measures.length; group += 4) {
  const rawP50 = stats(measures[group][1]).p50;
  const bareP50 = stats(measures[group + 1][1]).p50;
  for (const [name, samples] of measures.slice(group, group + 4)) {
    const s = stats(samples);
    table.push([name, s.p50, s.p95, s.p99, (s.p50 / rawP50).toFixed(2), (s.p50 / bareP50).toFixed(2)]);
  }
}
printTable(table);
tearDown([server, bare], services, dir);
