/**
 * Where a new search's time goes (issue [ranking] item 4): each step of searchDecisions timed on its own, in-process,
 * for new queries (the answer cache and the kept page texts emptied before each), beside the whole search and the same
 * search over HTTP, interleaved query by query (rotated: each runs first for a third of the queries). Keyword: the exact-citation check,
 * the bridge, the plan (query analysis and compound lookups, bridge included), the expression, the ranking (top-k or
 * full: which one answered is counted), the count alone (not in the sum: the ranking holds it), the row ids to
 * decisions, the page (chunks and texts, passages, snippets and Randnummern), frequently_cited_by_results, JSON.
 * Hybrid: the query vector, the plan, the lexical arm as typed and widened, the vector arm (scan and float re-ranking),
 * the norm arm, fusion, then the page as above.
 *
 *   node bench/request-profile.ts --db .tmp/bench-100k-lead.db [--queries 120] [--modes keyword,hybrid] [--before DIR]
 *
 * --before DIR: an older checkout (`git archive 70fa74e | tar -x -C DIR`): its searchDecisions and this tree's, each on
 * its own read-only connection to the corpus, timed interleaved query by query (new queries, order alternating), and
 * then the same query over HTTP to each tree's own server (its bench/lib.ts searchService).
 * --before-db FILE: the older checkout reads this copy of the corpus instead (the same decisions with the impact lists
 * as its code builds them; this tree's lists hold more).
 * --lists SIDE: this tree reads the impact lists of SIDE (bench/lists-beside.ts: built beside a corpus it must not write).
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { httpGet, printTable, stats, searchService } from './lib.ts';
import { benchQueries } from './search-queries.ts';
import { clearAnswers } from '../src/search/answer-cache.ts';
import { dropPageTexts } from '../src/search/page-texts.ts';
import { pageItems, queryVectorFor, rankDecisions, searchDecisions, type Ranking } from '../src/search/decision-search.ts';
import { exactCitationOf } from '../src/search/exact-citation.ts';
import { layTermsOf } from '../src/search/bridge.ts';
import { planQuery } from '../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf } from '../src/search/query.ts';
import { filterSql } from '../src/search/filters.ts';
import { rankDecisionRows } from '../src/search/rank-helper.ts';
import { COUNT_CAP, matching } from '../src/search/rank-range.ts';
import { topKServed } from '../src/search/top-k.ts';
import { DECISION_POOL, lexicalArm } from '../src/search/lexical.ts';
import { semanticArm } from '../src/search/semantic.ts';
import { normArm } from '../src/search/norm-arm.ts';
import { reciprocalRankFusion } from '../src/search/fusion.ts';
import { PageChunks } from '../src/search/page-chunks.ts';
import { decisionItems } from '../src/search/results.ts';
import { frequentlyCitedByRows } from '../src/search/cited-by-results.ts';
import { sql } from '../src/db/statements.ts';
import { listsBeside } from './lists-beside.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, queries: { type: 'string', default: '120' }, modes: { type: 'string', default: 'keyword,hybrid' },
  before: { type: 'string' }, 'before-db': { type: 'string' }, lists: { type: 'string' },
} });
if (!values.db) {
  console.error('usage: node bench/request-profile.ts --db CORPUS [--queries N] [--modes keyword,hybrid]');
  process.exit(2);
}
const WARMUP = 15;
const service = await searchService(values.db);
const db = service.corpus;
if (values.lists) listsBeside(db, values.lists);
const forget = () => {
  clearAnswers(db);
  dropPageTexts(db);
};

type Mode = 'keyword' | 'hybrid';
/** Step times of one query, in order; `sum` false for rows shown but not added (a part of another step). */
type Steps = Map<string, { ms: number; sum: boolean }>;

function timer(steps: Steps) {
  return <T>(name: string, work: () => T, sum = true): T => {
    const started = performance.now();
    const result = work();
    const ms = performance.now() - started;
    const held = steps.get(name);
    steps.set(name, { ms: (held?.ms ?? 0) + ms, sum });
    return result;
  };
}

/** The page as pageItems builds it, in its parts. */
function pageSteps(time: ReturnType<typeof timer>, ranking: Ranking) {
  const slice = ranking.decisions.slice(0, 20);
  const groups = ranking.plan?.groups ?? [];
  const page = time('page: chunks and texts', () => new PageChunks(db, slice.map((entry) => entry.decision_id), groups));
  let ranked = ranking.pageOf ? ranking.pageOf(slice.map((entry) => entry.decision_id), page) : slice;
  if (ranking.fillPage) ranked = time('page: passages (query words in chunks)', () => ranking.fillPage!(ranked, page));
  const items = time('page: items (snippets, Randnummern, rows)', () => decisionItems(ranked, groups, false, page));
  const cited = time('frequently_cited_by_results', () => frequentlyCitedByRows(db, items.map((item) => page.decision(item.id)!.row)));
  time('JSON of the answer', () => JSON.stringify({ results: items, frequently_cited_by_results: cited }));
}

async function keywordSteps(query: string): Promise<Steps> {
  const steps: Steps = new Map();
  const time = timer(steps);
  const args = { query, mode: 'keyword' as const, bridge: true, depth: 20 };
  db.transaction(() => {
    time('exact-citation check', () => exactCitationOf(query));
    time('bridge (lay terms), also inside the plan', () => layTermsOf(query), false);
    const plan = time('plan: analysis, compounds, bridge', () => planQuery(db, query, true));
    const filters = filterSql({});
    const [expression, phrases] = time('expression and phrases', () => [matchExpression(plan.groups, true), phrasesOf(plan.groups)] as const);
    const before = topKServed(db).proven;
    const ranking = time('ranking (top-k or full, with the count)', () => rankDecisionRows(db, expression, filters, 20, phrases));
    steps.set(topKServed(db).proven > before ? 'answered by top-k' : 'answered by the full ranking', { ms: 1, sum: false });
    time('  the count alone (inside the ranking)', () => sql<unknown[], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 ${matching(filters)} LIMIT ?)`)
      .get(expression, 0, Number.MAX_SAFE_INTEGER, ...filters.params, COUNT_CAP + 1), false);
    time('row ids to decision ids', () => sql<[string], { doc_id: number; decision_id: string }>(db,
      'SELECT doc_id, decision_id FROM search_docs WHERE doc_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ranking.docIds)));
    // The Ranking object the page needs (its ranking is timed above): built again, untimed.
    pageSteps(time, rankDecisions(db, args, true));
  })();
  return steps;
}

async function hybridSteps(query: string): Promise<Steps> {
  const steps: Steps = new Map();
  const time = timer(steps);
  const args = { query, mode: 'hybrid' as const, bridge: true, depth: 20 };
  const started = performance.now();
  const qv = await queryVectorFor(db, args, true, null);
  steps.set('query vector (embedding)', { ms: performance.now() - started, sum: true });
  db.transaction(() => {
    time('exact-citation check', () => exactCitationOf(query));
    const plan = time('plan: analysis, compounds, bridge', () => planQuery(db, query, true));
    const filters = filterSql({});
    const typedExpression = matchExpression(asTyped(plan.groups), false);
    const widenedExpression = matchExpression(plan.groups, false);
    const before = topKServed(db).proven;
    const typed = time('lexical arm: words as typed (200)', () => lexicalArm(db, typedExpression, filters, DECISION_POOL, phrasesOf(asTyped(plan.groups))));
    let lexical = typed;
    if (typedExpression !== widenedExpression && typed.exhaustive) {
      lexical = time('lexical arm: widened (200)', () => lexicalArm(db, widenedExpression, filters, DECISION_POOL, phrasesOf(plan.groups)));
    }
    steps.set(`lexical rankings proven by top-k: ${topKServed(db).proven - before}`, { ms: 1, sum: false });
    const vector = time('vector arm (scan, float re-ranking)', () => semanticArm(db, qv, {}, filters));
    const norms = time('norm arm', () => normArm(db, plan.norms, [...new Set([...lexical.entries, ...vector.entries].map((entry) => entry.decision_id))]));
    time('fusion', () => reciprocalRankFusion([{ entries: lexical.entries }, { entries: vector.entries }, { entries: norms, weight: 0.5 }]));
    pageSteps(time, rankDecisions(db, args, true, qv));
  })();
  return steps;
}

const modes = values.modes.split(',') as Mode[];
const queries = benchQueries(Number(values.queries));
const url = (mode: Mode, query: string) => `${service.url}/api/v1/decisions/search?mode=${mode}&query=${encodeURIComponent(query)}`;
for (const mode of modes) {
  const list = mode === 'keyword' ? queries.legal : queries.mixed;
  const perStep = new Map<string, { samples: number[]; sum: boolean }>();
  const sums: number[] = [];
  const whole: number[] = [];
  const http: number[] = [];
  // The same measures split by whether they ran first for their query (reading its pages into the caches) or later.
  const firstOrNot = { steps: [[], []], whole: [[], []], http: [[], []] } as Record<'steps' | 'whole' | 'http', [number[], number[]]>;
  let position = 0;
  for (const [index, query] of list.entries()) {
    const runs: (() => Promise<void>)[] = [
      async () => {
        forget();
        const steps = await (mode === 'keyword' ? keywordSteps(query) : hybridSteps(query));
        if (index < WARMUP) return;
        let sum = 0;
        for (const [name, { ms, sum: counted }] of steps) {
          let held = perStep.get(name);
          if (!held) perStep.set(name, held = { samples: [], sum: counted });
          held.samples.push(ms);
          if (counted) sum += ms;
        }
        sums.push(sum);
        firstOrNot.steps[position === 0 ? 0 : 1].push(sum);
      },
      async () => {
        forget();
        const started = performance.now();
        await searchDecisions(db, { query, mode, limit: 20, page: 1, bridge: true });
        if (index >= WARMUP) whole.push(performance.now() - started);
        if (index >= WARMUP) firstOrNot.whole[position === 0 ? 0 : 1].push(performance.now() - started);
      },
      async () => {
        forget();
        const started = performance.now();
        const response = await httpGet(url(mode, query), { authorization: service.authorization() });
        if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body}`);
        if (index >= WARMUP) http.push(performance.now() - started);
        if (index >= WARMUP) firstOrNot.http[position === 0 ? 0 : 1].push(performance.now() - started);
      },
    ];
    // A rotation per query: each measure runs first for a third of the queries.
    const order = [0, 1, 2].map((offset) => runs[(index + offset) % 3]);
    for (const [at, run] of order.entries()) {
      position = at;
      await run();
    }
  }
  const rows: (string | number)[][] = [['step', 'p50 ms', 'p95 ms', 'mean ms', 'n']];
  for (const [name, { samples, sum }] of perStep) {
    if (name.startsWith('answered') || name.startsWith('lexical rankings')) {
      rows.push([name, '', '', '', samples.length]);
      continue;
    }
    const s = stats(samples);
    rows.push([sum ? name : `(${name})`, s.p50, s.p95, s.mean.toFixed(3), samples.length]);
  }
  for (const [name, samples] of [['sum of the steps', sums], ['searchDecisions whole, in-process', whole], ['HTTP GET /decisions/search', http]] as const) {
    const s = stats(samples);
    rows.push([name, s.p50, s.p95, s.mean.toFixed(3), samples.length]);
  }
  for (const [name, [first, later]] of Object.entries(firstOrNot)) {
    rows.push([`  ${name}: run first for its query / after another`, `${stats(first).p50.toFixed(3)} / ${stats(later).p50.toFixed(3)}`, '', '', `${first.length}/${later.length}`]);
  }
  console.log(`\n${mode}: ${list.length - WARMUP} new queries (after ${WARMUP} untimed), answer cache and page texts emptied before each`);
  printTable(rows);
}

// The norm arm as it was read and as it is, interleaved on the candidates hybrid hands it (both arms' pools) for the
// lay queries whose bridge names norms: the query over the citation_edges view (every statute edge to the norm, then
// the candidates among them; before session 17), the candidates' seeks in citation_links_statutes (sessions 17-25),
// and each norm's counts kept per connection (session 26; the first read of a norm counted in its query's time).
// Answers compared.
const VIEW_QUERY = `SELECT e.from_decision_id AS id,
    (SELECT id FROM chunks WHERE decision_id = e.from_decision_id ORDER BY position LIMIT 1) AS first_chunk
  FROM citation_edges e
  WHERE e.from_decision_id IN (SELECT value FROM json_each(?)) AND e.reference_type = 'statute'
    AND (e.target_law, e.target_unit) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))
  GROUP BY e.from_decision_id ORDER BY count(*) DESC, e.from_decision_id LIMIT 200`;
const SEEKS_QUERY = `
    SELECT r.id AS id, (SELECT id FROM chunks WHERE decision_id = r.id ORDER BY position LIMIT 1) AS first_chunk
    FROM (SELECT DISTINCT value AS id FROM json_each(?)) c
    JOIN decision_rows r ON r.id = c.id
    JOIN (SELECT DISTINCT value ->> 0 AS law, value ->> 1 AS unit FROM json_each(?)) n
    JOIN citation_links l INDEXED BY citation_links_statutes
      ON l.reference_type = 'statute' AND l.target_law = n.law AND l.target_unit = n.unit AND l.from_row = r.row
    GROUP BY r.id ORDER BY count(*) DESC, r.id LIMIT 200`;
const armBy = (query: string) => (norms: { law: string; unit: string }[], candidates: string[]) => sql<[string, string], { id: string; first_chunk: number | null }>(db, query)
  .all(JSON.stringify(candidates), JSON.stringify(norms.map((n) => [n.law, n.unit])))
  .filter((row) => row.first_chunk !== null).map((row) => ({ decision_id: row.id, chunks: [row.first_chunk!] }));
const armWays: [string, (norms: { law: string; unit: string }[], candidates: string[]) => unknown][] = [
  ['over the citation_edges view (before session 17)', armBy(VIEW_QUERY)],
  ['seeks per candidate and norm (sessions 17-25)', armBy(SEEKS_QUERY)],
  ["each norm's counts kept (now)", (norms, candidates) => normArm(db, norms, candidates)],
];
const armTimes: number[][] = armWays.map(() => []);
let armSame = 0;
let armAsked = 0;
for (const [index, query] of queries.lay.entries()) {
  const plan = planQuery(db, query, true);
  if (plan.norms.length === 0) continue;
  const qv = await queryVectorFor(db, { query, mode: 'hybrid', bridge: true }, true, null);
  const filters = filterSql({});
  const lexical = lexicalArm(db, matchExpression(asTyped(plan.groups), false), filters, DECISION_POOL, phrasesOf(asTyped(plan.groups)));
  const candidates = [...new Set([...lexical.entries, ...semanticArm(db, qv, {}, filters).entries].map((entry) => entry.decision_id))];
  const answers: string[] = [];
  const order = armWays.map((_, way) => way);
  for (let turn = 0; turn < index % order.length; turn++) order.push(order.shift()!);
  for (const way of order) {
    const started = performance.now();
    answers[way] = JSON.stringify(armWays[way]![1](plan.norms, candidates));
    armTimes[way]!.push(performance.now() - started);
  }
  armAsked++;
  if (answers.every((answer) => answer === answers[0])) armSame++;
}
const armRows: (string | number)[][] = [['norm arm, lay queries with norms', 'p50 ms', 'p95 ms', 'mean ms', 'x seeks p50']];
for (const [way, [name]] of armWays.entries()) {
  const s = stats(armTimes[way]!);
  armRows.push([name, s.p50, s.p95, s.mean.toFixed(3), (s.p50 / stats(armTimes[1]!).p50).toFixed(2)]);
}
console.log(`\nnorm arm: ${armAsked} lay queries with norms, the three ways interleaved (rotated), identical answers ${armSame}/${armAsked}`);
printTable(armRows);

if (values.before) {
  const tree = async (root: string, file: string, lists?: string) => {
    const load = (path: string) => import(pathToFileURL(join(resolve(root), path)).href);
    const [search, open, answers, texts, lib] = await Promise.all([load('src/search/decision-search.ts'), load('src/corpus/open.ts'),
      load('src/search/answer-cache.ts'), load('src/search/page-texts.ts'), load('bench/lib.ts')]);
    const connection = open.openCorpus(file, { readonly: true });
    // The tree's own server too (its bench/lib.ts), for the same new queries over HTTP.
    const served = await lib.searchService(file) as typeof service;
    for (const on of [connection, served.corpus]) if (lists) listsBeside(on, lists);
    return {
      connection,
      served,
      run: async (query: string, mode: Mode) => {
        answers.clearAnswers(connection);
        texts.dropPageTexts(connection);
        return JSON.stringify(await search.searchDecisions(connection, { query, mode, limit: 20, page: 1, bridge: true }));
      },
      http: async (query: string, mode: Mode) => {
        answers.clearAnswers(served.corpus);
        texts.dropPageTexts(served.corpus);
        await httpGet(`${served.url}/api/v1/decisions/search?${new URLSearchParams({ query, mode })}`, { authorization: served.authorization() });
      },
    };
  };
  const trees = [await tree(values.before, values['before-db'] ?? values.db), await tree('.', values.db, values.lists)];
  for (const mode of modes) {
    const list = mode === 'keyword' ? queries.legal : queries.mixed;
    // Per tree, all queries and (hybrid's mixed list alternates them) the lay ones alone.
    const times: [number[], number[]] = [[], []];
    const overHttp: [number[], number[]] = [[], []];
    const lay: [number[], number[]] = [[], []];
    let same = 0;
    for (const [index, query] of list.entries()) {
      const answers: string[] = [];
      // The order alternates every two queries: the mixed list alternates legal and lay query by query.
      for (const which of Math.floor(index / 2) % 2 === 0 ? [0, 1] : [1, 0]) {
        const started = performance.now();
        answers[which] = await trees[which].run(query, mode);
        const ms = performance.now() - started;
        if (index >= WARMUP) times[which].push(ms);
        if (index >= WARMUP && mode === 'hybrid' && index % 2 === 1) lay[which].push(ms);
      }
      for (const which of Math.floor(index / 2) % 2 === 0 ? [1, 0] : [0, 1]) {
        const started = performance.now();
        await trees[which].http(query, mode);
        if (index >= WARMUP) overHttp[which].push(performance.now() - started);
      }
      if (answers[0] === answers[1]) same++;
    }
    const abRows: (string | number)[][] = [[`${mode}: searchDecisions, new query`, 'p50 ms', 'p95 ms', 'mean ms', 'x before p50']];
    for (const [label, samples] of [['', times], [', lay queries', lay], [', HTTP GET', overHttp]] as const) {
      if (samples[0].length === 0) continue;
      for (const [which, name] of ['before', 'this tree'].entries()) {
        const s = stats(samples[which]);
        abRows.push([`${name}${label}`, s.p50, s.p95, s.mean.toFixed(3), (s.p50 / stats(samples[0]).p50).toFixed(2)]);
      }
    }
    console.log(`\n${mode}: ${list.length - WARMUP} new queries, before and this tree interleaved, identical answers ${same}/${list.length}`);
    printTable(abRows);
  }
  for (const { connection, served } of trees) {
    connection.close();
    served.close();
  }
}
service.close();
