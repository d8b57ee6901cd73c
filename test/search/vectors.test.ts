/**
 * Decision vectors of the corpus-trained embedder follow the imports: trained once the corpus holds enough text,
 * deterministic, one vector (and one vec0 row) per decision, replaced when a decision is re-imported, removed with a
 * deleted decision, made anew when the search index is rebuilt; filters act inside the vector arm.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { searchDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { recordedEmbedder } from '../../src/search/embedder.ts';
import { rebuildSearchIndex, syncSearchIndex } from '../../src/search/index-sync.ts';
import { trainCorpusModel } from '../../src/search/corpus-model.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { riiXml } from '../ingest/helpers.ts';

async function demoCopy(t: { after(fn: () => void): void }): Promise<Database.Database> {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-vectors-'));
  const path = join(dir, 'corpus.db');
  copyFileSync(await demoCorpus(), path);
  const db = openCorpus(path);
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

const counts = (db: Database.Database) => db.prepare(`SELECT (SELECT count(*) FROM decisions) AS decisions,
  (SELECT count(*) FROM search_vectors) AS vectors, (SELECT count(*) FROM search_vec) AS bits`).get() as Record<string, number>;
const search = async (db: Database.Database, query: string, mode: SearchMode, extra: Record<string, string> = {}) =>
  (await searchDecisions(db, { query, mode, limit: 20, page: 1, bridge: false, ...extra })).results;
const vectorOf = (db: Database.Database, id: string) =>
  (db.prepare('SELECT vector FROM search_vectors WHERE decision_id = ?').get(id) as { vector: Buffer } | undefined)?.vector;

test('the demo corpus is trained at import: one float vector and one vec0 row per decision, the model recorded', async (t) => {
  const db = await demoCopy(t);
  const record = recordedEmbedder(db);
  assert.equal(record?.kind, 'trained');
  assert.ok(record!.kind === 'trained' && record.vocabulary > 1000 && record.sample_tokens >= 20_000, JSON.stringify(record).slice(0, 200));
  const n = counts(db);
  assert.deepEqual([n.vectors, n.bits], [n.decisions, n.decisions]);
  assert.equal((db.prepare('SELECT count(*) AS n FROM search_model_words').get() as { n: number }).n, record!.kind === 'trained' ? record.vocabulary : -1);
  // Unit length, centered: every stored vector.
  for (const { vector } of db.prepare('SELECT vector FROM search_vectors').all() as { vector: Buffer }[]) {
    const floats = new Float32Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
    assert.ok(Math.abs(Math.hypot(...floats) - 1) < 1e-4);
  }
});

test('training is deterministic: the same corpus gives the same model and vectors', async (t) => {
  const db = await demoCopy(t);
  const first = trainCorpusModel(db)!;
  const second = trainCorpusModel(db)!;
  assert.equal(first.record.id, second.record.id);
  assert.deepEqual(first.vectors, second.vectors);
  assert.equal(first.record.id, (recordedEmbedder(db) as { id: string }).id, 'the import trained the same model');
});

test('a re-imported decision gets a new vector in place; a deleted one loses its vec0 row; the queues stay empty', async (t) => {
  const db = await demoCopy(t);
  const dir = mkdtempSync(join(tmpdir(), 'juralite-vectors-src-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a.xml');
  const write = (text: string) => writeFileSync(file, riiXml({ doknr: 'VECT00000001', datum: '20240115', aktenzeichen: 'VIII ZR 7/24',
    gruende: [{ rn: 1, text }, { rn: 2, text }] }));
  const before = counts(db);
  write('Der Mieter minderte die Miete wegen Schimmel in der Wohnung; der Vermieter verlangte die volle Miete.');
  await importPaths(db, [file]);
  const id = (db.prepare(`SELECT id FROM decisions WHERE doknr = 'VECT00000001'`).get() as { id: string }).id;
  const first = vectorOf(db, id)!;
  assert.ok(first);
  assert.equal(counts(db).vectors, before.vectors + 1);
  assert.ok((await search(db, 'Schimmel Mietminderung Wohnung', 'semantic')).slice(0, 10).some((r) => r.id === id));

  write('Der Angeklagte wurde wegen Betruges verurteilt; die Strafzumessung der Strafkammer hält rechtlicher Nachprüfung stand.');
  await importPaths(db, [file]);
  const second = vectorOf(db, id)!;
  assert.notDeepEqual(second, first, 'the vector follows the new text');
  assert.deepEqual([counts(db).vectors, counts(db).bits], [before.vectors + 1, before.bits + 1], 'replaced, not added');
  const vecIds = db.prepare('SELECT vec_id FROM search_vectors WHERE decision_id = ?').all(id);
  assert.equal(vecIds.length, 1);
  const strafe = await search(db, 'Betrug Strafzumessung Angeklagter', 'semantic');
  const miete = await search(db, 'Schimmel Mietminderung Wohnung', 'semantic');
  const rank = (results: { id: string }[]) => results.findIndex((r) => r.id === id);
  assert.ok(rank(strafe) >= 0 && rank(strafe) < 5, `criminal query: rank ${rank(strafe)}`);
  assert.ok(rank(miete) === -1 || rank(miete) > rank(strafe), `tenancy query: rank ${rank(miete)}`);

  db.prepare('DELETE FROM decisions WHERE id = ?').run(id);
  syncSearchIndex(db, { embeddings: null });
  assert.deepEqual([counts(db).vectors, counts(db).bits], [before.vectors, before.bits]);
  const queued = db.prepare('SELECT (SELECT count(*) FROM search_chunk_queue) + (SELECT count(*) FROM search_vector_orphans) AS n').get() as { n: number };
  assert.equal(queued.n, 0);
});

test('a rebuild of the search index trains anew and gives every decision its vector again', async (t) => {
  const db = await demoCopy(t);
  db.exec('DELETE FROM search_vectors');
  rebuildSearchIndex(db, { embeddings: null });
  const n = counts(db);
  assert.deepEqual([n.vectors, n.bits], [n.decisions, n.decisions]);
});

test('filters act inside the vector arm: every result passes them, and the arm still fills the page', async (t) => {
  const db = await demoCopy(t);
  const query = 'Kündigung der Wohnung wegen Eigenbedarf';
  const all = await search(db, query, 'semantic');
  assert.ok(all.length >= 20, 'unfiltered, the page is full');
  const court = (code: string) => (db.prepare('SELECT branch FROM courts WHERE code = ?').get(code) as { branch: string }).branch;
  const cases: [Record<string, string>, (r: { court: string; date: string | null; document_type: string; id: string }) => boolean][] = [
    [{ court: 'BGH' }, (r) => r.court === 'BGH'],
    [{ branch: 'arbeit' }, (r) => court(r.court) === 'arbeit'],
    [{ document_type: 'Beschluss' }, (r) => r.document_type === 'Beschluss'],
    [{ date_from: '2019-01-01', date_to: '2020-12-31' }, (r) => r.date !== null && r.date >= '2019-01-01' && r.date <= '2020-12-31'],
    [{ date_to: '2015-12-31' }, (r) => r.date !== null && r.date <= '2015-12-31'],
  ];
  for (const [filters, passes] of cases) {
    const results = await search(db, query, 'semantic', filters);
    const expected = all.filter(passes).length;
    assert.ok(results.length > 0, JSON.stringify(filters));
    assert.ok(results.every(passes), JSON.stringify(filters));
    // The filter sits inside the scan: at least as many as the unfiltered page held, not a post-filtered remainder.
    assert.ok(results.length >= expected, `${JSON.stringify(filters)}: ${results.length} < ${expected}`);
  }
  const citing = await search(db, query, 'semantic', { cited_norm: '§ 573 Abs. 3 BGB' });
  assert.deepEqual(citing.map((r) => r.aktenzeichen).sort(), ['49 C 123/19', 'VIII ZR 214/12']);
  assert.deepEqual(await search(db, query, 'semantic', { court: 'Kein Gericht' }), []);
});

test('a corpus too small to train holds no vectors: semantic answers 503, hybrid runs without the vector arm', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-vectors-small-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  const file = join(dir, 'a.xml');
  writeFileSync(file, riiXml({ doknr: 'VECT00000002', datum: '20240116', aktenzeichen: 'VIII ZR 8/24', gruende: [{ rn: 1, text: 'Schimmel in der Wohnung.' }] }));
  await importPaths(db, [file]);
  assert.equal(recordedEmbedder(db), null);
  assert.equal((db.prepare('SELECT count(*) AS n FROM search_vectors').get() as { n: number }).n, 0);
  await assert.rejects(search(db, 'Schimmel', 'semantic'), (error: Error & { code?: string }) =>
    error.code === 'backend_unavailable' && /needs decision vectors/u.test(error.message));
  assert.deepEqual((await search(db, 'Schimmel', 'hybrid')).map((r) => r.aktenzeichen), ['VIII ZR 8/24']);
});
