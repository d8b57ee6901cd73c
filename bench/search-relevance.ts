/**
 * Relevance of search per mode on the judged set bench/search-relevance.json: recall@10 and MRR (of the first
 * relevant decision in the top 10), per kind (lay / legal), over the queries of source "fixtures" (the demo corpus).
 *
 *   node bench/search-relevance.ts
 *
 * Semantic mode is skipped while the corpus holds no passage vectors (it answers 503; docs/search.md).
 */
import { readFileSync } from 'node:fs';
import { openCorpus } from '../src/corpus/open.ts';
import { searchDecisions, type SearchMode } from '../src/search/decision-search.ts';
import { demoCorpus } from '../test/helpers/demo-corpus.ts';
import { printTable } from './lib.ts';

interface Query { id: string; kind: 'lay' | 'legal'; query: string; relevant_decisions: string[]; source: string }
const set = JSON.parse(readFileSync(new URL('./search-relevance.json', import.meta.url), 'utf8')) as { queries: Query[] };
const db = openCorpus(await demoCorpus(), { readonly: true });
const doknrOf = new Map((db.prepare('SELECT id, doknr FROM decisions').all() as { id: string; doknr: string }[]).map((r) => [r.id, r.doknr]));
const queries = set.queries.filter((q) => q.source === 'fixtures' && q.relevant_decisions.length > 0);

async function score(mode: SearchMode | undefined, bridge: boolean, kind: 'lay' | 'legal') {
  let recall = 0;
  let mrr = 0;
  const subset = queries.filter((q) => q.kind === kind);
  for (const q of subset) {
    const found = (await searchDecisions(db, { query: q.query, mode, limit: 10, page: 1, bridge })).results.map((r) => doknrOf.get(r.id));
    const relevant = new Set(q.relevant_decisions);
    recall += found.filter((d) => d && relevant.has(d)).length / relevant.size;
    const first = found.findIndex((d) => d && relevant.has(d));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  return { recall: recall / subset.length, mrr: mrr / subset.length, n: subset.length };
}

const rows: (string | number)[][] = [['mode', 'bridge', 'kind', 'queries', 'recall@10', 'MRR@10']];
for (const [mode, bridge] of [['keyword', false], ['keyword', true], ['semantic', false], ['semantic', true], ['hybrid', false], ['hybrid', true]] as const) {
  for (const kind of ['lay', 'legal'] as const) {
    const s = await score(mode, bridge, kind);
    rows.push([mode, String(bridge), kind, String(s.n), s.recall, s.mrr]);
  }
}
console.log(`search relevance on bench/search-relevance.json (source fixtures, demo corpus), node ${process.version}`);
printTable(rows);
db.close();
