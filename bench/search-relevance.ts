/**
 * Relevance of search per mode on the judged set bench/search-relevance.json: recall@10 and MRR (of the first
 * relevant item in the top 10), per kind (lay / legal).
 *
 *   node bench/search-relevance.ts
 *
 * Three tables:
 * 1. decisions (GET /decisions/search), queries of source "fixtures", on the demo corpus (50 decisions);
 * 2. decisions, queries of source "shared", on a corpus of ../shared/data (gii/core laws and the importable real
 *    decisions: decisions/rii_xml, decisions/oldp_json), built once into .tmp/search-relevance-shared.db;
 * 3. law units (the laws section of GET /search, limit 10) for both sources on their corpora: 16,000 units of 60
 *    federal laws for "shared".
 * Beside table 1, what the confidence levels mean there: per mode and level, the share of top-10 results judged
 * relevant, and how often a first result of that level is.
 * The shared tables are skipped, with a message, when ../shared/data is absent (JURALITE_SHARED_DATA overrides).
 * Semantic mode needs decision vectors; a corpus without them (too little text to train) shows n/a.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openCorpus, upgradeCorpus } from '../src/corpus/open.ts';
import { importPaths } from '../src/ingest/import-paths.ts';
import { searchDecisions, type SearchMode } from '../src/search/decision-search.ts';
import { searchCombined } from '../src/search/combined-search.ts';
import { demoCorpus } from '../test/helpers/demo-corpus.ts';
import { hasSharedData, SHARED_DATA, sharedData } from '../test/helpers/shared-data.ts';
import { printTable } from './lib.ts';

interface Query { id: string; kind: 'lay' | 'legal'; query: string; relevant_decisions: string[]; relevant_law_units: string[]; source: 'fixtures' | 'shared' }
const set = JSON.parse(readFileSync(new URL('./search-relevance.json', import.meta.url), 'utf8')) as { queries: Query[] };
const RUNS = [['keyword', false], ['keyword', true], ['semantic', false], ['semantic', true], ['hybrid', false], ['hybrid', true]] as const;
const KINDS = ['lay', 'legal'] as const;

/** recall@10 and MRR@10 of ranked keys against the judged ones. */
function scoreOf(found: (string | undefined)[], judged: string[]) {
  const relevant = new Set(judged);
  const first = found.findIndex((key) => key !== undefined && relevant.has(key));
  return { recall: new Set(found.filter((key) => key !== undefined && relevant.has(key))).size / relevant.size, mrr: first >= 0 ? 1 / (first + 1) : 0 };
}

type Ranker = (q: Query, mode: SearchMode, bridge: boolean) => Promise<(string | undefined)[] | null>;

/** One table: a row per mode, bridge and kind. A ranker answering null (semantic without vectors) gives n/a. */
async function table(title: string, queries: Query[], judged: (q: Query) => string[], rank: Ranker) {
  const rows: (string | number)[][] = [['mode', 'bridge', 'kind', 'queries', 'recall@10', 'MRR@10']];
  for (const [mode, bridge] of RUNS) {
    for (const kind of KINDS) {
      const subset = queries.filter((q) => q.kind === kind && judged(q).length > 0);
      let recall = 0;
      let mrr = 0;
      let available = true;
      for (const q of subset) {
        const found = await rank(q, mode, bridge);
        if (!found) {
          available = false;
          break;
        }
        const s = scoreOf(found, judged(q));
        recall += s.recall;
        mrr += s.mrr;
      }
      rows.push(available && subset.length > 0
        ? [mode, String(bridge), kind, String(subset.length), recall / subset.length, mrr / subset.length]
        : [mode, String(bridge), kind, String(subset.length), 'n/a', 'n/a']);
    }
  }
  console.log(`\n${title}`);
  printTable(rows);
}

/** Semantic mode on a corpus without vectors answers 503: null, shown as n/a. */
async function orUnavailable<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if ((error as { code?: string }).code === 'backend_unavailable') return null;
    throw error;
  }
}

const decisionRanker = (db: Database.Database, keyOf: (id: string) => string | undefined): Ranker => async (q, mode, bridge) => {
  const answer = await orUnavailable(() => searchDecisions(db, { query: q.query, mode, limit: 10, page: 1, bridge }));
  return answer && answer.results.map((r) => keyOf(r.id));
};

const lawRanker = (db: Database.Database): Ranker => async (q, mode, bridge) => {
  const answer = await orUnavailable(() => searchCombined(db, { query: q.query, mode, limit: 10, bridge }));
  // '§ 573 BGB' from the item's title '§ 573 BGB Ordentliche Kündigung des Vermieters' and its abbreviation.
  return answer && answer.sections.laws.map((law) => {
    const unit = /^(?:§|Art\.) \S+/u.exec(law.title ?? '')?.[0];
    return unit && law.abbreviation ? `${unit} ${law.abbreviation}` : undefined;
  });
};

/**
 * What the confidence levels mean on judged queries: per mode and level, how many of the top-10 results carried it
 * and what share of them is judged relevant; and for the first result (top_confidence), how often it is relevant.
 */
async function calibration(title: string, queries: Query[], db: Database.Database, keyOf: (id: string) => string | undefined) {
  const rows: (string | number)[][] = [['mode', 'bridge', 'confidence', 'results', 'relevant', 'first results', 'first relevant']];
  for (const [mode, bridge] of RUNS) {
    const levels = new Map<string, { results: number; relevant: number; first: number; firstRelevant: number }>();
    const level = (name: string) => levels.get(name) ?? levels.set(name, { results: 0, relevant: 0, first: 0, firstRelevant: 0 }).get(name)!;
    for (const q of queries.filter((query) => query.relevant_decisions.length > 0)) {
      const answer = await orUnavailable(() => searchDecisions(db, { query: q.query, mode, limit: 10, page: 1, bridge }));
      if (!answer) continue;
      const relevant = new Set(q.relevant_decisions);
      answer.results.forEach((result, index) => {
        const counts = level(result.confidence);
        const isRelevant = relevant.has(keyOf(result.id) ?? '');
        counts.results++;
        if (isRelevant) counts.relevant++;
        if (index === 0) {
          counts.first++;
          if (isRelevant) counts.firstRelevant++;
        }
      });
    }
    for (const name of ['high', 'medium', 'low']) {
      const counts = levels.get(name);
      if (!counts) continue;
      rows.push([mode, String(bridge), name, String(counts.results), (counts.relevant / counts.results).toFixed(2),
        String(counts.first), counts.first > 0 ? (counts.firstRelevant / counts.first).toFixed(2) : '-']);
    }
  }
  console.log(`\n${title}`);
  printTable(rows);
}

console.log(`search relevance on bench/search-relevance.json, node ${process.version}`);

// 1. Demo corpus: decisions by doknr.
const demo = openCorpus(await demoCorpus(), { readonly: true });
const doknrOf = new Map((demo.prepare('SELECT id, doknr FROM decisions').all() as { id: string; doknr: string }[]).map((r) => [r.id, r.doknr]));
const fixtures = set.queries.filter((q) => q.source === 'fixtures');
await table('decisions, source fixtures (demo corpus, 50 decisions)', fixtures, (q) => q.relevant_decisions, decisionRanker(demo, (id) => doknrOf.get(id)));
await calibration('confidence levels of decision results, source fixtures (share judged relevant)', fixtures, demo, (id) => doknrOf.get(id));

// 2. and 3. ../shared/data.
const SHARED_DB = '.tmp/search-relevance-shared.db';
async function sharedCorpus(): Promise<Database.Database> {
  if (existsSync(SHARED_DB)) {
    upgradeCorpus(SHARED_DB);
  } else {
    mkdirSync('.tmp', { recursive: true });
    const db = openCorpus(SHARED_DB);
    try {
      await importPaths(db, [sharedData('gii/core'), sharedData('decisions/rii_xml'), sharedData('decisions/oldp_json')]);
    } finally {
      db.close();
    }
  }
  return openCorpus(SHARED_DB, { readonly: true });
}

/** The judged key of a shared decision: doknr:, ecli:, or az:<court>|<date>|<Aktenzeichen>, as the set writes it. */
function sharedKeys(db: Database.Database): (id: string) => string | undefined {
  const rows = db.prepare(`SELECT d.id, d.doknr, d.ecli, d.court, d.court_raw, d.date, f.aktenzeichen FROM decisions d
    LEFT JOIN decision_file_numbers f ON f.decision_id = d.id AND f.position = 0`).all() as Record<string, string | null>[];
  const judged = new Set(set.queries.filter((q) => q.source === 'shared').flatMap((q) => q.relevant_decisions));
  const keys = new Map<string, string>();
  for (const row of rows) {
    const candidates = [`doknr:${row.doknr}`, `ecli:${row.ecli}`,
      ...[row.court, row.court_raw].map((court) => `az:${court}|${row.date}|${row.aktenzeichen}`)];
    const key = candidates.find((candidate) => judged.has(candidate));
    if (key) keys.set(row.id!, key);
  }
  return (id) => keys.get(id);
}

await table('law units (laws section of GET /search), source fixtures (demo corpus, 24 law excerpts)', fixtures,
  (q) => q.relevant_law_units, lawRanker(demo));

const shared = set.queries.filter((q) => q.source === 'shared');
if (!hasSharedData) {
  console.log(`\nshared-data tables skipped: ../shared/data not found at ${SHARED_DATA}`);
} else {
  const db = await sharedCorpus();
  const counts = db.prepare(`SELECT (SELECT count(*) FROM decisions) AS decisions, (SELECT count(*) FROM law_units) AS units,
    (SELECT count(*) FROM search_vectors) AS vectors`).get() as Record<string, number>;
  const keyOf = sharedKeys(db);
  const held = new Set((db.prepare('SELECT id FROM decisions').all() as { id: string }[]).map((r) => keyOf(r.id)));
  const missing = [...new Set(shared.flatMap((q) => q.relevant_decisions))].filter((key) => !held.has(key));
  if (missing.length > 0) console.log(`judged shared decisions not in the corpus: ${missing.join(', ')}`);
  await table(`decisions, source shared (../shared/data corpus: ${counts.decisions} decisions, ${counts.vectors} vectors; few decisions, so MRR says more than recall)`,
    shared, (q) => q.relevant_decisions, decisionRanker(db, keyOf));
  await table(`law units (laws section of GET /search), source shared (gii/core: ${counts.units} units; law units carry no vectors, so semantic = hybrid here)`,
    shared, (q) => q.relevant_law_units, lawRanker(db));
  db.close();
}
demo.close();
