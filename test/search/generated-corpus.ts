/** A corpus file in a temp dir holding `count` decisions of bench/generate.ts (seed `seed`), imported, removed after the test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { generate } from '../../bench/generate.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';

export async function generatedCorpus(t: { after(fn: () => void): void }, count: number, seed: number): Promise<Database.Database> {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-generated-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  generate(count, join(dir, 'gen'), seed);
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  await importPaths(db, [join(dir, 'gen')]);
  return db;
}
