// A corpus written by schema version 2 (decisions.full_text and chunks.text, the text held twice, uncompressed) or 3
// (a decision's parts keyed on its UUID) is refused by a read-only reader with the command that upgrades it, and
// upgraded in place by `juralite import`: the same texts, chunks, edges and search answers, from the text held once
// and compressed, the graph and a decision's parts on integer decision rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CORPUS_SCHEMA_VERSION, corpusNeedsUpgrade, openCorpus } from '../../src/corpus/open.ts';
import { findDecision } from '../../src/corpus/find-decision.ts';
import { readDecision } from '../../src/corpus/read-decision.ts';
import { chunkTexts } from '../../src/corpus/stored-text.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { run } from '../../src/cli/main.ts';
import { tempCorpus } from '../ingest/helpers.ts';

// schema/corpus.sql as of commit 5b520e9 (schema version 2), kept as written then.
const SCHEMA_2 = readFileSync(new URL('./fixtures/corpus-schema-2.sql', import.meta.url), 'utf8');
// schema/corpus.sql as of commit 0093474 (schema version 3), kept as written then.
const SCHEMA_3 = readFileSync(new URL('./fixtures/corpus-schema-3.sql', import.meta.url), 'utf8');

const columnsOf = (db: Database.Database, table: string) =>
  (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name);

/** A version 2 file holding the decisions of `current` as version 2 wrote them: text in full_text and in every chunk. */
function writeVersion2(current: Database.Database, path: string): void {
  const old = new Database(path);
  try {
    old.exec(SCHEMA_2);
    const text = new Map<string, string>();
    for (const { id } of current.prepare('SELECT id FROM decisions').all() as { id: string }[]) {
      text.set(id, findDecision(current, id).full_text);
    }
    old.transaction(() => {
      for (const table of ['courts', 'decision_file_numbers', 'decision_sections', 'decision_randnummern', 'decision_norms',
        'citation_edges']) {
        const rows = current.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
        const columns = Object.keys(rows[0]);
        const insert = old.prepare(`INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
        // Decisions first: the child tables refer to them.
        if (table === 'decision_file_numbers') copyDecisions(current, old, text);
        for (const row of rows) insert.run(row);
      }
      const chunk = old.prepare(`INSERT INTO chunks (id, decision_id, position, section, rn_from, rn_to, start_offset, end_offset, text)
        VALUES (@id, @decision_id, @position, @section, @rn_from, @rn_to, @start_offset, @end_offset, @text)`);
      for (const row of current.prepare('SELECT * FROM chunks').all() as Record<string, unknown>[]) {
        const cps = [...text.get(row.decision_id as string)!];
        chunk.run({ ...row, text: cps.slice(row.start_offset as number, row.end_offset as number).join('') });
      }
    })();
    assert.equal(old.pragma('user_version', { simple: true }), 2);
  } finally {
    old.close();
  }
}

function copyDecisions(current: Database.Database, old: Database.Database, text: Map<string, string>): void {
  const rows = current.prepare('SELECT * FROM decisions').all() as Record<string, unknown>[];
  const columns = [...Object.keys(rows[0]).filter((c) => c !== 'text_zstd' && c !== 'page_parts'), 'full_text'];
  const insert = old.prepare(`INSERT INTO decisions (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  for (const row of rows) insert.run({ ...row, text_zstd: undefined, full_text: text.get(row.id as string) });
}

test('a version 2 corpus is refused read-only, naming the command, and `juralite import` upgrades it in place', async (t) => {
  const { db: current, dir } = tempCorpus(t);
  await importPaths(current, ['fixtures/decisions']);
  const ids = (current.prepare('SELECT id FROM decisions ORDER BY id').all() as { id: string }[]).map((row) => row.id);
  assert.ok(ids.length >= 40);
  const path = join(dir, 'version-2.db');
  writeVersion2(current, path);

  assert.equal(corpusNeedsUpgrade(path), true);
  assert.throws(() => openCorpus(path, { readonly: true }), new RegExp(`schema version 2, older than this juralite's ${CORPUS_SCHEMA_VERSION}.*juralite import`));

  await run(['import', '--db', path, 'fixtures/decisions']);
  const upgraded = openCorpus(path, { readonly: true });
  t.after(() => upgraded.close());
  assert.equal(upgraded.pragma('user_version', { simple: true }), CORPUS_SCHEMA_VERSION);
  assert.ok(!columnsOf(upgraded, 'decisions').includes('full_text'), 'the uncompressed copy is gone');
  assert.ok(!columnsOf(upgraded, 'chunks').includes('text'), 'chunks hold no text');
  assert.equal(corpusNeedsUpgrade(path), false);
  for (const id of ids) {
    const before = findDecision(current, id);
    const after = findDecision(upgraded, id);
    assert.equal(after.full_text, before.full_text, id);
    assert.deepEqual(chunkTexts(upgraded, id), chunkTexts(current, id), id);
    // Whole, and by Randnummer range where the decision prints them (the chunks' offsets decide the cut).
    const ranged = { max_chars: 2000, ...(before.has_rn_anchors ? { rn_from: before.rn_from!, rn_to: before.rn_from! + 1 } : {}) };
    assert.deepEqual(readDecision(upgraded, after, ranged), readDecision(current, before, ranged), id);
    assert.deepEqual(readDecision(upgraded, after, { max_chars: 1e6 }), readDecision(current, before, { max_chars: 1e6 }), id);
  }
  // The graph, now on integer decision rows, reads as it did: every edge, both ends named by UUID.
  const edges = (db: Database.Database) => db.prepare('SELECT * FROM citation_edges ORDER BY id').all();
  assert.ok(edges(current).length > 100);
  assert.deepEqual(edges(upgraded), edges(current));
  assert.ok(!columnsOf(upgraded, 'citation_links').includes('from_decision_id'));
  // The search index was rebuilt from the upgraded texts: the same decisions per word as the current corpus.
  const hits = (db: Database.Database, word: string) => (db.prepare(`SELECT s.decision_id FROM decisions_fts f
    JOIN search_docs s ON s.doc_id = f.rowid WHERE decisions_fts MATCH ? ORDER BY s.decision_id`).all(word) as { decision_id: string }[])
    .map((row) => row.decision_id);
  for (const word of ['kundig', 'miet', 'schad']) assert.deepEqual(hits(upgraded, `${word}*`), hits(current, `${word}*`), word);
});

/** The parts of a decision that version 3 kept in tables keyed on the decision's UUID (version 4: views of these names). */
const PARTS = ['decision_file_numbers', 'decision_sections', 'decision_randnummern', 'decision_norms', 'chunks'];

/**
 * A version 3 file made from a copy of a current one: the parts of each decision back in their UUID-keyed tables (the
 * same rows, chunk ids included), everything else (search index, vectors, graph) as the current file holds it.
 */
function writeVersion3(currentPath: string, path: string): void {
  copyFileSync(currentPath, path);
  const old = new Database(path);
  try {
    old.transaction(() => {
      for (const part of PARTS) {
        old.exec(`CREATE TEMP TABLE ${part}_rows AS SELECT * FROM main.${part}; DROP VIEW ${part}; DROP TABLE row_${part.replace('decision_', '')};`);
      }
      old.exec(SCHEMA_3);
      for (const part of PARTS) old.exec(`INSERT INTO main.${part} SELECT * FROM temp.${part}_rows;`);
      // The chunks were indexed by search already: the file's queue was empty before the copy.
      old.exec(`DELETE FROM search_chunk_queue; UPDATE meta SET value = '3' WHERE key = 'schema_version';`);
    })();
    assert.equal(old.pragma('user_version', { simple: true }), 3);
  } finally {
    old.close();
  }
}

test('a version 3 corpus is refused read-only and upgraded in place: the same parts, read by UUID, on integer rows', async (t) => {
  const { db: current, dir } = tempCorpus(t);
  await importPaths(current, ['fixtures/decisions']);
  current.pragma('wal_checkpoint(TRUNCATE)');
  const path = join(dir, 'version-3.db');
  writeVersion3(join(dir, 'corpus.db'), path);

  assert.equal(corpusNeedsUpgrade(path), true);
  assert.throws(() => openCorpus(path, { readonly: true }),
    new RegExp(`schema version 3, older than this juralite's ${CORPUS_SCHEMA_VERSION}.*juralite import`));
  const rowsOf = (db: Database.Database, part: string) => db.prepare(`SELECT * FROM ${part} ORDER BY decision_id, position`).all();
  // The keyword index's pages: a chunk indexed again would add to them (a delete and an insert).
  const ftsData = (db: Database.Database) => db.prepare('SELECT count(*), sum(length(block)) FROM decisions_fts_data').raw().get();
  const before = new Database(path, { readonly: true });
  for (const part of PARTS) assert.deepEqual(rowsOf(before, part), rowsOf(current, part), part);
  const indexed = ftsData(before);
  before.close();

  // A writable open upgrades; the chunks, ids and text unchanged, are not queued for the search index again.
  const opened = openCorpus(path);
  assert.deepEqual(ftsData(opened), indexed);
  opened.close();
  await run(['import', '--db', path, 'fixtures/decisions']);
  const upgraded = openCorpus(path, { readonly: true });
  t.after(() => upgraded.close());
  assert.equal(upgraded.pragma('user_version', { simple: true }), CORPUS_SCHEMA_VERSION);
  assert.equal(corpusNeedsUpgrade(path), false);
  for (const part of PARTS) {
    assert.equal(upgraded.prepare(`SELECT type FROM sqlite_master WHERE name = ?`).pluck().get(part), 'view', part);
    assert.ok(!columnsOf(upgraded, `row_${part.replace('decision_', '')}`).includes('decision_id'), part);
    assert.deepEqual(rowsOf(upgraded, part), rowsOf(current, part), part);
  }
  assert.ok((upgraded.prepare('SELECT count(*) FROM row_randnummern').pluck().get() as number) > 100);
  assert.equal(upgraded.prepare('SELECT count(*) FROM search_chunk_queue').pluck().get(), 0);
  for (const id of (current.prepare('SELECT id FROM decisions ORDER BY id').all() as { id: string }[]).map((row) => row.id)) {
    const decision = findDecision(current, id);
    const ranged = { max_chars: 2000, ...(decision.has_rn_anchors ? { rn_from: decision.rn_from!, rn_to: decision.rn_from! + 1 } : {}) };
    assert.deepEqual(readDecision(upgraded, findDecision(upgraded, id), ranged), readDecision(current, decision, ranged), id);
  }
  const hits = (db: Database.Database, word: string) => db.prepare(`SELECT s.decision_id FROM decisions_fts f
    JOIN search_docs s ON s.doc_id = f.rowid WHERE decisions_fts MATCH ? ORDER BY s.decision_id`).pluck().all(word);
  for (const word of ['kundig*', 'miet*']) assert.deepEqual(hits(upgraded, word), hits(current, word), word);
  // A decision deleted takes its parts with it (decisions -> decision_rows -> the parts, cascading).
  const writable = openCorpus(path);
  const gone = (current.prepare('SELECT decision_id FROM chunks LIMIT 1').pluck().get()) as string;
  writable.prepare('DELETE FROM decisions WHERE id = ?').run(gone);
  for (const part of PARTS) assert.equal(writable.prepare(`SELECT count(*) FROM ${part} WHERE decision_id = ?`).pluck().get(gone), 0, part);
  writable.close();
});
