// Hybrid's first page fuses the lexical arm's best 40 decisions, deeper pages its best 200 with the first page's
// decisions kept first (src/search/decision-search.ts hybridRanking): pages never repeat or skip a decision, whatever
// the limit, on the demo corpus (50 decisions, so common words match more than 40 of them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { FIRST_PAGE_POOL, searchDecisions } from '../../src/search/decision-search.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const QUERIES = ['Gericht', 'Klage Kosten', 'Entscheidung', 'Vermieter will mich rauswerfen'];

test('hybrid: the first page ranks from a lexical pool of 40, not every match', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  const first = await searchDecisions(db, { query: 'Gericht', mode: 'hybrid', limit: 20, page: 1, bridge: true });
  const second = await searchDecisions(db, { query: 'Gericht', mode: 'hybrid', limit: 20, page: 2, bridge: true });
  // 'Gericht' matches every decision of the corpus: the pool of 200 held them all, the pool of 40 does not.
  assert.equal(first.total_available.value, 50);
  assert.equal(first.pool_exhaustive, false);
  assert.ok(first.candidate_pool < second.candidate_pool);
  assert.equal(second.pool_exhaustive, true);
  assert.ok(FIRST_PAGE_POOL < 50);
  db.close();
});

test('hybrid: pages never repeat or skip a decision, for every limit', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  for (const query of QUERIES) {
    for (const limit of [5, 10, 20]) {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(60 / limit); page++) {
        const answer = await searchDecisions(db, { query, mode: 'hybrid', limit, page, bridge: true });
        seen.push(...answer.results.map((item) => item.id));
      }
      assert.equal(new Set(seen).size, seen.length, `${query}, limit ${limit}: no decision twice`);
      // Every decision of a deep ranking is on some page: the pages of 20 reach as far as those of 5.
      const deep = (await searchDecisions(db, { query, mode: 'hybrid', limit: 20, page: 3, bridge: true })).results.map((item) => item.id);
      for (const id of deep) assert.ok(seen.includes(id), `${query}, limit ${limit}: ${id} on a page`);
    }
  }
  db.close();
});
