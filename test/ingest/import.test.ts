import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { importPaths, type ImportProgress } from '../../src/ingest/index.ts';
import { HELD_BY_AZ_SQL } from '../../src/ingest/store-decision.ts';
import { giiXml, makeTarGz, makeZip, riiXml, tempCorpus } from './helpers.ts';

const decision = (n: number, extra: Parameters<typeof riiXml>[0] = {}) => riiXml({
  doknr: `KORE6000${n}2020`,
  ecli: `ECLI:DE:BGH:2020:0101${n}UVIIIZR${n}.20.0`,
  aktenzeichen: `VIII ZR ${n}/20`,
  gruende: [{ rn: 1, text: `Erwägung ${n}.` }, { rn: 2, text: 'Weitere Erwägung.' }],
  ...extra,
});

const law = (bjnr: string, jurabk: string, langue: string) => giiXml({
  bjnr, jurabk, langue, units: [{ enbez: '§ 1', titel: 'Eins', absaetze: ['(1) Text eins.'] }, { enbez: '§ 2', absaetze: ['Text zwei.'] }],
});

function folder(dir: string): string {
  const root = join(dir, 'in');
  mkdirSync(join(root, 'nested', 'deeper'), { recursive: true });
  writeFileSync(join(root, 'KORE600012020.xml'), decision(1));
  writeFileSync(join(root, 'nested', 'deeper', 'KORE600022020.xml'), decision(2));
  writeFileSync(join(root, 'jb-KORE600032020.zip'), makeZip([{ name: 'KORE600032020.xml', data: decision(3) }]));
  writeFileSync(join(root, 'laws.tar.gz'), makeTarGz([
    { name: 'laws/BJNR000000011/meta.json', data: JSON.stringify({ bjnr: 'BJNR000000011', jurabk: 'TestG' }) },
    { name: 'laws/BJNR000000011/source.xml', data: law('BJNR000000011', 'TestG', 'Testgesetz') },
    { name: 'laws/BJNR000000012/source.xml', data: law('BJNR000000012', 'WoEigG', 'Wohnungseigentumsgesetz') },
    { name: 'laws/BJNR000000012/README', data: 'not a document' },
  ]));
  writeFileSync(join(root, 'README.md'), '# notes');
  writeFileSync(join(root, 'malformed.xml'), '<dokument><doknr>X</doknr><tenor>');
  writeFileSync(join(root, 'unknown.xml'), '<?xml version="1.0"?><catalog><book/></catalog>');
  return root;
}

test('folders, nested folders, jb-*.zip and tar.gz import; malformed files are reported by name and reason', async (t) => {
  const { db, dir } = tempCorpus(t);
  const root = folder(dir);
  const progress: ImportProgress[] = [];
  const summary = await importPaths(db, [root], { onProgress: (p) => progress.push(p) });
  assert.equal(summary.imported, 5, JSON.stringify(summary));
  assert.equal(summary.skipped, 1, 'meta.json holds no document');
  assert.deepEqual(summary.failed.map((f) => f.path.slice(root.length + 1)).sort(), ['malformed.xml', 'unknown.xml']);
  assert.match(summary.failed.find((f) => f.path.endsWith('malformed.xml'))!.reason, /^malformed XML/u);
  assert.match(summary.failed.find((f) => f.path.endsWith('unknown.xml'))!.reason, /root element <catalog>/u);
  assert.deepEqual([summary.decisions, summary.laws, summary.law_units], [3, 2, 4]);
  assert.ok(db.prepare("SELECT 1 FROM laws WHERE abbreviation = 'WEG'").get());
  const fromZip = db.prepare("SELECT source_name FROM decisions WHERE doknr = 'KORE600032020'").get() as { source_name: string };
  assert.match(fromZip.source_name, /jb-KORE600032020\.zip!\/KORE600032020\.xml$/u);
  assert.equal(progress.length, 8);
  assert.deepEqual(progress.map((p) => p.done), [1, 2, 3, 4, 5, 6, 7, 8]);
});

test('importing twice keeps ids and counts; the second run skips every unchanged document', async (t) => {
  const { db, dir } = tempCorpus(t);
  const root = folder(dir);
  await importPaths(db, [root]);
  const snapshot = () => ({
    decisions: db.prepare('SELECT id, doknr FROM decisions ORDER BY id').all(),
    laws: db.prepare('SELECT id, abbreviation FROM laws ORDER BY id').all(),
    units: db.prepare('SELECT id FROM law_units ORDER BY id').all(),
    counts: ['chunks', 'decision_sections', 'decision_randnummern', 'decision_file_numbers', 'decision_norms', 'law_aliases', 'courts']
      .map((table) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n),
  });
  const before = snapshot();
  const second = await importPaths(db, [root]);
  assert.deepEqual([second.imported, second.updated, second.skipped, second.failed.length], [0, 0, 6, 2]);
  assert.deepEqual(snapshot(), before);
});

test('a changed document is updated in place under its id; a document met again from another source keeps its id', async (t) => {
  const { db, dir } = tempCorpus(t);
  const file = join(dir, 'KORE600012020.xml');
  writeFileSync(file, decision(1));
  await importPaths(db, [file]);
  const { id } = db.prepare('SELECT id FROM decisions').get() as { id: string };

  writeFileSync(file, decision(1, { gruende: [{ rn: 1, text: 'Neu gefasste Erwägung.' }] }));
  const updated = await importPaths(db, [file]);
  assert.deepEqual([updated.imported, updated.updated, updated.decisions], [0, 1, 1]);
  const row = db.prepare('SELECT id, rn_to, decision_text(text_zstd) AS full_text FROM decisions').get() as { id: string; rn_to: number; full_text: string };
  assert.equal(row.id, id);
  assert.equal(row.rn_to, 1);
  assert.match(row.full_text, /Neu gefasste Erwägung/u);
  assert.equal((db.prepare('SELECT count(*) AS n FROM decision_randnummern').get() as { n: number }).n, 1);

  // The same decision as an Open Legal Data record (same ECLI, no doknr): same id, updated.
  const oldp = { court: { name: 'Bundesgerichtshof' }, file_number: 'VIII ZR 1/20', date: '2020-01-15', type: 'Urteil', ecli: 'ECLI:DE:BGH:2020:01011UVIIIZR1.20.0', content: '<h2>Gründe</h2><p><rd nr="1"/>Aus anderer Quelle.</p>' };
  writeFileSync(join(dir, 'case.json'), JSON.stringify(oldp));
  const other = await importPaths(db, [join(dir, 'case.json')]);
  assert.deepEqual([other.imported, other.updated, other.decisions], [0, 1, 1]);
  assert.equal((db.prepare('SELECT id FROM decisions').get() as { id: string }).id, id);
});

test('one bad document never spoils its batch', async (t) => {
  const { db, dir } = tempCorpus(t);
  const root = join(dir, 'batch');
  mkdirSync(root);
  // Five documents, batches of two; the third claims the ECLI of the first under another doknr.
  for (const n of [1, 2, 4, 5]) writeFileSync(join(root, `d${n}.xml`), decision(n));
  writeFileSync(join(root, 'd3.xml'), decision(3, { ecli: 'ECLI:DE:BGH:2020:01011UVIIIZR1.20.0' }));
  const summary = await importPaths(db, [root], { batchSize: 2 });
  assert.equal(summary.imported, 4);
  assert.equal(summary.failed.length, 1);
  assert.match(summary.failed[0].path, /d3\.xml$/u);
  assert.match(summary.failed[0].reason, /already held by decision/u);
  assert.equal((db.prepare("SELECT count(*) AS n FROM decisions WHERE doknr = 'KORE600032020'").get() as { n: number }).n, 0);
  assert.equal((db.prepare("SELECT count(*) AS n FROM chunks c JOIN decisions d ON d.id = c.decision_id WHERE d.doknr = 'KORE600032020'").get() as { n: number }).n, 0);
});

test('a document failing midway through its write leaves no row behind; the rest of its batch is written', async (t) => {
  const { db, dir } = tempCorpus(t);
  const root = join(dir, 'batch');
  mkdirSync(root);
  writeFileSync(join(root, 'd1.xml'), decision(1));
  writeFileSync(join(root, 'd2.xml'), decision(2));
  // The third cites the second, which fails once its decision row, file numbers and Randnummern are written.
  writeFileSync(join(root, 'd3.xml'), decision(3, { gruende: [{ rn: 1, text: 'Vgl. BGH, Urteil vom 1. Januar 2020 - VIII ZR 2/20.' }] }));
  db.exec(`CREATE TEMP TRIGGER refuse_chunks BEFORE INSERT ON row_chunks
    WHEN new.decision_row = (SELECT r.row FROM decisions d JOIN decision_rows r ON r.id = d.id WHERE d.doknr = 'KORE600022020')
    BEGIN SELECT RAISE(ABORT, 'chunk refused'); END`);
  const summary = await importPaths(db, [root], { batchSize: 10 });
  assert.equal(summary.imported, 2);
  assert.deepEqual(summary.failed.map((f) => [basename(f.path), f.reason]), [['d2.xml', 'chunk refused']]);
  const count = (query: string) => (db.prepare(query).get() as { n: number }).n;
  assert.equal(count(`SELECT count(*) AS n FROM decisions WHERE doknr = 'KORE600022020'`), 0);
  assert.equal(count(`SELECT count(*) AS n FROM decision_file_numbers WHERE aktenzeichen = 'VIII ZR 2/20'`), 0);
  assert.equal(count('SELECT count(*) AS n FROM decision_randnummern r WHERE NOT EXISTS (SELECT 1 FROM decisions d WHERE d.id = r.decision_id)'), 0);
  assert.equal(count(`SELECT count(*) AS n FROM citation_edges WHERE reference_type = 'case' AND resolution_status = 'unresolved'`), 1,
    'the citation of the failed decision stays unresolved');
});

test('explicit paths of an unknown kind, missing paths and empty input are reported, not thrown', async (t) => {
  const { db, dir } = tempCorpus(t);
  writeFileSync(join(dir, 'notes.txt'), 'plain text');
  const summary = await importPaths(db, [join(dir, 'notes.txt'), join(dir, 'missing.xml')]);
  assert.equal(summary.imported, 0);
  assert.deepEqual(summary.failed.map((f) => f.reason.split(':')[0]), ['unsupported format', 'cannot read']);
  const empty = await importPaths(db, []);
  assert.deepEqual([empty.imported, empty.failed.length], [0, 0]);
});

test('the last import is recorded in meta', async (t) => {
  const { db, dir } = tempCorpus(t);
  writeFileSync(join(dir, 'a.xml'), decision(7));
  await importPaths(db, [join(dir, 'a.xml')]);
  const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
  assert.match(meta.last_import_at, /^\d{4}-\d{2}-\d{2}T/u);
  assert.deepEqual(JSON.parse(meta.last_import_summary), { imported: 1, updated: 0, unchanged: 0, not_documents: 0, skipped: 0, decisions: 1, laws: 0, law_units: 0,
    citation_edges: 0, citation_edges_resolved: 0, edges_resolved: 0, failed: 0 });
});

test('a decision without doknr or ECLI is found by court, day and first Aktenzeichen, the lowest row first; its lookup reads no other decision row', async (t) => {
  const { db, dir } = tempCorpus(t);
  // Two documents of the same court, day and Aktenzeichen, told apart by their document numbers.
  writeFileSync(join(dir, 'one.xml'), decision(1, { ecli: '', datum: '20200115', aktenzeichen: 'VIII ZR 77/20' }));
  writeFileSync(join(dir, 'two.xml'), decision(2, { ecli: '', datum: '20200115', aktenzeichen: 'VIII ZR 77/20' }));
  await importPaths(db, [join(dir, 'one.xml')]);
  await importPaths(db, [join(dir, 'two.xml')]);
  const ids = db.prepare('SELECT id FROM decisions ORDER BY rowid').pluck().all() as string[];
  assert.equal(ids.length, 2);
  // The same decision from Open Legal Data, without doknr or ECLI: the first of the two, updated.
  const oldp = { court: { name: 'Bundesgerichtshof' }, file_number: 'VIII ZR 77/20', date: '2020-01-15', type: 'Urteil', ecli: '',
    content: '<h2>Gründe</h2><p><rd nr="1"/>Aus anderer Quelle.</p>' };
  writeFileSync(join(dir, 'case.json'), JSON.stringify(oldp));
  const other = await importPaths(db, [join(dir, 'case.json')]);
  assert.deepEqual([other.imported, other.updated, other.decisions], [0, 1, 2]);
  assert.match(db.prepare('SELECT decision_text(text_zstd) FROM decisions WHERE id = ?').pluck().get(ids[0]) as string, /anderer Quelle/u);
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${HELD_BY_AZ_SQL}`).all('x', 'BGH', '2020-01-15') as { detail: string }[])
    .map((row) => row.detail).join('\n');
  assert.match(plan, /^SEARCH f USING COVERING INDEX row_file_numbers_az_key/mu, plan);
  assert.match(plan, /search_decision_filters \(id=\? AND court=\? AND date=\?\)/u, plan);
});
