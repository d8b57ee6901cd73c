/**
 * Operation handlers of this tree beside an older checkout's, in-process, interleaved, answers compared: GET
 * /decisions/{id}, the graph at depth 1 and 2, a datapackage of 10 excerpts, a decision's text citations and a
 * citation check of 20,000 characters, each tree on its own read-only connection to the same corpus.
 *
 *   git archive 55469c4 | tar -x -C .tmp/before && ln -s ../../node_modules .tmp/before/node_modules
 *   node bench/handlers.ts --db .tmp/bench-100k-s4.db --before .tmp/before [--count 300]
 *
 * Each input runs in both trees in turn (the order alternating), after one untimed pass over all inputs. Answers are
 * compared as JSON, a check's run id and times left out (they differ by design).
 */
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { printTable, stats } from './lib.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, before: { type: 'string' }, count: { type: 'string', default: '300' } } });
if (!values.db || !values.before) {
  console.error('usage: node bench/handlers.ts --db CORPUS --before DIR [--count N]');
  process.exit(2);
}
const count = Number(values.count);
const config = { publicUrl: 'http://127.0.0.1', plans: {} };

/** A tree's handlers of the three operations over its own read-only connection. */
async function handlersOf(root: string) {
  const load = (path: string) => import(pathToFileURL(join(resolve(root), path)).href);
  const [{ openCorpus }, { OPERATIONS }] = await Promise.all([load('src/corpus/open.ts'), load('src/operations/index.ts')]);
  const corpus = openCorpus(values.db, { readonly: true });
  const context = { services: { corpus, config, clock: () => new Date() }, caller: { organization: { id: 'bench' } }, now: new Date(),
    onCommit: () => undefined, afterCommit: () => undefined };
  const operation = (name: string) => OPERATIONS.find((item: { name: string }) => item.name === name);
  const run = (name: string, args: object) => operation(name).handler(args, context);
  return {
    corpus,
    'GET /decisions/{id}': (id: string) => run('get_decision', { id, max_chars: 40_000 }),
    'graph depth 1': (id: string) => run('get_citation_graph', { id, direction: 'both', depth: 1, page: 1 }),
    'graph depth 2': (id: string) => run('get_citation_graph', { id, direction: 'both', depth: 2, page: 1 }),
    'datapackage, 10 excerpts': (ids: string) => run('create_datapackage',
      { ids: ids.split(','), include_citations: true, full_text: false, max_chars: 60_000 }),
    'text citations': (id: string) => run('get_decision_text_citations', { id }),
    'check 20,000 characters': (text: string) => run('check_citations', { text }),
  };
}

const trees = [await handlersOf('.'), await handlersOf(values.before)];
const db = trees[0].corpus;
const n = db.prepare('SELECT count(*) FROM decisions').pluck().get() as number;
const every = Math.max(1, Math.floor(n / count));
const ids = db.prepare('SELECT id FROM decisions WHERE rowid % ? = 5 % ? LIMIT ?').pluck().all(every, every, count) as string[];
const sources = db.prepare(`SELECT DISTINCT from_decision_id FROM citation_edges WHERE reference_type = 'case'
  AND to_decision_id IS NOT NULL AND id % ? = 0 LIMIT ?`).pluck().all(every * 17, count) as string[];
// 20,000 characters each: consecutive decisions' texts joined (bench/scale.ts's check input).
const texts: string[] = [];
let brief = '';
for (const part of db.prepare('SELECT decision_text(text_zstd) FROM decisions WHERE rowid % ? = 0 LIMIT 80').pluck().all(every) as string[]) {
  brief += `${part}\n\n`;
  if (brief.length >= 20_000) {
    texts.push(brief.slice(0, 20_000));
    brief = '';
  }
}
const packages = sources.map((_, i) => Array.from({ length: 10 }, (__, j) => sources[(i * 10 + j) % sources.length]).join(','));
const inputs = { 'GET /decisions/{id}': ids, 'graph depth 1': sources, 'graph depth 2': sources, 'datapackage, 10 excerpts': packages,
  'text citations': ids.slice(0, 100), 'check 20,000 characters': texts } as const;
const comparable = (answer: unknown) => JSON.stringify(answer).replace(/"(id|submitted_at|completed_at|created_at)":"run_[^"]*"|"(submitted_at|completed_at|created_at|assembled_at)":"[^"]*"/g, '');

const rows: (string | number)[][] = [['handler, in-process', 'inputs', 'this tree p50 ms', 'p95', 'before p50 ms', 'p95', 'x before p50', 'differ']];
for (const [kind, list] of Object.entries(inputs) as [keyof typeof inputs, readonly string[]][]) {
  const samples = [[], []] as number[][];
  let differ = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (const [index, input] of list.entries()) {
      const answers: string[] = [];
      for (const tree of index % 2 === 0 ? [0, 1] : [1, 0]) {
        const started = performance.now();
        const answer = await trees[tree][kind](input);
        if (pass === 1) samples[tree].push(performance.now() - started);
        answers[tree] = comparable(answer);
      }
      if (pass === 1 && answers[0] !== answers[1]) differ++;
    }
  }
  const [mine, theirs] = samples.map(stats);
  rows.push([kind, String(list.length), mine.p50, mine.p95, theirs.p50, theirs.p95, (mine.p50 / theirs.p50).toFixed(2), String(differ)]);
}
console.log(`${n} decisions, this tree against ${values.before}, node ${process.version}, load ${loadavg()[0].toFixed(2)}`);
printTable(rows);
for (const tree of trees) tree.corpus.close();
