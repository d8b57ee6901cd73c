/**
 * Hybrid's arms, query by query (issue [ranking] item 4, [scale]; session 18): for new mixed queries (legal and lay
 * alternating, bench/search-queries.ts), the lexical arm (words as typed, then widened where the typed words match
 * fewer than the pool) at each pool depth asked, in rotated order, with whether the top-k path answered it and how many
 * phrases it has; the vector arm at each depth asked; the norm arm; and what fusion answers with each pool and depth
 * beside today's (pool 200, vector 80): the first page (20) the same in the same order, the same ten first, the first
 * result the same. Split by the query's kind (legal, lay) and by the arm's path (top-k proven, declined, more than
 * TOP_K_MAX_PHRASES phrases), so the slow queries show why. In-process, on the serving connection (with its rank
 * helper). Never part of `npm test`.
 *
 *   node bench/hybrid-arms.ts --db .tmp/bench-100k-s4.db [--queries 120] [--pools 200,100,60,40] [--depths 80,40]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { printTable, searchService, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';
import { queryVectorFor } from '../src/search/decision-search.ts';
import { planQuery, type SearchPlan } from '../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf } from '../src/search/query.ts';
import { filterSql } from '../src/search/filters.ts';
import { topKRanking, topKServed } from '../src/search/top-k.ts';
import { lexicalArm, type LexicalResult } from '../src/search/lexical.ts';
import { distinctAlternatives, hybridLexicalGroups } from '../src/search/hybrid-groups.ts';
import { semanticArm, type VectorArm } from '../src/search/semantic.ts';
import { normArm } from '../src/search/norm-arm.ts';
import { entriesOf, reciprocalRankFusion } from '../src/search/fusion.ts';
import { nearestDecisions } from '../src/search/vector-store.ts';

// Session 17 sent rankings of more phrases than this straight to the full ranking (bridge-widened lay queries); the
// top-k path now declines them itself where its bounds cannot prove them: they stay a group of their own here.
const TOP_K_MAX_PHRASES = 8;

const { values } = parseArgs({ options: {
  db: { type: 'string' }, queries: { type: 'string', default: '120' }, pools: { type: 'string', default: '200,100,60,40' },
  depths: { type: 'string', default: '80,40' },
} });
if (!values.db) {
  console.error('usage: node bench/hybrid-arms.ts --db CORPUS [--queries N] [--pools 200,100,60,40] [--depths 80,40]');
  process.exit(2);
}
const pools = values.pools.split(',').map(Number);
const depths = values.depths.split(',').map(Number);
const service = await searchService(values.db);
const db = service.corpus;
const filters = filterSql({});
const WARMUP = 10;

/**
 * The lexical arm as hybridRanking builds it, at `pool`: its groups (hybrid-groups.ts), the words as typed, then
 * widened where they fall short.
 */
function lexicalAt(plan: SearchPlan, query: string, pool: number): { arm: LexicalResult; path: string } {
  const groups = hybridLexicalGroups(db, plan.groups, query);
  const typedGroups = distinctAlternatives(asTyped(groups));
  const typedExpression = matchExpression(typedGroups, false);
  const widenedExpression = matchExpression(groups, false);
  const phrases = phrasesOf(typedGroups);
  const before = { ...topKServed(db) };
  const typed = lexicalArm(db, typedExpression, filters, pool, phrases);
  let arm = typed;
  if (typedExpression !== widenedExpression && typed.exhaustive) {
    const widened = lexicalArm(db, widenedExpression, filters, pool, phrasesOf(groups));
    const held = new Set(typed.entries.map((entry) => entry.decision_id));
    arm = { ...widened, entries: [...typed.entries, ...widened.entries.filter((entry) => !held.has(entry.decision_id))].slice(0, pool) };
  }
  const after = topKServed(db);
  const path = phrases.length > TOP_K_MAX_PHRASES ? `more than ${TOP_K_MAX_PHRASES} phrases`
    : after.declined > before.declined ? 'top-k declined' : after.proven > before.proven ? 'top-k proven' : 'no match';
  return { arm, path };
}

const fused = (lexical: LexicalResult, vector: VectorArm, plan: SearchPlan) => {
  const norms = normArm(db, plan.norms, [...new Set([...lexical.entries, ...vector.entries].map((entry) => entry.decision_id))]);
  return reciprocalRankFusion([{ entries: lexical.entries }, { entries: vector.entries }, { entries: norms, weight: 0.5 }])
    .map((entry) => entry.decision_id);
};
/** The vector arm with `depth` bit candidates (semanticArm without filters; it asks for at least 80). */
function vectorAt(qv: Awaited<ReturnType<typeof queryVectorFor>>, depth: number): VectorArm {
  if (depth === 80 || qv?.status !== 'ready' || !qv.vector) return semanticArm(db, qv, {}, filters);
  const { hits, scanned } = nearestDecisions(db, qv.vector, {}, depth);
  return { entries: entriesOf(hits.map((hit) => hit.decision_id)), candidates: scanned, exhaustive: scanned < depth, available: true };
}
const same = (a: string[], b: string[], n: number) => a.slice(0, n).join() === b.slice(0, n).join();

interface Row { kind: string; path: string; ms: number; page: boolean; ten: boolean; first: boolean }
const lexicalRows = new Map<number, Row[]>(pools.map((pool) => [pool, []]));
const vectorRows = new Map<number, { ms: number; page: boolean; ten: boolean; first: boolean }[]>(depths.map((depth) => [depth, []]));
const normTimes: number[] = [];
const manyPhrases = new Map<number, { ms: number; proven: boolean }[]>(pools.map((pool) => [pool, []]));
const planTimes: number[] = [];

const { mixed } = benchQueries(Number(values.queries) + WARMUP);
console.log(`hybrid arms: ${values.queries} mixed queries (after ${WARMUP} untimed), ${values.db}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const [index, query] of mixed.entries()) {
  const kind = index % 2 === 0 ? 'legal' : 'lay';
  const qv = await queryVectorFor(db, { query, mode: 'hybrid', bridge: true }, true, null);
  db.transaction(() => {
    let started = performance.now();
    const plan = planQuery(db, query, true);
    const planMs = performance.now() - started;
    const lexical = new Map<number, { arm: LexicalResult; path: string; ms: number }>();
    // Rotated: each pool runs first (reading the query's pages into the caches) for its share of the queries.
    for (let turn = 0; turn < pools.length; turn++) {
      const pool = pools[(index + turn) % pools.length];
      started = performance.now();
      const { arm, path } = lexicalAt(plan, query, pool);
      lexical.set(pool, { arm, path, ms: performance.now() - started });
    }
    // Expressions of more phrases than the limit rank in full at once: would the top-k path prove them at this pool?
    const typedGroups = distinctAlternatives(asTyped(hybridLexicalGroups(db, plan.groups, query)));
    if (phrasesOf(typedGroups).length > TOP_K_MAX_PHRASES && index >= WARMUP) {
      for (const pool of pools) {
        started = performance.now();
        const ranking = topKRanking(db, matchExpression(typedGroups, false), phrasesOf(typedGroups), filters, pool);
        manyPhrases.get(pool)!.push({ ms: performance.now() - started, proven: ranking !== null });
      }
    }
    const vectors = new Map<number, { arm: VectorArm; ms: number }>();
    for (let turn = 0; turn < depths.length; turn++) {
      const depth = depths[(index + turn) % depths.length];
      started = performance.now();
      const arm = vectorAt(qv, depth);
      vectors.set(depth, { arm, ms: performance.now() - started });
    }
    const reference = fused(lexical.get(200)?.arm ?? lexicalAt(plan, query, 200).arm, vectors.get(80)?.arm ?? semanticArm(db, qv, {}, filters), plan);
    started = performance.now();
    const base = lexical.get(200)?.arm ?? lexicalAt(plan, query, 200).arm;
    normArm(db, plan.norms, [...new Set([...base.entries, ...(vectors.get(80)?.arm.entries ?? [])].map((entry) => entry.decision_id))]);
    const normMs = performance.now() - started;
    if (index < WARMUP) return;
    planTimes.push(planMs);
    normTimes.push(normMs);
    for (const [pool, { arm, path, ms }] of lexical) {
      const ids = fused(arm, vectors.get(80)?.arm ?? semanticArm(db, qv, {}, filters), plan);
      lexicalRows.get(pool)!.push({ kind, path, ms, page: same(ids, reference, 20), ten: same(ids, reference, 10), first: same(ids, reference, 1) });
    }
    for (const [depth, { arm, ms }] of vectors) {
      const ids = fused(base, arm, plan);
      vectorRows.get(depth)!.push({ ms, page: same(ids, reference, 20), ten: same(ids, reference, 10), first: same(ids, reference, 1) });
    }
  })();
}

const share = (rows: { page: boolean }[], key: 'page' | 'ten' | 'first') => `${rows.filter((row) => (row as Record<string, unknown>)[key]).length}/${rows.length}`;
const table: (string | number)[][] = [['lexical arm (pool), queries', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'page 1 same', 'first 10 same', 'first same']];
for (const [pool, rows] of lexicalRows) {
  const groups: [string, Row[]][] = [['all', rows], ['legal', rows.filter((row) => row.kind === 'legal')], ['lay', rows.filter((row) => row.kind === 'lay')],
    ...[...new Set(rows.map((row) => row.path))].sort().map((path): [string, Row[]] => [path, rows.filter((row) => row.path === path)])];
  for (const [name, subset] of groups) {
    if (subset.length === 0) continue;
    const s = stats(subset.map((row) => row.ms));
    table.push([`pool ${pool}: ${name}`, subset.length, s.p50, s.p95, s.mean, share(subset, 'page'), share(subset, 'ten'), share(subset, 'first')]);
  }
}
for (const [pool, rows] of manyPhrases) {
  if (rows.length === 0) continue;
  const s = stats(rows.map((row) => row.ms));
  table.push([`top-k tried on more than ${TOP_K_MAX_PHRASES} phrases, pool ${pool}`, rows.length, s.p50, s.p95, s.mean,
    `proven ${rows.filter((row) => row.proven).length}/${rows.length}`, '', '']);
}
for (const [depth, rows] of vectorRows) {
  const s = stats(rows.map((row) => row.ms));
  table.push([`vector arm, ${depth} candidates`, rows.length, s.p50, s.p95, s.mean, share(rows, 'page'), share(rows, 'ten'), share(rows, 'first')]);
}
for (const [name, samples] of [['norm arm (pool 200, vector 80)', normTimes], ['plan', planTimes]] as const) {
  const s = stats(samples);
  table.push([name, samples.length, s.p50, s.p95, s.mean, '', '', '']);
}
printTable(table);

console.log(`load at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
service.close();
