/**
 * The vector arm's scan (issues [ranking] item 4 and [scale]): sqlite-vec's KNN query beside the in-memory bit index
 * (src/search/bit-index.ts), per corpus, interleaved query by query so their ratio holds on a machine whose speed
 * drifts:
 *
 *   node bench/vector-scan.ts --db /work/main/.tmp/bench-100k.db --db /work/main/.tmp/scale/scale-500000.db [--queries 150] [--http]
 *
 * Each corpus is opened read-only. Per corpus: building the index (time, MB held, the process's resident memory
 * before and after); per filter, vec0's scan and the index's (k = 80, the vector arm's candidates), their ratio and
 * how many of their lists were identical (vec_ids in order); then where the whole arm's time goes: the query's
 * embedding, reading the bit chunks alone (SQL, what vec0 reads before any distance), the scan, the float
 * re-ranking (80 vectors read from search_vectors) and semanticArm as served, and a reciprocal rank fusion of a
 * lexical pool of 200 with the 80. Queries: bench/search-queries.ts (mixed), the same in every row. --http adds
 * GET /decisions/search in hybrid and semantic mode through a served corpus (read-only, as `juralite serve` opens it),
 * each query with the bit index and with vec0's query, interleaved, the answer cache emptied before each.
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { openCorpus } from '../src/corpus/open.ts';
import { queryVector, type QueryVector } from '../src/search/embedder.ts';
import { semanticArm, VECTOR_CANDIDATES } from '../src/search/semantic.ts';
import { filterSql, type DecisionFilters } from '../src/search/filters.ts';
import { entriesOf, reciprocalRankFusion } from '../src/search/fusion.ts';
import { blobFloats, dot, signBits } from '../src/search/vector-math.ts';
import { currentBitIndex, dropBitIndex, withoutBitIndex } from '../src/search/bit-index.ts';
import { clearAnswers } from '../src/search/answer-cache.ts';
import { knnFilter, vec0Nearest, VEC_TABLE } from '../src/search/vector-store.ts';
import { benchQueries } from './search-queries.ts';
import { httpGet, printTable, searchService, stats, timeEach, timeInterleaved } from './lib.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string', multiple: true }, queries: { type: 'string', default: '150' }, http: { type: 'boolean', default: false },
} });
if (!values.db?.length) {
  console.error('usage: node bench/vector-scan.ts --db CORPUS [--db CORPUS ...] [--queries N]');
  process.exit(2);
}
/** A query vector that exists. */
type Ready = Extract<QueryVector, { status: 'ready' }> & { vector: Float32Array };
const k = VECTOR_CANDIDATES;
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
const FILTERS: [string, DecisionFilters][] = [
  ['none', {}], ['court=BGH', { court: 'BGH' }], ['date 2015-2018', { date_from: '2015-01-01', date_to: '2018-12-31' }],
  ['document_type=Beschluss', { document_type: 'Beschluss' }],
];

for (const path of values.db) {
  const db = openCorpus(path, { readonly: true });
  const decisions = (db.prepare(`SELECT count(*) AS n FROM ${VEC_TABLE}`).get() as { n: number }).n;
  console.log(`\n${path}: ${decisions.toLocaleString('en')} decision vectors; node ${process.version}; load ${load()}`);

  const queries: Ready[] = [];
  const embedMs = await timeEach(benchQueries(Number(values.queries)).mixed, async (query) => {
    const qv = await queryVector(db, query, null);
    if (qv.status === 'ready' && qv.vector) queries.push(qv as Ready);
  }, 1);
  if (queries.length === 0) throw new Error(`${path}: no query vectors (no vectors in this corpus?)`);

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  dropBitIndex(db);
  const started = performance.now();
  const index = db.transaction(() => currentBitIndex(db, VEC_TABLE))();
  const buildMs = performance.now() - started;
  if (!index) throw new Error(`${path}: the bit index does not read this file's vec0 tables`);
  global.gc?.();
  console.log(`bit index: built in ${buildMs.toFixed(0)} ms; holds ${mb(index.byteLength)} MB; resident memory `
    + `${mb(rssBefore)} -> ${mb(process.memoryUsage().rss)} MB`);

  const table: (string | number)[][] = [['filter (k = 80)', 'vec0 p50 ms', 'vec0 p95', 'bit index p50 ms', 'bit index p95', 'vec0 / index p50', 'identical lists']];
  for (const [name, filters] of FILTERS) {
    const filter = knnFilter(db, filters);
    if (!filter) continue;
    let same = 0;
    const [vec0, ours] = await timeInterleaved(queries, [
      (qv) => vec0Nearest(db, signBits(qv.vector), k, filter),
      (qv) => index.nearest(db, signBits(qv.vector), k, filter),
    ], 5);
    for (const qv of queries) {
      const bits = signBits(qv.vector);
      if (vec0Nearest(db, bits, k, filter).join() === index.nearest(db, bits, k, filter).join()) same++;
    }
    const [a, b] = [stats(vec0), stats(ours)];
    table.push([name, a.p50, a.p95, b.p50, b.p95, `${(a.p50 / b.p50).toFixed(1)}x`, `${same}/${queries.length}`]);
  }
  printTable(table);

  // Where the arm's time goes (no filter).
  const none = knnFilter(db, {})!;
  const chunkBlobs = db.prepare(`SELECT vectors FROM ${VEC_TABLE}_vector_chunks00`).pluck();
  const floats = db.prepare('SELECT decision_id, vector FROM search_vectors WHERE vec_id = ?');
  const candidates = new Map(queries.map((qv) => [qv, index.nearest(db, signBits(qv.vector), k, none)]));
  const lexicalPool = entriesOf(Array.from({ length: 200 }, (_, i) => `lexical-${i}`));
  const parts: [string, (qv: Ready) => unknown][] = [
    ['read the bit chunks alone (SQL)', () => chunkBlobs.all()],
    ['vec0 KNN scan', (qv) => vec0Nearest(db, signBits(qv.vector), k, none)],
    ['bit index scan', (qv) => index.nearest(db, signBits(qv.vector), k, none)],
    ['float re-ranking (80 vectors read)', (qv) => candidates.get(qv)!.map((vecId) => dot(qv.vector, blobFloats((floats.get(vecId) as { vector: Buffer }).vector)))],
    ['semanticArm as served (scan + re-rank + ids)', (qv) => db.transaction(() => semanticArm(db, qv, {}, filterSql({})))()],
    ['fusion of 200 lexical + 80 vector entries', (qv) => reciprocalRankFusion([{ entries: lexicalPool }, { entries: entriesOf(candidates.get(qv)!.map(String)) }])],
  ];
  const partSamples = await timeInterleaved(queries, parts.map(([, run]) => run), 5);
  const parted: (string | number)[][] = [['part of the vector arm', 'p50 ms', 'p95 ms']];
  parted.push(['query embedding (trained model, loaded)', stats(embedMs.slice(1)).p50, stats(embedMs.slice(1)).p95]);
  parts.forEach(([name], i) => parted.push([name, stats(partSamples[i]).p50, stats(partSamples[i]).p95]));
  printTable(parted);
  console.log(`load after: ${load()}`);
  db.close();
  if (values.http) await overHttp(path);
}

/** Hybrid and semantic GET /decisions/search through a served corpus, with the bit index and with vec0's query. */
async function overHttp(path: string): Promise<void> {
  const { corpus, url, authorization, close } = await searchService(path);
  const get = (mode: string) => async (query: string) => {
    clearAnswers(corpus);
    const response = await httpGet(`${url}/api/v1/decisions/search?${new URLSearchParams({ query, mode })}`, { authorization: authorization() });
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  };
  const table: (string | number)[][] = [['GET /decisions/search', 'vec0 p50 ms', 'vec0 p95', 'bit index p50 ms', 'bit index p95', 'vec0 / index p50']];
  for (const mode of ['hybrid', 'semantic']) {
    const [vec0, ours] = await timeInterleaved(benchQueries(Number(values.queries)).mixed, [
      (query) => withoutBitIndex(corpus, () => get(mode)(query)), get(mode)], 5);
    const [a, b] = [stats(vec0), stats(ours)];
    table.push([`${mode}, new query, HTTP`, a.p50, a.p95, b.p50, b.p95, `${(a.p50 / b.p50).toFixed(1)}x`]);
  }
  printTable(table);
  console.log(`load after: ${load()}`);
  close();
}
