// Citation styles of issue 28 checked against the demo corpus (fixtures/): [canonical, verdict] per finding.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCheck, type CheckRun, type Finding } from '../../src/citations/check.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const db = openCorpus(await demoCorpus(), { readonly: true });
after(() => db.close());

function check(text: string): CheckRun {
  return runCheck(db, { id: 'test', text, reference_date: null, source: 'text', submittedAt: new Date('2024-05-01T10:00:00Z') });
}

function table(group: string, rows: readonly { text: string; findings: [string, Finding['verdict']][] }[]): void {
  for (const row of rows) {
    test(`${group}: ${JSON.stringify(row.text)}`, () => {
      assert.deepEqual(check(row.text).findings.map((f) => [f.canonical, f.verdict]), row.findings);
    });
  }
}

table('a law by the official title the corpus holds (its GII title), in the genitive', [
  {
    text: 'Die Auflage beruht auf § 15 Abs. 1 des Gesetzes über Versammlungen und Aufzüge; § 3 des Mindesturlaubsgesetzes für Arbeitnehmer gilt.',
    findings: [['§ 15 Abs. 1 VersammlG', 'verified'], ['§ 3 BUrlG', 'verified']],
  },
  {
    text: 'Dies verstößt gegen § 8 Abs. 1 in Verbindung mit § 3 Abs. 1 des Gesetzes gegen den unlauteren Wettbewerb.',
    findings: [['§ 8 Abs. 1 UWG', 'verified'], ['§ 3 Abs. 1 UWG', 'verified']],
  },
]);

table('an Aktenzeichen the named court holds under another spelling (group, court or seat in front, a suffix after)', [
  {
    text: 'VG Berlin, Beschluss vom 14. März 2017 - 3 K 123.16 -; OLG Frankfurt, Urteil vom 8. März 2023 - I-5 U 12/22 -.',
    findings: [['VG Berlin, 3 K 123.16', 'verified'], ['OLG Frankfurt, I-5 U 12/22', 'verified']],
  },
  // Without a court named, no other spelling is tried: '3 K 123.16' may be any court's.
  { text: 'Beschluss vom 14. März 2017 - 3 K 123.16 -.', findings: [['3 K 123.16', 'out_of_coverage']] },
  // Another court's decision under that spelling verifies nothing.
  { text: 'OLG Hamm, Urteil vom 8. März 2023 - I-5 U 12/22 -.', findings: [['OLG Hamm, I-5 U 12/22', 'out_of_coverage']] },
]);

table('a court named in the prose before its decision', [
  {
    text: 'Das Oberlandesgericht Frankfurt hat mit Urteil vom 8. März 2023 (Az. 5 U 12/22) entschieden, dass die Klage begründet ist.',
    findings: [['OLG Frankfurt, 5 U 12/22', 'verified']],
  },
  {
    // The court is attributed; the demo corpus covers it by its holdings only (no exhaustive range), so a decision it
    // does not hold is not_in_corpus (an exhaustive range says not_found: test/corpus/coverage-manifest.test.ts).
    text: 'Das Landgericht München I hat mit Urteil vom 3. Mai 2012 (Az. 324 O 56/11) die Klage abgewiesen.',
    findings: [['LG München I, 324 O 56/11', 'not_in_corpus']],
  },
]);

test('a back-reference is checked as the decision it repeats and grouped with it', () => {
  const run = check('Vgl. BGH, Urteil vom 16. Dezember 2020 - VIII ZR 123/19 -. Anders OLG München, Urteil vom 20. März 2019 - 7 U 123/18. So auch BGH, aaO, Rn. 12.');
  assert.deepEqual(run.findings.map((f) => [f.raw_text, f.role, f.verdict]), [
    ['BGH, Urteil vom 16. Dezember 2020 - VIII ZR 123/19 -', null, 'verified'],
    ['OLG München, Urteil vom 20. März 2019 - 7 U 123/18', null, 'verified'],
    ['BGH, aaO', 'back_reference', 'verified'],
  ]);
  assert.equal(run.findings[2].matched_decision!.artifact_id, run.findings[0].matched_decision!.artifact_id);
  const group = run.unique_citations.find((u) => u.canonical === run.findings[0].canonical)!;
  assert.equal(group.occurrences, 2);
});
