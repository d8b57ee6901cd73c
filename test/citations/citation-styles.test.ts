// Citation styles the outside evaluation found unread (issue 28, causes 2-6), table-driven: input text -> canonical
// forms of the citations found, in text order, and where a row pins them the raw spans.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractCitations } from '../../src/citations/extract.ts';

interface Row {
  text: string;
  canonical: string[];
  raw?: string[];
}

function table(group: string, rows: readonly Row[]): void {
  for (const row of rows) {
    test(`${group}: ${JSON.stringify(row.text)}`, () => {
      const { citations } = extractCitations(row.text);
      assert.deepEqual(citations.map((c) => c.canonical), row.canonical);
      if (row.raw) assert.deepEqual(citations.map((c) => row.text.slice(c.start, c.end)), row.raw);
    });
  }
}

table('official law names in the genitive', [
  {
    text: 'Dies verstößt gegen § 8 Abs. 1 in Verbindung mit § 3 Abs. 1 des Gesetzes gegen den unlauteren Wettbewerb.',
    canonical: ['§ 8 Abs. 1 UWG', '§ 3 Abs. 1 UWG'],
    raw: ['§ 8 Abs. 1', '§ 3 Abs. 1 des Gesetzes gegen den unlauteren Wettbewerb'],
  },
  {
    text: 'Der Schadensersatz folgt aus § 33 Abs. 1 des Gesetzes gegen Wettbewerbsbeschränkungen in der geltenden Fassung.',
    canonical: ['§ 33 Abs. 1 GWB'],
    raw: ['§ 33 Abs. 1 des Gesetzes gegen Wettbewerbsbeschränkungen'],
  },
  { text: 'nach § 1 des Gesetzes betreffend die Gesellschaften mit beschränkter Haftung', canonical: ['§ 1 GmbHG'] },
  // A generic noun without a title known to the registry (or the corpus) names no law.
  { text: 'Nach § 3 des Gesetzes ist das unzulässig.', canonical: [] },
]);

table('file-number registers: Bavarian seats, BayObLG, Reichsgericht, NRW groups, suffixes kept', [
  { text: 'VG München, Urteil v. 07.06.2023 – M 28 K 21.6372', canonical: ['VG München, M 28 K 21.6372'] },
  { text: 'VG München, Urteil vom 12. März 2021 - M 12 K 20.456 -, juris', canonical: ['VG München, M 12 K 20.456'] },
  { text: 'BayObLG, Beschluss vom 5. 3. 2002 - 1Z BR 12/02', canonical: ['BayObLG, 1Z BR 12/02'] },
  { text: 'BayObLG, Beschluss v. 27.11.2023 – 203 StRR 381/23', canonical: ['BayObLG, 203 StRR 381/23'] },
  { text: 'RG, Urteil vom 10. Oktober 1905 - III 77/05', canonical: ['RG, III 77/05'] },
  // A Roman numeral and a number without the Reichsgericht named is no Aktenzeichen.
  { text: 'Band III 77/05 der Sammlung', canonical: [] },
  { text: 'OLG Düsseldorf , Urteil vom 9. 1. 2014 - I-14 U 55/13 - NJW 2014 , 1599', canonical: ['OLG Düsseldorf, I-14 U 55/13'] },
  { text: 'OLG München, Beschluss v. 27.09.2023 – 34 Wx 240/23 e', canonical: ['OLG München, 34 Wx 240/23 e'] },
  { text: 'OLG München, Beschluss v. 24.11.2023 – 28 W 1292/23 Bau e', canonical: ['OLG München, 28 W 1292/23 Bau e'] },
  { text: 'VG Frankfurt, Urteil vom 1. 2. 2020 - 7 K 1234/19.F -', canonical: ['VG Frankfurt, 7 K 1234/19.F'] },
  { text: 'Hess. VGH, Beschluss vom 4. 5. 2021 - 6 A 987/20.Z -', canonical: ['VGH Hessen, 6 A 987/20.Z'], raw: ['Hess. VGH, Beschluss vom 4. 5. 2021 - 6 A 987/20.Z -'] },
  { text: 'VGH München, Beschluss v. 06.09.2023 – 7 CE 23.1585', canonical: ['VGH Bayern, 7 CE 23.1585'] },
  // LER: Frankfurt's chambers and the Vollzugs-Senate of an OLG.
  { text: 'LG Frankfurt , Beschluss vom 31. Oktober 2016 - 5/12 KLs 9/16 - , juris , Rn. 29', canonical: ['LG Frankfurt, 5/12 KLs 9/16'] },
  { text: 'Beschluss des Schleswig-Holsteinischen Oberlandesgerichts vom 7. Februar 2017 - 1 VollzWs 479/16', canonical: ['OLG Schleswig, 1 VollzWs 479/16'] },
  { text: 'Er zahlte 850/900 EUR.', canonical: [] },
  // 'e.V.' after a file number is no suffix.
  { text: 'OLG München, Beschluss vom 1. 2. 2022 - 33 Wx 12/22 e.V. ist beteiligt', canonical: ['OLG München, 33 Wx 12/22'] },
]);

table('a court named in the prose before its decision', [
  {
    text: 'Das Landgericht Hamburg hat mit Urteil vom 3. Mai 2012 (Az. 324 O 56/11) entschieden.',
    canonical: ['LG Hamburg, 324 O 56/11'],
    raw: ['Landgericht Hamburg hat mit Urteil vom 3. Mai 2012 (Az. 324 O 56/11)'],
  },
  { text: 'Der BGH hat in seinem Urteil vom 26. Juni 2019 (VIII ZR 21/18) offengelassen.', canonical: ['BGH, VIII ZR 21/18'] },
]);

table('smaller: ECLI across a line, decomposed umlauts, ECLI spans, old reporters', [
  {
    text: 'BGH, Urteil vom 12. Juni 2019, ECLI:DE:BGH:2019:\n120619UVIIIZR21.18.0, Rn. 5',
    canonical: ['ECLI:DE:BGH:2019:120619UVIIIZR21.18.0'],
  },
  { text: 'OLG Mu\u0308nchen, Urteil vom 1. 2. 2020 - 7 U 123/18', canonical: ['OLG München, 7 U 123/18'], raw: ['OLG Mu\u0308nchen, Urteil vom 1. 2. 2020 - 7 U 123/18'] },
  { text: 'Das ergibt sich aus der Entscheidung des Gerichtshofs ECLI:EU:C:2019:1145.', canonical: ['ECLI:EU:C:2019:1145'], raw: ['ECLI:EU:C:2019:1145'] },
  { text: 'RGZ 100, 1; RGSt 60, 200; PrOVGE 77, 327 und RG JW 1907, 136', canonical: ['RGZ 100, 1', 'RGSt 60, 200', 'PrOVGE 77, 327', 'JW 1907, 136'] },
]);

test('short forms repeat the decision cited before, with role back_reference; literature short forms do not', () => {
  const rows: [string, string[]][] = [
    ['Vgl. BGH, Urteil vom 26. Juni 2019 - VIII ZR 21/18, NJW 2019, 2765. Anders OLG München, Urteil vom 1. 2. 2020 - 7 U 123/18. So auch BGH, aaO, Rn. 12.',
      ['BGH, VIII ZR 21/18', 'OLG München, 7 U 123/18', 'BGH, VIII ZR 21/18 <- BGH, aaO']],
    ['BGH, Urteil vom 26. Juni 2019 - VIII ZR 21/18 - Rn. 10; ebenda Rn. 12.', ['BGH, VIII ZR 21/18', 'BGH, VIII ZR 21/18 <- ebenda']],
    ['BGH, Urteil vom 26. Juni 2019 - VIII ZR 21/18 (ebd., Rn. 14).', ['BGH, VIII ZR 21/18', 'BGH, VIII ZR 21/18 <- ebd.']],
    ['BGH, Urteil vom 26. Juni 2019 - VIII ZR 21/18 (a.a.O., Rn. 14).', ['BGH, VIII ZR 21/18', 'BGH, VIII ZR 21/18 <- a.a.O.']],
    // An author before it: literature. A § between: the short form is no longer the decision's.
    ['BGH, Urteil vom 26. Juni 2019 - VIII ZR 21/18; Grüneberg, aaO, § 280 Rn. 5; vgl. ebd.', ['BGH, VIII ZR 21/18']],
    // No decision of that court cited before.
    ['OLG München, Urteil vom 1. 2. 2020 - 7 U 123/18; BGH, aaO.', ['OLG München, 7 U 123/18']],
    // A name after it is another decision the text cited earlier (LER: '( BGH GRUR 2014 , 378 Rn. 27 – OTTO Cap ; a. a. O. , Rn. 49 – TÜV II )').
    ['( BGH GRUR 2014 , 378 Rn. 27 – OTTO Cap ; a. a. O. , Rn. 49 – TÜV II ) .', ['GRUR 2014, 378']],
    ['( EuGH MarkenR 2007 , 204 – CELLTECH ; BGH GRUR 2003 , 707 – X ; BGH a. a. O. Rdnr. 16 – DüsseldorfCongress ) .', ['GRUR 2003, 707']],
  ];
  for (const [text, expected] of rows) {
    const found = extractCitations(text, { backReferences: true }).citations.map((c) => (c.type === 'case' && c.role === 'back_reference'
      ? `${c.canonical} <- ${text.slice(c.start, c.end)}` : c.canonical));
    assert.deepEqual(found, expected, text);
  }
});
