/**
 * Where the laws section of GET /search (endpoint 11) spends its time, on the judged laws sets' queries (tuning and
 * held-out) over the laws corpus of bench/laws-corpus.ts (102k law units), in-process: per mode, the whole search and
 * the laws section alone (the same options the handler passes), and in hybrid the section's steps measured apart: the
 * compound lookups, the typed and widened FTS5 passes (BM25 over every match, and a count of the matches alone for
 * comparison), the core-law pick over the matches past the pool. Each query once per mode, after a warm-up.
 *
 * The laws section's answers (units, order, confidence, totals) are written to a file, and compared with a file an
 * earlier run wrote (the code before a change):
 *
 *   node bench/laws-speed.ts [--write .tmp/laws-answers-before.json] [--compare .tmp/laws-answers-before.json]
 *
 * Needs ../shared/data (the corpus); prints, never asserts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type Database from 'better-sqlite3';
import { lawSearchOptions, searchCombined } from '../src/search/combined-search.ts';
import { pageItems, queryVectorFor, rankDecisions, type SearchMode } from '../src/search/decision-search.ts';
import { searchLaws, UNIT_WEIGHTS } from '../src/search/law-search.ts';
import { splitCompounds } from '../src/search/compound-parts.ts';
import { asTyped, matchExpression } from '../src/search/query.ts';
import { planQuery } from '../src/search/plan.ts';
import { lawPriors } from '../src/search/law-prior.ts';
import { hasSharedData } from '../test/helpers/shared-data.ts';
import { printTable, stats } from './lib.ts';
import { lawsCorpus } from './laws-corpus.ts';
import { LAW_SETS } from './laws-relevance.ts';

const MODES: SearchMode[] = ['hybrid', 'keyword', 'semantic'];
const argAfter = (flag: string) => {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

const time = <T>(samples: number[], work: () => T): T => {
  const started = performance.now();
  const result = work();
  samples.push(performance.now() - started);
  return result;
};
const cell = (samples: number[]) => {
  if (samples.length === 0) return '-';
  const s = stats(samples);
  return `${s.p50.toFixed(1)} (${s.mean.toFixed(1)})`;
};

/** The raw FTS5 passes of a hybrid query as law-search.ts runs them, timed apart. */
function rawPasses(db: Database.Database, query: string, steps: Record<string, number[]>) {
  const plan = planQuery(db, query, true);
  const groups = time(steps.compounds!, () => splitCompounds(db, 'law_units_fts', plan.groups, query, false));
  const typed = matchExpression(asTyped(groups), false);
  const widened = matchExpression(groups, false);
  const bm25 = db.prepare(`SELECT rowid, bm25(law_units_fts, ${UNIT_WEIGHTS.join(', ')}) AS bm25 FROM law_units_fts WHERE law_units_fts MATCH ?`);
  const count = db.prepare('SELECT count(*) AS n FROM law_units_fts WHERE law_units_fts MATCH ?');
  const priors = lawPriors(db);
  for (const [name, expression] of [['typed', typed], ['widened', widened === typed ? '' : widened]] as const) {
    if (expression === '') continue;
    const rows = time(steps[`${name} bm25`]!, () => bm25.all(expression) as { rowid: number; bm25: number }[]);
    time(steps[`${name} count`]!, () => count.get(expression));
    rows.sort((a, b) => a.bm25 - b.bm25 || a.rowid - b.rowid);
    time(steps[`${name} core pick`]!, () => rows.slice(200).filter((row) => priors.isCore(row.rowid)).slice(0, 100));
  }
}

if (import.meta.main) {
  if (!hasSharedData) {
    console.log('laws speed: ../shared/data not found; nothing to measure');
    process.exit(0);
  }
  const db = await lawsCorpus();
  const answers: Record<string, unknown> = {};
  console.log(`laws section speed, node ${process.version}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
  const rows: string[][] = [['set, mode', 'queries', 'whole search p50 (mean)', 'laws section p50 (mean)']];
  const stepNames = ['compounds', 'typed bm25', 'typed count', 'typed core pick', 'widened bm25', 'widened count', 'widened core pick'];
  const stepRows: string[][] = [['set', ...stepNames]];
  for (const [set, queries] of Object.entries(LAW_SETS)) {
    // Warm-up: statements prepared and pages cached (the first ten queries of the set, every mode).
    for (const mode of MODES) for (const q of queries.slice(0, 10)) await searchCombined(db, { query: `${q.query} `, mode, limit: 10, bridge: true });
    for (const mode of MODES) {
      const whole: number[] = [];
      const section: number[] = [];
      for (const q of queries) {
        const args = { query: q.query, mode, limit: 10, bridge: true };
        const started = performance.now();
        const answer = await searchCombined(db, args);
        whole.push(performance.now() - started);
        answers[`${set}|${mode}|${q.query}`] = {
          laws: answer.sections.laws.map((law) => `${law.id} ${law.confidence}`), totals: answer.section_totals.laws,
        };
        // The section alone, with the options the handler passes (the decisions ranked again, untimed).
        const qv = await queryVectorFor(db, args, false, null);
        db.transaction(() => {
          const ranking = rankDecisions(db, { ...args, depth: args.limit }, false, qv);
          const options = lawSearchOptions(db, args, ranking, pageItems(db, ranking, 0, args.limit, true));
          time(section, () => searchLaws(db, options));
        })();
      }
      rows.push([`${set}, ${mode}`, String(queries.length), cell(whole), cell(section)]);
    }
    const steps = Object.fromEntries(stepNames.map((name) => [name, [] as number[]]));
    for (const q of queries) db.transaction(() => rawPasses(db, q.query, steps))();
    stepRows.push([set, ...stepNames.map((name) => cell(steps[name]!))]);
  }
  printTable(rows);
  console.log('\nhybrid steps of the laws section, ms p50 (mean) per query (raw FTS5: bm25 over every match; count: the matches alone)');
  printTable(stepRows);
  const write = argAfter('--write');
  if (write) writeFileSync(write, JSON.stringify(answers, null, 1));
  const compare = argAfter('--compare');
  if (compare) {
    const before = JSON.parse(readFileSync(compare, 'utf8')) as Record<string, unknown>;
    const differ = Object.keys({ ...before, ...answers }).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(answers[key]));
    console.log(`\nlaws answers compared with ${compare}: ${Object.keys(answers).length} queries x modes, ${differ.length} differ${differ.length ? `: ${differ.slice(0, 10).join('; ')}` : ''}`);
  }
  db.close();
}
