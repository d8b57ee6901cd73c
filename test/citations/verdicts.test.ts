// The citation check against the demo corpus (fixtures/): canonical form and verdict per cited provision or decision
// (resolutions.md, "Citation check"), subdivision checks, offsets in code points, and the reference date (citation
// date source, pre-reform-numbering advisory). Which decisions and laws the corpus holds: fixtures/README.md.
// Rows the engine gets wrong keep the correct expectation and carry `todo` saying what is wrong.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCheck, type CheckRun, type Finding } from '../../src/citations/check.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { buildSmallCorpus } from '../helpers/small-corpus.ts';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const db = openCorpus(await demoCorpus(), { readonly: true });
after(() => db.close());

function check(text: string, referenceDate: string | null = null): CheckRun {
  return runCheck(db, { id: 'test', text, reference_date: referenceDate, source: 'text', submittedAt: new Date('2024-05-01T10:00:00Z') });
}

type Verdict = Finding['verdict'];
interface Row {
  text: string;
  /** [canonical, verdict] per finding, in text order. */
  findings: [string, Verdict][];
  /** subdivision_check per finding, when the row pins it. */
  subdivision?: Finding['subdivision_check'][];
  /** ECLI of the matched decision per finding (null: none matched), when the row pins it. */
  matched?: (string | null)[];
  todo?: string;
}

function table(group: string, rows: readonly Row[]): void {
  for (const row of rows) {
    test(`${group}: ${JSON.stringify(row.text)}`, { todo: row.todo }, () => {
      const { findings } = check(row.text);
      assert.deepEqual(findings.map((f) => [f.canonical, f.verdict]), row.findings);
      if (row.subdivision) assert.deepEqual(findings.map((f) => f.subdivision_check), row.subdivision);
      // The corpus stores ECLIs upper-cased.
      if (row.matched) {
        assert.deepEqual(findings.map((f) => f.matched_decision?.ecli?.toUpperCase() ?? null), row.matched.map((e) => e?.toUpperCase() ?? null));
      }
    });
  }
}

// --- Statutes ------------------------------------------------------------------------------------------------------

table('statutes held: verified', [
  { text: '§ 823 Abs. 1 BGB', findings: [['§ 823 Abs. 1 BGB', 'verified']], subdivision: ['verified'] },
  { text: '§ 535 I 2 BGB', findings: [['§ 535 Abs. 1 Satz 2 BGB', 'verified']], subdivision: ['verified'] },
  { text: '§ 535 Abs. 1 Satz 2 des Bürgerlichen Gesetzbuchs (BGB)', findings: [['§ 535 Abs. 1 Satz 2 BGB', 'verified']] },
  { text: 'Artikel 14 Absatz 1 Satz 1 des Grundgesetzes', findings: [['Art. 14 Abs. 1 Satz 1 GG', 'verified']], subdivision: ['verified'] },
  { text: '§ 9 Abs. 1 Satz 1 des Einkommensteuergesetzes (EStG)', findings: [['§ 9 Abs. 1 Satz 1 EStG', 'verified']] },
  { text: '§ 126 Abs. 3 Satz 1 Nr. 2 der Finanzgerichtsordnung --FGO--', findings: [['§ 126 Abs. 3 Satz 1 Nr. 2 FGO', 'verified']] },
  { text: 'Art 101 Abs 1 S 2 GG', findings: [['Art. 101 Abs. 1 Satz 2 GG', 'verified']], subdivision: ['verified'] },
  { text: 'Art. 101 I 2 GG', findings: [['Art. 101 Abs. 1 Satz 2 GG', 'verified']] },
  { text: 'Art. 5 Abs. 1 Satz 1 GG', findings: [['Art. 5 Abs. 1 Satz 1 GG', 'verified']] },
  { text: 'HGB § 74 Abs. 2', findings: [['§ 74 Abs. 2 HGB', 'verified']], subdivision: ['verified'] },
  { text: '§ 7 Abs. 4 BUrlG', findings: [['§ 7 Abs. 4 BUrlG', 'verified']] },
  { text: '§ 613a Abs. 4 Satz 1 BGB', findings: [['§ 613a Abs. 4 Satz 1 BGB', 'verified']], subdivision: ['verified'] },
  { text: '§ 15a InsO', findings: [['§ 15a InsO', 'verified']] },
  { text: '§ 15b Abs. 1 InsO', findings: [['§ 15b Abs. 1 InsO', 'verified']] },
  { text: '§ 3a Abs. 2 Nr. 5 AsylG', findings: [['§ 3a Abs. 2 Nr. 5 AsylG', 'verified']] },
  { text: '§ 3a AsylVfG', findings: [['§ 3a AsylG', 'verified']] },
  { text: '§ 34 Abs. 1 BauGB', findings: [['§ 34 Abs. 1 BauGB', 'verified']] },
  { text: '§ 34 Abs. 1 BBauG', findings: [['§ 34 Abs. 1 BauGB', 'verified']] },
  { text: '§ 3 UWG 2004', findings: [['§ 3 UWG', 'verified']] },
  { text: '§ 4 Abs. 5 Satz 1 Nr. 6b EStG', findings: [['§ 4 Abs. 5 Satz 1 Nr. 6b EStG', 'verified']] },
  { text: '§ 242 Abs. 1 StGB', findings: [['§ 242 Abs. 1 StGB', 'verified']] },
  { text: '§ 132 Abs. 2 GVG', findings: [['§ 132 Abs. 2 GVG', 'verified']] },
  { text: '§ 1 Abs. 2 KSchG', findings: [['§ 1 Abs. 2 KSchG', 'verified']] },
  { text: '§ 113 Abs. 1 Satz 1 VwGO', findings: [['§ 113 Abs. 1 Satz 1 VwGO', 'verified']] },
  { text: '§ 93a Abs. 2 BVerfGG', findings: [['§ 93a Abs. 2 BVerfGG', 'verified']] },
  { text: '§ 4 PatG', findings: [['§ 4 PatG', 'verified']] },
  { text: '§ 15 Abs. 1 VersammlG', findings: [['§ 15 Abs. 1 VersammlG', 'verified']] },
]);

table('SGB books: Roman, Arabic, long name, before the §', [
  { text: '§ 22 Abs 1 Satz 2 SGB II', findings: [['§ 22 Abs. 1 Satz 2 SGB II', 'verified']], subdivision: ['verified'] },
  { text: '§ 22 Abs 1 S 1 SGB 2', findings: [['§ 22 Abs. 1 Satz 1 SGB II', 'verified']] },
  { text: '§ 22 Abs. 1 Satz 2 des Zweiten Buches Sozialgesetzbuch', findings: [['§ 22 Abs. 1 Satz 2 SGB II', 'verified']] },
  { text: '§ 13 Abs. 3 SGB V', findings: [['§ 13 Abs. 3 SGB V', 'verified']], subdivision: ['verified'] },
  { text: '§ 13 Abs. 3 SGB 5', findings: [['§ 13 Abs. 3 SGB V', 'verified']] },
  { text: '§ 13 Abs. 3a SGB V', findings: [['§ 13 Abs. 3a SGB V', 'verified']], subdivision: ['verified'] },
  { text: '§ 2 Abs. 1a SGB V', findings: [['§ 2 Abs. 1a SGB V', 'verified']] },
  { text: 'SGB V § 13 Abs. 3', findings: [['§ 13 Abs. 3 SGB V', 'verified']] },
  { text: 'SGB 5 § 13 Abs. 3', findings: [['§ 13 Abs. 3 SGB V', 'verified']] },
]);

table('chains: one finding per provision, each with its verdict', [
  { text: '§§ 280 Abs. 1, 281 Abs. 1 Satz 1 BGB', findings: [['§ 280 Abs. 1 BGB', 'verified'], ['§ 281 Abs. 1 Satz 1 BGB', 'verified']] },
  { text: '§§ 437 Nr. 3, 280 Abs. 1, 281 Abs. 1 Satz 1 BGB',
    findings: [['§ 437 Nr. 3 BGB', 'verified'], ['§ 280 Abs. 1 BGB', 'verified'], ['§ 281 Abs. 1 Satz 1 BGB', 'verified']] },
  { text: '§ 13 Abs. 1 Satz 2, § 4 Satz 1 KSchG', findings: [['§ 13 Abs. 1 Satz 2 KSchG', 'verified'], ['§ 4 Satz 1 KSchG', 'verified']] },
  { text: '§ 562 Abs. 1, § 563 Abs. 1 Satz 1 ZPO', findings: [['§ 562 Abs. 1 ZPO', 'verified'], ['§ 563 Abs. 1 Satz 1 ZPO', 'verified']] },
  { text: 'Art. 3 Abs. 1, Art. 12 Abs. 1 GG', findings: [['Art. 3 Abs. 1 GG', 'verified'], ['Art. 12 Abs. 1 GG', 'verified']] },
  { text: 'Art. 2 Abs. 1 i.V.m. Art. 1 Abs. 1 GG', findings: [['Art. 2 Abs. 1 GG', 'verified'], ['Art. 1 Abs. 1 GG', 'verified']] },
  { text: 'Art. 2 Abs. 1 iVm Art. 1 Abs. 1 GG', findings: [['Art. 2 Abs. 1 GG', 'verified'], ['Art. 1 Abs. 1 GG', 'verified']] },
  { text: 'Art. 2 Abs. 1 in Verbindung mit Art. 1 Abs. 1 GG', findings: [['Art. 2 Abs. 1 GG', 'verified'], ['Art. 1 Abs. 1 GG', 'verified']] },
  { text: '§ 823 Abs. 2 BGB i.V.m. § 263 StGB', findings: [['§ 823 Abs. 2 BGB', 'verified'], ['§ 263 StGB', 'verified']] },
  { text: '§§ 91, 97 ZPO', findings: [['§ 91 ZPO', 'verified'], ['§ 97 ZPO', 'verified']] },
  // A chain mixing held and missing units: each provision gets its own verdict.
  { text: '§§ 7, 823 BGB', findings: [['§ 7 BGB', 'not_found'], ['§ 823 BGB', 'verified']] },
  { text: '§§ 433 ff. BGB', findings: [['§ 433 BGB', 'verified']] },
  { text: '§§ 305 bis 310 BGB', findings: [['§ 305 BGB', 'not_found']] },
  { text: '§ 3 und 5 UWG', findings: [['§ 3 UWG', 'verified'], ['§ 5 UWG', 'verified']] },
  { text: 'Art. 3 und 12 GG', findings: [['Art. 3 GG', 'verified'], ['Art. 12 GG', 'verified']] },
  { text: 'Art. 7 und 8 der Grundrechtecharta', findings: [['Art. 7 GRCh', 'verified'], ['Art. 8 GRCh', 'verified']] },
]);

table('EU acts from the catalogue', [
  { text: 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO', findings: [['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO', 'verified']], subdivision: ['not_checked'] },
  { text: 'Art. 6 Abs. 1 Unterabs. 1 Buchst. f DS-GVO', findings: [['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO', 'verified']] },
  { text: 'Art. 82 Abs. 1 DSGVO', findings: [['Art. 82 Abs. 1 DSGVO', 'verified']] },
  { text: 'Art. 267 Abs. 3 AEUV', findings: [['Art. 267 Abs. 3 AEUV', 'verified']] },
  { text: 'Art. 7 der Grundrechtecharta', findings: [['Art. 7 GRCh', 'verified']] },
  { text: 'Art. 100 DSGVO', findings: [['Art. 100 DSGVO', 'not_found']] },
]);

table('statutes not held', [
  // The law is held, the unit is not: not_found.
  { text: '§ 7 BGB', findings: [['§ 7 BGB', 'not_found']] },
  { text: 'Art. 4 GG', findings: [['Art. 4 GG', 'not_found']] },
  { text: '§ 83 b StGB', findings: [['§ 83b StGB', 'not_found']] },
  { text: '§ 1 GVG', findings: [['§ 1 GVG', 'not_found']] },
  // The law is not in the corpus: out_of_coverage.
  { text: '§ 1 VVG', findings: [['§ 1 VVG', 'out_of_coverage']] },
  { text: '§ 31 BDSG', findings: [['§ 31 BDSG', 'out_of_coverage']] },
]);

table('subdivisions: checked where the article text is held', [
  { text: '§ 535 Abs. 3 BGB', findings: [['§ 535 Abs. 3 BGB', 'verified']], subdivision: ['not_found'] },
  { text: 'Art. 20 Abs. 5 GG', findings: [['Art. 20 Abs. 5 GG', 'verified']], subdivision: ['not_found'] },
  // Old wording cited against the current text (fixtures/README.md, special cases).
  { text: '§ 434 Abs. 1 Satz 2 Nr. 2 BGB', findings: [['§ 434 Abs. 1 Satz 2 Nr. 2 BGB', 'verified']], subdivision: ['not_found'] },
  { text: '§ 5 Abs. 1 Satz 2 Nr. 1 UWG', findings: [['§ 5 Abs. 1 Satz 2 Nr. 1 UWG', 'verified']], subdivision: ['not_found'] },
  { text: '§ 22 Abs. 1 Satz 2 SGB II', findings: [['§ 22 Abs. 1 Satz 2 SGB II', 'verified']], subdivision: ['verified'] },
  { text: '§ 15a InsO', findings: [['§ 15a InsO', 'verified']], subdivision: ['not_checked'] },
]);

test('a repealed unit is verified, with the repeal said', () => {
  const [f] = check('§ 64 Satz 1 GmbHG a.F.').findings;
  assert.equal(f.canonical, '§ 64 Satz 1 GmbHG');
  assert.equal(f.verdict, 'verified');
  assert.equal(f.evidence.reason, 'exact_match_repealed');
  assert.match(f.subdivision_advisory ?? '', /weggefallen/u);
});

test('the law of a provision without one is taken from the citation before (law_source context)', () => {
  const text = 'Nach § 535 BGB ist der Vermieter verpflichtet. Gemäß § 536 ist die Miete gemindert.';
  const { findings } = check(text);
  assert.deepEqual(findings.map((f) => [f.canonical, f.verdict, f.raw_text, f.evidence.law_source]), [
    ['§ 535 BGB', 'verified', '§ 535 BGB', 'written'],
    ['§ 536 BGB', 'verified', '§ 536', 'context'],
  ]);
  assert.ok(findings[1].confidence < findings[0].confidence);
});

test('a contract clause is no finding and is listed in extraction.refused_contract_collision', () => {
  const run = check('Die Klausel in § 7 Nr. 2 des Mietvertrags ist nach § 307 Abs. 1 Satz 1 BGB unwirksam.');
  assert.deepEqual(run.findings.map((f) => [f.canonical, f.verdict]), [['§ 307 Abs. 1 Satz 1 BGB', 'verified']]);
  assert.deepEqual(run.extraction.refused_contract_collision, ['§ 7 Nr. 2 des Mietvertrags']);
  assert.equal(run.extraction.dropped_refused_collision, 1);
});

// --- Decisions -----------------------------------------------------------------------------------------------------

const ECLI_VIII_ZR_214_12 = 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0';

table('decisions in the corpus: verified', [
  { text: 'BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12', findings: [['BGH, VIII ZR 214/12', 'verified']], matched: [ECLI_VIII_ZR_214_12] },
  { text: 'BGH, Urt. v. 23.10.2013 – VIII ZR 214/12, Rn. 10', findings: [['BGH, VIII ZR 214/12', 'verified']], matched: [ECLI_VIII_ZR_214_12] },
  { text: 'VIII ZR 214/12', findings: [['BGH, VIII ZR 214/12', 'verified']], matched: [ECLI_VIII_ZR_214_12] },
  { text: 'Senatsurteil vom 23. Oktober 2013 - VIII ZR 214/12, ECLI:DE:BGH:2013:231013UVIIIZR214.12.0, Rn. 21',
    findings: [['BGH, VIII ZR 214/12', 'verified']], matched: [ECLI_VIII_ZR_214_12] },
  { text: 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0', findings: [[ECLI_VIII_ZR_214_12, 'verified']], matched: [ECLI_VIII_ZR_214_12] },
  { text: 'BVerfG 1 BvR 567/21', findings: [['BVerfG, 1 BvR 567/21', 'verified']], matched: ['ECLI:DE:BVerfG:2022:rs20220727.1bvr056721'] },
  { text: 'BVerfG, Beschluss vom 27. Juli 2022 - 1 BvR 567/21', findings: [['BVerfG, 1 BvR 567/21', 'verified']] },
  { text: 'ECLI:DE:BVerfG:2022:rs20220727.1bvr056721', findings: [['ECLI:DE:BVERFG:2022:RS20220727.1BVR056721', 'verified']] },
  { text: 'BVerfG, Beschluss der 1. Kammer des Ersten Senats vom 19. Juni 2020 - 1 BvR 1234/19 -, Rn. 5 f.',
    findings: [['BVerfG, 1 BvR 1234/19', 'verified']], matched: ['ECLI:DE:BVerfG:2020:rk20200619.1bvr123419'] },
  { text: 'BSG B 4 AS 17/20 R', findings: [['BSG, B 4 AS 17/20 R', 'verified']], matched: ['ECLI:DE:BSG:2021:120321UB4AS1720R0'] },
  { text: 'B 4 AS 17/20 R', findings: [['BSG, B 4 AS 17/20 R', 'verified']] },
  { text: 'BSG, Urteil vom 12.03.2021 - B 4 AS 17/20 R -, Rn. 9 ff.', findings: [['BSG, B 4 AS 17/20 R', 'verified']] },
  { text: 'ECLI:DE:BSG:2021:120321UB4AS1720R0', findings: [['ECLI:DE:BSG:2021:120321UB4AS1720R0', 'verified']] },
  { text: 'BPatG 11 W (pat) 34/14', findings: [['BPatG, 11 W (pat) 34/14', 'verified']], matched: ['ECLI:DE:BPatG:2016:210416B11Wpat34.14.0'] },
  { text: 'BPatG, Beschluss vom 21. April 2016 - 11 W (pat) 34/14, Rn. 5', findings: [['BPatG, 11 W (pat) 34/14', 'verified']] },
  { text: 'BPatG, Urteil vom 14. Februar 2019 - 4 Ni 23/16', findings: [['BPatG, 4 Ni 23/16', 'verified']] },
  { text: 'VG Berlin VG 3 K 123.16', findings: [['VG Berlin, VG 3 K 123.16', 'verified']], matched: ['ECLI:DE:VGBE:2017:0314.3K123.16.00'] },
  { text: 'VG Berlin, Urteil vom 14. März 2017 - VG 3 K 123.16 -, Rn. 5', findings: [['VG Berlin, VG 3 K 123.16', 'verified']] },
  { text: 'BAG 2 AZR 345/15', findings: [['BAG, 2 AZR 345/15', 'verified']], matched: ['ECLI:DE:BAG:2016:250516.U.2AZR345.15.0'] },
  { text: '(BAG 25. Mai 2016 - 2 AZR 345/15 - Rn. 11)', findings: [['BAG, 2 AZR 345/15', 'verified']] },
  { text: 'BAG 25.05.2016 - 2 AZR 345/15 -, ECLI:DE:BAG:2016:250516.U.2AZR345.15.0, Rn. 6', findings: [['BAG, 2 AZR 345/15', 'verified']] },
  { text: 'ECLI:DE:BAG:2016:250516.U.2AZR345.15.0', findings: [['ECLI:DE:BAG:2016:250516.U.2AZR345.15.0', 'verified']] },
  { text: 'LG München I, Urteil vom 15. März 2006, Az. 27 O 1234/05', findings: [['LG München I, 27 O 1234/05', 'verified']] },
  { text: 'BGH, Beschluss vom 12.05.2020 – 3 StR 12/20', findings: [['BGH, 3 StR 12/20', 'verified']] },
  { text: 'BFH-Urteil vom 10.09.2019 - IX R 12/18, Rz 5', findings: [['BFH, IX R 12/18', 'verified']] },
  { text: 'Urteil des FG Münster vom 13.06.2018 - 10 K 1234/17 E, Rz 6', findings: [['FG Münster, 10 K 1234/17 E', 'verified']] },
  { text: 'OVG Berlin-Brandenburg, Beschluss vom 29.08.2020 - OVG 1 S 101.20', findings: [['OVG Berlin-Brandenburg, OVG 1 S 101.20', 'verified']] },
  { text: 'LSG Nordrhein-Westfalen, Urteil vom 21.11.2019 - L 7 AS 123/19', findings: [['LSG Nordrhein-Westfalen, L 7 AS 123/19', 'verified']] },
  { text: 'SG Berlin, Gerichtsbescheid vom 15.03.2023 - S 12 AS 345/20', findings: [['SG Berlin, S 12 AS 345/20', 'verified']] },
  { text: 'BVerwG, Urteil vom 8. Mai 2020 - 4 C 3.19', findings: [['BVerwG, 4 C 3.19', 'verified']] },
  { text: 'ArbG Berlin, Urteil vom 17.10.2019 - 28 Ca 1234/19', findings: [['ArbG Berlin, 28 Ca 1234/19', 'verified']] },
  { text: 'BGH, Urteil vom 14. Mai 2019 - VI ZR 496/18 -, Rn. 8', findings: [['BGH, VI ZR 496/18', 'verified']],
    matched: ['ECLI:DE:BGH:2019:140519UVIZR496.18.0'] },
  // Two Aktenzeichen of one decision (JURA000000010): both find it.
  { text: 'Urteile vom 17. Juni 2020 - VIII ZR 10/19 und VIII ZR 11/19',
    findings: [['BGH, VIII ZR 10/19', 'verified'], ['BGH, VIII ZR 11/19', 'verified']],
    matched: ['ECLI:DE:BGH:2020:170620UVIIIZR10.19.0', 'ECLI:DE:BGH:2020:170620UVIIIZR10.19.0'] },
  // Substring trap: 1 BvR 567/21 vs 33 O 4567/21.
  { text: 'BVerfG 1 BvR 567/21 und LG München I 33 O 4567/21',
    findings: [['BVerfG, 1 BvR 567/21', 'verified'], ['LG München I, 33 O 4567/21', 'verified']],
    matched: ['ECLI:DE:BVerfG:2022:rs20220727.1bvr056721', 'ECLI:DE:LGMUENCHEN1:2021:1209.33O4567.21.0A'] },
  { text: 'LG Berlin (Urteil vom 17.01.2018 - 67 S 123/17)', findings: [['LG Berlin, 67 S 123/17', 'verified']] },
]);

table('same Aktenzeichen at two courts (7 U 123/18)', [
  { text: '7 U 123/18', findings: [['7 U 123/18', 'ambiguous']] },
  { text: 'OLG München, Urteil vom 20. März 2019 - 7 U 123/18, Rn. 5', findings: [['OLG München, 7 U 123/18', 'verified']],
    matched: ['ECLI:DE:OLGMUEN:2019:0320.7U123.18.0A'] },
  { text: 'OLG München, 7 U 123/18', findings: [['OLG München, 7 U 123/18', 'verified']] },
  { text: 'KG, Urteil vom 12.09.2019 - 7 U 123/18', findings: [['KG, 7 U 123/18', 'verified']], matched: ['ECLI:DE:KG:2019:0912.7U123.18.00'] },
]);

test('ambiguous names the candidates', () => {
  const [f] = check('7 U 123/18').findings;
  assert.match(f.ambiguity_advisory ?? '', /OLG München/u);
  assert.match(f.ambiguity_advisory ?? '', /KG/u);
});

// The demo corpus's ranges are derived from its holdings (no manifest, no sync): a decision it does not hold may exist.
table('decisions not held: not_in_corpus where the court is covered at that date, but not exhaustively', [
  { text: 'BGH, Urteil vom 12. Juni 2012 - VI ZR 138/11', findings: [['BGH, VI ZR 138/11', 'not_in_corpus']] },
  { text: 'BGH, Urteil vom 22. Mai 2019 - VIII ZR 180/18', findings: [['BGH, VIII ZR 180/18', 'not_in_corpus']] },
  { text: 'BAG, Urteil vom 19. Februar 2019 - 9 AZR 423/16', findings: [['BAG, 9 AZR 423/16', 'not_in_corpus']] },
  { text: 'BSG, Urteil vom 26. Mai 2020 - B 1 KR 9/18 R', findings: [['BSG, B 1 KR 9/18 R', 'not_in_corpus']] },
  { text: 'BVerwG, Urteil vom 20.05.2020 – 1 C 11.19', findings: [['BVerwG, 1 C 11.19', 'not_in_corpus']] },
  { text: 'BVerfG, Beschluss vom 17. April 2020 - 1 BvQ 37/20', findings: [['BVerfG, 1 BvQ 37/20', 'not_in_corpus']] },
  { text: 'VIII ZR 226/14', findings: [['BGH, VIII ZR 226/14', 'not_in_corpus']] },
  { text: 'BAG, Beschluss vom 26. August 2021 - 8 AZR 253/20 (A)', findings: [['BAG, 8 AZR 253/20 (A)', 'not_in_corpus']] },
  { text: 'ECLI:DE:BGH:2015:010715UVIIIZR226.14.0', findings: [['ECLI:DE:BGH:2015:010715UVIIIZR226.14.0', 'not_in_corpus']] },
  // The Aktenzeichen is held, but under another date: not_found, the held decision named (a wrong date, most likely).
  { text: 'BGH, Urteil vom 14. Januar 2020 - VI ZR 496/18', findings: [['BGH, VI ZR 496/18', 'not_found']] },
  { text: 'BVerfG, Beschluss vom 17. Juli 2019 - 1 BvR 1234/19', findings: [['BVerfG, 1 BvR 1234/19', 'not_found']] },
]);

test('a date mismatch names the decision the corpus holds under that Aktenzeichen', () => {
  const [f] = check('BGH, Urteil vom 14. Januar 2020 - VI ZR 496/18').findings;
  assert.equal(f.evidence.reason, 'date_mismatch');
  assert.match(f.ambiguity_advisory ?? '', /2019-05-14/u);
});

table('decisions out of coverage: date outside the range, court not held, reporters', [
  { text: 'BGH, Urteil vom 27. November 1984 - VI ZR 49/83', findings: [['BGH, VI ZR 49/83', 'out_of_coverage']] },
  { text: 'BVerwG, Urteil vom 26. Mai 1978 - 4 C 9.77', findings: [['BVerwG, 4 C 9.77', 'out_of_coverage']] },
  { text: 'BPatG, Beschluss vom 12.12.1974 – 4 W (pat) 7/74', findings: [['BPatG, 4 W (pat) 7/74', 'out_of_coverage']] },
  { text: 'BSG, Urteil vom 30.01.2019 - B 14 AS 24/18 R', findings: [['BSG, B 14 AS 24/18 R', 'out_of_coverage']] },
  { text: 'BVerfG, Beschluss vom 23. April 2014 - 1 BvR 2851/13', findings: [['BVerfG, 1 BvR 2851/13', 'out_of_coverage']] },
  { text: 'OLG München, Urteil vom 8. Februar 2001 - 1 U 4521/00', findings: [['OLG München, 1 U 4521/00', 'out_of_coverage']] },
  { text: 'LG Hamburg, Urteil vom 9. Februar 2017 - 333 S 24/16', findings: [['LG Hamburg, 333 S 24/16', 'out_of_coverage']] },
  { text: 'OLG Düsseldorf, Urteil vom 12.04.2018 - I-20 U 118/17', findings: [['OLG Düsseldorf, I-20 U 118/17', 'out_of_coverage']] },
  { text: 'EuGH, Urteil vom 4. Mai 2023 - C-300/21', findings: [['EuGH, C-300/21', 'out_of_coverage']] },
  { text: 'EuGH C-252/21', findings: [['EuGH, C-252/21', 'out_of_coverage']] },
  { text: 'EuG T-612/17', findings: [['EuG, T-612/17', 'out_of_coverage']] },
  { text: 'ECLI:DE:BGH:1984:271184UVIZR49.83.0', findings: [['ECLI:DE:BGH:1984:271184UVIZR49.83.0', 'out_of_coverage']] },
  { text: 'BGHZ 132, 105', findings: [['BGHZ 132, 105', 'out_of_coverage']] },
  { text: 'NJW 2015, 1827', findings: [['NJW 2015, 1827', 'out_of_coverage']] },
  { text: 'BAGE 134, 349', findings: [['BAGE 134, 349', 'out_of_coverage']] },
  { text: 'BSGE 127, 214', findings: [['BSGE 127, 214', 'out_of_coverage']] },
  { text: 'BFHE 251, 408', findings: [['BFHE 251, 408', 'out_of_coverage']] },
  { text: 'NZA 2016, 1234', findings: [['NZA 2016, 1234', 'out_of_coverage']] },
  { text: 'GRUR 2019, 813', findings: [['GRUR 2019, 813', 'out_of_coverage']] },
  { text: 'SozR 4-4200 § 22 Nr 88 RdNr 22', findings: [['SozR 4-4200 § 22 Nr. 88', 'out_of_coverage']] },
  { text: 'BVerfGE 79, 292 <304 f.>; 89, 1 <9>', findings: [['BVerfGE 79, 292', 'out_of_coverage'], ['BVerfGE 89, 1', 'out_of_coverage']] },
  { text: 'BFH, Beschluss vom 27.07.2015 - GrS 1/14', findings: [['BFH, GrS 1/14', 'out_of_coverage']] },
]);

test('reporter citations say why they are not verified', () => {
  const [f] = check('BGHZ 132, 105').findings;
  assert.equal(f.evidence.reason, 'reporter_not_indexed');
});

table('false friends give no finding', [
  { text: 'Am 14.01.2020 zahlte er 850/900 EUR. Tel. 030 12345/678, Raum 2.019.', findings: [] },
  { text: 'Die Klägerin (vgl. Rn. 12/13) zahlte am 3. 10. 2019 insgesamt 1.234,56 EUR.', findings: [] },
]);

// --- Offsets -------------------------------------------------------------------------------------------------------

test('offsets are Unicode code points into the submitted text', () => {
  // An astral character (two UTF-16 units, one code point) and no-break spaces before the citations.
  const text = '😀 Nach\u00a0§\u00a0242 Abs.\u00a01 StGB und „§ 263 StGB“';
  const { findings } = check(text);
  assert.deepEqual(findings.map((f) => [f.canonical, f.start_offset, f.end_offset, f.raw_text]), [
    ['§ 242 Abs. 1 StGB', 7, 24, '§\u00a0242 Abs.\u00a01 StGB'],
    ['§ 263 StGB', 30, 40, '§ 263 StGB'],
  ]);
  const points = [...text];
  for (const f of findings) assert.equal(points.slice(f.start_offset, f.end_offset).join(''), f.raw_text);
});

test('chains: each provision has its own offsets', () => {
  const text = '§§ 280 Abs. 1, 281 Abs. 1 Satz 1 BGB';
  assert.deepEqual(check(text).findings.map((f) => [f.start_offset, f.end_offset, f.raw_text]), [
    [0, 13, '§§ 280 Abs. 1'],
    [15, 36, '281 Abs. 1 Satz 1 BGB'],
  ]);
});

// --- Reference date ------------------------------------------------------------------------------------------------

interface DateRow {
  text: string;
  reference: string | null;
  source: Finding['evidence']['citation_date_source'];
  date: string | null;
  advisory: boolean;
  todo?: string;
}

const dateRows: DateRow[] = [
  { text: '§ 64 GmbHG', reference: '2022-01-01', source: 'reference_date', date: '2022-01-01', advisory: true },
  { text: '§ 64 GmbHG', reference: '2019-01-01', source: 'reference_date', date: '2019-01-01', advisory: false },
  { text: '§ 64 GmbHG', reference: null, source: 'none', date: null, advisory: false },
  { text: '§ 64 Satz 1 GmbHG a.F.', reference: '2022-01-01', source: 'reference_date', date: '2022-01-01', advisory: true },
  // The sentence names a date: it wins over the reference date.
  { text: 'Die Zahlung vom 15.03.2019 verstieß gegen § 64 GmbHG.', reference: '2022-01-01', source: 'sentence', date: '2019-03-15', advisory: false },
  { text: 'Der Vertrag vom 1.3.2019 verstieß gegen § 64 GmbHG.', reference: '2022-01-01', source: 'sentence', date: '2019-03-01', advisory: false },
  { text: 'Die Zahlung vom 15.03.2019 verstieß gegen § 64 GmbHG.', reference: null, source: 'sentence', date: '2019-03-15', advisory: false },
  { text: '§ 64 GmbHG in der bis zum 31.12.2020 geltenden Fassung', reference: '2022-01-01', source: 'sentence', date: '2020-12-31', advisory: false },
  // A date in another sentence does not count.
  { text: 'Am 15.03.2019 wurde gezahlt. Das verstieß gegen § 64 GmbHG.', reference: '2022-01-01', source: 'reference_date', date: '2022-01-01', advisory: true },
  // The date of a decision citation in the same sentence is the decision's, not the provision's.
  { text: 'Nach § 64 GmbHG (BGH, Urteil vom 23.06.2020 - II ZR 48/19) haftet er.', reference: '2022-01-01', source: 'reference_date', date: '2022-01-01', advisory: true },
  // A date with the month name: the '. ' after the day does not end the sentence.
  { text: 'Die Zahlung erfolgte am 1. März 2019 entgegen § 64 GmbHG.', reference: '2022-01-01', source: 'sentence', date: '2019-03-01', advisory: false },
  { text: 'Am 1. März 2019 galt noch § 64 GmbHG.', reference: '2022-01-01', source: 'sentence', date: '2019-03-01', advisory: false },
  // Other renumbered provisions.
  { text: '§ 476 BGB', reference: '2022-06-01', source: 'reference_date', date: '2022-06-01', advisory: true },
  { text: '§ 476 BGB', reference: '2021-06-01', source: 'reference_date', date: '2021-06-01', advisory: false },
  { text: '§ 434 Abs. 1 Satz 2 Nr. 2 BGB', reference: '2022-06-01', source: 'reference_date', date: '2022-06-01', advisory: true },
  { text: '§ 434 Abs. 2 BGB', reference: '2022-06-01', source: 'reference_date', date: '2022-06-01', advisory: false },
  { text: '§ 15b InsO', reference: '2022-01-01', source: 'reference_date', date: '2022-01-01', advisory: false },
];

for (const row of dateRows) {
  test(`reference_date ${row.reference ?? 'none'}: ${JSON.stringify(row.text)}`, { todo: row.todo }, () => {
    const statutes = check(row.text, row.reference).findings.filter((f) => f.type === 'statute');
    assert.equal(statutes.length, 1);
    const [f] = statutes;
    assert.deepEqual([f.evidence.citation_date_source, f.evidence.citation_date], [row.source, row.date]);
    assert.equal(f.numbering_advisory !== null, row.advisory, f.numbering_advisory ?? 'no advisory');
  });
}

test('the numbering advisory for § 64 GmbHG names its successor and changes no verdict', () => {
  const late = check('§ 64 GmbHG', '2022-01-01').findings[0];
  const early = check('§ 64 GmbHG', '2019-01-01').findings[0];
  assert.match(late.numbering_advisory ?? '', /15b InsO/u);
  assert.equal(early.numbering_advisory, null);
  assert.equal(late.verdict, 'verified');
  assert.equal(early.verdict, late.verdict);
  assert.equal(early.canonical, late.canonical);
});

test('decision findings: citation_date_source is sentence when the citation has a date, else none', () => {
  const dated = check('BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12', '2022-01-01').findings[0];
  assert.deepEqual([dated.evidence.citation_date_source, dated.evidence.citation_date], ['sentence', '2013-10-23']);
  const undated = check('BVerfG 1 BvR 567/21', '2022-01-01').findings[0];
  assert.deepEqual([undated.evidence.citation_date_source, undated.evidence.citation_date], ['none', null]);
});

test('a Satz is found in law texts that print their sentence numbers (EStG, AO, UStG: "2Einkünfte")', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-sentences-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  buildSmallCorpus(join(dir, 'corpus.db'));
  const corpus = new Database(join(dir, 'corpus.db'));
  t.after(() => corpus.close());
  corpus.prepare(`INSERT INTO laws (id, abbreviation, title, law_type, jurisdiction, text_available) VALUES ('law-estg', 'EStG', 'EStG', 'Gesetz', 'DE', 1)`).run();
  corpus.prepare(`INSERT INTO law_units (id, law_id, kind, number, text, position) VALUES ('law-estg-26a', 'law-estg', '§', '26a', ?, 0)`)
    .run('(1) 1Bei der Einzelveranlagung von Ehegatten sind jedem Ehegatten die von ihm bezogenen Einkünfte zuzurechnen. '
      + '2Einkünfte eines Ehegatten sind nicht allein deshalb zum Teil dem anderen Ehegatten zuzurechnen, weil dieser bei der '
      + 'Erzielung der Einkünfte mitgewirkt hat.\n(2) 1Sonderausgaben werden demjenigen Ehegatten zugerechnet, der sie getragen hat.');
  const run = runCheck(corpus, { id: 'test', text: 'Nach § 26a Abs. 1 Satz 2 EStG und § 26a Abs. 1 Satz 3 EStG sind die Einkünfte zuzurechnen.',
    reference_date: null, source: 'text', submittedAt: new Date('2024-05-01T10:00:00Z') });
  assert.deepEqual(run.findings.map((f) => [f.canonical, f.verdict, f.subdivision_check]),
    [['§ 26a Abs. 1 Satz 2 EStG', 'verified', 'verified'], ['§ 26a Abs. 1 Satz 3 EStG', 'verified', 'not_found']]);
});
