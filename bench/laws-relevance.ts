/**
 * Relevance of the laws section of GET /search (endpoint 11) on the judged laws sets, over the laws corpus of
 * bench/laws-corpus.ts (the relevance corpus plus all 6,877 federal laws): the tuning set
 * bench/search-relevance-laws.json (the weights and bridge entries were chosen on it) and the held-out set
 * bench/search-relevance-laws-heldout.json (never tuned on): MRR@10, R@1 and R@10 per kind (legal, lay) and mode,
 * in-process (the handler's code path), the whole search's time per query, then what the laws' confidence levels mean
 * (share of law results judged relevant per level, and of the section's first result).
 *
 *   node bench/laws-relevance.ts [--set tuning|heldout]   # both sets without --set
 *
 * The peers (Xapian, PostgreSQL) are scored on the same set over the same law units by `node bench/peers/run.ts
 * --laws`, which prints these rows beside theirs. Needs ../shared/data.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type Database from 'better-sqlite3';
import { searchCombined } from '../src/search/combined-search.ts';
import { hasSharedData } from '../test/helpers/shared-data.ts';
import { printTable, stats } from './lib.ts';
import { lawsCorpus } from './laws-corpus.ts';
import { chosenSets, HEADER, orUnavailable, scoreRows, type Query } from './search-relevance.ts';

interface LawQuery { id: string; kind: 'legal' | 'lay'; query: string; relevant_law_units: string[] }

/** A judged laws set as scoreRows reads it: the judged units in place of decisions. */
const readLawSet = (file: string): Query[] => (JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { queries: LawQuery[] })
  .queries.map((q) => ({ ...q, relevant_decisions: q.relevant_law_units, source: 'shared' }));

/** The tuning set (the laws section's weights and bridge entries were chosen on it). */
export const lawQueries: Query[] = readLawSet('./search-relevance-laws.json');
/** The held-out set (session 17: written without reading the bridge or the failures; never tuned on). */
export const heldoutLawQueries: Query[] = readLawSet('./search-relevance-laws-heldout.json');
/** Both sets by name, in the order they are printed. */
export const LAW_SETS: Record<'tuning' | 'heldout', Query[]> = { tuning: lawQueries, heldout: heldoutLawQueries };

/** The sets named by `--set NAME` (both without it). */
export const chosenLawSets = (argv: string[]) => chosenSets(argv, LAW_SETS);

/** '§ 573 BGB' of a law item, as the judged set names units. */
const unitKey = (law: { title: string; abbreviation: string }) => {
  const unit = /^(?:§|Art\.) \S+/u.exec(law.title)?.[0];
  return unit ? [`${unit} ${law.abbreviation}`] : [];
};

/**
 * juralite's rows on a laws set per mode and kind, the confidence table of its law results, and the whole search's
 * time per query and mode (in-process, both sections; the first search of a mode warms its statements).
 */
export async function juraliteLawRows(db: Database.Database, queries: Query[] = lawQueries) {
  const rows: (string | number)[][] = [];
  const confidence: (string | number)[][] = [];
  const timing: (string | number)[][] = [];
  for (const mode of ['hybrid', 'keyword', 'semantic'] as const) {
    const levels = new Map<string, { results: number; relevant: number; first: number; firstRelevant: number }>();
    const took: number[] = [];
    rows.push(...await scoreRows('juralite', mode === 'hybrid' ? 'hybrid (default)' : mode, queries, async (q) => {
      const started = performance.now();
      const answer = await orUnavailable(() => searchCombined(db, { query: q.query, mode, limit: 10, bridge: true }));
      took.push(performance.now() - started);
      if (!answer) return null;
      const relevant = new Set(q.relevant_decisions);
      answer.sections.laws.forEach((law, index) => {
        const counts = levels.get(law.confidence) ?? levels.set(law.confidence, { results: 0, relevant: 0, first: 0, firstRelevant: 0 }).get(law.confidence)!;
        const isRelevant = unitKey(law).some((key) => relevant.has(key));
        counts.results++;
        if (isRelevant) counts.relevant++;
        if (index === 0) {
          counts.first++;
          if (isRelevant) counts.firstRelevant++;
        }
      });
      return answer.sections.laws.map(unitKey);
    }));
    for (const name of ['high', 'medium', 'low']) {
      const c = levels.get(name);
      if (c) confidence.push([mode, name, String(c.results), (c.relevant / c.results).toFixed(2), String(c.first), c.first > 0 ? (c.firstRelevant / c.first).toFixed(2) : '-']);
    }
    const s = stats(took);
    timing.push([mode, String(s.n), s.p50.toFixed(1), s.p95.toFixed(1)]);
  }
  return { rows, confidence, timing };
}

export const CONFIDENCE_HEADER = ['mode', 'confidence', 'law results', 'relevant', 'first results', 'first relevant'];
export const TIMING_HEADER = ['mode', 'queries', 'p50 ms', 'p95 ms'];

if (import.meta.main) {
  if (!hasSharedData) {
    console.log('laws relevance: ../shared/data not found; nothing to score');
    process.exit(0);
  }
  const db = await lawsCorpus();
  const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  for (const [set, queries] of chosenLawSets(process.argv)) {
    console.log(`\nlaws relevance, ${set} set: ${queries.length} judged queries over ${count('law_units')} law units of ${count('laws')} laws, node ${process.version}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const { rows, confidence, timing } = await juraliteLawRows(db, queries);
    printTable([HEADER, ...rows]);
    console.log(`\nconfidence levels of the laws section, ${set} set (top 10; share judged relevant; the first result alone)`);
    printTable([CONFIDENCE_HEADER, ...confidence]);
    console.log(`\nthe whole GET /search in-process per query, ${set} set (both sections, limit 10)`);
    printTable([TIMING_HEADER, ...timing]);
  }
  db.close();
}
