// The passages of decisions the vector arm found (src/search/semantic.ts passagesFor) keep each chunk's word count and
// pooled vector for later pages: the chunks chosen are those of the plain computation (every chunk tokenized, its
// words pooled, the query's words counted), the first time and from what was kept, on the demo corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { tokenize } from '../../src/search/analyze.ts';
import { Bag } from '../../src/search/corpus-model.ts';
import { queryVectorFor, rankDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { trainedModelOf } from '../../src/search/embedder.ts';
import { PageChunks, type Passage } from '../../src/search/page-chunks.ts';
import { termMatcher, type TermGroup } from '../../src/search/query.ts';
import { passagesFor } from '../../src/search/semantic.ts';
import { dot } from '../../src/search/vector-math.ts';
import type { QueryVector } from '../../src/search/embedder.ts';
import type Database from 'better-sqlite3';
import { demoCorpus } from '../helpers/demo-corpus.ts';

/** The plain computation the kept shapes must agree with. */
function plainPassages(db: Database.Database, chunks: Passage[], qv: QueryVector | null, groups: TermGroup[]): number[] {
  if (chunks.length <= 1) return chunks.map((chunk) => chunk.id);
  const isMatch = termMatcher(groups);
  const model = qv?.status === 'ready' && qv.vector && qv.record.kind === 'trained' ? trainedModelOf(db, qv.record) : null;
  return chunks.map((chunk, position) => {
    const tokens = tokenize(chunk.text);
    let score = groups.length > 0 ? tokens.filter((token) => isMatch(token.stem)).length / (tokens.length + 10) : 0;
    if (model && qv?.status === 'ready' && qv.vector) {
      const bag = new Bag(model);
      bag.addTokens(tokens, 1);
      const vector = bag.vector();
      if (vector) score += dot(qv.vector, vector);
    }
    return { id: chunk.id, score, position };
  }).sort((a, b) => b.score - a.score || a.position - b.position).slice(0, 3).map((chunk) => chunk.id);
}

const QUERIES = ['Vermieter will mich rauswerfen, weil sein Sohn einziehen soll', 'Kündigung Mietverhältnis', 'der Chef hat mich rausgeschmissen'];

test('vector passages: the chunks of the plain computation, computed and kept', async (t) => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  t.after(() => db.close());
  let compared = 0;
  for (const mode of ['semantic', 'hybrid'] as SearchMode[]) {
    for (const query of QUERIES) {
      const args = { query, mode, bridge: true };
      const qv = await queryVectorFor(db, args, true, null);
      assert.equal(qv?.status, 'ready', 'the demo corpus has vectors');
      db.transaction(() => {
        const ranking = rankDecisions(db, { ...args, depth: 20 }, true, qv);
        const ids = ranking.decisions.slice(0, 12).map((entry) => entry.decision_id);
        const groups = ranking.plan!.groups;
        const page = new PageChunks(db, ids, groups);
        for (const id of ids) {
          const plain = plainPassages(db, page.of(id), qv, groups);
          assert.deepEqual(passagesFor(db, page, id, qv, groups), plain, `${query}: ${id}`);
          assert.deepEqual(passagesFor(db, new PageChunks(db, [id], groups), id, qv, groups), plain, `${query}: ${id}, kept`);
          compared++;
        }
      })();
    }
  }
  assert.ok(compared >= 60, `compared ${compared}`);
});
