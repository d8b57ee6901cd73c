/**
 * What the import's main thread spends on the worker threads' results (Session 23): documents handed to the parsing
 * threads (src/ingest/prepare-pool.ts) and their prepared decisions taken back, no corpus written; this tree's
 * ImportWorkers against an older checkout's, alternated. The main thread's CPU per document is that of posting the
 * documents and of V8's deserializer building what the threads return.
 *
 *   node bench/import-handoff.ts --before /work/base-bb32996 [--from /work/main/.tmp/gen-100k/batch-0040] [--documents 1000] [--rounds 4]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ImportWorkers } from '../src/ingest/prepare-pool.ts';
import { printTable } from './lib.ts';

const { values } = parseArgs({ options: {
  before: { type: 'string' }, from: { type: 'string', default: '/work/main/.tmp/gen-100k/batch-0040' },
  documents: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '4' },
} });
if (!values.before) {
  console.error('usage: node bench/import-handoff.ts --before DIR [--from FOLDER] [--documents N] [--rounds N]');
  process.exit(2);
}
const documents = readdirSync(values.from).filter((name) => name.endsWith('.xml')).slice(0, Number(values.documents))
  .map((name) => ({ name: join(values.from!, name), data: readFileSync(join(values.from!, name)) }));
const trees = [['before', values.before], ['after', '.']] as const;
const pools = new Map<string, typeof ImportWorkers>();
for (const [name, root] of trees) pools.set(name, (await import(pathToFileURL(resolve(root, 'src/ingest/prepare-pool.ts')).href)).ImportWorkers);

const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1];
const runs = new Map<string, { main: number[]; process: number[] }>(trees.map(([name]) => [name, { main: [], process: [] }]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name] of round % 2 === 0 ? trees : [...trees].reverse()) {
    const workers = new (pools.get(name)!)(2, 0);
    // The threads started and warmed before the clock.
    await Promise.all(documents.slice(0, 16).map((d) => {
      const parsed = workers.parse(d.name, d.data, true);
      workers.sendFor(parsed);
      return parsed;
    }));
    const main = process.threadCpuUsage();
    const all = process.cpuUsage();
    const pending = documents.map((d) => workers.parse(d.name, d.data, true));
    workers.sendFor(pending.at(-1)!);
    const decisions = (await Promise.all(pending)).flat().filter((item) => item.kind === 'decision').length;
    const mainUsed = process.threadCpuUsage(main);
    const allUsed = process.cpuUsage(all);
    await workers.close();
    if (decisions !== documents.length) throw new Error(`${name}: ${decisions} of ${documents.length} documents became decisions`);
    runs.get(name)!.main.push((mainUsed.user + mainUsed.system) / documents.length);
    runs.get(name)!.process.push((allUsed.user + allUsed.system) / documents.length);
  }
}
const before = runs.get('before')!;
printTable([['tree', 'main thread µs/document (median)', 'each round', 'process µs/document (median)', 'main after / before'],
  ...[...runs].map(([name, r]) => [name, median(r.main).toFixed(0), r.main.map((v) => v.toFixed(0)).join(' '), median(r.process).toFixed(0),
    (median(r.main) / median(before.main)).toFixed(2)])]);
