import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGiiXml, unitsOfEnbez } from '../../src/ingest/gii.ts';
import { importPaths } from '../../src/ingest/index.ts';
import { findLaw } from '../../src/corpus/law-store.ts';
import { lawUnitId } from '../../src/corpus/ids.ts';
import { giiXml, makeZip, tempCorpus } from './helpers.ts';

const SGB = giiXml({
  bjnr: 'BJNR024820988',
  jurabk: 'SGB 5',
  langue: 'Sozialgesetzbuch (SGB) Fünftes Buch (V) - Gesetzliche Krankenversicherung',
  units: [
    { enbez: '', gliederung: { kennzahl: '010', bez: 'Erstes Kapitel', titel: 'Allgemeine Vorschriften' } },
    { enbez: '§ 1', titel: 'Solidarität und Eigenverantwortung', absaetze: ['(1) Die Krankenversicherung als Solidargemeinschaft hat die Aufgabe, die Gesundheit zu erhalten.', '(2) Die Versicherten sind für ihre Gesundheit mitverantwortlich.'] },
    { enbez: '§ 2', titel: '(weggefallen)' },
    { enbez: '(XXXX) §§ 3 bis 5', titel: '(weggefallen)' },
    { enbez: '', gliederung: { kennzahl: '020', bez: 'Zweites Kapitel', titel: 'Versicherter Personenkreis' } },
    { enbez: '', gliederung: { kennzahl: '020010', bez: 'Erster Abschnitt', titel: 'Versicherung kraft Gesetzes' } },
    { enbez: '§ 5a', titel: 'Liste', absaetze: ['(1) Versicherungspflichtig sind <DL Type="arabic"><DT>1.</DT><DD><LA>Arbeiter,</LA></DD><DT>2.</DT><DD><LA>Angestellte.</LA></DD></DL>'] },
    { enbez: 'Anlage 1', titel: 'Tabelle', absaetze: ['Zeile eins', 'Zeile zwei'] },
    { enbez: 'Inhaltsübersicht' },
  ],
});

test('unitsOfEnbez: §, Art., ranges of repealed units, Art. with § inside, Anlagen', () => {
  assert.deepEqual(unitsOfEnbez('§ 823').units, [{ kind: '§', number: '823' }]);
  assert.deepEqual(unitsOfEnbez('§ 613a').units, [{ kind: '§', number: '613a' }]);
  assert.deepEqual(unitsOfEnbez('Art 12').units, [{ kind: 'Art.', number: '12' }]);
  assert.deepEqual(unitsOfEnbez('Artikel 3a').units, [{ kind: 'Art.', number: '3a' }]);
  assert.deepEqual(unitsOfEnbez('(XXXX) §§ 3 bis 6'), { units: ['3', '4', '5', '6'].map((number) => ({ kind: '§', number })), placeholder: true });
  assert.deepEqual(unitsOfEnbez('(XXXX) §§ 10a und 10b').units.map((u) => u.number), ['10a', '10b']);
  assert.deepEqual(unitsOfEnbez('§§ 4a bis 4c').units.map((u) => u.number), ['4a', '4b', '4c']);
  assert.deepEqual(unitsOfEnbez('§ 5', '229').units, [{ kind: 'Art.', number: '229 § 5' }]);
  assert.deepEqual(unitsOfEnbez('Anlage 2').units, [{ kind: 'Anlage', number: '2' }]);
  assert.deepEqual(unitsOfEnbez('Präambel').units, [{ kind: 'Präambel', number: '' }]);
  assert.deepEqual(unitsOfEnbez('Inhaltsübersicht').units, []);
  assert.deepEqual(unitsOfEnbez('Eingangsformel').units, []);
});

test('parseGiiXml: cited abbreviation, units with headings, Absätze, breadcrumbs, repealed units', () => {
  const law = parseGiiXml(SGB, 'sgb5.xml');
  assert.equal(law.abbreviation, 'SGB V');
  assert.equal(law.gii_jurabk, 'SGB 5');
  assert.equal(law.source_id, 'BJNR024820988');
  assert.equal(law.stand, 'zuletzt geändert durch Art. 1 G v. 1.1.2026 I Nr. 1');
  assert.deepEqual(law.units.map((u) => `${u.kind} ${u.number}`), ['§ 1', '§ 2', '§ 3', '§ 4', '§ 5', '§ 5a', 'Anlage 1']);
  const [p1, p2, p3, , , p5a, anlage] = law.units;
  assert.equal(p1.heading, 'Solidarität und Eigenverantwortung');
  assert.equal(p1.text, '(1) Die Krankenversicherung als Solidargemeinschaft hat die Aufgabe, die Gesundheit zu erhalten.\n(2) Die Versicherten sind für ihre Gesundheit mitverantwortlich.');
  assert.equal(p1.absatz_count, 2);
  assert.equal(p1.breadcrumb, 'Erstes Kapitel Allgemeine Vorschriften');
  assert.deepEqual([p2.repealed, p2.text, p2.absatz_count], [true, '(weggefallen)', 0]);
  assert.deepEqual([p3.repealed, p3.text], [true, '(weggefallen)']);
  assert.equal(p5a.text, '(1) Versicherungspflichtig sind 1. Arbeiter, 2. Angestellte.');
  assert.equal(p5a.breadcrumb, 'Zweites Kapitel Versicherter Personenkreis > Erster Abschnitt Versicherung kraft Gesetzes');
  assert.equal(anlage.text, 'Zeile eins\nZeile zwei');
});

test('an imported law is found by every alias and keeps its ids on re-import', async (t) => {
  const { db, dir } = tempCorpus(t);
  const file = join(dir, 'BJNR024820988.xml');
  writeFileSync(file, SGB);
  const first = await importPaths(db, [file]);
  assert.deepEqual([first.imported, first.laws, first.law_units, first.failed.length], [1, 1, 7, 0]);
  for (const alias of ['SGB V', 'SGB 5', 'sgbv', 'Fünftes Buch Sozialgesetzbuch', 'des Fünften Buches Sozialgesetzbuch', 'Sozialgesetzbuch Fünftes Buch']) {
    assert.equal(findLaw(db, alias)?.abbreviation, 'SGB V', alias);
  }
  const unitIds = db.prepare("SELECT u.id FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.abbreviation = 'SGB V' ORDER BY position");
  const ids = unitIds.all();
  assert.equal((ids[0] as { id: string }).id, lawUnitId('SGB V', '§', '1'));

  const again = await importPaths(db, [file]);
  assert.deepEqual([again.imported, again.updated, again.skipped], [0, 0, 1]);

  writeFileSync(file, SGB.replace('mitverantwortlich', 'mitverantwortlich und eigenverantwortlich'));
  const changed = await importPaths(db, [file]);
  assert.deepEqual([changed.imported, changed.updated], [0, 1]);
  assert.deepEqual(unitIds.all(), ids);
  const p1 = db.prepare("SELECT u.text FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.abbreviation = 'SGB V' AND u.number = '1'").get();
  assert.match((p1 as { text: string }).text, /eigenverantwortlich/u);
});

test('a raw GII xml.zip (with DOCTYPE) imports like the XML', async (t) => {
  const { db, dir } = tempCorpus(t);
  const xml = giiXml({
    bjnr: 'BJNR000010949', jurabk: 'GG', langue: 'Grundgesetz für die Bundesrepublik Deutschland', doctype: true,
    units: [{ enbez: 'Präambel', absaetze: ['Im Bewußtsein seiner Verantwortung ...'] }, { enbez: 'Art 1', absaetze: ['(1) Die Würde des Menschen ist unantastbar.'] }],
  });
  writeFileSync(join(dir, 'xml.zip'), makeZip([{ name: 'BJNR000010949.xml', data: xml }]));
  const summary = await importPaths(db, [join(dir, 'xml.zip')]);
  assert.deepEqual(summary.failed, []);
  assert.equal(findLaw(db, 'Grundgesetz')?.abbreviation, 'GG');
  assert.equal(findLaw(db, 'des Grundgesetzes')?.abbreviation, 'GG');
  const units = db.prepare("SELECT kind, number FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.abbreviation = 'GG' ORDER BY position").all();
  assert.deepEqual(units, [{ kind: 'Präambel', number: '' }, { kind: 'Art.', number: '1' }]);
});
