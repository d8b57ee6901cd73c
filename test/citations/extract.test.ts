// The citation extractor, table-driven: input text -> the canonical forms of the citations found, in text order
// (resolutions.md, "Citation check": one finding per cited provision, canonical forms), and for some rows the exact
// raw spans. Rows the extractor gets wrong keep the correct expectation and carry `todo` saying what is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { extractCitations } from '../../src/citations/extract.ts';
import type { CaseCitation, StatuteCitation } from '../../src/citations/types.ts';

interface Row {
  text: string;
  /** Canonical forms of all citations found, in text order. */
  canonical: string[];
  /** The raw span of each citation (text.slice(start, end)), when the row pins it. */
  raw?: string[];
  todo?: string;
}

function table(group: string, rows: readonly Row[]): void {
  for (const row of rows) {
    test(`${group}: ${JSON.stringify(row.text)}`, { todo: row.todo }, () => {
      const { citations } = extractCitations(row.text);
      assert.deepEqual(citations.map((c) => c.canonical), row.canonical);
      if (row.raw) assert.deepEqual(citations.map((c) => row.text.slice(c.start, c.end)), row.raw);
    });
  }
}

const statutes = (text: string): StatuteCitation[] =>
  extractCitations(text).citations.filter((c): c is StatuteCitation => c.type === 'statute');
const cases = (text: string): CaseCitation[] =>
  extractCitations(text).citations.filter((c): c is CaseCitation => c.type === 'case');

// --- Statutes ------------------------------------------------------------------------------------------------------

table('statute subdivisions', [
  { text: '§ 823 Abs. 1 BGB', canonical: ['§ 823 Abs. 1 BGB'], raw: ['§ 823 Abs. 1 BGB'] },
  { text: '§ 535 Absatz 1 Satz 2 BGB', canonical: ['§ 535 Abs. 1 Satz 2 BGB'] },
  { text: '§ 812 Abs. 1 S. 1 Alt. 1 BGB', canonical: ['§ 812 Abs. 1 Satz 1 Alt. 1 BGB'] },
  { text: '§ 242 Abs.1 StGB', canonical: ['§ 242 Abs. 1 StGB'] },
  { text: '§242 StGB', canonical: ['§ 242 StGB'] },
  { text: '§ 573 Abs. 2 Nr. 2 BGB', canonical: ['§ 573 Abs. 2 Nr. 2 BGB'] },
  { text: '§ 263 Abs. 3 Satz 2 Nr. 1 StGB', canonical: ['§ 263 Abs. 3 Satz 2 Nr. 1 StGB'] },
  { text: '§ 126 Abs. 3 Satz 1 Nr. 2 FGO', canonical: ['§ 126 Abs. 3 Satz 1 Nr. 2 FGO'] },
  { text: '§ 573 Abs. 2 Nr. 2 Halbsatz 1 BGB', canonical: ['§ 573 Abs. 2 Nr. 2 Halbsatz 1 BGB'] },
  { text: '§ 573 Abs. 2 Nr. 2 Hs. 1 BGB', canonical: ['§ 573 Abs. 2 Nr. 2 Halbsatz 1 BGB'] },
  { text: '§ 573 Abs. 2 Nr. 2 Halbs. 1 BGB', canonical: ['§ 573 Abs. 2 Nr. 2 Halbsatz 1 BGB'] },
  { text: '§ 573 Abs. 2 Nr. 2 HS 1 BGB', canonical: ['§ 573 Abs. 2 Nr. 2 Halbsatz 1 BGB'] },
  { text: '§ 573 Abs. 2 Nr. 2, 1. Halbsatz BGB', canonical: ['§ 573 Abs. 2 Nr. 2 Halbsatz 1 BGB'] },
  { text: '§ 573 Abs. 2 Nr. 2, 2. Hs. BGB', canonical: ['§ 573 Abs. 2 Nr. 2 Halbsatz 2 BGB'] },
  { text: '§ 535 Abs. 1 Satz 2 Halbsatz 1 BGB', canonical: ['§ 535 Abs. 1 Satz 2 Halbsatz 1 BGB'] },
  { text: 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO', canonical: ['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'], raw: ['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'] },
  { text: 'Art. 6 Abs. 1 Unterabs. 1 Buchst. f DS-GVO', canonical: ['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'] },
  { text: 'Art. 6 Abs. 1 Unterabsatz 1 Buchstabe f DSGVO', canonical: ['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'] },
  { text: 'Art. 6 Abs. 1 UAbs. 2 DSGVO', canonical: ['Art. 6 Abs. 1 UAbs. 2 DSGVO'] },
  { text: 'Art. 6 Abs. 1 Buchst. f DSGVO', canonical: ['Art. 6 Abs. 1 lit. f DSGVO'] },
  { text: 'Art. 6 Abs. 1 S. 1 lit. f DSGVO', canonical: ['Art. 6 Abs. 1 Satz 1 lit. f DSGVO'] },
  { text: 'Art. 17 Abs. 1 lit. d DSGVO', canonical: ['Art. 17 Abs. 1 lit. d DSGVO'] },
  { text: 'Art. 4 Nr. 2 DSGVO', canonical: ['Art. 4 Nr. 2 DSGVO'] },
  { text: 'Art. 82 Abs. 1 DS-GVO', canonical: ['Art. 82 Abs. 1 DSGVO'] },
  { text: '§ 2 Abs. 1 Buchstabe a EStG', canonical: ['§ 2 Abs. 1 lit. a EStG'] },
  { text: '§ 1 Abs. 2 Satz 2 Nr. 1 Buchst. b KSchG', canonical: ['§ 1 Abs. 2 Satz 2 Nr. 1 lit. b KSchG'] },
  { text: '§ 1 Abs. 1 S. 1 Nr. 1 lit. a Doppelbuchst. aa EStG', canonical: ['§ 1 Abs. 1 Satz 1 Nr. 1 lit. a Doppelbuchst. aa EStG'] },
  { text: '§ 823 Abs. 1 Alt. 2 BGB', canonical: ['§ 823 Abs. 1 Alt. 2 BGB'] },
  { text: '§ 823 Abs. 1 Var. 2 BGB', canonical: ['§ 823 Abs. 1 Var. 2 BGB'] },
  { text: '§ 1 Abs. 2 Satz 1 Var. 3 KSchG', canonical: ['§ 1 Abs. 2 Satz 1 Var. 3 KSchG'] },
  { text: 'Art. 5 Abs. 1 Satz 1 Alt. 1 GG', canonical: ['Art. 5 Abs. 1 Satz 1 Alt. 1 GG'] },
  { text: '§ 4 Abs. 5 Satz 1 Nr. 6b EStG', canonical: ['§ 4 Abs. 5 Satz 1 Nr. 6b EStG'] },
  { text: '§ 4 Abs. 5 Satz 1 Nr. 6b Satz 2 EStG', canonical: ['§ 4 Abs. 5 Satz 1 Nr. 6b Satz 2 EStG'] },
  { text: '§ 13 Abs. 3a SGB V', canonical: ['§ 13 Abs. 3a SGB V'] },
  // Stacked sibling subdivisions of one provision give one finding (counted in dropped_stacked_subdivision).
  { text: '§ 823 Abs. 1 und 2 BGB', canonical: ['§ 823 Abs. 1 BGB'], raw: ['§ 823 Abs. 1 und 2 BGB'] },
  { text: '§ 22 Abs. 1 und 6 SGB II', canonical: ['§ 22 Abs. 1 SGB II'] },
  { text: '§ 1 Abs. 3 Nr. 3, Abs. 4 PatG', canonical: ['§ 1 Abs. 3 Nr. 3 PatG'] },
  { text: '§ 573 Abs. 2 Nr. 1 bis 3 BGB', canonical: ['§ 573 Abs. 2 Nr. 1 BGB'] },
  // No-break spaces (as in JURA000000014) and a line break inside the citation.
  { text: '§\u00a0242 Abs.\u00a01 StGB', canonical: ['§ 242 Abs. 1 StGB'], raw: ['§\u00a0242 Abs.\u00a01 StGB'] },
  { text: '§ 535\nBGB', canonical: ['§ 535 BGB'], raw: ['§ 535\nBGB'] },
]);

table('undotted style', [
  { text: 'Art 101 Abs 1 S 2 GG', canonical: ['Art. 101 Abs. 1 Satz 2 GG'], raw: ['Art 101 Abs 1 S 2 GG'] },
  { text: '§ 22 Abs 1 Satz 2 SGB II', canonical: ['§ 22 Abs. 1 Satz 2 SGB II'] },
  { text: '§ 573 Abs 2 Nr 2 BGB', canonical: ['§ 573 Abs. 2 Nr. 2 BGB'] },
  { text: '§ 13 Abs 3 S 1 SGB V', canonical: ['§ 13 Abs. 3 Satz 1 SGB V'] },
  { text: 'Art 6 Abs 1 UAbs 1 Buchst f DSGVO', canonical: ['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'] },
  { text: 'Art 6 Abs 1 UAbs 1 Buchst f EUV 2016/679', canonical: ['Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'] },
  { text: '§ 1 Abs 2 S 1 Alt 2 KSchG', canonical: ['§ 1 Abs. 2 Satz 1 Alt. 2 KSchG'] },
  { text: '§ 1 Abs 2 Satz 1 Var 3 KSchG', canonical: ['§ 1 Abs. 2 Satz 1 Var. 3 KSchG'] },
  { text: '§ 573 Abs 2 Nr 2 Hs 1 BGB', canonical: ['§ 573 Abs. 2 Nr. 2 Halbsatz 1 BGB'] },
  { text: '§ 2 Abs 1 Nr 1 Buchst a EStG', canonical: ['§ 2 Abs. 1 Nr. 1 lit. a EStG'] },
]);

table('Roman Absatz numerals', [
  { text: '§ 535 I 2 BGB', canonical: ['§ 535 Abs. 1 Satz 2 BGB'], raw: ['§ 535 I 2 BGB'] },
  { text: '§ 823 I BGB', canonical: ['§ 823 Abs. 1 BGB'] },
  { text: '§ 280 III BGB', canonical: ['§ 280 Abs. 3 BGB'] },
  { text: '§ 3 IV UWG', canonical: ['§ 3 Abs. 4 UWG'] },
  { text: '§ 3 Abs. IV UWG', canonical: ['§ 3 Abs. 4 UWG'] },
  { text: '§ 281 I 1 BGB', canonical: ['§ 281 Abs. 1 Satz 1 BGB'] },
  { text: '§ 812 I 1 Alt. 1 BGB', canonical: ['§ 812 Abs. 1 Satz 1 Alt. 1 BGB'] },
  { text: 'Art. 101 I 2 GG', canonical: ['Art. 101 Abs. 1 Satz 2 GG'] },
  { text: '§§ 280 I, 281 I 1 BGB', canonical: ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB'] },
  { text: '§ 823 II BGB i.V.m. § 263 StGB', canonical: ['§ 823 Abs. 2 BGB', '§ 263 StGB'] },
  // Further Absätze of one provision are stacked onto it; the chain goes on.
  { text: '§§ 280 I, III, 281 I 1 BGB', canonical: ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB'], raw: ['§§ 280 I, III', '281 I 1 BGB'] },
  { text: '§ 823 I, II BGB', canonical: ['§ 823 Abs. 1 BGB'] },
  // An unlabelled letter after the Roman Absatz (and its Satz) is the litera; 'f.' stays 'and the following'.
  { text: 'Art. 6 I f DSGVO', canonical: ['Art. 6 Abs. 1 lit. f DSGVO'], raw: ['Art. 6 I f DSGVO'] },
  { text: 'Art. 6 I 1 f DSGVO', canonical: ['Art. 6 Abs. 1 Satz 1 lit. f DSGVO'] },
  { text: '(Art. 9 II a DSGVO)', canonical: ['Art. 9 Abs. 2 lit. a DSGVO'] },
  { text: '§ 5 I f. BGB', canonical: ['§ 5 Abs. 1 BGB'] },
  { text: '§ 823 I a.F. BGB', canonical: ['§ 823 Abs. 1 BGB'] },
]);

table('unit numbers with letters', [
  { text: '§ 613a Abs. 4 Satz 1 BGB', canonical: ['§ 613a Abs. 4 Satz 1 BGB'] },
  { text: '§ 15a InsO', canonical: ['§ 15a InsO'] },
  { text: '§ 3a Abs. 2 Nr. 5 AsylG', canonical: ['§ 3a Abs. 2 Nr. 5 AsylG'] },
  { text: '§ 83 b StGB', canonical: ['§ 83b StGB'], raw: ['§ 83 b StGB'] },
  { text: '§§ 83 b, 84 StGB', canonical: ['§ 83b StGB', '§ 84 StGB'] },
  { text: '§ 536 Abs. 1 Satz 1 BGB; § 536a BGB', canonical: ['§ 536 Abs. 1 Satz 1 BGB', '§ 536a BGB'] },
]);

table('chains: one finding per provision', [
  { text: '§§ 280 Abs. 1, 281 Abs. 1 Satz 1 BGB', canonical: ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB'],
    raw: ['§§ 280 Abs. 1', '281 Abs. 1 Satz 1 BGB'] },
  { text: '§§ 437 Nr. 3, 280 Abs. 1, 281 Abs. 1 Satz 1 BGB',
    canonical: ['§ 437 Nr. 3 BGB', '§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB'],
    raw: ['§§ 437 Nr. 3', '280 Abs. 1', '281 Abs. 1 Satz 1 BGB'] },
  { text: '§§ 280 Abs 1, 281 Abs 1 S 1 BGB', canonical: ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB'] },
  { text: '§§ 823, 826 BGB', canonical: ['§ 823 BGB', '§ 826 BGB'] },
  { text: '§§ 812 Abs. 1 Satz 1 Alt. 1, 818 Abs. 2 BGB', canonical: ['§ 812 Abs. 1 Satz 1 Alt. 1 BGB', '§ 818 Abs. 2 BGB'] },
  { text: '§§ 535, 536 Abs. 1 BGB', canonical: ['§ 535 BGB', '§ 536 Abs. 1 BGB'] },
  { text: '§ 3, 5 UWG', canonical: ['§ 3 UWG', '§ 5 UWG'] },
  { text: '§§ 3, 5 Abs. 1 Satz 2 Nr. 1 UWG', canonical: ['§ 3 UWG', '§ 5 Abs. 1 Satz 2 Nr. 1 UWG'] },
  { text: '§ 13 Abs. 1 Satz 2, § 4 Satz 1 KSchG', canonical: ['§ 13 Abs. 1 Satz 2 KSchG', '§ 4 Satz 1 KSchG'],
    raw: ['§ 13 Abs. 1 Satz 2', '§ 4 Satz 1 KSchG'] },
  { text: '§ 562 Abs. 1, § 563 Abs. 1 Satz 1 ZPO', canonical: ['§ 562 Abs. 1 ZPO', '§ 563 Abs. 1 Satz 1 ZPO'] },
  { text: 'Art. 3 Abs. 1, Art. 12 Abs. 1 GG', canonical: ['Art. 3 Abs. 1 GG', 'Art. 12 Abs. 1 GG'] },
  { text: '§ 8 Abs. 1, § 3, § 5 UWG', canonical: ['§ 8 Abs. 1 UWG', '§ 3 UWG', '§ 5 UWG'] },
  { text: '§ 8 Abs. 1, §§ 3, 5 UWG', canonical: ['§ 8 Abs. 1 UWG', '§ 3 UWG', '§ 5 UWG'] },
  { text: '§§ 91, 97 ZPO', canonical: ['§ 91 ZPO', '§ 97 ZPO'] },
  { text: '§§ 708 Nr. 10, 711, 713 ZPO', canonical: ['§ 708 Nr. 10 ZPO', '§ 711 ZPO', '§ 713 ZPO'] },
  { text: '§§ 154 Abs. 2 VwGO, 708 Nr. 11, 711 ZPO', canonical: ['§ 154 Abs. 2 VwGO', '§ 708 Nr. 11 ZPO', '§ 711 ZPO'] },
  { text: 'Artt. 12, 14 GG', canonical: ['Art. 12 GG', 'Art. 14 GG'] },
  { text: '§ 535 BGB; § 536 BGB', canonical: ['§ 535 BGB', '§ 536 BGB'] },
  { text: '§ 535 BGB, § 536 BGB und § 573 BGB', canonical: ['§ 535 BGB', '§ 536 BGB', '§ 573 BGB'] },
  // "und"
  { text: '§§ 3 und 4 UWG', canonical: ['§ 3 UWG', '§ 4 UWG'] },
  { text: 'Artt. 3 und 12 GG', canonical: ['Art. 3 GG', 'Art. 12 GG'], raw: ['Artt. 3', '12 GG'] },
  { text: '§§ 535, 536 und 573 BGB', canonical: ['§ 535 BGB', '§ 536 BGB', '§ 573 BGB'] },
  { text: '§§ 3 Abs. 1, 5 Abs. 2 UWG', canonical: ['§ 3 Abs. 1 UWG', '§ 5 Abs. 2 UWG'] },
  { text: '§ 535 Abs. 1, § 536 Abs. 1 und § 573 BGB', canonical: ['§ 535 Abs. 1 BGB', '§ 536 Abs. 1 BGB', '§ 573 BGB'] },
  { text: '§ 535 und § 536 BGB', canonical: ['§ 535 BGB', '§ 536 BGB'], raw: ['§ 535', '§ 536 BGB'] },
  { text: 'Art. 12 Abs. 1 und Art. 14 Abs. 1 GG', canonical: ['Art. 12 Abs. 1 GG', 'Art. 14 Abs. 1 GG'] },
  { text: '§ 3 und 5 UWG', canonical: ['§ 3 UWG', '§ 5 UWG'] },
  { text: 'Art. 3 und 12 GG', canonical: ['Art. 3 GG', 'Art. 12 GG'] },
  { text: 'Art. 7 und 8 der Grundrechtecharta', canonical: ['Art. 7 GRCh', 'Art. 8 GRCh'] },
  // i.V.m. / iVm / in Verbindung mit
  { text: 'Art. 2 Abs. 1 i.V.m. Art. 1 Abs. 1 GG', canonical: ['Art. 2 Abs. 1 GG', 'Art. 1 Abs. 1 GG'],
    raw: ['Art. 2 Abs. 1', 'Art. 1 Abs. 1 GG'] },
  { text: 'Art. 2 Abs. 1 i. V. m. Art. 1 Abs. 1 GG', canonical: ['Art. 2 Abs. 1 GG', 'Art. 1 Abs. 1 GG'] },
  { text: 'Art. 2 Abs. 1 iVm Art. 1 Abs. 1 GG', canonical: ['Art. 2 Abs. 1 GG', 'Art. 1 Abs. 1 GG'] },
  { text: 'Art 2 Abs 1 iVm Art 1 Abs 1 GG', canonical: ['Art. 2 Abs. 1 GG', 'Art. 1 Abs. 1 GG'] },
  { text: 'Art. 2 Abs. 1 in Verbindung mit Art. 1 Abs. 1 GG', canonical: ['Art. 2 Abs. 1 GG', 'Art. 1 Abs. 1 GG'] },
  { text: '§ 823 Abs. 2 BGB iVm § 263 StGB', canonical: ['§ 823 Abs. 2 BGB', '§ 263 StGB'] },
  { text: 'Art. 3 Abs. 1 GG i.V.m. Art. 20 Abs. 1 GG', canonical: ['Art. 3 Abs. 1 GG', 'Art. 20 Abs. 1 GG'] },
  { text: '§ 13 Abs. 3 SGB V i.V.m. § 2 Abs. 1a SGB V', canonical: ['§ 13 Abs. 3 SGB V', '§ 2 Abs. 1a SGB V'] },
  { text: 'Art. 6 Abs. 1 lit. f DSGVO i.V.m. § 31 BDSG', canonical: ['Art. 6 Abs. 1 lit. f DSGVO', '§ 31 BDSG'] },
  { text: '§ 280 Abs. 1 und 3 BGB iVm § 281 BGB', canonical: ['§ 280 Abs. 1 BGB', '§ 281 BGB'] },
]);

table('ff. and bis: one finding for the first provision', [
  { text: '§§ 433 ff. BGB', canonical: ['§ 433 BGB'], raw: ['§§ 433 ff. BGB'] },
  { text: '§§ 305 bis 310 BGB', canonical: ['§ 305 BGB'], raw: ['§§ 305 bis 310 BGB'] },
  { text: '§§ 305 - 310 BGB', canonical: ['§ 305 BGB'] },
  { text: '§§ 305–310 BGB', canonical: ['§ 305 BGB'] },
  { text: '§ 536 ff. BGB', canonical: ['§ 536 BGB'] },
  { text: '§ 536 f. BGB', canonical: ['§ 536 BGB'] },
  { text: 'Art. 1 ff. GG', canonical: ['Art. 1 GG'] },
  { text: 'Art. 12 f. GG', canonical: ['Art. 12 GG'] },
  { text: '§§ 535 ff., 573 BGB', canonical: ['§ 535 BGB', '§ 573 BGB'] },
]);

table('a.F. / n.F.', [
  { text: '§ 64 Satz 1 GmbHG a.F.', canonical: ['§ 64 Satz 1 GmbHG'], raw: ['§ 64 Satz 1 GmbHG a.F.'] },
  { text: '§ 64 GmbHG a. F.', canonical: ['§ 64 GmbHG'], raw: ['§ 64 GmbHG a. F.'] },
  { text: '§ 64 GmbHG aF', canonical: ['§ 64 GmbHG'] },
  { text: '§ 64 a.F. GmbHG', canonical: ['§ 64 GmbHG'] },
  { text: '§ 434 BGB (a.F.)', canonical: ['§ 434 BGB'] },
  { text: '§ 434 Abs. 1 Satz 2 Nr. 2 BGB a.F.', canonical: ['§ 434 Abs. 1 Satz 2 Nr. 2 BGB'] },
  { text: '§ 64 GmbHG n.F.', canonical: ['§ 64 GmbHG'] },
  { text: '§ 434 BGB n. F.', canonical: ['§ 434 BGB'] },
  { text: '§ 15b InsO nF', canonical: ['§ 15b InsO'] },
  { text: '§ 64 GmbHG in der bis zum 31.12.2020 geltenden Fassung', canonical: ['§ 64 GmbHG'],
    raw: ['§ 64 GmbHG in der bis zum 31.12.2020 geltenden Fassung'] },
]);

test('a.F. / n.F. and a version date are kept on the citation', () => {
  const versions = (text: string) => statutes(text).map((s) => [s.version, s.versionDate]);
  assert.deepEqual(versions('§ 64 Satz 1 GmbHG a.F.'), [['a.F.', null]]);
  assert.deepEqual(versions('§ 64 GmbHG aF'), [['a.F.', null]]);
  assert.deepEqual(versions('§ 64 a.F. GmbHG'), [['a.F.', null]]);
  assert.deepEqual(versions('§ 64 GmbHG n.F.'), [['n.F.', null]]);
  assert.deepEqual(versions('§ 64 GmbHG'), [[null, null]]);
  assert.deepEqual(versions('§ 64 GmbHG in der bis zum 31.12.2020 geltenden Fassung'), [[null, '31.12.2020']]);
});

table('the law: abbreviation, long name, law before §', [
  { text: '§ 535 Abs. 1 Satz 2 des Bürgerlichen Gesetzbuchs (BGB)', canonical: ['§ 535 Abs. 1 Satz 2 BGB'],
    raw: ['§ 535 Abs. 1 Satz 2 des Bürgerlichen Gesetzbuchs'] },
  { text: '§ 823 des Bürgerlichen Gesetzbuches', canonical: ['§ 823 BGB'] },
  { text: 'Artikel 14 Absatz 1 Satz 1 des Grundgesetzes', canonical: ['Art. 14 Abs. 1 Satz 1 GG'],
    raw: ['Artikel 14 Absatz 1 Satz 1 des Grundgesetzes'] },
  { text: 'Art. 1 Abs. 1 des Grundgesetzes für die Bundesrepublik Deutschland', canonical: ['Art. 1 Abs. 1 GG'] },
  { text: '§ 9 Abs. 1 Satz 1 des Einkommensteuergesetzes (EStG)', canonical: ['§ 9 Abs. 1 Satz 1 EStG'] },
  { text: '§ 126 Abs. 3 Satz 1 Nr. 2 der Finanzgerichtsordnung --FGO--', canonical: ['§ 126 Abs. 3 Satz 1 Nr. 2 FGO'],
    raw: ['§ 126 Abs. 3 Satz 1 Nr. 2 der Finanzgerichtsordnung'] },
  { text: '§ 1 des Kündigungsschutzgesetzes', canonical: ['§ 1 KSchG'] },
  { text: '§ 242 des Strafgesetzbuchs', canonical: ['§ 242 StGB'] },
  { text: '§ 74 Abs. 2 des Handelsgesetzbuchs', canonical: ['§ 74 Abs. 2 HGB'] },
  { text: '§ 626 Abs. 1 des BGB', canonical: ['§ 626 Abs. 1 BGB'] },
  { text: 'Art. 6 Abs. 1 lit. f der Verordnung (EU) 2016/679', canonical: ['Art. 6 Abs. 1 lit. f DSGVO'] },
  { text: 'Art. 7 der Grundrechtecharta', canonical: ['Art. 7 GRCh'] },
  { text: 'Art. 267 Abs. 3 AEUV', canonical: ['Art. 267 Abs. 3 AEUV'] },
  { text: '§ 3 UWG 2004', canonical: ['§ 3 UWG'] },
  { text: '§ 34 Abs. 1 BBauG', canonical: ['§ 34 Abs. 1 BauGB'] },
  { text: '§ 3a AsylVfG', canonical: ['§ 3a AsylG'] },
  // law before §
  { text: 'HGB § 74 Abs. 2', canonical: ['§ 74 Abs. 2 HGB'], raw: ['HGB § 74 Abs. 2'] },
  { text: 'BGB § 823', canonical: ['§ 823 BGB'] },
  { text: 'ZPO § 91 Abs. 1', canonical: ['§ 91 Abs. 1 ZPO'] },
  { text: 'InsO § 15a', canonical: ['§ 15a InsO'] },
  { text: 'GG Art. 3 Abs. 1', canonical: ['Art. 3 Abs. 1 GG'] },
  { text: 'BGB §§ 280, 281', canonical: ['§ 280 BGB', '§ 281 BGB'] },
  { text: 'SGB V § 13 Abs. 3', canonical: ['§ 13 Abs. 3 SGB V'], raw: ['SGB V § 13 Abs. 3'] },
  { text: 'SGB 5 § 13 Abs. 3', canonical: ['§ 13 Abs. 3 SGB V'] },
]);

table('SGB books, Roman and Arabic', [
  { text: '§ 13 Abs. 3 SGB V', canonical: ['§ 13 Abs. 3 SGB V'] },
  { text: '§ 13 Abs. 3 SGB 5', canonical: ['§ 13 Abs. 3 SGB V'], raw: ['§ 13 Abs. 3 SGB 5'] },
  { text: '§ 13 Abs. 3 SGB-V', canonical: ['§ 13 Abs. 3 SGB V'] },
  { text: '§ 7 SGB II', canonical: ['§ 7 SGB II'] },
  { text: '§ 22 SGB 2', canonical: ['§ 22 SGB II'] },
  { text: '§ 22 Abs 1 S 1 SGB 2', canonical: ['§ 22 Abs. 1 Satz 1 SGB II'] },
  { text: '§ 1 SGB XII', canonical: ['§ 1 SGB XII'] },
  { text: '§ 22 Abs. 1 SGB II iVm § 7 SGB II', canonical: ['§ 22 Abs. 1 SGB II', '§ 7 SGB II'] },
  { text: '§ 22 des Zweiten Buches Sozialgesetzbuch', canonical: ['§ 22 SGB II'] },
  { text: '§ 13 Abs. 3 des Fünften Buches Sozialgesetzbuch (SGB V)', canonical: ['§ 13 Abs. 3 SGB V'] },
  { text: '§ 13 Abs. 3 Fünftes Buch Sozialgesetzbuch', canonical: ['§ 13 Abs. 3 SGB V'] },
]);

table('the law taken from the citation before', [
  { text: 'Nach § 535 BGB ist der Vermieter verpflichtet. Gemäß § 536 ist die Miete gemindert.',
    canonical: ['§ 535 BGB', '§ 536 BGB'], raw: ['§ 535 BGB', '§ 536'] },
  { text: '§ 535 BGB und § 536', canonical: ['§ 535 BGB', '§ 536 BGB'] },
  // A blank line ends the paragraph: no law is carried over.
  { text: '§ 535 BGB regelt das.\n\nNach § 536 ist es anders.', canonical: ['§ 535 BGB'] },
  // Only from a provision of the same kind (§ does not take the law of an Art.).
  { text: 'Art. 3 GG gilt. Nach § 535 ist es so.', canonical: ['Art. 3 GG'] },
  // A refused contract clause lends no law.
  { text: 'Nach § 7 Nr. 2 des Mietvertrags musste er renovieren. Nach § 8 durfte er kündigen.', canonical: [] },
  { text: 'Nach § 535 BGB ist er verpflichtet. Gemäß § 7 Nr. 2 des Mietvertrags musste er renovieren. § 536 Abs. 1 gilt.',
    canonical: ['§ 535 BGB', '§ 536 Abs. 1 BGB'] },
  { text: '§ 536 gilt.', canonical: [] },
  // A law named right after the provision, though not read, is never replaced by a neighbour's; past subdivisions the
  // scanner did not read, it is the provision's own.
  { text: 'Art. 6 DSGVO gilt. Nach Art. 1 A Nr. 2 GFK ist er Flüchtling.', canonical: ['Art. 6 DSGVO'] },
  { text: 'Nach § 535 BGB gilt. Gemäß § 536 gilt für die WEG das.', canonical: ['§ 535 BGB'] },
  { text: 'Art. 7 der Brüssel-Ia-Verordnung und Art. 6 DSGVO', canonical: ['Art. 7 Brüssel-Ia-Verordnung', 'Art. 6 DSGVO'] },
  { text: 'StGB gilt. Mietrückstand gemäß § 543 Abs. 2 Satz 1 Nr. 3 a) und b) BGB.', canonical: ['§ 543 Abs. 2 Satz 1 Nr. 3 BGB'],
    raw: ['§ 543 Abs. 2 Satz 1 Nr. 3 a) und b) BGB'] },
  { text: 'Die Kostenentscheidung beruht auf § 197a Abs 1 S 1 Teils 3 SGG iVm § 154 Abs 1 VwGO.',
    canonical: ['§ 197a Abs. 1 Satz 1 Teilsatz 3 SGG', '§ 154 Abs. 1 VwGO'] },
]);

table('EU acts with spaces in their names, after der or des', [
  { text: 'Art. 6 Abs. 1 der DSGVO, Art. 7 der Brüssel Ia-VO sowie Art. 4 der Rom I-VO',
    canonical: ['Art. 6 Abs. 1 DSGVO', 'Art. 7 Brüssel Ia-VO', 'Art. 4 Rom I-VO'] },
  { text: 'Art. 3 Abs. 1 der Rom I-VO, Art. 4 Abs. 1 Rom II-VO', canonical: ['Art. 3 Abs. 1 Rom I-VO', 'Art. 4 Abs. 1 Rom II-VO'] },
]);

table('a § inside an article is part of its number (introductory acts)', [
  { text: 'Art. 229 § 5 Satz 1 EGBGB', canonical: ['Art. 229 § 5 Satz 1 EGBGB'], raw: ['Art. 229 § 5 Satz 1 EGBGB'] },
  { text: 'Art. 229 §§ 5, 6 EGBGB', canonical: ['Art. 229 § 5 EGBGB', 'Art. 229 § 6 EGBGB'], raw: ['Art. 229 §§ 5', '6 EGBGB'] },
  { text: 'Art. 229 §§ 5 und 6 EGBGB, Art. 12 GG', canonical: ['Art. 229 § 5 EGBGB', 'Art. 229 § 6 EGBGB', 'Art. 12 GG'] },
  { text: 'Art. 246a § 1 Abs. 2 EGBGB', canonical: ['Art. 246a § 1 Abs. 2 EGBGB'] },
]);

table('numbers too long for a provision', [
  { text: '§ 823 BGB und § 12345 BGB', canonical: ['§ 823 BGB'] },
]);

// Patterns whose words may be split anywhere backtrack in polynomial time: a few hundred letters once blocked the server
// for seconds. Not a speed measurement: a regression would not finish within the limit at all, so the scan runs in a
// child process that the limit kills (a synchronous regular expression cannot be interrupted in this one).
test('long runs of letters after a § are scanned in linear time', () => {
  const script = `import { extractCitations } from ${JSON.stringify(new URL('../../src/citations/extract.ts', import.meta.url).href)};
    for (const run of ['Aa'.repeat(5000), 'A' + 'a'.repeat(10000), 'en'.repeat(5000)])
      for (const before of ['§ 1 ', '§ 1 des ', 'Der Kläger stützt den Anspruch im Urteil auf § 1 '])
        if (extractCitations(before + run + '.').citations.length > 1) process.exit(3);`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000, encoding: 'utf8' });
  assert.equal(child.signal, null, 'the scan did not finish within 20 s');
  assert.equal(child.status, 0, child.stderr);
});

test('law from context is flagged; a written law is not', () => {
  const found = statutes('Nach § 535 BGB ist der Vermieter verpflichtet. Gemäß § 536 ist die Miete gemindert.');
  assert.deepEqual(found.map((s) => [s.law, s.lawText, s.lawFromContext]), [['BGB', 'BGB', false], ['BGB', null, true]]);
  const long = statutes('§ 13 Abs. 3 SGB 5');
  assert.deepEqual(long.map((s) => [s.law, s.lawText, s.lawFromContext]), [['SGB V', 'SGB 5', false]]);
});

// --- Contract clauses and other refusals ---------------------------------------------------------------------------

test('contract clauses are refused and counted in refused_contract_collision', () => {
  const rows: [string, string[], string[]][] = [
    ['§ 7 Nr. 2 des Mietvertrags', [], ['§ 7 Nr. 2 des Mietvertrags']],
    ['§ 7 Nr. 2 des Mietvertrages', [], ['§ 7 Nr. 2 des Mietvertrages']],
    ['§ 3 Abs. 2 des Arbeitsvertrags', [], ['§ 3 Abs. 2 des Arbeitsvertrags']],
    ['§ 5 des Gesellschaftsvertrags', [], ['§ 5 des Gesellschaftsvertrags']],
    ['§ 4 der Satzung', [], ['§ 4 der Satzung']],
    ['Gemäß § 7 des Vertrags', [], ['§ 7 des Vertrags']],
    ['§ 7 Nr. 2 des Mietvertrags gemäß § 307 Abs. 1 Satz 1 BGB', ['§ 307 Abs. 1 Satz 1 BGB'], ['§ 7 Nr. 2 des Mietvertrags']],
    ['§ 7 Nr. 2 des Mietvertrags i.V.m. § 307 BGB', ['§ 307 BGB'], ['§ 7 Nr. 2 des Mietvertrags']],
  ];
  for (const [text, canonical, refused] of rows) {
    const { citations, report } = extractCitations(text);
    assert.deepEqual(citations.map((c) => c.canonical), canonical, text);
    assert.deepEqual(report.refused_contract_collision, refused, text);
    assert.equal(report.dropped_refused_collision, refused.length, text);
  }
});

test('contract clause: § 12 der Allgemeinen Geschäftsbedingungen', {
}, () => {
  const { citations, report } = extractCitations('§ 12 der Allgemeinen Geschäftsbedingungen');
  assert.deepEqual(citations, []);
  assert.deepEqual(report.refused_contract_collision, ['§ 12 der Allgemeinen Geschäftsbedingungen']);
});

test('a generic noun as the law, a § without law, a § without number: no citation, each counted', () => {
  let r = extractCitations('Nach § 3 des Gesetzes');
  assert.deepEqual(r.citations, []);
  assert.equal(r.report.dropped_trailing_noun, 1);
  r = extractCitations('Art. 1 Nr. 5 des Gesetzes vom 22.12.2020 (BGBl. I S. 3256)');
  assert.deepEqual(r.citations, []);
  assert.equal(r.report.dropped_trailing_noun, 1);
  r = extractCitations('§ 12');
  assert.deepEqual(r.citations, []);
  assert.deepEqual(r.report.not_verifiable_by_type, [{ type: 'statute_without_law', count: 1 }]);
  r = extractCitations('§ 535\n\nBGB');
  assert.deepEqual(r.citations, []);
  assert.deepEqual(r.report.not_verifiable_by_type, [{ type: 'statute_without_law', count: 1 }]);
});

// --- Decisions -----------------------------------------------------------------------------------------------------

table('decisions wrapped across lines or typeset with thin spaces and non-breaking hyphens (PDF text, curia)', [
  { text: 'BGH, Urteil vom 14. Mai 2019 - VI ZR\n496/18', canonical: ['BGH, VI ZR 496/18'], raw: ['BGH, Urteil vom 14. Mai 2019 - VI ZR\n496/18'] },
  { text: 'OLG München, Beschluss vom\n20.03.2019 - 7 U 123/18', canonical: ['OLG München, 7 U 123/18'] },
  { text: 'VI\u202fZR\u202f496/18 und VI\u2009ZR\u2009497/18', canonical: ['BGH, VI ZR 496/18', 'BGH, VI ZR 497/18'] },
  { text: 'NJW 2019,\n2000', canonical: ['NJW 2019, 2000'] },
  { text: 'EuGH, Urt. v. 1.10.2019, Rs. C\u2011673/17', canonical: ['EuGH, C-673/17'] },
  // Windows line ends, doubled spaces and tabs (a .txt upload, typed text); offsets stay those of the text as written.
  { text: 'vgl. BGH, Urteil vom 14.05.2019 - VI ZR\r\n496/18, Rn. 12', canonical: ['BGH, VI ZR 496/18'],
    raw: ['BGH, Urteil vom 14.05.2019 - VI ZR\r\n496/18'] },
  { text: 'so  BGH,  Urteil vom 24.10.2018 - VIII  ZR\t254/17 und  VI ZR  496/18.', canonical: ['BGH, VIII ZR 254/17', 'BGH, VI ZR 496/18'],
    raw: ['BGH,  Urteil vom 24.10.2018 - VIII  ZR\t254/17', 'VI ZR  496/18'] },
  // A blank line still ends a citation, with Windows line ends too.
  { text: 'Der Senat VI ZR\n\n496/18', canonical: [] },
  { text: 'Der Senat VI ZR\r\n\r\n496/18', canonical: [] },
]);

table('decisions: court, type, date and Aktenzeichen in their spellings', [
  { text: 'FG Münster, Urteil vom 21.06.2023 - 7 K 2345/21 E.', canonical: ['FG Münster, 7 K 2345/21 E'] },
  { text: 'EGMR, Urteil vom 4. September 2014 - 140/10 -', canonical: ['EGMR, 140/10'] },
  { text: 'EGMR, Urt. v. 04.09.2014, Nr. 140/10', canonical: ['EGMR, 140/10'] },
  { text: 'BGH, Urteil vom 14. Januar 2020 - VI ZR 496/18', canonical: ['BGH, VI ZR 496/18'],
    raw: ['BGH, Urteil vom 14. Januar 2020 - VI ZR 496/18'] },
  { text: 'BAG 25. Mai 2016 - 2 AZR 345/15 -', canonical: ['BAG, 2 AZR 345/15'], raw: ['BAG 25. Mai 2016 - 2 AZR 345/15 -'] },
  { text: '(BAG 25. Mai 2016 - 2 AZR 345/15 - Rn. 11)', canonical: ['BAG, 2 AZR 345/15'], raw: ['BAG 25. Mai 2016 - 2 AZR 345/15 -'] },
  { text: 'Az. 27 O 1234/05', canonical: ['27 O 1234/05'], raw: ['Az. 27 O 1234/05'] },
  { text: 'Az.: VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'Aktenzeichen VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'LG München I, Urteil vom 15. März 2006, Az. 27 O 1234/05', canonical: ['LG München I, 27 O 1234/05'] },
  { text: 'BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 22', canonical: ['BGH, VIII ZR 214/12'],
    raw: ['BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12'] },
  { text: 'BGH, Urt. v. 23.10.2013 – VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH, Urteil v. 23. 10. 2013 - VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH, Urt. v. 23.10.13 - VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH, 23.10.2013 - VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH vom 23.10.2013 – VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH 23.10.2013 VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH, Urteil vom 2013-10-23 - VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH, Urteil vom 23. Oktober 2013 (VIII ZR 214/12)', canonical: ['BGH, VIII ZR 214/12'],
    raw: ['BGH, Urteil vom 23. Oktober 2013 (VIII ZR 214/12)'] },
  { text: 'Bundesgerichtshof, Urteil vom 23. Oktober 2013, VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'Urteil des Bundesgerichtshofs vom 23. Oktober 2013 - VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'Senatsurteil vom 23. Juni 2004 - VIII ZR 361/03, Rn. 7 f.', canonical: ['BGH, VIII ZR 361/03'],
    raw: ['Senatsurteil vom 23. Juni 2004 - VIII ZR 361/03'] },
  { text: 'grundlegend BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'Urteile vom 17. Juni 2020 - VIII ZR 10/19 und VIII ZR 11/19', canonical: ['BGH, VIII ZR 10/19', 'BGH, VIII ZR 11/19'],
    raw: ['Urteile vom 17. Juni 2020 - VIII ZR 10/19', 'VIII ZR 11/19'] },
  { text: 'BVerfG, Beschluss vom 27. Juli 2022 - 1 BvR 567/21', canonical: ['BVerfG, 1 BvR 567/21'] },
  { text: 'BVerfG, Beschl. v. 27.7.2022 – 1 BvR 567/21', canonical: ['BVerfG, 1 BvR 567/21'] },
  { text: 'Beschluss des BVerfG vom 27.07.2022 (1 BvR 567/21)', canonical: ['BVerfG, 1 BvR 567/21'] },
  { text: 'BVerfG, Beschluss der 1. Kammer des Ersten Senats vom 19. Juni 2020 - 1 BvR 1234/19 -, Rn. 5 f.',
    canonical: ['BVerfG, 1 BvR 1234/19'], raw: ['BVerfG, Beschluss der 1. Kammer des Ersten Senats vom 19. Juni 2020 - 1 BvR 1234/19 -'] },
  { text: 'BSG, Urteil vom 12.03.2021 - B 4 AS 17/20 R -, Rn. 9 ff.', canonical: ['BSG, B 4 AS 17/20 R'],
    raw: ['BSG, Urteil vom 12.03.2021 - B 4 AS 17/20 R -'] },
  { text: 'BSG, Urt. v. 12.3.2021, B 4 AS 17/20 R', canonical: ['BSG, B 4 AS 17/20 R'] },
  { text: 'BPatG, Beschluss vom 21. April 2016 - 11 W (pat) 34/14, Rn. 5', canonical: ['BPatG, 11 W (pat) 34/14'],
    raw: ['BPatG, Beschluss vom 21. April 2016 - 11 W (pat) 34/14'] },
  { text: 'VG Berlin, Urteil vom 14. März 2017 - VG 3 K 123.16 -, Rn. 5', canonical: ['VG Berlin, VG 3 K 123.16'],
    raw: ['VG Berlin, Urteil vom 14. März 2017 - VG 3 K 123.16 -'] },
  { text: 'VG Berlin, 14.03.2017, VG 3 K 123.16', canonical: ['VG Berlin, VG 3 K 123.16'] },
  { text: 'BFH-Urteil vom 10.09.2019 - IX R 12/18, Rz 5', canonical: ['BFH, IX R 12/18'], raw: ['BFH-Urteil vom 10.09.2019 - IX R 12/18'] },
  { text: 'Urteil des FG Münster vom 13.06.2018 - 10 K 1234/17 E, Rz 6', canonical: ['FG Münster, 10 K 1234/17 E'] },
  { text: 'OLG München, Urteil vom 20. März 2019 - 7 U 123/18, Rn. 5', canonical: ['OLG München, 7 U 123/18'] },
  { text: 'OLG Frankfurt am Main, Urteil vom 11.02.2021 - 6 U 45/20', canonical: ['OLG Frankfurt, 6 U 45/20'] },
  { text: 'BayVGH, Beschluss vom 1.2.2020 - 10 CS 20.123', canonical: ['VGH Bayern, 10 CS 20.123'] },
  { text: 'Urteil vom 14.01.2020, Az. 12 O 123/19', canonical: ['12 O 123/19'] },
  { text: 'BGH (Urteil vom 23.10.2013, Az. VIII ZR 214/12)', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'LG Berlin (Urteil vom 17.01.2018 - 67 S 123/17)', canonical: ['LG Berlin, 67 S 123/17'],
    raw: ['LG Berlin (Urteil vom 17.01.2018 - 67 S 123/17)'] },
  // A parenthesis opened in the prefix is closed in the span; one around the Aktenzeichen alone stays outside.
  { text: 'vgl. (VI ZR 496/18)', canonical: ['BGH, VI ZR 496/18'], raw: ['VI ZR 496/18'] },
  // A chamber or the Great Senate after the court.
  { text: 'BVerfG (K), Beschluss vom 1. 2. 2020 - 1 BvR 1/20', canonical: ['BVerfG, 1 BvR 1/20'],
    raw: ['BVerfG (K), Beschluss vom 1. 2. 2020 - 1 BvR 1/20'] },
  { text: 'BGH (GrS), Beschluss vom 1.1.2020 - GSZ 1/19', canonical: ['BGH, GSZ 1/19'], raw: ['BGH (GrS), Beschluss vom 1.1.2020 - GSZ 1/19'] },
]);

test('decisions: court, decision type and date are read from the prefix', () => {
  const fields = (text: string) => cases(text).map((c) => [c.court, c.decisionType, c.date, c.aktenzeichen, c.courtFromRegister]);
  assert.deepEqual(fields('BGH, Urteil vom 14. Januar 2020 - VI ZR 496/18'), [['BGH', 'Urteil', '2020-01-14', 'VI ZR 496/18', false]]);
  assert.deepEqual(fields('BAG 25. Mai 2016 - 2 AZR 345/15 -'), [['BAG', null, '2016-05-25', '2 AZR 345/15', false]]);
  assert.deepEqual(fields('BVerfG, Beschl. v. 27.7.2022 – 1 BvR 567/21'), [['BVerfG', 'Beschluss', '2022-07-27', '1 BvR 567/21', false]]);
  assert.deepEqual(fields('BGH, Urt. v. 23.10.13 - VIII ZR 214/12'), [['BGH', 'Urteil', '2013-10-23', 'VIII ZR 214/12', false]]);
  assert.deepEqual(fields('SG Berlin, Gerichtsbescheid vom 15.03.2023 - S 12 AS 345/20'),
    [['SG Berlin', 'Gerichtsbescheid', '2023-03-15', 'S 12 AS 345/20', false]]);
  assert.deepEqual(fields('Az. 27 O 1234/05'), [[null, null, null, '27 O 1234/05', false]]);
  assert.deepEqual(fields('1 BvR 567/21'), [['BVerfG', null, null, '1 BvR 567/21', true]]);
  assert.deepEqual(fields('Urteile vom 17. Juni 2020 - VIII ZR 10/19 und VIII ZR 11/19'), [
    ['BGH', 'Urteil', '2020-06-17', 'VIII ZR 10/19', true], ['BGH', 'Urteil', '2020-06-17', 'VIII ZR 11/19', true]]);
});

test('decisions: "grundlegend" marks a Leitentscheidung', () => {
  assert.equal(cases('grundlegend BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12')[0].role, 'leitentscheidung');
  assert.equal(cases('BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12')[0].role, null);
});

table('Registerzeichen forms (the court follows from the register where it can)', [
  { text: '3 StR 12/20', canonical: ['BGH, 3 StR 12/20'] },
  { text: 'BGH 4 StR 390/19', canonical: ['BGH, 4 StR 390/19'] },
  { text: 'BGH, Beschluss vom 12.05.2020 – 3 StR 12/20', canonical: ['BGH, 3 StR 12/20'] },
  { text: 'VIII ZR 214/12', canonical: ['BGH, VIII ZR 214/12'] },
  { text: 'BGH X ZB 20/03', canonical: ['BGH, X ZB 20/03'] },
  { text: 'BGH Ib ZR 60/62', canonical: ['BGH, Ib ZR 60/62'] },
  { text: 'BGH KZR 1/19', canonical: ['BGH, KZR 1/19'] },
  { text: 'BGH AnwZ (Brfg) 12/19', canonical: ['BGH, AnwZ (Brfg) 12/19'] },
  { text: 'BGH EnVR 1/20', canonical: ['BGH, EnVR 1/20'] },
  { text: 'BGH GSZ 1/16', canonical: ['BGH, GSZ 1/16'] },
  { text: '1 BvR 567/21', canonical: ['BVerfG, 1 BvR 567/21'], raw: ['1 BvR 567/21'] },
  { text: 'BVerfG 2 BvE 1/19', canonical: ['BVerfG, 2 BvE 1/19'] },
  { text: '2 AZR 345/15', canonical: ['BAG, 2 AZR 345/15'] },
  { text: 'B 4 AS 17/20 R', canonical: ['BSG, B 4 AS 17/20 R'], raw: ['B 4 AS 17/20 R'] },
  { text: 'BSG B 14 AS 24/18 R', canonical: ['BSG, B 14 AS 24/18 R'] },
  { text: 'BVerwG 5 C 10.19', canonical: ['BVerwG, 5 C 10.19'] },
  { text: 'BVerwG 4 B 28.94', canonical: ['BVerwG, 4 B 28.94'] },
  { text: 'BVerwG, Urteil vom 20.05.2020 – 5 C 10.19', canonical: ['BVerwG, 5 C 10.19'] },
  { text: 'OLG Düsseldorf I-20 U 118/17', canonical: ['OLG Düsseldorf, I-20 U 118/17'] },
  { text: 'OLG Düsseldorf, Urteil vom 12.04.2018 - I-20 U 118/17', canonical: ['OLG Düsseldorf, I-20 U 118/17'] },
  { text: 'BPatG 4 W (pat) 7/74', canonical: ['BPatG, 4 W (pat) 7/74'] },
  { text: '11 W (pat) 34/14', canonical: ['BPatG, 11 W (pat) 34/14'] },
  { text: '4 Ni 23/16', canonical: ['BPatG, 4 Ni 23/16'] },
  { text: 'VG Berlin VG 3 K 123.16', canonical: ['VG Berlin, VG 3 K 123.16'] },
  { text: 'OVG Berlin-Brandenburg, Beschluss vom 29.08.2020 - OVG 1 S 101.20', canonical: ['OVG Berlin-Brandenburg, OVG 1 S 101.20'] },
  { text: 'IX R 12/18', canonical: ['BFH, IX R 12/18'] },
  { text: 'L 7 AS 123/19', canonical: ['L 7 AS 123/19'] },
  { text: 'LSG Berlin-Brandenburg L 5 KR 222/14 B ER', canonical: ['LSG Berlin-Brandenburg, L 5 KR 222/14 B ER'] },
  { text: 'S 12 AS 345/20', canonical: ['S 12 AS 345/20'] },
  { text: '10 K 1234/17 E', canonical: ['10 K 1234/17 E'] },
  { text: 'LAG Düsseldorf 3 Sa 345/19', canonical: ['LAG Düsseldorf, 3 Sa 345/19'] },
  { text: 'ArbG Berlin 28 Ca 1234/19', canonical: ['ArbG Berlin, 28 Ca 1234/19'] },
  { text: 'VGH Baden-Württemberg, Beschluss vom 3.3.2020 - 10 S 2500/19', canonical: ['VGH Baden-Württemberg, 10 S 2500/19'] },
  { text: 'BFH, Beschluss vom 27.07.2015 - GrS 1/14', canonical: ['BFH, GrS 1/14'] },
  { text: '(BFH-Beschluss vom 27.07.2015 GrS 1/14, BFHE 251, 408, BStBl II 2016, 265, Rz. 12)', canonical: ['BFH, GrS 1/14'] },
  { text: 'BAG, Beschluss vom 26. August 2021 - 8 AZR 253/20 (A)', canonical: ['BAG, 8 AZR 253/20 (A)'],
    raw: ['BAG, Beschluss vom 26. August 2021 - 8 AZR 253/20 (A)'] },
]);

table('ECLI', [
  { text: 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0', canonical: ['ECLI:DE:BGH:2013:231013UVIIIZR214.12.0'] },
  { text: 'ECLI:DE:BVerfG:2022:rs20220727.1bvr056721', canonical: ['ECLI:DE:BVERFG:2022:RS20220727.1BVR056721'] },
  { text: 'ECLI:EU:C:2023:370', canonical: ['ECLI:EU:C:2023:370'] },
  { text: 'Siehe ECLI:DE:BGH:2013:231013UVIIIZR214.12.0.', canonical: ['ECLI:DE:BGH:2013:231013UVIIIZR214.12.0'],
    raw: ['ECLI:DE:BGH:2013:231013UVIIIZR214.12.0'] },
  // An ECLI after the Aktenzeichen belongs to the same citation.
  { text: 'BAG 25.05.2016 - 2 AZR 345/15 -, ECLI:DE:BAG:2016:250516.U.2AZR345.15.0, Rn. 6', canonical: ['BAG, 2 AZR 345/15'],
    raw: ['BAG 25.05.2016 - 2 AZR 345/15 -, ECLI:DE:BAG:2016:250516.U.2AZR345.15.0'] },
  { text: 'BGH, Urteil vom 7. März 2019 - I ZR 186/17, ECLI:DE:BGH:2019:070319UIZR186.17.0, Rn. 8 f.', canonical: ['BGH, I ZR 186/17'] },
  { text: 'EuGH, 4.5.2023, C-300/21, ECLI:EU:C:2023:370', canonical: ['EuGH, C-300/21'] },
  { text: 'ecli:de:bgh:2013:231013uviiizr214.12.0', canonical: ['ECLI:DE:BGH:2013:231013UVIIIZR214.12.0'] },
]);

test('an ECLI is kept on the Aktenzeichen citation and upper-cased', () => {
  const [c] = cases('BAG 25.05.2016 - 2 AZR 345/15 -, ECLI:DE:BAG:2016:250516.U.2AZR345.15.0, Rn. 6');
  assert.equal(c.ecli, 'ECLI:DE:BAG:2016:250516.U.2AZR345.15.0');
  assert.equal(cases('ECLI:DE:BVerfG:2022:rs20220727.1bvr056721')[0].court, 'BVerfG');
});

table('reporter citations', [
  { text: 'BGHZ 132, 105', canonical: ['BGHZ 132, 105'] },
  { text: 'BGHZ 132, 105, 110', canonical: ['BGHZ 132, 105'], raw: ['BGHZ 132, 105, 110'] },
  { text: 'BGHZ 132, 105 <110>', canonical: ['BGHZ 132, 105'] },
  { text: 'BVerfGE 79, 292 <304 f.>; 89, 1 <9>', canonical: ['BVerfGE 79, 292', 'BVerfGE 89, 1'],
    raw: ['BVerfGE 79, 292 <304 f.>', '89, 1 <9>'] },
  { text: '(vgl. BVerfGE 82, 159 <192 ff.>; 126, 286 <315>; stRspr)', canonical: ['BVerfGE 82, 159', 'BVerfGE 126, 286'] },
  { text: 'BVerfGE 69, 315 <353 f.>; 128, 226 <259 f.>', canonical: ['BVerfGE 69, 315', 'BVerfGE 128, 226'] },
  { text: 'Das BVerfG hat entschieden (BVerfGE 152, 152 <170 Rn. 42>).', canonical: ['BVerfGE 152, 152'] },
  { text: 'BAGE 134, 349', canonical: ['BAGE 134, 349'] },
  { text: 'BSGE 127, 214', canonical: ['BSGE 127, 214'] },
  { text: 'BFHE 251, 408', canonical: ['BFHE 251, 408'] },
  { text: 'BFH/NV 2019, 123', canonical: ['BFH/NV 2019, 123'] },
  { text: 'BStBl II 2016, 265', canonical: ['BStBl II 2016, 265'] },
  { text: 'NJW 2015, 1827', canonical: ['NJW 2015, 1827'] },
  { text: 'NJW 2015, 1827 (1829)', canonical: ['NJW 2015, 1827'] },
  { text: 'BGH NJW 2015, 1827', canonical: ['NJW 2015, 1827'], raw: ['BGH NJW 2015, 1827'] },
  { text: 'BGH, NJW 2015, 1827, 1829', canonical: ['NJW 2015, 1827'] },
  { text: 'NJW-RR 2019, 123', canonical: ['NJW-RR 2019, 123'] },
  { text: 'NZA 2016, 1234, 1236', canonical: ['NZA 2016, 1234'] },
  { text: 'GRUR 2019, 813', canonical: ['GRUR 2019, 813'] },
  { text: 'NJW 2019, S. 2000', canonical: ['NJW 2019, 2000'], raw: ['NJW 2019, S. 2000'] },
  // After the page: a label, a name in an annotation, a keyword of a collection, or a new line of PDF text.
  { text: 'NZM 2017, 123 Rn. 4', canonical: ['NZM 2017, 123'] },
  { text: 'NZM 2017, 123 Anm. Müller', canonical: ['NZM 2017, 123'] },
  { text: 'AP Nr. 16 zu § 620 BGB Befristeter Arbeitsvertrag', canonical: ['AP Nr. 16 zu § 620 BGB'] },
  { text: '1 NJW 2019, 500\nDie Klage', canonical: ['NJW 2019, 500'] },
  { text: 'BGH NJW 2019, 500 Leitsatz', canonical: ['NJW 2019, 500'] },
  // SozR with a § inside is a reporter citation, not a statute.
  { text: 'SozR 4-4200 § 22 Nr 88 RdNr 22', canonical: ['SozR 4-4200 § 22 Nr. 88'], raw: ['SozR 4-4200 § 22 Nr 88'] },
  { text: 'SozR 4-2500 § 27 Nr 23, RdNr 11', canonical: ['SozR 4-2500 § 27 Nr. 23'] },
  // Parallel citations after the Aktenzeichen belong to the same decision.
  { text: 'BSG Urteil vom 17.2.2016 - B 4 AS 12/15 R - SozR 4-4200 § 22 Nr 88 RdNr 22', canonical: ['BSG, B 4 AS 12/15 R'],
    raw: ['BSG Urteil vom 17.2.2016 - B 4 AS 12/15 R - SozR 4-4200 § 22 Nr 88'] },
  { text: 'BVerwG, Urteil vom 8. Dezember 2016 - 4 C 7.15 - BVerwGE 157, 1 Rn. 9', canonical: ['BVerwG, 4 C 7.15'] },
  { text: 'BGH, Urteil vom 12. Juni 2012 - VI ZR 138/11, BGHZ 193, 1 Rn. 7', canonical: ['BGH, VI ZR 138/11'] },
]);

test('reporter citations: court from the official reporter, parallel reporters kept, counted as reporter_citation_only', () => {
  assert.deepEqual(cases('BGHZ 132, 105').map((c) => [c.court, c.reporters.map((r) => r.canonical)]), [['BGH', ['BGHZ 132, 105']]]);
  assert.deepEqual(cases('NJW 2015, 1827').map((c) => c.court), [null]);
  assert.deepEqual(cases('BGH NJW 2015, 1827').map((c) => c.court), ['BGH']);
  assert.deepEqual(cases('BVerwG, Urteil vom 8. Dezember 2016 - 4 C 7.15 - BVerwGE 157, 1 Rn. 9')[0].reporters.map((r) => r.canonical),
    ['BVerwGE 157, 1']);
  const { report } = extractCitations('BVerfGE 79, 292 <304 f.>; 89, 1 <9>');
  assert.deepEqual(report.not_verifiable_by_type, [{ type: 'reporter_citation_only', count: 2 }]);
});

table('EuGH / EuG case numbers', [
  { text: 'C-252/21', canonical: ['EuGH, C-252/21'] },
  { text: 'EuGH C-252/21', canonical: ['EuGH, C-252/21'] },
  { text: 'T-612/17', canonical: ['EuG, T-612/17'] },
  { text: 'EuG T-612/17', canonical: ['EuG, T-612/17'] },
  { text: 'EuG, Urteil vom 13.12.2018 - T-612/17 P', canonical: ['EuG, T-612/17 P'] },
  { text: 'EuGH, Urteil vom 4. Mai 2023 - C-300/21', canonical: ['EuGH, C-300/21'], raw: ['EuGH, Urteil vom 4. Mai 2023 - C-300/21'] },
  { text: 'EuGH, Urt. v. 4.5.2023 – Rs. C-300/21', canonical: ['EuGH, C-300/21'] },
  { text: 'EuGH, Urteil vom 4. Mai 2023, Rechtssache C-300/21', canonical: ['EuGH, C-300/21'] },
  { text: 'EuGH, Urteil vom 06.11.2018 - C-684/16 - Max-Planck', canonical: ['EuGH, C-684/16'] },
  { text: 'verb. Rs. C-154/04 und C-155/04', canonical: ['EuGH, C-154/04', 'EuGH, C-155/04'] },
]);

// --- False friends -------------------------------------------------------------------------------------------------

table('false friends give no citation', [
  { text: 'Am 14.01.2020 zahlte er 850/900 EUR.', canonical: [] },
  { text: 'Die Beklagte zahlte 850/900 EUR monatlich.', canonical: [] },
  { text: '2 x 850/900 EUR', canonical: [] },
  { text: 'Die Miete betrug 1.234,56 EUR, fällig am 3. 10. 2019.', canonical: [] },
  { text: 'Zahlung von 1.234,56 € am 12.03.2021 (Rechnung Nr. 2021/123)', canonical: [] },
  { text: 'Mit Schreiben vom 2.4.2009 kündigte sie.', canonical: [] },
  { text: 'vom 01.01.2019 bis 31.12.2020', canonical: [] },
  { text: 'in den Jahren 2019 bis 2021', canonical: [] },
  { text: 'im Jahr 2019/20', canonical: [] },
  { text: 'von 9.00 bis 12.00 Uhr', canonical: [] },
  { text: 'Tel. 030 12345/678', canonical: [] },
  { text: 'Telefon: 089 / 1234 56', canonical: [] },
  { text: 'Tel. 0221 / 123 45 67, Fax 0221 / 123 45 68', canonical: [] },
  { text: 'Fax 0221 / 9 87 65-43', canonical: [] },
  { text: 'Postfach 12 34 56, 10117 Berlin', canonical: [] },
  { text: 'Raum 2.019', canonical: [] },
  { text: 'Saal B 1.23', canonical: [] },
  { text: 'um 10.30 Uhr im Saal 1.108', canonical: [] },
  { text: 'Zimmer 1 A 12', canonical: [] },
  { text: 'Die Wohnung hat 3 Zimmer (Nr. 12/13).', canonical: [] },
  { text: 'vgl. Rn. 12/13', canonical: [] },
  { text: 'Rn. 12 und 15', canonical: [] },
  { text: 'Rn. 10, 13 - grundlegend', canonical: [] },
  { text: '§ 535 BGB Rn. 12', canonical: ['§ 535 BGB'], raw: ['§ 535 BGB'] },
  { text: '(§ 535 BGB, Rn. 12)', canonical: ['§ 535 BGB'] },
  { text: 'Er erhielt 850/900 EUR und 12/20 Punkte.', canonical: [] },
  { text: '1/2 der Kosten', canonical: [] },
  { text: 'Flurstück 123/4 der Gemarkung', canonical: [] },
  { text: 'Aktenzeichen des Vermieters: 123/45', canonical: [] },
  { text: 'BT-Drs. 19/27653, S. 12', canonical: [] },
  { text: 'ABl. L 119 vom 4.5.2016, S. 1', canonical: [] },
  { text: 'Larenz, Schuldrecht, S. 123', canonical: [] },
  { text: 'Seite 3 von 12', canonical: [] },
  { text: 'Art und Weise der Nutzung', canonical: [] },
  { text: 'Anlage K 12', canonical: [] },
  // A journal's name, a year and a number in prose, followed by what they count.
  { text: 'Es gibt eine AG 2019, 500 Beschäftigte.', canonical: [] },
  { text: 'Er schoss in der WM 2014, 7 Tore.', canonical: [] },
  // The public prosecutor's file of an investigation is no court's decision.
  { text: 'Die Staatsanwaltschaft (Az. 231 Js 1234/19) stellte das Verfahren ein.', canonical: [] },
]);

test('a court, type and date without Aktenzeichen is no citation but counted as possibly unparsed', () => {
  const { citations, report } = extractCitations('BGH, Urteil vom 14. Januar 2020');
  assert.deepEqual(citations, []);
  assert.deepEqual(report.possible_citations_unparsed_texts, ['BGH, Urteil vom 14. Januar 2020']);
});

test('Randnummern after a decision citation are not part of it and give no citation', () => {
  const text = 'BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10, 13 und 22';
  const { citations } = extractCitations(text);
  assert.deepEqual(citations.map((c) => text.slice(c.start, c.end)), ['BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12']);
});

// --- Mixed text ----------------------------------------------------------------------------------------------------

test('a mixed paragraph: every citation in text order with its span', () => {
  const text = 'Der Vermieter kann nach § 573 Abs. 2 Nr. 2 BGB kündigen (BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, '
    + 'Rn. 10; BVerfGE 79, 292 <304 f.>). Die Klausel in § 7 Nr. 2 des Mietvertrags ist nach § 307 Abs. 1 Satz 1 BGB '
    + 'unwirksam; ebenso §§ 280 Abs. 1, 281 Abs. 1 Satz 1 BGB i.V.m. Art. 14 Abs. 1 GG.';
  const { citations, report } = extractCitations(text);
  assert.deepEqual(citations.map((c) => [c.type, c.canonical, text.slice(c.start, c.end)]), [
    ['statute', '§ 573 Abs. 2 Nr. 2 BGB', '§ 573 Abs. 2 Nr. 2 BGB'],
    ['case', 'BGH, VIII ZR 214/12', 'BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12'],
    ['case', 'BVerfGE 79, 292', 'BVerfGE 79, 292 <304 f.>'],
    ['statute', '§ 307 Abs. 1 Satz 1 BGB', '§ 307 Abs. 1 Satz 1 BGB'],
    ['statute', '§ 280 Abs. 1 BGB', '§§ 280 Abs. 1'],
    ['statute', '§ 281 Abs. 1 Satz 1 BGB', '281 Abs. 1 Satz 1 BGB'],
    ['statute', 'Art. 14 Abs. 1 GG', 'Art. 14 Abs. 1 GG'],
  ]);
  assert.deepEqual(report.refused_contract_collision, ['§ 7 Nr. 2 des Mietvertrags']);
});
