// The sync manifest (schema/corpus.sql, sync_manifest): what was fetched from where, with the validators of the
// answer and the hash of its bytes. A row is written in the transaction that writes the documents it held.
import type { CorpusDb } from '../corpus/open.ts';
import { sql } from '../db/statements.ts';

export type SyncSource = 'gii' | 'rii' | 'oldp';

export interface ManifestRow {
  url: string;
  source: SyncSource;
  etag: string | null;
  last_modified: string | null;
  modified: string | null;
  content_hash: string;
  documents: string;
  imported_at: string;
}

/** Every row of a source, by URL (one read at the start of a run: 84,000 rii items are a few MB). */
export function manifestOf(db: CorpusDb, source: SyncSource): Map<string, ManifestRow> {
  const rows = sql<[string], ManifestRow>(db, 'SELECT * FROM sync_manifest WHERE source = ?').all(source);
  return new Map(rows.map((row) => [row.url, row]));
}

/** Inserts or replaces a row. Call inside the transaction that wrote the documents. */
export function recordFetched(db: CorpusDb, row: ManifestRow): void {
  sql(db, `INSERT INTO sync_manifest (url, source, etag, last_modified, modified, content_hash, documents, imported_at)
    VALUES (@url, @source, @etag, @last_modified, @modified, @content_hash, @documents, @imported_at)
    ON CONFLICT(url) DO UPDATE SET source = excluded.source, etag = excluded.etag, last_modified = excluded.last_modified,
      modified = excluded.modified, content_hash = excluded.content_hash, documents = excluded.documents,
      imported_at = excluded.imported_at`).run(row);
}
