/**
 * The corpus of the judged laws section (bench/search-relevance-laws.json): the relevance corpus of
 * bench/relevance-corpus.ts (its decisions cite laws, which the law prior reads) plus all 6,877 federal laws and
 * ordinances of ../shared/data/gii/all-laws-gii-2026-04-13.tar.gz, imported with the project's importer into
 * .tmp/laws-relevance.db. Its law units are exported for the peers (bench/peers/run.ts --laws).
 *
 *   node bench/laws-corpus.ts            # builds .tmp/laws-relevance.db (once; --rebuild to start over)
 *   node bench/laws-corpus.ts --export   # also writes .tmp/laws-units.jsonl for the peers
 *
 * The export is one line per law unit with text: {key ('§ 573 BGB', as the judged set names units), law (the law's
 * title), heading, breadcrumb, body}, what juralite's law index reads of a unit.
 */
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openCorpus, upgradeCorpus } from '../src/corpus/open.ts';
import { importPaths } from '../src/ingest/import-paths.ts';
import { unitLabel } from '../src/search/index-sync.ts';
import { sharedData } from '../test/helpers/shared-data.ts';
import { relevanceCorpus, RELEVANCE_DB } from './relevance-corpus.ts';

export const LAWS_DB = '.tmp/laws-relevance.db';
export const LAWS_UNITS = '.tmp/laws-units.jsonl';

/** Builds the corpus once (or anew with rebuild) and returns it opened read-only. */
export async function lawsCorpus(rebuild = false): Promise<Database.Database> {
  if (rebuild) rmSync(LAWS_DB, { force: true });
  if (existsSync(LAWS_DB)) {
    upgradeCorpus(LAWS_DB);
  } else {
    (await relevanceCorpus()).close();
    copyFileSync(RELEVANCE_DB, `${LAWS_DB}.part`);
    const db = openCorpus(`${LAWS_DB}.part`);
    try {
      const started = performance.now();
      const summary = await importPaths(db, [sharedData('gii/all-laws-gii-2026-04-13.tar.gz')]);
      for (const failure of summary.failed) console.error(`laws corpus: not imported: ${JSON.stringify(failure)}`);
      console.log(`laws corpus: ${summary.laws} laws, ${summary.law_units} law units in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    } finally {
      db.close();
    }
    copyFileSync(`${LAWS_DB}.part`, LAWS_DB);
    rmSync(`${LAWS_DB}.part`, { force: true });
  }
  return openCorpus(LAWS_DB, { readonly: true });
}

/** Writes LAWS_UNITS: every law unit with text, keyed as the judged set names units. */
export function exportUnits(db: Database.Database): number {
  const lines: string[] = [];
  for (const u of db.prepare(`SELECT u.kind, u.number, u.heading, u.text, u.breadcrumb, l.abbreviation, l.title AS law
    FROM law_units u JOIN laws l ON l.id = u.law_id WHERE u.text IS NOT NULL ORDER BY u.rowid`).iterate() as Iterable<Record<string, string | null>>) {
    lines.push(JSON.stringify({ key: unitLabel(u as { kind: string; number: string; abbreviation: string }), law: u.law,
      heading: u.heading, breadcrumb: u.breadcrumb, body: u.text }));
  }
  writeFileSync(LAWS_UNITS, `${lines.join('\n')}\n`);
  return lines.length;
}

if (import.meta.main) {
  const db = await lawsCorpus(process.argv.includes('--rebuild'));
  const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  console.log(`${LAWS_DB}: ${count('laws')} laws, ${count('law_units')} law units, ${count('decisions')} decisions`);
  if (process.argv.includes('--export')) console.log(`${LAWS_UNITS}: ${exportUnits(db)} law units`);
  db.close();
}
