// Identifiers first: a query that is a decision's Aktenzeichen (with its court, in any case) or ECLI finds that
// decision first, also where the query is read only upper-cased and its court with it ('OLG BAMBERG').
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { smallCorpus } from './small-corpus.ts';

test('an Aktenzeichen with its court binds that court however the court is written', async (t) => {
  const db = await smallCorpus(t, [['SRCH00000021', 'Bamberg'], ['SRCH00000022', 'München']].map(([doknr, gerort]) =>
    ({ doknr, gertyp: 'OLG', gerort, aktenzeichen: '2 W 39/23 e', text: 'Kosten des ausgebliebenen Zeugen.' })));
  const courts = async (query: string, mode?: SearchMode) =>
    (await searchDecisions(db, { query, mode, limit: 10, page: 1, bridge: false })).results.map((r) => r.court);
  // Read only upper-cased ('e' is a suffix there), the court comes out as 'OLG BAMBERG'.
  assert.deepEqual(await courts('OLG Bamberg 2 W 39/23 e'), ['OLG Bamberg']);
  assert.deepEqual(await courts('OLG München, 2 W 39/23 e'), ['OLG München']);
  assert.equal((await courts('OLG Bamberg 2 W 39/23 e', 'hybrid'))[0], 'OLG Bamberg');
});

test('a query shaped like a file number the scanner may not read finds the decision bearing it first in hybrid mode', async (t) => {
  const db = await smallCorpus(t, [
    ['SRCH00000031', 'M 28 K 21.6372', 'Die Kosten des Abschleppens trägt der Halter.'],
    // Cites it, its numbers again and again, and the query's words besides.
    ['SRCH00000032', 'M 7 K 22.100', 'VG München, M 28 K 21.6372; vgl. M 28 K 21.6372 und 28 K 21.6372 (VG München, Kammer 28, 21.6372).'],
  ].map(([doknr, aktenzeichen, text]) => ({ doknr, gertyp: 'VG', gerort: 'München', aktenzeichen, text })));
  for (const query of ['VG München M 28 K 21.6372', 'm 28 k 21.6372', 'M28K 21.6372']) {
    const found = (await searchDecisions(db, { query, mode: 'hybrid', limit: 10, page: 1, bridge: false })).results.map((r) => r.aktenzeichen);
    assert.equal(found[0], 'M 28 K 21.6372', query);
  }
});

test('confidence high only for the first decision of a ranking; later ones answering every word say medium', async (t) => {
  const db = await smallCorpus(t, ['SRCH00000051', 'SRCH00000052'].map((doknr, i) =>
    ({ doknr, aktenzeichen: `VIII ZR 5${i}/24`, text: 'Schimmel in der Mietwohnung.' })));
  for (const page of [1, 2]) {
    const answer = await searchDecisions(db, { query: 'Schimmel Mietwohnung', mode: 'keyword', limit: 1, page, bridge: false });
    assert.deepEqual(answer.results.map((r) => r.confidence), [page === 1 ? 'high' : 'medium'], `page ${page}`);
  }
});

test('a decision filed under more than its file number, and one asked for with its court, first in every mode', async (t) => {
  const db = await smallCorpus(t, [
    { doknr: 'SRCH00000071', gertyp: 'BFH', aktenzeichen: 'I R 49/21 (I R 39/10)', text: 'Solidaritätszuschlag auf das Körperschaftsteuerguthaben.' },
    { doknr: 'SRCH00000072', gertyp: 'BFH', aktenzeichen: 'I R 12/22', text: 'Vgl. BFH I R 49/21 zum Körperschaftsteuerguthaben, I R 49/21 und nochmals I R 49/21.' },
    { doknr: 'SRCH00000073', gertyp: 'LG', gerort: 'Nürnberg-Fürth', aktenzeichen: '18 KLs 505 Js 1651/21', text: 'Beteiligung einer GmbH an der Einziehung.' },
  ]);
  const first = async (query: string, mode?: SearchMode) =>
    (await searchDecisions(db, { query, mode, limit: 10, page: 1, bridge: false })).results[0]?.aktenzeichen;
  for (const mode of [undefined, 'keyword', 'hybrid'] as const) {
    assert.equal(await first('I R 49/21', mode), 'I R 49/21 (I R 39/10)', `${mode}`);
    assert.equal(await first('LG Nürnberg-Fürth 18 KLs 505 Js 1651/21', mode), '18 KLs 505 Js 1651/21', `${mode}`);
  }
});
