/**
 * Where an import's time goes as the corpus grows (issue [scale]): the same generated batches imported into a large
 * corpus and into a small one, interleaved (an import of a few batch folders into each in turn), with the importer's
 * step profile (src/ingest/import-profile.ts). The ratio large / small per step is the size effect. With --before,
 * the same batches go into two copies of the large corpus instead, one written by an older checkout's code (`git
 * archive REV | tar -x -C DIR`) and one by this tree's, and the two files' contents are compared table by table.
 *
 *   node bench/import-at-size.ts --from /work/main/.tmp/scale/gen-500000 --onto /work/main/.tmp/bench-100k-s4.db \
 *     --batches 100-119 (--small 0-9 | --before .tmp/before) [--group 5] [--dir .tmp/at-size] [--batch-size 2000]
 *
 * --onto is copied into --dir (never written); --small imports those batch folders into a new file first (untimed).
 * Each import call takes --group batch folders (1,000 decisions each) as one folder (of links), so it runs as an
 * import of that folder does: batches of --batch-size, then the final step (pending edges, search index, vectors).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openCorpus, type CorpusDb } from '../src/corpus/open.ts';
import { importPaths } from '../src/ingest/import-paths.ts';
import { ImportProfile } from '../src/ingest/import-profile.ts';
import { printTable } from './lib.ts';

const { values } = parseArgs({ options: {
  from: { type: 'string' }, onto: { type: 'string' }, batches: { type: 'string', default: '100-119' },
  small: { type: 'string' }, group: { type: 'string', default: '5' }, dir: { type: 'string', default: '.tmp/at-size' },
  'batch-size': { type: 'string', default: '2000' }, keep: { type: 'boolean', default: false }, before: { type: 'string' },
} });
if (!values.from || !values.onto) {
  console.error('usage: node bench/import-at-size.ts --from GEN_FOLDER --onto CORPUS [--batches 100-119] [--small 0-9] [--group 5] [--dir .tmp/at-size]');
  process.exit(2);
}
const range = (text: string) => {
  const [from, to] = text.split('-').map(Number);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
};
const folder = (n: number) => join(values.from!, `batch-${String(n).padStart(4, '0')}`);
const group = Number(values.group);
const batchSize = Number(values['batch-size']);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
mkdirSync(values.dir!, { recursive: true });

interface Arm {
  name: string; db: CorpusDb; path: string; profile: ImportProfile; wallMs: number; imported: number; perImport: number[];
  importPaths: typeof importPaths;
}

/** The import of a tree: this one's, or the older checkout's of --before. */
async function codeOf(root: string | null): Promise<{ openCorpus: typeof openCorpus; importPaths: typeof importPaths }> {
  if (!root) return { openCorpus, importPaths };
  const corpus = await import(resolve(root, 'src/corpus/open.ts')) as { openCorpus: typeof openCorpus };
  const ingest = await import(resolve(root, 'src/ingest/import-paths.ts')) as { importPaths: typeof importPaths };
  return { openCorpus: corpus.openCorpus, importPaths: ingest.importPaths };
}

function decisions(db: CorpusDb): number {
  return db.prepare('SELECT count(*) FROM decisions').pluck().get() as number;
}

async function arm(name: string, source: string | null, root: string | null = null): Promise<Arm> {
  const code = await codeOf(root);
  const path = join(values.dir!, `${name}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  if (source) {
    console.log(`copying ${source} to ${path} ...`);
    copyFileSync(source, path);
    if (existsSync(`${source}-wal`) && statSync(`${source}-wal`).size > 0) copyFileSync(`${source}-wal`, `${path}-wal`);
  }
  const db = code.openCorpus(path);
  if (!source && values.small) {
    console.log(`building the small corpus from batches ${values.small} ...`);
    await code.importPaths(db, [linked(range(values.small))], { batchSize });
  }
  return { name, db, path, profile: new ImportProfile(), wallMs: 0, imported: 0, perImport: [], importPaths: code.importPaths };
}

/** A folder of links to the batch folders: one import walks them as it walks the generated folder. */
function linked(numbers: number[]): string {
  const dir = resolve(values.dir!, `links-${numbers[0]}-${numbers.at(-1)}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const n of numbers) symlinkSync(resolve(folder(n)), join(dir, `batch-${String(n).padStart(4, '0')}`));
  return dir;
}

/** Rows and a hash of each table a decision import writes, in key order (imported_at, a clock reading, left out). */
function contents(db: CorpusDb): Map<string, string> {
  const tables = [
    ['decisions', 'rowid'], ['decision_rows', 'row'], ['row_file_numbers', 'decision_row, position'],
    ['row_sections', 'decision_row, position'], ['row_randnummern', 'decision_row, position'], ['row_chunks', 'id'],
    ['row_norms', 'decision_row, position'], ['citation_links', 'id'], ['law_unit_citations', 'law, unit'], ['search_docs', 'doc_id'],
    ['decisions_fts_data', 'id'], ['search_vectors', 'vec_id'], ['search_words', 'rev'], ['search_impacts', 'phrase'],
    ['search_model_words', 'stem'],
  ];
  const out = new Map<string, string>();
  for (const [table, order] of tables) {
    const hash = createHash('sha256');
    let n = 0;
    for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).iterate() as Iterable<Record<string, unknown>>) {
      if (table === 'decisions') delete row.imported_at;
      hash.update(JSON.stringify(Object.values(row).map((v) => (Buffer.isBuffer(v) ? v.toString('base64') : v))));
      n++;
    }
    out.set(table, `${n} ${hash.digest('hex').slice(0, 16)}`);
  }
  return out;
}

const arms = values.before
  ? [await arm('before', values.onto, values.before), await arm('after', values.onto)]
  : [await arm('large', values.onto), await arm('small', null)];
for (const a of arms) console.log(`${a.name}: ${decisions(a.db)} decisions`);
console.log(`load before: ${load()}`);
const batches = range(values.batches);
for (let at = 0; at < batches.length; at += group) {
  const numbers = batches.slice(at, at + group);
  const paths = [linked(numbers)];
  for (const a of (at / group) % 2 === 0 ? arms : [...arms].reverse()) {
    const started = performance.now();
    const summary = await a.importPaths(a.db, paths, { batchSize, profile: a.profile });
    const ms = performance.now() - started;
    a.wallMs += ms;
    a.imported += summary.imported;
    a.perImport.push(ms);
    console.log(`${a.name}: ${numbers.length} folders, ${summary.imported} new in ${(ms / 1000).toFixed(1)} s (load ${load()})`);
  }
}

const steps = [...new Set(arms.flatMap((a) => [...a.profile.totals.keys()]))]
  .sort((x, y) => (arms[0].profile.totals.get(y)?.ms ?? 0) - (arms[0].profile.totals.get(x)?.ms ?? 0));
const ms = (a: Arm, step: string) => a.profile.totals.get(step)?.ms ?? 0;
printTable([['step', ...arms.map((a) => `${a.name} s`), `${arms[0].name} / ${arms[1].name}`, `${arms[0].name} ms per decision`],
  ...steps.map((step) => [step, ...arms.map((a) => (ms(a, step) / 1000).toFixed(2)),
    ms(arms[1], step) > 0 ? (ms(arms[0], step) / ms(arms[1], step)).toFixed(2) : '-', (ms(arms[0], step) / arms[0].imported).toFixed(3)]),
  ['(wall)', ...arms.map((a) => (a.wallMs / 1000).toFixed(2)), (arms[0].wallMs / arms[1].wallMs).toFixed(2), (arms[0].wallMs / arms[0].imported).toFixed(3)],
]);
console.log(`per batch of the ${arms[0].name} arm (ms): documents, whole, commit, then the steps`);
for (const b of arms[0].profile.batches) {
  console.log(`  ${b.documents} ${b.ms.toFixed(0)} commit ${(b.steps['batch: commit'] ?? 0).toFixed(0)} `
    + Object.entries(b.steps).filter(([s]) => s.startsWith('decision: ')).map(([s, v]) => `${s.slice(10)} ${v.toFixed(0)}`).join(', '));
}
console.log(`load after: ${load()}; decisions now: ${arms.map((a) => `${a.name} ${decisions(a.db)}`).join(', ')}`);
if (values.before) {
  const [before, after] = arms.map((a) => contents(a.db));
  printTable([['table', 'before: rows hash', 'after: rows hash', 'same'],
    ...[...before].map(([table, value]) => [table, value, after.get(table)!, value === after.get(table) ? 'yes' : 'NO'])]);
}
for (const a of arms) {
  a.db.close();
  if (!values.keep) for (const suffix of ['', '-wal', '-shm']) rmSync(a.path + suffix, { force: true });
}
