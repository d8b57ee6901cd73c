/**
 * Import rate of generated decisions (issue [corpus]: >= 300 decisions/s at 100k on a 2-core machine), threaded
 * against inline in the same run. Each mode imports into a fresh corpus file.
 *
 *   node bench/generate.ts --count 100000 --out .tmp/gen-100k
 *   node bench/import.ts --from .tmp/gen-100k [--modes threaded,inline] [--keep .tmp/bench-100k.db]
 *   node bench/import.ts --from .tmp/gen-extra-10k --onto .tmp/bench-100k.db --modes threaded
 *
 * Prints wall time, decisions/s, the final step's time (after the last document is written: pending edges resolved,
 * search indexes and vectors), the main thread's CPU time (what the threads relieve) and the whole process's.
 * `--keep PATH` keeps the threaded corpus at PATH for the other benchmarks. `--onto CORPUS` imports into a copy of
 * CORPUS instead of an empty corpus: the rate at scale in a minute rather than the eight a 100k import takes (the
 * decisions must be new to it: the last 10,000 of `generate.ts --count 110000`).
 */
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openCorpus } from '../src/corpus/open.ts';
import { importPaths } from '../src/ingest/import-paths.ts';
import { defaultImportWorkers } from '../src/ingest/prepare-pool.ts';
import { printTable } from './lib.ts';

const { values } = parseArgs({ options: {
  from: { type: 'string' }, modes: { type: 'string', default: 'threaded,inline' }, keep: { type: 'string' },
  onto: { type: 'string' },
} });
if (!values.from || !existsSync(values.from) || (values.onto && !existsSync(values.onto))) {
  console.error('usage: node bench/import.ts --from FOLDER_OF_GENERATED_DECISIONS [--modes threaded,inline] [--keep PATH] [--onto CORPUS]');
  process.exit(2);
}

const MODES: Record<string, number> = { threaded: defaultImportWorkers(), inline: 0 };
const dir = mkdtempSync(join(values.keep ? join(values.keep, '..') : tmpdir(), 'juralite-bench-import-'));
const rows: (string | number)[][] = [['mode', 'workers', 'decisions', 'wall s', 'decisions/s', 'final step s', 'main thread cpu s', 'process cpu s', 'x inline']];
const results: { mode: string; workers: number; imported: number; wall: number; finalStep: number; main: number; process: number }[] = [];
for (const mode of values.modes.split(',')) {
  if (!(mode in MODES)) throw new Error(`unknown mode ${mode}; choose from ${Object.keys(MODES).join(', ')}`);
  const path = join(dir, `${mode}.db`);
  // The WAL too, should the corpus have one that was not checkpointed.
  for (const suffix of values.onto ? ['', '-wal'] : []) if (existsSync(values.onto + suffix)) copyFileSync(values.onto + suffix, path + suffix);
  const db = openCorpus(path);
  const started = performance.now();
  const mainBefore = process.threadCpuUsage();
  const processBefore = process.cpuUsage();
  let lastWritten = started;
  const summary = await importPaths(db, [values.from], { workers: MODES[mode], onProgress: () => { lastWritten = performance.now(); } });
  const ended = performance.now();
  const main = process.threadCpuUsage(mainBefore);
  const all = process.cpuUsage(processBefore);
  results.push({ mode, workers: MODES[mode], imported: summary.imported + summary.updated, wall: (ended - started) / 1000,
    finalStep: (ended - lastWritten) / 1000,
    main: (main.user + main.system) / 1e6, process: (all.user + all.system) / 1e6 });
  db.close();
  if (summary.failed.length) console.error(`${mode}: ${summary.failed.length} failed, e.g. ${JSON.stringify(summary.failed[0])}`);
  if (mode === 'threaded' && values.keep) renameSync(path, values.keep);
}
const inline = results.find((result) => result.mode === 'inline');
for (const r of results) {
  const rate = r.imported / r.wall;
  rows.push([r.mode, String(r.workers), String(r.imported), r.wall, rate, r.finalStep, r.main, r.process,
    inline ? (rate / (inline.imported / inline.wall)).toFixed(2) : '-']);
}
console.log(`import of ${values.from}${values.onto ? ` onto a copy of ${values.onto}` : ''}, node ${process.version}`);
printTable(rows);
rmSync(dir, { recursive: true, force: true });
