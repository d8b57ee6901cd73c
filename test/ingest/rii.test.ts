import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRiiXml } from '../../src/ingest/rii.ts';
import { importPaths } from '../../src/ingest/index.ts';
import { chunkTexts } from '../../src/corpus/stored-text.ts';
import { riiXml, tempCorpus } from './helpers.ts';

const long = (n: number, word = 'Begründung') => `${word} ${'des berechtigten Interesses des Vermieters. '.repeat(n)}`.trim();

const SAMPLE = riiXml({
  doknr: 'KORE300012020',
  ecli: 'ECLI:DE:BGH:2020:150120UVIIIZR123.19.0',
  aktenzeichen: 'VIII ZR 123/19, VIII ZR 124/19',
  leitsatz: ['Zum berechtigten Interesse (§ 573 Abs. 2 Nr. 2 BGB).'],
  tenor: ['Die Revision wird zurückgewiesen.', 'Die Klägerin trägt die Kosten.'],
  tatbestand: [{ rn: 1, text: long(3, 'Sachverhalt') }, { rn: 2, text: long(2, 'Vortrag') }],
  entscheidungsgruende: [
    { text: 'I.' },
    { rn: 3, text: long(12) },
    { rn: 4, text: long(25) },
    { text: 'II.' },
    { rn: 5, text: long(40) },
    { rn: 6, text: 'Kurz. 𝔄 Zeichen außerhalb der BMP.' },
  ],
});

test('parseRiiXml reads metadata, every Aktenzeichen and the sections', () => {
  const rec = parseRiiXml(SAMPLE, 'sample.xml');
  assert.equal(rec.doknr, 'KORE300012020');
  assert.equal(rec.courtRaw, 'BGH');
  assert.equal(rec.chamber, '8. Zivilsenat');
  assert.equal(rec.date, '2020-01-15');
  assert.deepEqual(rec.fileNumbers, ['VIII ZR 123/19', 'VIII ZR 124/19']);
  assert.equal(rec.documentType, 'Urteil');
  assert.equal(rec.title, 'Eigenbedarfskündigung');
  assert.deepEqual(rec.sections.map((s) => s.name), ['Leitsatz', 'Tenor', 'Tatbestand', 'Entscheidungsgründe']);
  const rns = rec.sections.flatMap((s) => s.blocks).filter((b) => b.rn !== null).map((b) => b.rn);
  assert.deepEqual(rns, [1, 2, 3, 4, 5, 6]);
  assert.ok(!rec.sections.flatMap((s) => s.blocks).some((b) => /^\d+$/.test(b.text)), 'anchor numbers are not text blocks');
});

test('an imported rii decision has sections, printed Randnummern, whole-Randnummer chunks and norms', async (t) => {
  const { db, dir } = tempCorpus(t);
  writeFileSync(join(dir, 'KORE300012020.xml'), SAMPLE);
  const summary = await importPaths(db, [join(dir, 'KORE300012020.xml')]);
  assert.deepEqual(summary.failed, []);
  assert.equal(summary.imported, 1);
  const d = db.prepare('SELECT *, decision_text(text_zstd) AS full_text FROM decisions').get() as Record<string, any>;
  assert.equal(d.court, 'BGH');
  assert.equal(d.chamber, '8. Zivilsenat');
  assert.equal(d.ecli, 'ECLI:DE:BGH:2020:150120UVIIIZR123.19.0');
  assert.equal(d.aktenzeichen, 'VIII ZR 123/19');
  assert.equal(d.document_kind, 'Urteil');
  assert.equal(d.has_rn_anchors, 1);
  assert.equal(d.rn_from, 1);
  assert.equal(d.rn_to, 6);
  assert.equal(d.leitsatz, 'Zum berechtigten Interesse (§ 573 Abs. 2 Nr. 2 BGB).');
  assert.equal(d.text_length, [...d.full_text].length, 'text_length counts code points');
  assert.ok(d.full_text.startsWith('Leitsatz\n'));

  const files = db.prepare('SELECT aktenzeichen, az_key FROM decision_file_numbers ORDER BY position').all();
  assert.deepEqual(files, [{ aktenzeichen: 'VIII ZR 123/19', az_key: 'viii zr 123/19' }, { aktenzeichen: 'VIII ZR 124/19', az_key: 'viii zr 124/19' }]);

  const cps = [...d.full_text];
  const slice = (a: number, b: number) => cps.slice(a, b).join('');
  const sections = db.prepare('SELECT name, start_offset, end_offset FROM decision_sections ORDER BY position').all() as any[];
  assert.deepEqual(sections.map((s) => s.name), ['Leitsatz', 'Tenor', 'Tatbestand', 'Entscheidungsgründe']);
  for (const s of sections) assert.ok(slice(s.start_offset, s.end_offset).startsWith(s.name));

  const rns = db.prepare('SELECT rn, start_offset, end_offset FROM decision_randnummern ORDER BY position').all() as any[];
  assert.deepEqual(rns.map((r) => r.rn), [1, 2, 3, 4, 5, 6]);
  for (const r of rns) assert.ok(slice(r.start_offset, r.end_offset).startsWith(`${r.rn}\t`));
  assert.match(slice(rns[5].start_offset, rns[5].end_offset), /𝔄 Zeichen/u);

  const chunks = db.prepare('SELECT * FROM chunks ORDER BY position').all() as any[];
  assert.ok(chunks.every((c) => !('text' in c)), 'a chunk holds no copy of the text');
  // What the search reads as a chunk's text is exactly its range of the decision's text (astral characters included).
  assert.deepEqual(chunkTexts(db, d.id).map((c) => c.text), chunks.map((c) => slice(c.start_offset, c.end_offset)));
  for (const r of rns) {
    const holders = chunks.filter((c) => c.start_offset <= r.start_offset && r.end_offset <= c.end_offset);
    assert.equal(holders.length, 1, `Rn ${r.rn} lies inside exactly one chunk`);
    assert.ok(holders[0].rn_from <= r.rn && r.rn <= holders[0].rn_to);
  }
  assert.deepEqual(chunks.filter((c) => c.section === 'Tenor').map((c) => [c.rn_from, c.rn_to]), [[null, null]]);
  // The heading 'II.' goes with Rn 5, which it introduces.
  const rn5 = chunks.find((c) => c.rn_from <= 5 && c.rn_to >= 5);
  assert.match(slice(rn5.start_offset, rn5.end_offset), /^II\.\n5\t/u);

  const norms = db.prepare('SELECT norm, law, unit FROM decision_norms ORDER BY position').all();
  assert.deepEqual(norms, [
    { norm: '§ 573 Abs. 2 Nr. 2 BGB', law: 'BGB', unit: '§ 573' },
    { norm: '§ 574 BGB', law: 'BGB', unit: '§ 574' },
  ]);
  assert.equal((db.prepare("SELECT branch FROM courts WHERE code = 'BGH'").get() as any).branch, 'ordentlich');
});

test('a decision without printed Randnummern gets none: has_rn_anchors false, chunks without rn', async (t) => {
  const { db, dir } = tempCorpus(t);
  writeFileSync(join(dir, 'a.xml'), riiXml({
    doknr: 'NORN00001', gertyp: 'LG', gerort: 'Berlin', spruchkoerper: 'Zivilkammer 67', aktenzeichen: '67 S 1/20',
    gruende: [{ text: long(30) }, { text: long(30) }, { text: 'Kurz.' }],
  }));
  const summary = await importPaths(db, [dir]);
  assert.deepEqual(summary.failed, []);
  const d = db.prepare('SELECT court, has_rn_anchors, rn_from, rn_to FROM decisions').get();
  assert.deepEqual(d, { court: 'LG Berlin', has_rn_anchors: 0, rn_from: null, rn_to: null });
  assert.equal((db.prepare('SELECT count(*) AS n FROM decision_randnummern').get() as any).n, 0);
  assert.equal((db.prepare('SELECT count(*) AS n FROM chunks WHERE rn_from IS NOT NULL').get() as any).n, 0);
  assert.equal((db.prepare("SELECT state FROM courts WHERE code = 'LG Berlin'").get() as any).state, 'BE');
});

test('entities declared in a DOCTYPE are never expanded (no XXE, no billion laughs)', async (t) => {
  const { db, dir } = tempCorpus(t);
  const doctype = `<!DOCTYPE dokument [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>`;
  const xml = riiXml({ doknr: 'XXE000001', doctype, tenor: ['PLACEHOLDER'] })
    .replace('PLACEHOLDER', 'Tenor &amp; mehr &xxe; und &lol2; &#167; 1 &lt;2&gt;');
  writeFileSync(join(dir, 'x.xml'), xml);
  const summary = await importPaths(db, [join(dir, 'x.xml')]);
  assert.deepEqual(summary.failed, []);
  const { full_text } = db.prepare('SELECT decision_text(text_zstd) AS full_text FROM decisions').get() as { full_text: string };
  assert.match(full_text, /Tenor & mehr &xxe; und &lol2; § 1 <2>/u);
  assert.doesNotMatch(full_text, /root:|lollol/u);
});

// Guards the linear DOCTYPE scan (src/ingest/xml.ts): a quadratic pattern held a 714 KB file for two minutes. The
// timeout is a hang guard, not a speed test.
test('DOCTYPE openers strewn through a document are no DOCTYPE: the file fails as malformed, at once', { timeout: 60_000 }, async (t) => {
  const { db, dir } = tempCorpus(t);
  const strewn = riiXml({ doknr: 'DOCTYPE0001', tenor: ['PLACEHOLDER'] }).replace('PLACEHOLDER', '<!DOCTYPE ['.repeat(200_000));
  writeFileSync(join(dir, 'strewn.xml'), strewn);
  const summary = await importPaths(db, [join(dir, 'strewn.xml')]);
  assert.equal(summary.failed.length, 1);
  assert.match(summary.failed[0].reason, /malformed XML/u);
});

test('malformed rii documents fail with a reason', async (t) => {
  const { db, dir } = tempCorpus(t);
  writeFileSync(join(dir, 'broken.xml'), SAMPLE.slice(0, 900));
  writeFileSync(join(dir, 'empty.xml'), riiXml({ doknr: 'EMPTY0001', tenor: [] }));
  writeFileSync(join(dir, 'baddate.xml'), riiXml({ doknr: 'BAD0001', datum: '20201345' }));
  const summary = await importPaths(db, [dir]);
  const reasons = Object.fromEntries(summary.failed.map((f) => [f.path.split('/').pop(), f.reason]));
  assert.ok(reasons['broken.xml'], 'truncated XML fails');
  assert.equal(reasons['empty.xml'], 'no decision text');
  assert.match(reasons['baddate.xml'], /entsch-datum/u);
  assert.equal(summary.imported, 0);
});
