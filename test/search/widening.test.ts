// Widening only where it helps: compounds ending in a query word must be compounds (not 'Gegenstand' for 'Stand'),
// auxiliaries are stopwords ('wurde' no longer widens to 'Menschenwürde'), and in hybrid a decision holding the word as
// typed ranks above one holding only compounds of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../src/search/analyze.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { compoundsOf } from '../../src/search/query.ts';
import Database from 'better-sqlite3';
import { smallCorpus } from './small-corpus.ts';

test('compounds of a query word, its typed form first in hybrid, auxiliaries as stopwords', async (t) => {
  const db = await smallCorpus(t, [
    ['SRCH00000041', 'VIII ZR 41/24', 'Das Haus des Klägers wurde beschädigt.'],
    ['SRCH00000042', 'VIII ZR 42/24', 'Im Parkhaus und im Einfamilienhaus, im Hochhaus und im Parkhaus: das ist durchaus ein Wochenendhaus.'],
    ['SRCH00000043', 'VIII ZR 43/24', 'Der Gegenstand, der Umstand und der Sachstand; die Menschenwürde; der Vergleich ist versöhnlich.'],
  ].map(([doknr, aktenzeichen, text]) => ({ doknr, aktenzeichen, text })));
  const compounds = compoundsOf(db, 'haus');
  assert.ok(compounds.includes('parkhaus') && compounds.includes('einfamilienhaus'), compounds.join(' '));
  assert.deepEqual(compoundsOf(db, 'stand'), ['sachstand'], 'gegen|stand and um|stand are no compounds of Stand');
  assert.deepEqual(compoundsOf(db, 'sohn'), [], 'ver|söhn is no compound of Sohn');
  assert.deepEqual(tokenize('wurde worden wäre'), []);
  const found = (await searchDecisions(db, { query: 'Haus', mode: 'hybrid', limit: 10, page: 1, bridge: false })).results.map((r) => r.aktenzeichen);
  assert.deepEqual(found, ['VIII ZR 41/24', 'VIII ZR 42/24']);
  const keyword = (await searchDecisions(db, { query: 'Haus', mode: 'keyword', limit: 10, page: 1, bridge: false })).results.map((r) => r.aktenzeichen);
  assert.deepEqual(new Set(keyword), new Set(['VIII ZR 41/24', 'VIII ZR 42/24']), 'keyword still finds the compounds');
});

test('a word\'s compounds are kept by its connection, and looked up anew once any connection has written the file', async (t) => {
  const db = await smallCorpus(t, [
    ['SRCH00000044', 'VIII ZR 44/24', 'Im Parkhaus und im Einfamilienhaus stand ein Wagen.'],
  ].map(([doknr, aktenzeichen, text]) => ({ doknr, aktenzeichen, text })));
  const kept = compoundsOf(db, 'haus');
  assert.deepEqual([...kept].sort(), ['einfamilienhaus', 'parkhaus']);
  // The same array: nothing looked up again.
  assert.equal(compoundsOf(db, 'haus'), kept);
  // Another connection adds a compound: looked up anew.
  const other = new Database(db.name);
  other.prepare('INSERT INTO search_words (rev, stem) VALUES (?, ?)').run([...'gartenhaus'].reverse().join(''), 'gartenhaus');
  other.close();
  assert.deepEqual([...compoundsOf(db, 'haus')].sort(), ['einfamilienhaus', 'gartenhaus', 'parkhaus']);
  // And where this connection writes.
  db.prepare('DELETE FROM search_words WHERE stem = ?').run('parkhaus');
  assert.deepEqual([...compoundsOf(db, 'haus')].sort(), ['einfamilienhaus', 'gartenhaus']);
});
