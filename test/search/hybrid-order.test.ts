// Hybrid's order (bench/README "Session 18: held-out decisions"): the lexical arm leads and the vector arm's further
// decisions follow those the words found; a rare compound the decisions do not use is also read as its two parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { smallCorpus } from './small-corpus.ts';

test('hybrid lists every decision holding a query word before those only the vector arm found', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  try {
    for (const query of ['Eigenbedarf', 'Schadensersatz', 'Anspruch', 'Kosten']) {
      const matching = new Set((await searchDecisions(db, { query, mode: 'keyword', limit: 50, page: 1, bridge: false })).results.map((r) => r.id));
      const hybrid = (await searchDecisions(db, { query, mode: 'hybrid', limit: 50, page: 1, bridge: false })).results.map((r) => r.id);
      assert.ok(matching.size > 0 && hybrid.length > matching.size, `${query}: the vector arm adds decisions the word is not in`);
      assert.deepEqual(new Set(hybrid.slice(0, matching.size)), matching, `${query}: the word's decisions first`);
    }
  } finally {
    db.close();
  }
});

test('hybrid reads a rare compound the decisions do not use as its two parts', async (t) => {
  const db = await smallCorpus(t, [
    ['SRCH00000061', 'XIV 61/24', 'Die Haft zur Sicherung der Abschiebung dauert an.'],
    ['SRCH00000062', 'XIV 62/24', 'Die Frist wurde verlängert, verlängert und nochmals verlängert.'],
  ].map(([doknr, aktenzeichen, text]) => ({ doknr, aktenzeichen, text })));
  const found = (await searchDecisions(db, { query: 'Abschiebehaft verlängert', mode: 'hybrid', limit: 10, page: 1, bridge: false })).results.map((r) => r.aktenzeichen);
  assert.deepEqual(new Set(found), new Set(['XIV 61/24', 'XIV 62/24']));
});
