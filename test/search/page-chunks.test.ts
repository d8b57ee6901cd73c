// A result page's decisions as PageChunks reads them (src/search/page-chunks.ts: by integer row, texts kept or read
// together) against their definition through the schema's views, one decision at a time: the decision's columns, its
// chunks in position order with their texts cut at code point offsets, and the query's words in each chunk
// (tokenize, then the query's matcher), the texts read anew, kept, or some of each. On the demo corpus and on
// decisions holding astral letters, combining marks and emoji (UTF-16 and code point offsets differ), a UUID naming
// no decision included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { openCorpus } from '../../src/corpus/open.ts';
import { decisionText } from '../../src/corpus/stored-text.ts';
import { codePointLength, sliceCodePoints } from '../../src/text/code-points.ts';
import { tokenize } from '../../src/search/analyze.ts';
import { rankDecisions } from '../../src/search/decision-search.ts';
import { PageChunks } from '../../src/search/page-chunks.ts';
import { dropPageTexts, pageTexts } from '../../src/search/page-texts.ts';
import { termMatcher, type TermGroup } from '../../src/search/query.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { smallCorpus } from './small-corpus.ts';

/** Every decision of `ids` through the views, as the page must show it. */
function byDefinition(db: Database.Database, ids: string[], groups: TermGroup[]) {
  const isMatch = termMatcher(groups);
  return ids.map((id) => {
    const decision = db.prepare(`SELECT d.id, r.row, d.aktenzeichen, d.court, d.date, d.document_kind, d.title
      FROM decisions d JOIN decision_rows r ON r.id = d.id WHERE d.id = ?`).get(id);
    const text = decisionText(db, id) ?? '';
    const chunks = (db.prepare(`SELECT id, section, rn_from, rn_to, start_offset, end_offset FROM chunks
      WHERE decision_id = ? ORDER BY position`).all(id) as { id: number; section: string | null; rn_from: number | null;
      rn_to: number | null; start_offset: number; end_offset: number }[])
      .map(({ end_offset: end, ...chunk }) => ({ ...chunk, text: sliceCodePoints(text, chunk.start_offset, end) }));
    return { decision, chunks, matches: chunks.map((chunk) => tokenize(chunk.text).filter((token) => isMatch(token.stem))) };
  });
}

function assertPage(db: Database.Database, ids: string[], groups: TermGroup[], label: string): number {
  const page = new PageChunks(db, ids, groups);
  const expected = byDefinition(db, ids, groups);
  let words = 0;
  for (const [index, id] of ids.entries()) {
    const { decision, chunks, matches } = expected[index];
    assert.deepEqual(page.decision(id), decision, `${label}: ${id}`);
    assert.deepEqual(page.of(id), chunks, `${label}: ${id}`);
    assert.deepEqual(page.of(id).map((chunk) => page.matches(chunk)), matches, `${label}: ${id}`);
    words += matches.flat().length;
  }
  return words;
}

test('page chunks: the decisions, chunks and query words of the views, on the demo corpus', async (t) => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  t.after(() => db.close());
  let words = 0;
  for (const query of ['Kündigung Mietverhältnis', 'Eigenbedarf', 'Schadensersatz', 'Verkehrssicherungspflicht Streupflicht']) {
    db.transaction(() => {
      const ranking = rankDecisions(db, { query, mode: 'keyword', bridge: true, depth: 20 }, true);
      const ids = [...ranking.decisions.slice(0, 20).map((entry) => entry.decision_id), 'no-such-decision'];
      // Read anew, then from the texts kept for the connection.
      dropPageTexts(db);
      words += assertPage(db, ids, ranking.plan!.groups, query);
      words += assertPage(db, ids, ranking.plan!.groups, `${query}, kept`);
      // Every other text kept: the statement reads the others' texts behind their packed parts, and not the kept ones.
      dropPageTexts(db);
      pageTexts(db, ids.filter((_, index) => index % 2 === 0));
      words += assertPage(db, ids, ranking.plan!.groups, `${query}, some kept`);
    })();
  }
  assert.ok(words > 100, `query words found: ${words}`);
});

test('page chunks: offsets in code points where a text holds astral letters, combining marks and emoji', async (t) => {
  const texts = [
    'Die 𝔎ündigung 😀 der Kündigung; 𝔎ündigungen sind Kündigungen. Vorkündigung und Überkündigung nicht, '
      + 'aber Ku\u0308ndigung (ein kombinierendes Zeichen) und 😀Kündigung 😀 und Kündigung😀.',
    'Kündigungsschutz nach 12 Jahren: ȻKündigung, ǅKündigung, 𝟙Kündigung und Mieterhöhung.',
  ];
  const db = await smallCorpus(t, texts.map((text, i) => ({ doknr: `PAGE${i}`, aktenzeichen: `VIII ZR ${i + 1}/24`, text })));
  const ids = (db.prepare('SELECT id FROM decisions ORDER BY id').all() as { id: string }[]).map((row) => row.id);
  const ranking = rankDecisions(db, { query: 'Kündigung', mode: 'keyword', bridge: false, depth: 20 }, true);
  const words = db.transaction(() => assertPage(db, ids, ranking.plan!.groups, 'astral'))();
  assert.ok(words >= 5, `query words found: ${words}`);
});

test('page chunks: a UTF-16 index of a chunk as a code point offset, with and without surrogate pairs in its text', async (t) => {
  // The snippets' Randnummern are found by it; a text without pairs (its text_length its UTF-16 length) is not scanned.
  const texts = ['Die 𝔎ündigung 😀 der Kündigung; 😀😀 und Kündigung😀.', 'Die „Kündigung“ – ohne Paare – und Kündigung.'];
  const db = await smallCorpus(t, texts.map((text, i) => ({ doknr: `CP${i}`, aktenzeichen: `VIII ZR ${i + 1}/25`, text })));
  const ids = (db.prepare('SELECT id FROM decisions ORDER BY id').all() as { id: string }[]).map((row) => row.id);
  const page = db.transaction(() => new PageChunks(db, ids, []))();
  let differ = 0;
  for (const chunk of ids.flatMap((id) => page.of(id))) {
    for (let index = 0; index <= chunk.text.length; index++) {
      const expected = codePointLength(chunk.text.slice(0, index));
      assert.equal(page.codePointsTo(chunk, index), expected, `${chunk.text} at ${index}`);
      if (expected !== index) differ++;
    }
  }
  assert.ok(differ > 10, `indexes whose code point offset differs: ${differ}`);
});
