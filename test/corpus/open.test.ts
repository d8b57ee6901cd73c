import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_PAGE_SIZE, CORPUS_SCHEMA_VERSION, corpusSchemaSql, getMeta, openCorpus } from '../../src/corpus/open.ts';
import { findLaw } from '../../src/corpus/law-store.ts';
import { openState } from '../../src/accounts/state-db.ts';
import Database from 'better-sqlite3';

function tempDb(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-open-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'corpus.db');
}

test('openCorpus creates the schema, sets the pragmas and loads sqlite-vec', (t) => {
  const path = tempDb(t);
  const db = openCorpus(path);
  try {
    assert.equal(db.pragma('user_version', { simple: true }), CORPUS_SCHEMA_VERSION);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('synchronous', { simple: true }), 1);
    assert.equal(db.pragma('busy_timeout', { simple: true }), 5000);
    assert.equal(db.pragma('page_size', { simple: true }), CORPUS_PAGE_SIZE);
    const vec = db.prepare('SELECT vec_version() AS v').get() as { v: string };
    assert.match(vec.v, /^v\d/);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    for (const name of ['meta', 'courts', 'decisions', 'row_file_numbers', 'row_sections', 'row_randnummern',
      'row_chunks', 'row_norms', 'laws', 'law_aliases', 'law_units', 'decision_rows', 'citation_links', 'coverage_ranges']) {
      assert.ok(tables.includes(name), name);
    }
    // The graph (schema 3) and a decision's parts (schema 4) are read through views on the integer-keyed tables.
    for (const name of ['citation_edges', 'decision_file_numbers', 'decision_sections', 'decision_randnummern', 'chunks',
      'decision_norms']) {
      assert.equal(db.prepare(`SELECT type FROM sqlite_master WHERE name = ?`).pluck().get(name), 'view', name);
    }
    assert.equal(getMeta(db, 'schema_version'), String(CORPUS_SCHEMA_VERSION));
    assert.ok(getMeta(db, 'built_at'));
  } finally {
    db.close();
  }
});

test('a new corpus holds the federal courts and the EU / international catalogue without text', (t) => {
  const db = openCorpus(tempDb(t));
  try {
    const courts = db.prepare("SELECT code FROM courts WHERE level = 'federal' ORDER BY code").all() as { code: string }[];
    assert.deepEqual(courts.map((c) => c.code), ['BAG', 'BFH', 'BGH', 'BPatG', 'BSG', 'BVerfG', 'BVerwG']);
    const dsgvo = findLaw(db, 'DS-GVO');
    assert.equal(dsgvo?.abbreviation, 'DSGVO');
    assert.equal(dsgvo?.jurisdiction, 'EU');
    assert.equal(dsgvo?.text_available, 0);
    const units = db.prepare('SELECT count(*) AS n, count(text) AS t FROM law_units WHERE law_id = ?').get(dsgvo!.id) as { n: number; t: number };
    assert.deepEqual(units, { n: 99, t: 0 });
    assert.equal(findLaw(db, 'EuGVVO')?.abbreviation, 'Brüssel Ia-VO');
    assert.equal(findLaw(db, 'Europäische Menschenrechtskonvention')?.jurisdiction, 'XI');
  } finally {
    db.close();
  }
});

test('reopening is idempotent and a read-only open applies nothing', (t) => {
  const path = tempDb(t);
  const first = openCorpus(path);
  const laws = (first.prepare('SELECT count(*) AS n FROM laws').get() as { n: number }).n;
  const builtAt = getMeta(first, 'built_at');
  first.close();
  const second = openCorpus(path);
  assert.equal((second.prepare('SELECT count(*) AS n FROM laws').get() as { n: number }).n, laws);
  assert.equal(getMeta(second, 'built_at'), builtAt);
  second.close();
  const ro = openCorpus(path, { readonly: true });
  try {
    assert.throws(() => ro.prepare("INSERT INTO meta (key, value) VALUES ('x', 'y')").run());
    assert.equal((ro.prepare('SELECT count(*) AS n FROM laws').get() as { n: number }).n, laws);
  } finally {
    ro.close();
  }
  assert.throws(() => openCorpus(join(path, '..', 'missing.db'), { readonly: true }));
});

test('a corpus of a newer schema version is refused', (t) => {
  const path = tempDb(t);
  const db = openCorpus(path);
  db.pragma(`user_version = ${CORPUS_SCHEMA_VERSION + 1}`);
  db.close();
  assert.throws(() => openCorpus(path), /schema version/);
});

test('another SQLite file (the state database, say) is refused as no corpus, and left as it was', (t) => {
  const path = tempDb(t);
  openState(path).close();
  const before = readFileSync(path);
  assert.throws(() => openCorpus(path), /is no juralite corpus/);
  assert.throws(() => openCorpus(path, { readonly: true }), /is no juralite corpus/);
  assert.deepEqual(readFileSync(path), before);
  // One without a schema version of its own: no corpus schema is written into it either.
  const other = new Database(`${path}.other`);
  other.exec('CREATE TABLE notes (text TEXT)');
  other.close();
  assert.throws(() => openCorpus(`${path}.other`), /is no juralite corpus/);
  const reopened = new Database(`${path}.other`, { readonly: true });
  t.after(() => reopened.close());
  assert.equal(reopened.pragma('journal_mode', { simple: true }), 'delete', 'not switched to WAL before the refusal');
});

test('an existing corpus keeps its page size', (t) => {
  const path = tempDb(t);
  const made = new Database(path);
  made.pragma('page_size = 4096');
  made.exec(corpusSchemaSql());
  made.close();
  const db = openCorpus(path);
  try {
    assert.equal(db.pragma('page_size', { simple: true }), 4096);
    assert.notEqual(CORPUS_PAGE_SIZE, 4096);
  } finally {
    db.close();
  }
});
