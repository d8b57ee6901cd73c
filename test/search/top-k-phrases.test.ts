// Which rankings try the top-k path (src/search/rank-helper.ts rankDecisionRows): expressions of at most
// TOP_K_MAX_PHRASES phrases; longer ones (hybrid's lexical arm for bridge-widened lay queries, which the path declined
// at 100k every time, after 5 to 100 ms) go to the full ranking at once. The answer is the full ranking's either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smallCorpus } from './small-corpus.ts';
import { filterSql } from '../../src/search/filters.ts';
import { planQuery } from '../../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf } from '../../src/search/query.ts';
import { rankDecisionRows, TOP_K_MAX_PHRASES } from '../../src/search/rank-helper.ts';
import { ALL_ROWS, rankRange } from '../../src/search/rank-range.ts';
import { topKServed } from '../../src/search/top-k.ts';

const WORDS = ['Miete', 'Schimmel', 'Vermieter', 'Wohnung', 'Klage', 'Gericht', 'Urteil', 'Schaden', 'Heizung', 'Keller'];
const TEXTS = [
  'Der Schimmel in der Wohnung mindert die Miete; der Vermieter kannte den Schaden.',
  'Die Klage vor dem Gericht wegen der Heizung hatte Erfolg, das Urteil ist rechtskräftig.',
  'Im Keller stand Wasser; der Schaden an der Heizung trifft den Vermieter.',
  'Die Miete für die Wohnung war zu hoch, die Klage auf Rückzahlung hatte Erfolg.',
];

test('top-k: tried for expressions of at most TOP_K_MAX_PHRASES phrases, longer ones ranked in full at once, same answer', async (t) => {
  const db = await smallCorpus(t, TEXTS.map((text, i) => ({ doknr: `KORE62000${i}`, aktenzeichen: `VIII ZR ${i + 1}/25`, norm: '', text })));
  const filter = filterSql({});
  for (const count of [1, TOP_K_MAX_PHRASES, TOP_K_MAX_PHRASES + 1, WORDS.length]) {
    const groups = asTyped(planQuery(db, WORDS.slice(0, count).join(' '), false).groups);
    const phrases = phrasesOf(groups);
    assert.equal(phrases.length, count);
    const expression = matchExpression(groups, false);
    const before = topKServed(db).proven + topKServed(db).declined;
    const ranked = rankDecisionRows(db, expression, filter, 3, phrases);
    const tried = topKServed(db).proven + topKServed(db).declined - before;
    assert.equal(tried, count <= TOP_K_MAX_PHRASES ? 1 : 0, `${count} phrases`);
    assert.deepEqual(ranked, db.transaction(() => rankRange(db, expression, filter, ALL_ROWS, 3))(), `${count} phrases`);
  }
});
