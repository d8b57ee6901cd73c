/**
 * frequently_cited_by_results (src/search/cited-by-results.ts) against its definition computed here from the view
 * citation_edges: the decisions at least two of the results cite, by how many, then newest, then id, at most 10; the
 * results given by UUID and by decision row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphCorpus, GRAPH } from '../helpers/graph-corpus.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { frequentlyCitedByResults, frequentlyCitedByRows, type CitedDecision } from '../../src/search/cited-by-results.ts';

function byDefinition(db: ReturnType<typeof openCorpus>, resultIds: string[]): CitedDecision[] {
  const results = new Set(resultIds);
  const citing = new Map<string, Set<string>>();
  const edges = db.prepare(`SELECT from_decision_id AS source, to_decision_id AS target FROM citation_edges
    WHERE reference_type = 'case' AND to_decision_id IS NOT NULL`).all() as { source: string; target: string }[];
  for (const { source, target } of edges) if (results.has(source)) citing.set(target, (citing.get(target) ?? new Set()).add(source));
  const rows = [...citing].filter(([, sources]) => sources.size >= 2).map(([id, sources]) => ({
    ...(db.prepare('SELECT id, aktenzeichen, court, date FROM decisions WHERE id = ?').get(id) as Omit<CitedDecision, 'cited_by_results'>),
    cited_by_results: sources.size,
  }));
  rows.sort((a, b) => b.cited_by_results - a.cited_by_results || (b.date ?? '').localeCompare(a.date ?? '') || (a.id < b.id ? -1 : 1));
  return rows.slice(0, 10);
}

test('frequently_cited_by_results: the decisions two or more results cite, counted, ordered and capped as defined', async () => {
  const db = openCorpus(await graphCorpus(), { readonly: true });
  try {
    const citers = GRAPH.citers.map((citer) => citer.id);
    const sets = [
      citers.slice(0, 4), // all cite HUB: one decision, cited 4 times
      [GRAPH.source.id, citers[24]], // both cite CITER[25]
      [GRAPH.source.id, ...citers.slice(20, 30)], // HUB by ten, CITER[25] by two
      [GRAPH.source.id, GRAPH.hub.id], // nothing cited twice
      [citers[0]], // one result: nothing
      [GRAPH.source.id, citers[24], ...citers.slice(40, 60)],
    ];
    const rowOf = (id: string) => (db.prepare('SELECT row FROM decision_rows WHERE id = ?').get(id) as { row: number }).row;
    for (const ids of sets) {
      assert.deepEqual(frequentlyCitedByResults(db, ids), byDefinition(db, ids), ids.join());
      // The same by the results' decision rows (a result page's way).
      assert.deepEqual(frequentlyCitedByRows(db, ids.map(rowOf)), byDefinition(db, ids), `rows: ${ids.join()}`);
    }
    const hub = frequentlyCitedByResults(db, citers.slice(0, 4));
    assert.deepEqual(hub.map((item) => [item.id, item.cited_by_results]), [[GRAPH.hub.id, 4]]);
    assert.deepEqual(frequentlyCitedByResults(db, [GRAPH.source.id, citers[24]]).map((item) => item.id), [citers[25]]);
  } finally {
    db.close();
  }
});
