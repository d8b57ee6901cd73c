/**
 * `juralite sync` from a locally served mirror (test/sync/mirror.ts on 127.0.0.1): generated decisions as rii items
 * (one jb-*.zip each) and the laws of the GII tarball as per-law xml.zip, against `juralite import` of the same
 * documents from disk in the same run (the ratio is what the fetching, the per-item transaction and the manifest
 * cost). No pause between requests (a firm's own mirror); the official hosts get 250 ms each (docs/sync.md).
 *
 *   node bench/sync.ts [--decisions 10000] [--laws 6877] [--keep DIR]
 */
import { createReadStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { openCorpus } from '../src/corpus/open.ts';
import { importPaths } from '../src/ingest/import-paths.ts';
import { tarEntries } from '../src/ingest/tar.ts';
import { syncCorpus } from '../src/sync/run.ts';
import { generate } from './generate.ts';
import { Mirror, type MirrorDecision, type MirrorLaw } from '../test/sync/mirror.ts';
import { printTable } from './lib.ts';

const { values } = parseArgs({ options: {
  decisions: { type: 'string', default: '10000' }, laws: { type: 'string', default: '6877' }, keep: { type: 'string' },
} });
const TARBALL = new URL('../../shared/data/gii/all-laws-gii-2026-04-13.tar.gz', import.meta.url).pathname;
const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'juralite-bench-sync-'));
mkdirSync(dir, { recursive: true });
const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`, 'u').exec(xml)?.[1]?.trim() ?? '';

// 1. The documents, on disk for the import and in memory for the mirror.
const generated = join(dir, 'decisions');
rmSync(generated, { recursive: true, force: true });
generate(Number(values.decisions), generated);
const decisions: MirrorDecision[] = [];
for (const folder of readdirSync(generated).sort()) {
  for (const file of readdirSync(join(generated, folder)).sort()) {
    const xml = readFileSync(join(generated, folder, file), 'utf8');
    decisions.push({ doknr: tag(xml, 'doknr'), court: `${tag(xml, 'gertyp')} ${tag(xml, 'gerort')}`.trim(),
      date: tag(xml, 'entsch-datum'), aktenzeichen: tag(xml, 'aktenzeichen'), xml, modified: '2026-04-13T00:00:00Z' });
  }
}
const lawFolder = join(dir, 'laws');
rmSync(lawFolder, { recursive: true, force: true });
mkdirSync(lawFolder);
const laws: MirrorLaw[] = [];
const slugs = new Set<string>();
for await (const entry of tarEntries(createReadStream(TARBALL).pipe(createGunzip()))) {
  if (laws.length >= Number(values.laws)) break;
  if ('error' in entry || !entry.name.endsWith('source.xml')) continue;
  const xml = entry.data.toString('utf8');
  let slug = tag(xml, 'jurabk').toLowerCase().replace(/[^a-z0-9]+/gu, '_') || 'law';
  while (slugs.has(slug)) slug += '_';
  slugs.add(slug);
  laws.push({ slug, xml });
  writeFileSync(join(lawFolder, `${slug}.xml`), xml);
}

// 2. juralite import of the same documents (laws first, as sync does), then sync from the mirror.
const rows: (string | number)[][] = [['run', 'decisions', 'laws', 'wall s', 'items/s', 'requests', 'corpus MB', 'x import']];
const size = (path: string) => ['', '-wal'].reduce((sum, end) => sum + (statSync(path + end, { throwIfNoEntry: false })?.size ?? 0), 0) / 1e6;
const importPath = join(dir, 'import.db');
rmSync(importPath, { force: true });
let started = performance.now();
const imported = openCorpus(importPath);
await importPaths(imported, [lawFolder, generated]);
const importSeconds = (performance.now() - started) / 1000;
imported.close();
rows.push(['juralite import (disk)', String(decisions.length), String(laws.length), importSeconds.toFixed(1),
  ((decisions.length + laws.length) / importSeconds).toFixed(0), '-', size(importPath).toFixed(0), '1.00']);

const mirror = await new Mirror({ laws, decisions }).start();
const syncPath = join(dir, 'sync.db');
rmSync(syncPath, { force: true });
started = performance.now();
const synced = openCorpus(syncPath);
const summary = await syncCorpus(synced, { sources: ['gii', 'rii'], baseUrl: mirror.url, fetcher: { pauseMs: 0 } });
const syncSeconds = (performance.now() - started) / 1000;
rows.push(['juralite sync (mirror)', String(summary.sources.rii!.imported), String(summary.sources.gii!.imported), syncSeconds.toFixed(1),
  ((decisions.length + laws.length) / syncSeconds).toFixed(0), String(summary.requests), size(syncPath).toFixed(0), (syncSeconds / importSeconds).toFixed(2)]);
started = performance.now();
const again = await syncCorpus(synced, { sources: ['gii', 'rii'], baseUrl: mirror.url, fetcher: { pauseMs: 0 } });
const againSeconds = (performance.now() - started) / 1000;
rows.push(['sync again, nothing changed', String(again.sources.rii!.imported), String(again.sources.gii!.imported), againSeconds.toFixed(1),
  ((decisions.length + laws.length) / againSeconds).toFixed(0), String(again.requests), size(syncPath).toFixed(0), (againSeconds / importSeconds).toFixed(2)]);
synced.close();
await mirror.close();
printTable(rows);
if (summary.failed.length > 0) console.log(`failed: ${summary.failed.length}, first: ${JSON.stringify(summary.failed[0])}`);
if (!values.keep) rmSync(dir, { recursive: true, force: true });
