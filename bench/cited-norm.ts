/**
 * The cited_norm filter's decisions (src/search/filters.ts) beside the condition it replaced in session 17 (every
 * statute edge's canonical form tested through the view citation_edges), interleaved, warm (first round untimed):
 *
 *   node bench/cited-norm.ts --db .tmp/bench-100k-s4.db
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openCorpus } from '../src/corpus/open.ts';
import { parseProvision } from '../src/corpus/norm-family.ts';
import { citedNormCondition } from '../src/search/filters.ts';
import { printTable, stats } from './lib.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.db) {
  console.error('usage: node bench/cited-norm.ts --db CORPUS [--rounds N]');
  process.exit(2);
}
const db = openCorpus(values.db, { readonly: true });

/** The condition before session 17: each edge of the law and unit read, its canonical form tested, duplicates kept. */
function before(text: string) {
  const provision = parseProvision(text, 'cited_norm');
  const stem = `${provision.canonical.slice(0, -provision.law.length - 1)} `;
  const written = `(reference_canonical || ' ')`;
  return {
    sql: `SELECT from_decision_id FROM citation_edges WHERE reference_type = 'statute' AND target_law = ? AND target_unit = ?
      AND (substr(${written}, 1, ?) = ? OR substr(replace(${written}, ' UAbs. 1 ', ' '), 1, ?) = ?)`,
    params: [provision.law, provision.unit, stem.length, stem, stem.length, stem],
  };
}

const NORMS = ['§ 573 BGB', '§ 823 BGB', '§ 1 KSchG', '§ 626 BGB', '§ 280 BGB', '§ 543 BGB', '§ 573 Abs. 2 BGB'];
const times = { before: [] as number[], after: [] as number[] };
let differing = 0;
for (let round = 0; round < Number(values.rounds); round++) {
  for (const norm of NORMS) {
    const found: Record<string, Set<unknown>> = {};
    for (const [name, condition] of [['before', before(norm)], ['after', citedNormCondition(norm)]] as const) {
      const started = performance.now();
      found[name] = new Set(db.prepare(condition.sql).pluck().all(...condition.params));
      if (round > 0) times[name].push(performance.now() - started);
    }
    if (found.before.size !== found.after.size || [...found.before].some((id) => !found.after.has(id))) differing++;
  }
}
const [a, b] = [stats(times.before), stats(times.after)];
printTable([['cited_norm condition', 'p50 ms', 'p95 ms', 'x'],
  ['before: every edge read through citation_edges', a.p50, a.p95, '1.00'],
  ['after: covering index, decision_rows', b.p50, b.p95, (a.p50 / b.p50).toFixed(1)]]);
console.log(`${NORMS.length} norms x ${Number(values.rounds) - 1} timed rounds; answers differing: ${differing}; load ${loadavg()[0].toFixed(2)}`);
