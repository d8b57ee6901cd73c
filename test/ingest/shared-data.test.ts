// The importers on the real reference data in ../shared/data (skipped when it is absent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importPaths } from '../../src/ingest/index.ts';
import { findLaw } from '../../src/corpus/law-store.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';
import { tempCorpus } from './helpers.ts';

test('gii/core: all 60 laws with their units, cited abbreviations and aliases', skipUnlessSharedData('gii/core'), async (t) => {
  const { db } = tempCorpus(t);
  const started = Date.now();
  const summary = await importPaths(db, [sharedData('gii/core')]);
  const ms = Date.now() - started;
  t.diagnostic(`gii/core: 60 laws, ${summary.law_units} units in ${ms} ms`);
  assert.deepEqual(summary.failed, []);
  assert.deepEqual([summary.imported, summary.laws, summary.skipped], [60, 60, 1]);
  assert.ok(summary.law_units > 15000);
  for (const [alias, cited] of [['SGB 5', 'SGB V'], ['AO 1977', 'AO'], ['UWG 2004', 'UWG'], ['WoEigG', 'WEG'], ['BBauG', 'BauGB'],
    ['AsylVfG 1992', 'AsylG'], ['BDSG 2018', 'BDSG'], ['BGBEG', 'EGBGB'], ['Bürgerliches Gesetzbuch', 'BGB'],
    ['des Bürgerlichen Gesetzbuchs', 'BGB'], ['Zivilprozessordnung', 'ZPO'], ['Strafgesetzbuch', 'StGB'], ['Abgabenordnung', 'AO']]) {
    assert.equal(findLaw(db, alias)?.abbreviation, cited, alias);
  }
  const unit = (law: string, number: string) => db.prepare(
    'SELECT u.* FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.abbreviation = ? AND u.number = ?').get(law, number) as Record<string, any>;
  const p573 = unit('BGB', '573');
  assert.equal(p573.heading, 'Ordentliche Kündigung des Vermieters');
  assert.equal(p573.absatz_count, 4);
  assert.match(p573.text, /^\(1\) Der Vermieter kann nur kündigen/u);
  assert.match(p573.breadcrumb, /^Buch 2 Recht der Schuldverhältnisse > /u);
  assert.deepEqual([unit('BGB', '3').repealed, unit('BGB', '3').text], [1, '(weggefallen)']);
  assert.equal(unit('BGB', '613a').kind, '§');
  assert.equal(unit('GG', '12').absatz_count, 3);
  assert.equal(unit('EGBGB', '229 § 5').kind, 'Art.');
});

test('the raw GII downloads gg.zip and baunvo.zip (with DOCTYPE) import; the table of contents is passed over', skipUnlessSharedData('gii/gg.zip', 'gii/baunvo.zip'), async (t) => {
  const { db } = tempCorpus(t);
  const summary = await importPaths(db, [sharedData('gii/gg.zip'), sharedData('gii/baunvo.zip'), sharedData('gii/gii-toc.sample.xml')]);
  assert.deepEqual(summary.failed, []);
  assert.deepEqual([summary.imported, summary.skipped, summary.laws], [2, 1, 2]);
  assert.equal(findLaw(db, 'Grundgesetz für die Bundesrepublik Deutschland')?.abbreviation, 'GG');
  assert.equal(findLaw(db, 'BauNVO')?.abbreviation, 'BauNVO');
  const art1 = db.prepare("SELECT u.text FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.abbreviation = 'GG' AND u.kind = 'Art.' AND u.number = '1'").get() as { text: string };
  assert.match(art1.text, /^\(1\) Die Würde des Menschen ist unantastbar\./u);
});

test('the rechtsprechung-im-internet.de sample: BVerfG, 17 Aktenzeichen, Rn. 1–9, norms', skipUnlessSharedData('decisions/rii_xml'), async (t) => {
  const { db } = tempCorpus(t);
  const summary = await importPaths(db, [sharedData('decisions/rii_xml')]);
  assert.deepEqual([summary.imported, summary.failed.length], [1, 0]);
  const d = db.prepare('SELECT * FROM decisions').get() as Record<string, any>;
  assert.deepEqual([d.court, d.chamber, d.date, d.doknr, d.has_rn_anchors, d.rn_from, d.rn_to, d.document_kind],
    ['BVerfG', '2. Senat', '2018-08-22', 'KVRE427811801', 1, 1, 9, 'Beschluss']);
  assert.equal(d.ecli, 'ECLI:DE:BVERFG:2018:QS20180822.2BVQ005318');
  assert.equal((db.prepare('SELECT count(*) AS n FROM decision_file_numbers').get() as { n: number }).n, 17);
  const norms = db.prepare('SELECT norm FROM decision_norms ORDER BY position').all().map((r) => (r as { norm: string }).norm);
  assert.deepEqual(norms, ['Art. 19 Abs. 4 GG', 'Art. 38 Abs. 1 Satz 1 GG', 'Art. 41 GG', '§ 32 Abs. 1 BVerfGG', '§ 48 BVerfGG']);
  const sections = db.prepare('SELECT name FROM decision_sections ORDER BY position').all().map((r) => (r as { name: string }).name);
  assert.deepEqual(sections, ['Tenor', 'Gründe']);
});

test('Open Legal Data records import; the record without text and the broken openJur records fail with reasons', skipUnlessSharedData('decisions/oldp_json', 'decisions/openjur_json_broken'), async (t) => {
  const { db } = tempCorpus(t);
  const oldp = await importPaths(db, [sharedData('decisions/oldp_json')]);
  assert.equal(oldp.imported, 7);
  assert.deepEqual(oldp.failed.map((f) => f.reason), ['Open Legal Data case without text (no content, text or sections)']);
  const courts = db.prepare('SELECT court, count(*) AS n FROM decisions GROUP BY court ORDER BY court').all();
  assert.deepEqual(courts, [{ court: 'BGH', n: 5 }, { court: 'BVerfG', n: 1 }, { court: 'LG München I', n: 1 }]);
  const lg = db.prepare("SELECT has_rn_anchors, rn_to FROM decisions WHERE court = 'LG München I'").get();
  assert.deepEqual(lg, { has_rn_anchors: 1, rn_to: 25 });
  const broken = await importPaths(db, [sharedData('decisions/openjur_json_broken')]);
  assert.equal(broken.imported, 0);
  assert.equal(broken.failed.length, 8);
  for (const f of broken.failed) assert.match(f.reason, /openJur record|invalid JSON/u);
});

test('the gesetze-bayern.de decision XML is refused as an unsupported format', skipUnlessSharedData('decisions/bayern_xml'), async (t) => {
  const { db } = tempCorpus(t);
  const summary = await importPaths(db, [sharedData('decisions/bayern_xml')]);
  assert.equal(summary.imported, 0);
  assert.match(summary.failed[0]?.reason ?? '', /unsupported XML: root element <byrecht-rspr>/u);
});
