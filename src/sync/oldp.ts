// Open Legal Data dumps (cases.jsonl.gz, laws.jsonl.gz), by URL or file: fetched conditionally, then imported by the
// importer (batches of documents, each unchanged document skipped by its hash), and recorded in the manifest once the
// whole dump is in. A run killed mid-dump imports it again; what was written is then skipped.
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { CorpusDb } from '../corpus/open.ts';
import { importPaths } from '../ingest/import-paths.ts';
import { message } from '../ingest/parse-document.ts';
import type { PoliteFetcher } from './fetcher.ts';
import { manifestOf, recordFetched } from './manifest.ts';
import type { SourceSummary, SyncSummary } from './run.ts';

const isUrl = (dump: string) => /^https?:\/\//iu.test(dump);

/** SHA-256 of a file, read as a stream (dumps run to gigabytes). */
async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function syncDumps(db: CorpusDb, dumps: string[], fetcher: PoliteFetcher, counts: SourceSummary,
  failed: SyncSummary['failed'], dryRun: boolean): Promise<void> {
  if (dumps.length === 0) throw new Error('the oldp source needs the dumps to read: juralite sync --source oldp URL|FILE...');
  counts.listed = dumps.length;
  const held = manifestOf(db, 'oldp');
  if (dryRun) {
    counts.would_request = dumps.filter(isUrl).length;
    return;
  }
  for (const dump of dumps) {
    const key = isUrl(dump) ? dump : `file://${resolve(dump)}`;
    const row = held.get(key);
    counts.requested++;
    const dir = mkdtempSync(join(tmpdir(), 'juralite-sync-'));
    try {
      let file = dump;
      let validators = { etag: null as string | null, lastModified: null as string | null };
      if (isUrl(dump)) {
        file = join(dir, basename(new URL(dump).pathname) || 'dump.jsonl.gz');
        const answer = await fetcher.download(dump, file, row ? { etag: row.etag, lastModified: row.last_modified } : {});
        if (answer.status === 'unchanged') {
          counts.unchanged++;
          continue;
        }
        validators = { etag: answer.etag, lastModified: answer.lastModified };
      }
      const hash = await fileHash(file);
      if (row?.content_hash === hash) {
        counts.unchanged++;
        continue;
      }
      const summary = await importPaths(db, [file]);
      for (const failure of summary.failed) failed.push({ item: `${dump}: ${failure.path}`, reason: failure.reason });
      if (summary.failed.length > 0) {
        counts.failed++;
        continue;
      }
      counts[summary.imported > 0 ? 'imported' : summary.updated > 0 ? 'updated' : 'unchanged']++;
      db.transaction(() => recordFetched(db, {
        url: key, source: 'oldp', etag: validators.etag, last_modified: validators.lastModified, modified: null,
        content_hash: hash, documents: '[]', imported_at: new Date().toISOString(),
      }))();
    } catch (error) {
      counts.failed++;
      failed.push({ item: dump, reason: message(error) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
