// What a text claims about what it cites (docs/citations.md, Claims): Randnummer pinpoints against the decision's
// printed numbers, quotations against the decision's or provision's text, Nr. and lit. against the provision. A test
// brief built from the demo corpus and, where present, from the real decisions of ../shared/data: every altered
// citation is caught (claim_check not_supported) and no correct one is flagged.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { runCheck, type CheckRun, type Finding } from '../../src/citations/check.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';
import { ALTERED, buildBrief, type BriefItem } from './claims-brief.ts';

const demo = openCorpus(await demoCorpus(), { readonly: true });
after(() => demo.close());

function check(text: string, db: Database.Database = demo): CheckRun {
  return runCheck(db, { id: 'test', text, source: 'text', submittedAt: new Date('2024-05-01T10:00:00Z') });
}

/** The one case finding of a brief item's paragraph. */
function findingOf(run: CheckRun, item: BriefItem): Finding {
  const found = run.findings.filter((f) => f.type === 'case' && f.start_offset >= item.from && f.start_offset < item.to);
  assert.equal(found.length, 1, `one decision citation in the ${item.kind} item of ${item.aktenzeichen}`);
  return found[0];
}

/** Every altered item not_supported, every other supported, with the details each kind implies. */
function assertBrief(run: CheckRun, items: readonly BriefItem[]): void {
  const wrong: string[] = [];
  for (const item of items) {
    const f = findingOf(run, item);
    assert.equal(f.verdict, 'verified', `${item.aktenzeichen} is held`);
    const expected = ALTERED.has(item.kind) ? 'not_supported' : 'supported';
    if (f.claim_check !== expected) wrong.push(`${item.kind} ${item.aktenzeichen}: ${f.claim_check} ${JSON.stringify([f.pinpoint_advisory, f.quotations])}`);
    const quote = f.quotations[0];
    if (item.kind === 'correct' || item.kind === 'range' || item.kind === 'omission') {
      assert.deepEqual([quote?.check, quote?.similarity, quote?.rn_from], ['found', 1, item.rn], `${item.kind} ${item.aktenzeichen}`);
    }
    if (item.kind === 'other_rn') assert.deepEqual([f.pinpoint_check, quote?.check, quote?.rn_from], ['not_found', 'found', item.rn]);
    if (item.kind === 'missing_rn') assert.match(f.pinpoint_advisory ?? '', /; no Rn\. \d+\.$/u);
    if (item.kind === 'word_changed') {
      assert.equal(quote?.check, 'not_found');
      assert.equal(quote?.rn_from, item.rn, 'the closest passage is where the sentence stands');
      assert.ok(quote!.similarity! >= 0.85 && quote!.similarity! < 1, `similarity ${quote?.similarity}`);
    }
    if (item.kind === 'invented' || item.kind === 'bad_omission') assert.equal(quote?.check, 'not_found');
  }
  assert.deepEqual(wrong, []);
}

test('test brief from the demo corpus: every altered pinpoint or quotation caught, no correct one flagged', () => {
  const ids = (demo.prepare(`SELECT id FROM decisions WHERE has_rn_anchors = 1 AND court IN ('BGH', 'BVerfG', 'BAG', 'BSG', 'BVerwG', 'OLG München')
    ORDER BY date LIMIT 12`).all() as { id: string }[]).map((r) => r.id);
  const { text, items } = buildBrief(demo, ids);
  assert.ok(items.length >= 80, `${items.length} items`);
  const run = check(text);
  assertBrief(run, items);
  const altered = items.filter((i) => ALTERED.has(i.kind)).length;
  assert.deepEqual(run.claim_counts, { supported: items.length - altered, not_supported: altered, not_checked: 0 });
  assert.ok(run.notes.some((n) => n.code === 'claims_not_supported'));
});

test('test brief from the real decisions of ../shared/data imported into a temp corpus', skipUnlessSharedData('decisions/rii_xml', 'decisions/oldp_json'), async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-claims-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  await importPaths(db, [sharedData('decisions/rii_xml'), sharedData('decisions/oldp_json')]);
  const ids = (db.prepare('SELECT id FROM decisions WHERE has_rn_anchors = 1 ORDER BY date').all() as { id: string }[]).map((r) => r.id);
  const { text, items } = buildBrief(db, ids);
  assert.ok(new Set(items.map((i) => i.aktenzeichen)).size >= 3, `decisions with a quotable sentence: ${[...new Set(items.map((i) => i.aktenzeichen))]}`);
  assertBrief(check(text, db), items);
});

const EIGENBEDARF = 'BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12';

test('quotations are compared by their words: line-end hyphenation, soft hyphens, mark styles, a changed initial, whitespace', () => {
  const text = [
    `Danach haben »[d]ie Gerichte haben die Ent\u00adscheidung des Vermie-\nters über seinen Wohnbedarf grundsätzlich zu achten« (${EIGENBEDARF}, Rn. 11).`,
    `Ebenso: "Sie sind nicht berechtigt,   ihre Vorstellungen von angemessenem Wohnen verbindlich an die Stelle der Lebensplanung des Vermieters oder seiner Angehörigen zu setzen" (${EIGENBEDARF}, Rn. 11).`,
    `Vgl. auch „Der Nutzungswunsch muss vielmehr bereits hinreichend bestimmt und konkretisiert sein.“ ${EIGENBEDARF}, Rn. 14.`,
  ].join('\n\n');
  const run = check(text);
  assert.deepEqual(run.findings.map((f) => [f.claim_check, f.quotations.map((q) => [q.check, q.rn_from, q.section])]), [
    ['supported', [['found', 11, 'Entscheidungsgründe']]],
    ['supported', [['found', 11, 'Entscheidungsgründe']]],
    ['supported', [['found', 14, 'Entscheidungsgründe']]],
  ]);
});

test('a quotation runs across two Randnummern; the pinpoint range covers both', () => {
  const text = `„Die Revision hat keinen Erfolg. Das Berufungsgericht hat im Wesentlichen ausgeführt“ (${EIGENBEDARF}, Rn. 6-7).`;
  const [f] = check(text).findings;
  assert.deepEqual([f.quotations[0].check, f.quotations[0].rn_from, f.quotations[0].rn_to, f.pinpoint_check], ['found', 6, 7, 'verified']);
  assert.deepEqual(f.pinpoint?.randnummern, [{ from: 6, to: 7, following: null }]);
});

test('pinpoint labels and lists: Rdnr., Randnummer, "12, 15", "12 f.", juris Rn. after the closing dash', () => {
  const text = [
    `${EIGENBEDARF} - Rdnr. 12, 15.`,
    `${EIGENBEDARF}, Randnummer 12 f.`,
    `(${EIGENBEDARF} -, juris Rn. 9).`,
    `(${EIGENBEDARF}, Rn. 12, 31).`,
  ].join('\n\n');
  const run = check(text);
  assert.deepEqual(run.findings.map((f) => [f.pinpoint?.text, f.pinpoint_check]), [
    ['Rdnr. 12, 15', 'verified'], ['Randnummer 12 f.', 'verified'], ['Rn. 9', 'verified'], ['Rn. 12, 31', 'not_found'],
  ]);
  assert.equal(run.findings[3].pinpoint_advisory, 'BGH, VIII ZR 214/12 has Rn. 1 to 24; no Rn. 31.');
  const cut = Array.from(text).slice(run.findings[0].pinpoint!.start_offset, run.findings[0].pinpoint!.end_offset).join('');
  assert.equal(cut, 'Rdnr. 12, 15');
});

test('what cannot be checked is never flagged: a decision not held, a decision without printed Randnummern, a term in quotation marks', () => {
  const text = [
    '„Die Kündigung ist stets unwirksam, wenn der Vermieter schweigt.“ (BGH, Urteil vom 1. Februar 2015 - VIII ZR 999/14, Rn. 3).',
    'Das Gericht spricht von „Vorratsbedarf“ (LG München I, Urteil vom 15. März 2006 - 27 O 1234/05, Rn. 4).',
    'So auch BGH, NJW 2014, 2102 Rn. 15.',
  ].join('\n\n');
  const run = check(text);
  assert.deepEqual(run.findings.map((f) => [f.verdict, f.pinpoint_check, f.quotations.map((q) => q.check), f.claim_check]), [
    ['not_in_corpus', 'not_checked', ['not_checked'], 'not_checked'],
    ['verified', 'not_checked', [], 'not_checked'],
    ['out_of_coverage', 'not_checked', [], 'not_checked'],
  ]);
  assert.match(run.findings[1].pinpoint_advisory ?? '', /prints no Randnummern/u);
  assert.ok(!run.notes.some((n) => n.code === 'claims_not_supported'));
});

test('a quotation belongs to the citation in its sentence that holds it; found in none, to the closest passage', () => {
  const text = `Es gilt: „Die Gründe für ein berechtigtes Interesse des Vermieters sind in dem Kündigungsschreiben anzugeben.“ (§ 573 Abs. 3 BGB; ${EIGENBEDARF}, Rn. 22). `
    + `Ferner: „Die Gründe für ein berechtigtes Interesse des Mieters sind stets in dem Kündigungsschreiben anzugeben.“ (§ 573 Abs. 3 BGB).`;
  const run = check(text);
  assert.deepEqual(run.findings.map((f) => [f.canonical, f.quotations.map((q) => q.check), f.claim_check]), [
    ['§ 573 Abs. 3 BGB', ['found'], 'supported'],
    ['BGH, VIII ZR 214/12', [], 'supported'],
    ['§ 573 Abs. 3 BGB', ['not_found'], 'not_supported'],
  ]);
  const altered = run.findings[2].quotations[0];
  assert.ok(altered.similarity! > 0.7 && altered.similarity! < 1, `${altered.similarity}`);
  assert.match(altered.best_match ?? '', /^Die Gründe für ein berechtigtes Interesse des Vermieters/u);
});

test('statute subdivisions: Nr. and lit. are checked against the list items of the Absatz', () => {
  const run = check('Die Klägerin stützt sich auf § 573 Abs. 2 Nr. 2 BGB, hilfsweise auf § 573 Abs. 2 Nr. 7 BGB und § 80 Abs. 2 Satz 1 Nr. 4 VwGO.');
  assert.deepEqual(run.findings.map((f) => [f.canonical, f.subdivision_check, f.claim_check]), [
    ['§ 573 Abs. 2 Nr. 2 BGB', 'verified', 'supported'],
    ['§ 573 Abs. 2 Nr. 7 BGB', 'not_found', 'not_supported'],
    ['§ 80 Abs. 2 Satz 1 Nr. 4 VwGO', 'verified', 'supported'],
  ]);
  assert.equal(run.findings[1].subdivision_advisory, '§ 573 BGB as held has no Abs. 2 Nr. 7.');
});

test('a quotation on its own line after "ausgeführt:" belongs to the citation before the colon, not to what it cites itself', () => {
  const text = `Der Senat hat (${EIGENBEDARF}, Rn. 21) ausgeführt:\n`
    + '„Die Wirksamkeit der Kündigung hängt allein davon ab, ob im Zeitpunkt ihres Ausspruchs ein berechtigtes Interesse im Sinne des § 573 BGB vorlag.“';
  const run = check(text);
  assert.deepEqual(run.findings.map((f) => [f.canonical, f.quotations.map((q) => [q.check, q.rn_from]), f.claim_check]), [
    ['BGH, VIII ZR 214/12', [['found', 21]], 'supported'],
    ['§ 573 BGB', [], 'not_applicable'],
  ]);
});

test('words of a party in quotation marks near only a statute are not taken for an altered quotation of it', () => {
  const run = check('Die Beklagte meint, § 626 Abs. 1 BGB sei „auf einen Fall wie diesen offensichtlich nicht zugeschnitten“, und beantragt Klageabweisung.');
  const [f] = run.findings;
  assert.deepEqual([f.quotations[0].check, f.claim_check], ['not_checked', 'not_checked']);
  assert.match(f.quotations[0].advisory ?? '', /too few words/u);
});

test('a quotation of many omissions between common words is answered at once (greedy placement, no backtracking)', { timeout: 20_000 }, () => {
  const quotation = Array.from({ length: 80 }, () => 'der Vermieter').join(' […] ');
  const [f] = check(`„${quotation} verkauft die Wohnung“ (${EIGENBEDARF}, Rn. 9).`).findings;
  assert.equal(f.quotations[0].check, 'not_found');
});

test('a quotation holding a quotation in the same marks is read whole', () => {
  const text = `„Das Tatbestandsmerkmal des „Benötigens“ ist nicht im Sinne einer Notlage zu verstehen“ (${EIGENBEDARF}, Rn. 10).`;
  const [f] = check(text).findings;
  assert.deepEqual(f.quotations.map((q) => [q.text, q.check]), [['Das Tatbestandsmerkmal des „Benötigens“ ist nicht im Sinne einer Notlage zu verstehen', 'not_found']]);
  const faithful = check(`„Das Tatbestandsmerkmal des „Benötigens“ ist nicht im Sinne einer Notlage oder eines dringenden Wohnbedarfs zu verstehen“ (${EIGENBEDARF}, Rn. 10).`);
  assert.deepEqual(faithful.findings[0].quotations.map((q) => q.check), ['found']);
});

test('a subdivision the text cannot show (Halbsatz, Alt.) is not_checked alone, and named as unchecked beside an Absatz', () => {
  const run = check('Die Klägerin stützt sich auf § 280 Alt. 2 BGB und auf § 280 Abs. 1 Satz 2 Halbsatz 1 BGB.');
  assert.deepEqual(run.findings.map((f) => [f.subdivision_check, f.check_scope.subdivision, f.claim_check, f.subdivision_advisory]), [
    ['not_checked', 'not_checked', 'not_checked', null],
    ['verified', 'checked', 'supported', 'Halbsatz 1 not checked (only Abs., Satz, Nr. and lit. are).'],
  ]);
});

test('a quotation of a provision is found past the Satz numbers some laws print glued to the sentence (real EStG text)', skipUnlessSharedData('gii/core/BJNR010050934.xml'), async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-claims-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  await importPaths(db, [sharedData('gii/core/BJNR010050934.xml')]);
  const unit = db.prepare(`SELECT u.text FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.abbreviation = 'EStG' AND u.number = '43a'`).get() as { text: string };
  // The second sentence of Abs. 1 as the law prints it ('... 2Im Fall einer ...'), quoted without its number.
  const sentence = /\s2(\p{Lu}[^.]+\.)/u.exec(unit.text)![1];
  const run = check(`Nach § 43a Abs. 1 Satz 2 EStG gilt: „${sentence}“`, db);
  assert.deepEqual(run.findings.map((f) => [f.canonical, f.quotations.map((q) => q.check)]), [['§ 43a Abs. 1 Satz 2 EStG', ['found']]]);
});

test('spaced omission dots, footnote marks and labels written out or abbreviated alike do not make a quotation differ', () => {
  const text = [
    `„Ein solches Interesse liegt nach § 573 Absatz 2 Nummer 2 BGB insbesondere vor, wenn der Vermieter die Räume . . . benötigt.¹“ (${EIGENBEDARF}, Rn. 9).`,
    `„Ein solches Interesse liegt nach § 573 Abs. 2 Nr. 2 BGB ausnahmsweise vor“ (${EIGENBEDARF}, Rn. 9).`,
  ].join('\n\n');
  const run = check(text);
  const cases = run.findings.filter((f) => f.type === 'case');
  assert.deepEqual(cases.map((f) => [f.quotations.map((q) => [q.check, q.omissions]), f.claim_check]), [
    [[['found', 1]], 'supported'],
    [[['not_found', 0]], 'not_supported'],
  ]);
});
