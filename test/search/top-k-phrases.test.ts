// Every ranking given its phrases tries the top-k path (src/search/rank-helper.ts rankDecisionRows), however many:
// the path itself declines, before FTS5 scores anything, what its bounds cannot prove (top-k.test.ts). Here no phrase
// has a list (4 decisions): every row that can match is a candidate, all are scored, and the path answers itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smallCorpus } from './small-corpus.ts';
import { filterSql } from '../../src/search/filters.ts';
import { planQuery } from '../../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf } from '../../src/search/query.ts';
import { rankDecisionRows } from '../../src/search/rank-helper.ts';
import { ALL_ROWS, rankRange } from '../../src/search/rank-range.ts';
import { topKServed } from '../../src/search/top-k.ts';

const WORDS = ['Miete', 'Schimmel', 'Vermieter', 'Wohnung', 'Klage', 'Gericht', 'Urteil', 'Schaden', 'Heizung', 'Keller'];
const TEXTS = [
  'Der Schimmel in der Wohnung mindert die Miete; der Vermieter kannte den Schaden.',
  'Die Klage vor dem Gericht wegen der Heizung hatte Erfolg, das Urteil ist rechtskräftig.',
  'Im Keller stand Wasser; der Schaden an der Heizung trifft den Vermieter.',
  'Die Miete für die Wohnung war zu hoch, die Klage auf Rückzahlung hatte Erfolg.',
];

test('top-k: tried for expressions of any number of phrases, and answered where every candidate is scored, same answer', async (t) => {
  const db = await smallCorpus(t, TEXTS.map((text, i) => ({ doknr: `KORE62000${i}`, aktenzeichen: `VIII ZR ${i + 1}/25`, norm: '', text })));
  const filter = filterSql({});
  for (const count of [1, 8, 9, WORDS.length]) {
    const groups = asTyped(planQuery(db, WORDS.slice(0, count).join(' '), false).groups);
    const phrases = phrasesOf(groups);
    assert.equal(phrases.length, count);
    const expression = matchExpression(groups, false);
    const before = { ...topKServed(db) };
    const ranked = rankDecisionRows(db, expression, filter, 3, phrases);
    assert.equal(topKServed(db).proven - before.proven, 1, `${count} phrases`);
    assert.equal(topKServed(db).declined, before.declined, `${count} phrases`);
    assert.deepEqual(ranked, db.transaction(() => rankRange(db, expression, filter, ALL_ROWS, 3))(), `${count} phrases`);
  }
});
