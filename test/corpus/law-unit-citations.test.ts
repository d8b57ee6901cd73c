// law_unit_citations (schema/corpus.sql) counts the statute edges and their citing decisions per cited unit, kept in
// step by triggers; the laws section's priors read it instead of counting millions of edges on a search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { demoCorpus, fixtureId } from '../helpers/demo-corpus.ts';
import type Database from 'better-sqlite3';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'decisions');

/** The table's rows and the same counted from the edges, in one order. */
function counts(db: Database.Database) {
  const kept = db.prepare('SELECT law, unit, edges, decisions FROM law_unit_citations WHERE edges > 0 ORDER BY law, unit').all();
  const counted = db.prepare(`SELECT target_law AS law, coalesce(target_unit, '') AS unit, count(*) AS edges,
    count(DISTINCT from_decision_id) AS decisions FROM citation_edges WHERE reference_type = 'statute' AND target_law IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2`).all();
  return { kept, counted };
}

test('law_unit_citations follows the edges: a fresh corpus, a decision re-imported with other citations, one deleted, a recount on open', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-unit-citations-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'corpus.db');
  copyFileSync(await demoCorpus(), path);
  const db = openCorpus(path);
  let { kept, counted } = counts(db);
  assert.ok(counted.length > 10, 'the demo corpus cites statutes');
  assert.deepEqual(kept, counted);
  const repeated = counted.find((row: any) => row.edges > row.decisions);
  assert.ok(repeated, 'some unit is cited more than once by one decision (edges and decisions differ)');

  // The third fixture again with its § 573 citations turned into § 574a: its old edges go, new ones come.
  const changed = readFileSync(join(FIXTURES, 'JURA000000003.xml'), 'utf8').replaceAll('§ 573', '§ 574a');
  writeFileSync(join(dir, 'JURA000000003.xml'), changed);
  const summary = await importPaths(db, [join(dir, 'JURA000000003.xml')]);
  assert.deepEqual([summary.updated, summary.failed], [1, []]);
  assert.ok(db.prepare(`SELECT 1 FROM law_unit_citations WHERE law = 'BGB' AND unit = '§ 574a' AND edges > 0`).get(), 'the new citations counted');
  ({ kept, counted } = counts(db));
  assert.deepEqual(kept, counted);

  db.prepare('DELETE FROM decisions WHERE id = ?').run(fixtureId(2));
  ({ kept, counted } = counts(db));
  assert.deepEqual(kept, counted);

  // Counts out of step (as a file of this version written before the table would have none) are counted anew on a
  // writable open.
  db.exec(`UPDATE law_unit_citations SET edges = 999, decisions = 999; DELETE FROM meta WHERE key = 'law_unit_citations'`);
  db.close();
  const reopened = openCorpus(path);
  ({ kept, counted } = counts(reopened));
  assert.deepEqual(kept, counted);
  reopened.close();
});
