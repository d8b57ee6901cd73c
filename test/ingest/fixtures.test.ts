// The project's demo corpus (fixtures/, written by the project) must import cleanly. Skips while it is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importPaths } from '../../src/ingest/index.ts';
import { tempCorpus } from './helpers.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures', import.meta.url));
const decisionsDir = `${FIXTURES}/decisions`;
const lawsDir = `${FIXTURES}/laws`;
const count = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => /\.xml$/u.test(String(f))).length : 0);

test('fixtures/ imports without failures, every decision with sections and chunks, every court known', {
  skip: count(decisionsDir) + count(lawsDir) === 0 ? 'fixtures/ holds no documents yet' : false,
}, async (t) => {
  const { db } = tempCorpus(t);
  const paths = [decisionsDir, lawsDir].filter(existsSync);
  const summary = await importPaths(db, paths);
  assert.deepEqual(summary.failed, []);
  assert.equal(summary.decisions, count(decisionsDir));
  if (count(lawsDir) > 0) assert.ok(summary.laws > 0);
  const empty = db.prepare(`SELECT d.doknr FROM decisions d WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.decision_id = d.id)
    OR NOT EXISTS (SELECT 1 FROM decision_sections s WHERE s.decision_id = d.id)`).all();
  assert.deepEqual(empty, []);
  const unknown = db.prepare("SELECT DISTINCT d.court_raw FROM decisions d JOIN courts c ON c.code = d.court WHERE c.branch = 'unbekannt'").all();
  assert.deepEqual(unknown, []);
  const again = await importPaths(db, paths);
  assert.deepEqual([again.imported, again.updated], [0, 0]);
});
