/**
 * Relevance of the laws section of GET /search (endpoint 11) on the judged laws set bench/search-relevance-laws.json,
 * over the laws corpus of bench/laws-corpus.ts (the relevance corpus plus all 6,877 federal laws): MRR@10, R@1 and
 * R@10 per kind (legal, lay) and mode, in-process (the handler's code path), then what the laws' confidence levels mean
 * (share of law results judged relevant per level, and of the section's first result).
 *
 *   node bench/laws-relevance.ts
 *
 * The peers (Xapian, PostgreSQL) are scored on the same set over the same law units by `node bench/peers/run.ts
 * --laws`, which prints these rows beside theirs. Needs ../shared/data.
 */
import { readFileSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { searchCombined } from '../src/search/combined-search.ts';
import { hasSharedData } from '../test/helpers/shared-data.ts';
import { printTable } from './lib.ts';
import { lawsCorpus } from './laws-corpus.ts';
import { HEADER, scoreRows, type Query } from './search-relevance.ts';

interface LawQuery { id: string; kind: 'legal' | 'lay'; query: string; relevant_law_units: string[] }
export const judgedLaws = JSON.parse(readFileSync(new URL('./search-relevance-laws.json', import.meta.url), 'utf8')) as { queries: LawQuery[] };

/** The set as scoreRows reads it: the judged units in place of decisions. */
export const lawQueries: Query[] = judgedLaws.queries.map((q) => ({ ...q, relevant_decisions: q.relevant_law_units, source: 'shared' }));

/** '§ 573 BGB' of a law item, as the judged set names units. */
const unitKey = (law: { title: string; abbreviation: string }) => {
  const unit = /^(?:§|Art\.) \S+/u.exec(law.title)?.[0];
  return unit ? [`${unit} ${law.abbreviation}`] : [];
};

/** juralite's rows on the laws set per mode and kind, and the confidence table of its law results. */
export async function juraliteLawRows(db: Database.Database, queries: Query[] = lawQueries) {
  const rows: (string | number)[][] = [];
  const confidence: (string | number)[][] = [];
  for (const mode of ['hybrid', 'keyword'] as const) {
    const levels = new Map<string, { results: number; relevant: number; first: number; firstRelevant: number }>();
    rows.push(...await scoreRows('juralite', mode === 'hybrid' ? 'hybrid (default)' : mode, queries, async (q) => {
      const answer = await searchCombined(db, { query: q.query, mode, limit: 10, bridge: true });
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
  }
  return { rows, confidence };
}

export const CONFIDENCE_HEADER = ['mode', 'confidence', 'law results', 'relevant', 'first results', 'first relevant'];

if (import.meta.main) {
  if (!hasSharedData) {
    console.log('laws relevance: ../shared/data not found; nothing to score');
    process.exit(0);
  }
  const db = await lawsCorpus();
  const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  console.log(`laws relevance: ${lawQueries.length} judged queries over ${count('law_units')} law units of ${count('laws')} laws, node ${process.version}`);
  const { rows, confidence } = await juraliteLawRows(db);
  printTable([HEADER, ...rows]);
  console.log('\nconfidence levels of the laws section (top 10; share judged relevant; the first result alone)');
  printTable([CONFIDENCE_HEADER, ...confidence]);
  db.close();
}
