/**
 * Where the laws section of GET /search (endpoint 11) spends its time, on the judged laws sets' queries (tuning and
 * held-out) over the laws corpus of bench/laws-corpus.ts (102k law units), in-process: per mode, the whole search and
 * the laws section alone (the same options the handler passes), and in hybrid the section's steps measured apart: the
 * compound lookups, the typed and widened FTS5 passes (BM25 over every match, and a count of the matches alone for
 * comparison), the core-law pick over the matches past the pool. Each query once per mode, after a warm-up.
 *
 * With --base, an older tree of the code (its src/ extracted, e.g. `git archive 70fa74e src schema package.json | tar -x
 * -C .tmp/base`) runs beside this one on each query in turn, and their laws sections (units, order, confidence,
 * totals) are compared:
 *
 *   node bench/laws-speed.ts [--base .tmp/base]
 *
 * Needs ../shared/data (the corpus); prints, never asserts.
 */
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

/** The two entry points a tree of the code exports (the current tree's, or an older one's: --base). */
interface Code { label: string; searchCombined: typeof searchCombined; searchLaws: typeof searchLaws }

/** The laws section of an answer as compared: its units in order with their confidence, and its totals. */
const lawsOf = (answer: Awaited<ReturnType<typeof searchCombined>>) => JSON.stringify({
  laws: answer.sections.laws.map((law) => `${law.id} ${law.confidence}`), totals: answer.section_totals.laws,
});

if (import.meta.main) {
  if (!hasSharedData) {
    console.log('laws speed: ../shared/data not found; nothing to measure');
    process.exit(0);
  }
  const db = await lawsCorpus();
  const codes: Code[] = [{ label: 'this tree', searchCombined, searchLaws }];
  const base = argAfter('--base');
  if (base) {
    const root = new URL(`file://${process.cwd()}/${base}/src/search/`);
    codes.unshift({
      label: `${base}`,
      searchCombined: (await import(new URL('combined-search.ts', root).href) as { searchCombined: typeof searchCombined }).searchCombined,
      searchLaws: (await import(new URL('law-search.ts', root).href) as { searchLaws: typeof searchLaws }).searchLaws,
    });
  }
  console.log(`laws section speed, node ${process.version}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
  const rows: string[][] = [['set, mode', 'code', 'queries', 'whole search p50 (mean)', 'laws section p50 (mean)']];
  const stepNames = ['compounds', 'typed bm25', 'typed count', 'typed core pick', 'widened bm25', 'widened count', 'widened core pick'];
  const stepRows: string[][] = [['set', ...stepNames]];
  let compared = 0;
  const differ: string[] = [];
  for (const [set, queries] of Object.entries(LAW_SETS)) {
    // Warm-up: statements prepared and pages cached (the first ten queries of the set, every mode, every tree).
    for (const code of codes) for (const mode of MODES) for (const q of queries.slice(0, 10)) await code.searchCombined(db, { query: `${q.query} `, mode, limit: 10, bridge: true });
    for (const mode of MODES) {
      const whole = codes.map(() => [] as number[]);
      const section = codes.map(() => [] as number[]);
      for (const q of queries) {
        const args = { query: q.query, mode, limit: 10, bridge: true };
        // Each tree in turn on the same query (the same load, the same page cache).
        const answers: string[] = [];
        for (const [at, code] of codes.entries()) {
          const started = performance.now();
          answers.push(lawsOf(await code.searchCombined(db, args)));
          whole[at]!.push(performance.now() - started);
        }
        if (answers.length > 1) {
          compared++;
          if (answers.some((answer) => answer !== answers[0])) differ.push(`${set}|${mode}|${q.query}`);
        }
        // The section alone, with the options the handler passes (the decisions ranked again, untimed).
        const qv = await queryVectorFor(db, args, false, null);
        db.transaction(() => {
          const ranking = rankDecisions(db, { ...args, depth: args.limit }, false, qv);
          const options = lawSearchOptions(db, args, ranking, pageItems(db, ranking, 0, args.limit, true));
          for (const [at, code] of codes.entries()) time(section[at]!, () => code.searchLaws(db, options));
        })();
      }
      for (const [at, code] of codes.entries()) rows.push([`${set}, ${mode}`, code.label, String(queries.length), cell(whole[at]!), cell(section[at]!)]);
    }
    const steps = Object.fromEntries(stepNames.map((name) => [name, [] as number[]]));
    for (const q of queries) db.transaction(() => rawPasses(db, q.query, steps))();
    stepRows.push([set, ...stepNames.map((name) => cell(steps[name]!))]);
  }
  printTable(rows);
  console.log('\nhybrid steps of the laws section (this tree), ms p50 (mean) per query (raw FTS5: bm25 over every match; count: the matches alone)');
  printTable(stepRows);
  if (base) console.log(`\nlaws sections compared (units, order, confidence, totals): ${compared} queries x modes, ${differ.length} differ${differ.length ? `: ${differ.slice(0, 10).join('; ')}` : ''}`);
  console.log(`load at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  db.close();
}
