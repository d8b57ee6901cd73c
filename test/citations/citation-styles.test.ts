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
