// The passages a page shows for a decision the words found (src/search/lexical.ts lexicalPassages) against the rule
// written as a sort (Session 20's code, transcribed): every chunk scored (groups answered, density), those answering
// a group kept if any does, sorted by groups answered, then density, then position, the first three. Since Session
// 21 the best three are kept while the chunks are read; on the demo corpus's pages of many queries (ties of density
// included: chunks of equal length and matches) the choice must be the same to the chunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { decisionText } from '../../src/corpus/stored-text.ts';
import { fieldOf } from '../../src/search/corpus-model.ts';
import { rankDecisions } from '../../src/search/decision-search.ts';
import { lexicalPassages } from '../../src/search/lexical.ts';
import { PageChunks } from '../../src/search/page-chunks.ts';
import { termMatcher, type TermGroup } from '../../src/search/query.ts';
import { CHUNK_WEIGHTS } from '../../src/search/rank-range.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

function bySort(page: PageChunks, decisionId: string, groups: TermGroup[]): number[] {
  const chunks = page.of(decisionId);
  if (groups.length === 0 || chunks.length <= 1) return chunks.slice(0, 3).map((chunk) => chunk.id);
  const matchers = groups.map((group) => termMatcher([group]));
  const scored = chunks.map((chunk, position) => {
    const matches = page.matches(chunk);
    const answered = matchers.filter((isMatch) => matches.some((token) => isMatch(token.stem))).length;
    const weight = fieldOf(chunk.section) === 'lead' ? CHUNK_WEIGHTS[1] : CHUNK_WEIGHTS[2];
    return { id: chunk.id, answered, density: (weight * matches.length) / (chunk.text.length / 8 + 10), position };
  });
  const matching = scored.filter((chunk) => chunk.answered > 0);
  return (matching.length > 0 ? matching : scored)
    .sort((a, b) => b.answered - a.answered || b.density - a.density || a.position - b.position)
    .slice(0, 3).map((chunk) => chunk.id);
}

test('lexical passages: the best three kept while reading are the first three of the sorted rule', async (t) => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  t.after(() => db.close());
  // Queries of one to three words drawn from the corpus's own frequent words, and some that match a title only.
  const counts = new Map<string, number>();
  for (const id of db.prepare('SELECT id FROM decisions').pluck().all() as string[]) {
    for (const [word] of (decisionText(db, id) ?? '').matchAll(/\p{L}{5,}/gu)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 60).map(([word]) => word);
  const queries = [...words, ...words.slice(0, 30).map((word, i) => `${word} ${words[(i * 7 + 3) % words.length]}`),
    ...words.slice(0, 15).map((word, i) => `${word} ${words[i + 15]} ${words[i + 30]}`), 'Kündigung Mietverhältnis', 'Eigenbedarf'];
  let decisions = 0;
  let differentFromFirstThree = 0;
  for (const query of queries) {
    db.transaction(() => {
      const ranking = rankDecisions(db, { query, mode: 'hybrid', bridge: true, depth: 20 }, false);
      const groups = ranking.plan?.groups ?? [];
      const ids = ranking.decisions.slice(0, 20).map((entry) => entry.decision_id);
      const page = new PageChunks(db, ids, groups);
      for (const id of ids) {
        const chosen = lexicalPassages(page, id, groups);
        assert.deepEqual(chosen, bySort(page, id, groups), `${query}: ${id}`);
        if (chosen.join() !== page.of(id).slice(0, 3).map((chunk) => chunk.id).join()) differentFromFirstThree++;
        decisions++;
      }
    })();
  }
  assert.ok(decisions > 500 && differentFromFirstThree > 100, `${decisions} decisions, ${differentFromFirstThree} not the first three`);
});
