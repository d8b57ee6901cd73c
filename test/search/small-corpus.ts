/**
 * A corpus file in a temp dir holding the given rii decisions (each with one paragraph of Gründe), imported with the
 * importer, removed after the test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { riiXml, type RiiOptions } from '../ingest/helpers.ts';

export async function smallCorpus(t: { after(fn: () => void): void }, decisions: (RiiOptions & { doknr: string; text: string })[]): Promise<Database.Database> {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-search-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  const files = decisions.map(({ text, ...options }) => {
    const file = join(dir, `${options.doknr}.xml`);
    writeFileSync(file, riiXml({ datum: '20240101', ...options, gruende: [{ rn: 1, text }] }));
    return file;
  });
  await importPaths(db, files);
  return db;
}
