import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { importPaths } from '../../src/ingest/index.ts';
import { findLaw } from '../../src/corpus/law-store.ts';
import { tempCorpus } from './helpers.ts';

const html = (n: number) => `<h2>Tenor</h2><div><p>Die Klage wird abgewiesen.</p></div><h2>Gründe</h2><div>`
  + Array.from({ length: n }, (_, i) => `<p><rd nr="${i + 1}"/>Absatz ${i + 1} mit [ref=abc-${i}]§ 823 BGB[/ref] und Text.</p>`).join('') + '</div>';

const CASES = [
  { id: 1, slug: 'bgh-1', court: { id: 5, name: 'Bundesgerichtshof', slug: 'bgh' }, file_number: 'VI ZR 1/20', date: '2020-05-05', type: 'Urteil', ecli: 'ECLI:DE:BGH:2020:050520UVIZR1.20.0', content: html(4) },
  { id: 2, court: { name: 'Landgericht München I' }, file_number: '15 O 19893/17', date: '2018-11-21', type: 'Endurteil', ecli: '', content: '<h2>Tenor</h2><p>Die Klage wird abgewiesen.</p><h2>Tatbestand</h2><p>Ohne Randnummern.</p>' },
  { id: 3, court: 'OLG Köln', file_number: '6 U 1/19', date: '2019-02-01', type: 'Beschluss', content: '## Tenor\n\nDie Berufung wird zurückgewiesen.\n\n## Gründe\n\n1| Erstens.\n2| Zweitens.' },
  { id: 4, court: { name: 'AG Köln' }, file_number: '1 C 1/20', date: '2020-01-01', type: 'Urteil', content: '' },
];

test('cases.jsonl: court objects, HTML with <rd> Randnummern, Markdown-like text; empty records fail with a reason', async (t) => {
  const { db, dir } = tempCorpus(t);
  const file = join(dir, 'cases.jsonl');
  writeFileSync(file, `${CASES.map((c) => JSON.stringify(c)).join('\n')}\n{not json\n`);
  const summary = await importPaths(db, [file]);
  assert.equal(summary.imported, 3);
  assert.deepEqual(summary.failed.map((f) => [f.path.split('/').pop(), f.reason.split(':')[0]]), [
    ['cases.jsonl:4', 'Open Legal Data case without text (no content, text or sections)'],
    ['cases.jsonl:5', 'invalid JSON'],
  ]);
  const rows = db.prepare('SELECT court, aktenzeichen, date, ecli, has_rn_anchors, rn_to, document_kind, source_format FROM decisions ORDER BY date').all();
  assert.deepEqual(rows, [
    { court: 'LG München I', aktenzeichen: '15 O 19893/17', date: '2018-11-21', ecli: null, has_rn_anchors: 0, rn_to: null, document_kind: 'Urteil', source_format: 'oldp-json' },
    { court: 'OLG Köln', aktenzeichen: '6 U 1/19', date: '2019-02-01', ecli: null, has_rn_anchors: 1, rn_to: 2, document_kind: 'Beschluss', source_format: 'oldp-json' },
    { court: 'BGH', aktenzeichen: 'VI ZR 1/20', date: '2020-05-05', ecli: 'ECLI:DE:BGH:2020:050520UVIZR1.20.0', has_rn_anchors: 1, rn_to: 4, document_kind: 'Urteil', source_format: 'oldp-json' },
  ]);
  const bgh = db.prepare("SELECT decision_text(text_zstd) AS full_text FROM decisions WHERE court = 'BGH'").get() as { full_text: string };
  assert.match(bgh.full_text, /^Tenor\nDie Klage wird abgewiesen\.\n\nGründe\n1\tAbsatz 1 mit § 823 BGB und Text\./u);
  assert.doesNotMatch(bgh.full_text, /\[ref=|\[\/ref\]/u);
});

test('cases.jsonl.gz streams like the plain file and re-imports idempotently', async (t) => {
  const { db, dir } = tempCorpus(t);
  const file = join(dir, 'cases.jsonl.gz');
  writeFileSync(file, gzipSync(CASES.slice(0, 3).map((c) => JSON.stringify(c)).join('\n')));
  const first = await importPaths(db, [file]);
  assert.deepEqual([first.imported, first.failed.length, first.decisions], [3, 0, 3]);
  const ids = db.prepare('SELECT id FROM decisions ORDER BY id').all();
  const chunks = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
  const second = await importPaths(db, [file]);
  assert.deepEqual([second.imported, second.updated, second.skipped, second.decisions], [0, 0, 3, 3]);
  assert.deepEqual(db.prepare('SELECT id FROM decisions ORDER BY id').all(), ids);
  assert.equal((db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n, chunks);
});

test('openJur scrape records are refused with the reason, not crashing the import', async (t) => {
  const { db, dir } = tempCorpus(t);
  writeFileSync(join(dir, '30534.json'), JSON.stringify({ reference: '6 W 50/08', id: 30534, source: 'openJur 2009, 38', text: "b'<section id=\"text\"><h2>Tenor</h2><p>Gesch&#195;&#164;fts-Nr.</p>'" }));
  writeFileSync(join(dir, 'broken.json'), '{"aktenzeichen": "VII ZR 255/08", "tenor": "Die \\q Revision"}');
  writeFileSync(join(dir, 'INDEX.json'), JSON.stringify({ BGB: 'BJNR001950896' }));
  const summary = await importPaths(db, [dir]);
  assert.equal(summary.imported, 0);
  assert.equal(summary.skipped, 1, 'a JSON file that holds no record is passed over');
  const reasons = Object.fromEntries(summary.failed.map((f) => [f.path.split('/').pop(), f.reason]));
  assert.match(reasons['30534.json'], /openJur record: .*Python bytes literal/u);
  assert.match(reasons['broken.json'], /^invalid JSON: Bad escaped character/u);
});

test('Django fixtures of cases and of law books import; older book revisions are passed over', async (t) => {
  const { db, dir } = tempCorpus(t);
  const fixture = [
    { model: 'sources.source', pk: 1, fields: { name: 'Default' } },
    { model: 'cases.case', pk: 68, fields: { court: 5624, court_raw: '{}', court_chamber: 'VI. Zivilsenat', date: '2018-04-09', file_number: 'VI\u00a0ZR\u00a0194/17', type: 'Beschluss', source_name: 'Bundesgerichtshof', content: '## Tenor\n\nDie Beklagte trägt die Kosten.\n\n## Gründe\n\n1| Erledigt.', ecli: '' } },
    { model: 'laws.lawbook', pk: 218, fields: { code: 'Grundgesetz', title: 'Grundgesetz für die Bundesrepublik Deutschland', latest: true } },
    { model: 'laws.lawbook', pk: 219, fields: { code: 'Grundgesetz', title: 'Grundgesetz für die Bundesrepublik Deutschland', latest: false } },
    { model: 'laws.law', pk: 1, fields: { book: 218, section: 'Artikel 1', title: '', content: '<ol><li><p>Die Würde des Menschen ist unantastbar.</p></li><li><p>Das Deutsche Volk bekennt sich darum zu Menschenrechten.</p></li></ol>' } },
    { model: 'laws.law', pk: 2, fields: { book: 218, section: 'Artikel 2', title: '', content: '<ol><li><p>Jeder hat das Recht auf die freie Entfaltung.</p></li></ol>' } },
    { model: 'laws.law', pk: 3, fields: { book: 219, section: 'Artikel 1', title: '', content: '<p>alt</p>' } },
  ];
  writeFileSync(join(dir, 'fixture.json'), JSON.stringify(fixture));
  const summary = await importPaths(db, [join(dir, 'fixture.json')]);
  assert.deepEqual(summary.failed, []);
  assert.deepEqual([summary.imported, summary.skipped, summary.laws, summary.law_units], [2, 1, 1, 2]);
  const d = db.prepare('SELECT court, chamber, aktenzeichen FROM decisions').get();
  assert.deepEqual(d, { court: 'BGH', chamber: 'VI. Zivilsenat', aktenzeichen: 'VI ZR 194/17' });
  const gg = findLaw(db, 'GG');
  assert.equal(gg?.title, 'Grundgesetz für die Bundesrepublik Deutschland');
  const art1 = db.prepare("SELECT text, absatz_count FROM law_units WHERE law_id = ? AND number = '1'").get(gg!.id);
  assert.deepEqual(art1, { text: '(1) Die Würde des Menschen ist unantastbar.\n(2) Das Deutsche Volk bekennt sich darum zu Menschenrechten.', absatz_count: 2 });
});

test('laws.jsonl: units grouped by book; a book that recurs later in the dump is added to, not replaced', async (t) => {
  const { db, dir } = tempCorpus(t);
  const lines = [
    { book_code: 'BGB', section: '§ 1', title: 'Beginn der Rechtsfähigkeit', content: '<p>Die Rechtsfähigkeit des Menschen beginnt mit der Vollendung der Geburt.</p>' },
    { book_code: 'BGB', section: '§ 2', title: 'Eintritt der Volljährigkeit', content: '<p>Die Volljährigkeit tritt mit der Vollendung des 18. Lebensjahres ein.</p>' },
    { book_code: 'SGB 5', section: '§ 1', title: 'Solidarität', content: '<p>(1) Text.</p><p>(2) Text.</p>' },
    { book_code: 'BGB', section: '§ 3', title: '(weggefallen)', content: '<p>(weggefallen)</p>' },
    { book_code: 'BGB', section: 'Inhaltsübersicht', title: '', content: '<p>x</p>' },
  ];
  writeFileSync(join(dir, 'laws.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
  const summary = await importPaths(db, [join(dir, 'laws.jsonl')]);
  assert.equal(summary.failed.length, 1);
  assert.match(summary.failed[0].reason, /names no § or article/u);
  assert.equal(summary.laws, 2);
  const bgb = findLaw(db, 'BGB')!;
  const units = db.prepare('SELECT number, repealed FROM law_units WHERE law_id = ? ORDER BY position').all(bgb.id);
  assert.deepEqual(units, [{ number: '1', repealed: 0 }, { number: '2', repealed: 0 }, { number: '3', repealed: 1 }]);
  assert.equal(findLaw(db, 'SGB 5')?.abbreviation, 'SGB V');
});
