// The search indexes follow imports: a re-imported decision whose text changed is found by its new words only; the
// queues drain; a corpus from before search (or indexed by an older analysis) is indexed when opened for writing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openCorpus, upgradeCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { analyzeTask, type AnalysisTask } from '../../src/search/chunk-analysis.ts';
import { queueEverything, syncSearchIndex, syncSearchIndexThreaded, type AnalysisThreads } from '../../src/search/index-sync.ts';
import { riiXml } from '../ingest/helpers.ts';
import { searchIndexContents } from '../helpers/search-index.ts';

function corpusDir(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-search-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const keyword = async (db: Database.Database, query: string) =>
  (await searchDecisions(db, { query, mode: 'keyword', limit: 20, page: 1, bridge: false })).results.map((r) => r.aktenzeichen);

/** A corpus file holding one decision about mould ("Schimmel"), its search index built by the import. */
async function corpusWithOneDecision(t: { after(fn: () => void): void }, doknr: string, aktenzeichen: string) {
  const dir = corpusDir(t);
  const path = join(dir, 'corpus.db');
  const db = openCorpus(path);
  const file = join(dir, 'a.xml');
  writeFileSync(file, riiXml({ doknr, datum: '20240116', aktenzeichen, gruende: [{ rn: 1, text: 'Schimmel in der Wohnung.' }] }));
  await importPaths(db, [file]);
  return { path, db };
}

test('re-importing a changed decision replaces its index rows; the queues are empty after every import', async (t) => {
  const dir = corpusDir(t);
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  const file = join(dir, 'a.xml');
  writeFileSync(file, riiXml({ doknr: 'SRCH00000001', datum: '20240115', aktenzeichen: 'VIII ZR 1/24', gruende: [{ rn: 1, text: 'Die Verkehrssicherungspflicht bei Glätte wurde verletzt.' }] }));
  await importPaths(db, [file]);
  assert.deepEqual(await keyword(db, 'Glätte'), ['VIII ZR 1/24']);
  assert.deepEqual(await keyword(db, 'Sicherungspflicht'), ['VIII ZR 1/24'], 'a compound by its last part');
  writeFileSync(file, riiXml({ doknr: 'SRCH00000001', datum: '20240115', aktenzeichen: 'VIII ZR 1/24', gruende: [{ rn: 1, text: 'Die Mietminderung wegen Schimmel ist berechtigt.' }] }));
  await importPaths(db, [file]);
  assert.deepEqual(await keyword(db, 'Glätte'), []);
  assert.deepEqual(await keyword(db, 'Schimmel'), ['VIII ZR 1/24']);
  const queued = db.prepare('SELECT (SELECT count(*) FROM search_chunk_queue) + (SELECT count(*) FROM search_unit_queue) AS n').get() as { n: number };
  assert.equal(queued.n, 0);
});

test('a corpus without a search index is indexed when opened for writing (juralite serve upgrades it)', async (t) => {
  const { path, db } = await corpusWithOneDecision(t, 'SRCH00000002', 'VIII ZR 2/24');
  db.exec(`DROP TABLE decisions_fts; DROP TABLE search_docs; DROP TABLE search_words;
    DELETE FROM meta WHERE key = 'search_index_version'`);
  db.close();
  const old = new Database(path, { readonly: true });
  assert.equal(old.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'decisions_fts'`).pluck().get(), 0);
  old.close();
  upgradeCorpus(path);
  const upgraded = openCorpus(path, { readonly: true });
  t.after(() => upgraded.close());
  assert.deepEqual(await keyword(upgraded, 'Schimmel'), ['VIII ZR 2/24']);
});

test('a search index of version 3 is indexed anew on upgrade: its passage index dropped, the decision found by its own Aktenzeichen', async (t) => {
  const { path, db } = await corpusWithOneDecision(t, 'SRCH00000004', 'VIII ZR 4/24');
  db.exec(`CREATE VIRTUAL TABLE chunks_fts USING fts5(title, lead, body, content = '', contentless_delete = 1);
    UPDATE meta SET value = '3' WHERE key = 'search_index_version'`);
  db.close();
  upgradeCorpus(path);
  const upgraded = openCorpus(path, { readonly: true });
  t.after(() => upgraded.close());
  assert.equal(upgraded.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'chunks_fts'`).pluck().get(), 0);
  assert.equal(upgraded.prepare(`SELECT value FROM meta WHERE key = 'search_index_version'`).pluck().get(), '6');
  // Not an exact citation (no slash): found by the words of the title column, which holds the Aktenzeichen since version 6.
  assert.deepEqual(await keyword(upgraded, 'VIII ZR 4 24'), ['VIII ZR 4/24']);
});

test('a decision is found by its own Aktenzeichen and ECLI written in any form, in every mode', async (t) => {
  const dir = corpusDir(t);
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  const file = join(dir, 'a.xml');
  writeFileSync(file, riiXml({ doknr: 'SRCH00000009', datum: '20240116', aktenzeichen: '34 Wx 240/23 e', ecli: 'ECLI:DE:OLGMUEN:2024:0116.34WX240.23E.00',
    gruende: [{ rn: 1, text: 'Schimmel in der Wohnung.' }] }));
  // A later decision citing it, its numbers and words in the text again and again.
  const citing = join(dir, 'b.xml');
  writeFileSync(citing, riiXml({ doknr: 'SRCH00000010', datum: '20240301', aktenzeichen: '34 Wx 12/24', gruende: [{ rn: 1,
    text: 'Wie der Senat im Verfahren 34 Wx 240/23 e entschieden hat (ECLI:DE:OLGMUEN:2024:0116.34WX240.23E.00), 34 Wx 240/23 e, Wx 240 und 23.' }] }));
  await importPaths(db, [file, citing]);
  for (const mode of ['keyword', 'hybrid'] as const) {
    for (const query of ['34 Wx 240/23 e', '34 wx 240 23', 'ECLI:DE:OLGMUEN:2024:0116.34WX240.23E.00']) {
      const found = (await searchDecisions(db, { query, mode, limit: 20, page: 1, bridge: false })).results.map((r) => r.aktenzeichen);
      assert.equal(found[0], '34 Wx 240/23 e', `${mode}: ${query}`);
    }
  }
});

test('a search index of version 4 gains the filter columns of search_docs on upgrade, filled', async (t) => {
  const { path, db } = await corpusWithOneDecision(t, 'SRCH00000005', 'VIII ZR 5/24');
  db.exec(`ALTER TABLE search_docs DROP COLUMN court; ALTER TABLE search_docs DROP COLUMN date; ALTER TABLE search_docs DROP COLUMN document_kind;
    DROP TRIGGER search_docs_filters; UPDATE meta SET value = '4' WHERE key = 'search_index_version'`);
  db.close();
  // Read-only, a version 4 index is refused honestly rather than queried for columns it lacks.
  const stale = openCorpus(path, { readonly: true });
  await assert.rejects(keyword(stale, 'Schimmel'), (error: { code?: string }) => error.code === 'backend_unavailable');
  stale.close();
  upgradeCorpus(path);
  const upgraded = openCorpus(path, { readonly: true });
  t.after(() => upgraded.close());
  assert.deepEqual(upgraded.prepare('SELECT court, date, document_kind FROM search_docs').all(),
    [{ court: 'BGH', date: '2024-01-16', document_kind: 'Urteil' }]);
  const filtered = async (filters: Record<string, string>) => (await searchDecisions(upgraded,
    { query: 'Schimmel', mode: 'keyword', limit: 20, page: 1, bridge: false, ...filters })).results.map((r) => r.aktenzeichen);
  assert.deepEqual(await filtered({}), ['VIII ZR 5/24']);
  assert.deepEqual(await filtered({ court: 'BGH' }), ['VIII ZR 5/24']);
  assert.deepEqual(await filtered({ court: 'BGH', date_from: '2024-01-16' }), ['VIII ZR 5/24']);
  assert.deepEqual(await filtered({ date_to: '2024-01-15' }), []);
});

test('keyword filters follow a re-imported decision whose court, date or kind changed, and a deleted one', async (t) => {
  const dir = corpusDir(t);
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  const file = join(dir, 'a.xml');
  const version = (gertyp: string, datum: string, doktyp: string) => riiXml({ doknr: 'SRCH00000006', gertyp, datum, doktyp,
    aktenzeichen: 'VIII ZR 6/24', gruende: [{ rn: 1, text: 'Schimmel in der Wohnung.' }] });
  const found = async (filters: Record<string, string>) => (await searchDecisions(db,
    { query: 'Schimmel', mode: 'keyword', limit: 20, page: 1, bridge: false, ...filters })).results.length;
  writeFileSync(file, version('BGH', '20240116', 'Urteil'));
  await importPaths(db, [file]);
  assert.deepEqual([await found({ court: 'BGH' }), await found({ court: 'BVerwG' }), await found({ document_type: 'Urteil' })], [1, 0, 1]);
  writeFileSync(file, version('BVerwG', '20230301', 'Beschluss'));
  await importPaths(db, [file]);
  assert.deepEqual([await found({ court: 'BGH' }), await found({ court: 'BVerwG' }), await found({ branch: 'verwaltung' })], [0, 1, 1]);
  assert.deepEqual([await found({ date_from: '2024-01-01' }), await found({ date_to: '2023-12-31' })], [0, 1]);
  assert.deepEqual([await found({ document_type: 'Urteil' }), await found({ document_type: 'Beschluss' })], [0, 1]);
  db.exec('DELETE FROM decisions');
  assert.equal(await found({ court: 'BVerwG' }), 0);
});

test('keyword ranks decisions: every word somewhere in the decision, one row per decision that follows deletes; the passages shown hold the words', async (t) => {
  const dir = corpusDir(t);
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  const file = join(dir, 'b.xml');
  const long = (words: string) => `${words} ${'Die Kammer hat den Sachverhalt geprüft. '.repeat(40)}`;
  writeFileSync(file, riiXml({ doknr: 'SRCH00000003', datum: '20240117', aktenzeichen: 'VIII ZR 3/24', gruende: [
    { rn: 1, text: long('Der Vermieter machte Eigenbedarf geltend.') }, { rn: 2, text: long('Die Sozialklausel greift nicht.') },
    { rn: 3, text: long('Der Schimmel in der Wohnung war unerheblich.') }] }));
  await importPaths(db, [file]);
  const docs = () => db.prepare('SELECT (SELECT count(*) FROM search_docs) AS docs, (SELECT count(*) FROM decisions_fts) AS rows').get();
  assert.deepEqual(docs(), { docs: 1, rows: 1 });
  const answer = await searchDecisions(db, { query: 'Eigenbedarf Schimmel', mode: 'keyword', limit: 20, page: 1, bridge: false });
  assert.deepEqual(answer.results.map((r) => r.aktenzeichen), ['VIII ZR 3/24'], 'the words sit in two passages of one decision');
  assert.equal(answer.total_available_basis, 'matching_decisions_lexical_arm');
  const marked = answer.results[0].snippets.filter((s) => s.text.includes('<mark>'));
  assert.ok(marked.length >= 2, JSON.stringify(answer.results[0].snippets));
  assert.ok(marked.some((s) => s.rn === 1) && marked.some((s) => s.rn === 3), JSON.stringify(answer.results[0].snippets));
  db.prepare('DELETE FROM decisions WHERE doknr = ?').run('SRCH00000003');
  assert.deepEqual(docs(), { docs: 0, rows: 0 }, 'a deleted decision takes its row along');
  assert.deepEqual(await keyword(db, 'Schimmel'), []);
});

/**
 * The threaded drain's threads, the worker's entry run in this thread: each task cloned as a message would be and
 * answered a turn of the event loop later (so several are out at once); from task `failFrom` on, every task fails.
 */
function threadsHere(failFrom = Infinity): AnalysisThreads & { tasks: number } {
  const threads = {
    count: 2,
    tasks: 0,
    analyze: async (task: AnalysisTask) => {
      const number = ++threads.tasks;
      await new Promise((resolve) => setImmediate(resolve));
      if (number >= failFrom) throw new Error('worker died');
      return analyzeTask(structuredClone(task));
    },
  };
  return threads;
}

test('the index is the same whether the chunks are analysed inline or by threads, in batches that split decisions or not', async (t) => {
  const db = openCorpus(join(corpusDir(t), 'corpus.db'));
  t.after(() => db.close());
  await importPaths(db, ['fixtures/laws', 'fixtures/decisions'], { workers: 0 });
  const imported = searchIndexContents(db);
  assert.ok(imported.vectors.length > 40 && imported.decisions.length > 0 && imported.queued.length === 0);
  // Every decision row carries its decision's filter columns, as the decisions table holds them.
  assert.deepEqual(imported.docs, db.prepare(`SELECT id, court, date, document_kind FROM decisions
    WHERE id IN (SELECT decision_id FROM chunks) ORDER BY id`).raw().all());

  // Seven queue rows a batch: most decisions span several batches (their rows are then made from the stored chunks,
  // their vectors by fillMissing), short ones share one.
  queueEverything(db);
  syncSearchIndex(db, { embeddings: null, rebuild: true, batchChunks: 7 });
  assert.deepEqual(searchIndexContents(db), imported);

  const threads = threadsHere();
  for (const batchChunks of [7, 2_000]) {
    queueEverything(db);
    const counts = await syncSearchIndexThreaded(db, threads, { embeddings: null, rebuild: true, batchChunks });
    assert.ok(counts.chunks > 0 && counts.vectors === imported.vectors.length);
    assert.deepEqual(searchIndexContents(db), imported, `batches of ${batchChunks}`);
  }
  assert.ok(threads.tasks > 10);

  // A failure after some batches were written (and the model trained anew) rolls the whole drain back; the failures
  // of the analyses still out then surface nowhere (an unhandled rejection would end the process).
  queueEverything(db);
  const queued = searchIndexContents(db);
  await assert.rejects(syncSearchIndexThreaded(db, threadsHere(3), { embeddings: null, rebuild: true, batchChunks: 7 }), /worker died/u);
  assert.equal(db.inTransaction, false);
  assert.deepEqual(searchIndexContents(db), queued, 'the queue, the emptied FTS5 tables and the vectors as they were');
  assert.ok(queued.queued.length > 0 && queued.vectors.length === imported.vectors.length);
});

test('a drain lets both FTS5 tables buffer 64 MB of new index data before writing a segment, inline and threaded', async (t) => {
  const { db } = await corpusWithOneDecision(t, 'KORE500012024', 'VIII ZR 12/24');
  t.after(() => db.close());
  const hashsize = () => ['decisions_fts', 'law_units_fts'].map((table) =>
    (db.prepare(`SELECT v FROM ${table}_config WHERE k = 'hashsize'`).get() as { v: number } | undefined)?.v);
  assert.deepEqual(hashsize(), [64 * 1024 * 1024, 64 * 1024 * 1024]);
  for (const table of ['decisions_fts', 'law_units_fts']) db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', 1048576)`);
  assert.deepEqual(hashsize(), [1048576, 1048576]);
  queueEverything(db);
  await syncSearchIndexThreaded(db, { count: 1, analyze: async (task) => analyzeTask(task) }, { embeddings: null });
  assert.deepEqual(hashsize(), [64 * 1024 * 1024, 64 * 1024 * 1024]);
});

test('a drain that writes at least a quarter of the decision index merges it into one segment; a small one leaves it to automerge', async (t) => {
  const dir = corpusDir(t);
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  // Live segments of decisions_fts: the segment id is the top bits of a %_data row id (0: structure and averages;
  // from 65536: tombstone pages).
  const segments = () => (db.prepare(`SELECT count(DISTINCT id >> 37) AS n FROM decisions_fts_data
    WHERE id >> 37 BETWEEN 1 AND 65535`).get() as { n: number }).n;
  const importDecisions = async (first: number, count: number) => {
    const files = Array.from({ length: count }, (_, i) => {
      const file = join(dir, `d${first + i}.xml`);
      writeFileSync(file, riiXml({ doknr: `KORE6${String(first + i).padStart(8, '0')}`, aktenzeichen: `VIII ZR ${first + i}/24`,
        gruende: [{ rn: 1, text: `Schimmel in der Wohnung Nummer ${first + i}.` }] }));
      return file;
    });
    await importPaths(db, files, { workers: 0 });
  };
  await importDecisions(1, 6);
  assert.equal(segments(), 1);
  await importDecisions(7, 1); // 1 of 7 decisions: a segment of its own
  assert.equal(segments(), 2);
  await importDecisions(8, 3); // 3 of 10: merged with the rest
  assert.equal(segments(), 1);
  assert.equal((await keyword(db, 'Schimmel')).length, 10);
});
