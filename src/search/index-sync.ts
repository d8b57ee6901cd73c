// Keeps the search indexes in step with chunks and law units. Triggers (schema/corpus.sql) queue every chunk and law
// unit written or deleted; the queues are drained after each import (Importer.finish), so an import pays for what it
// changed, and a re-imported decision (new chunk ids) leaves no stale rows behind. The analysis of the chunks
// (src/search/chunk-analysis.ts) runs in this thread (syncSearchIndex) or in the importer's worker threads
// (syncSearchIndexThreaded); this module writes what it finds. The decision vectors of semantic search follow in the
// same call (src/search/vector-sync.ts), pooled by the same analysis.
import type Database from 'better-sqlite3';
import { loadEmbeddingsConfig, type EmbeddingsConfig } from '../config.ts';
import { sql } from '../db/statements.ts';
import { ChunkTextReader, chunkTexts } from '../corpus/stored-text.ts';
import { analyzedText, tokenize } from './analyze.ts';
import {
  analyzeChunks, noteLongWords, shareModel, stems, type AnalysisTask, type AnalyzedDecision, type ChunkAnalysis, type ChunkText,
} from './chunk-analysis.ts';
import { fieldOf } from './corpus-model.ts';
import { ensureImpactTables, keepImpactLists, noteChangedRow, sealImpactLists } from './impact-lists.ts';
import { beginVectorSync, type VectorSync } from './vector-sync.ts';
import { timed, timedAsync } from '../ingest/import-profile.ts';

/** Worker threads that analyse chunks (the importer's, src/ingest/prepare-pool.ts). */
export interface AnalysisThreads {
  count: number;
  analyze(task: AnalysisTask): Promise<ChunkAnalysis>;
}

/**
 * Bumped when the analysis changes or the indexes gain a part: a corpus indexed by an older version is re-indexed
 * when opened for writing. 2: decision vectors (semantic search). 3: decisions_fts (keyword ranking per decision).
 * 4: the passage index chunks_fts dropped (no query read it since 3; it doubled the indexing work of an import).
 * 5: search_docs repeats the decision columns that filters read.
 */
export const SEARCH_INDEX_VERSION = 6;
/** The decision columns search_docs repeats for the filters (schema/corpus.sql). */
const FILTER_COLUMNS = ['court', 'date', 'document_kind'] as const;
/** Queue rows read at a time (a batch of chunks ends with whole decisions, see queuedChunkBatches). */
const BATCH = 2_000;
/** Batches out with worker threads at a time, per thread: one being analysed, one waiting. */
const BATCHES_AHEAD_PER_THREAD = 2;
/**
 * New index data FTS5 buffers before it writes a segment (its 'hashsize', default 1 MB, kept in the table's config):
 * fewer and larger segments are merged less often (the drain of a 100k import: 48-49 s -> 42-46 s).
 */
const FTS_BUFFER_BYTES = 64 * 1024 * 1024;

function bufferFtsWrites(db: Database.Database): void {
  // A literal: FTS5 refuses the value as a bound parameter.
  for (const table of ['decisions_fts', 'law_units_fts']) db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${FTS_BUFFER_BYTES})`);
}

/** The decision columns search_docs repeats for the filters, as the queue read finds them. */
interface DocFilters { court: string; date: string | null; document_kind: string | null }

interface QueuedChunk {
  chunk_id: number; indexed: number; decision_id: string | null; start_offset: number | null; end_offset: number | null;
  section: string | null; position: number | null;
  title: string | null; identifiers: string | null; court: string | null; date: string | null; document_kind: string | null;
}
interface QueuedUnit {
  unit_rowid: number; indexed: number; kind: string | null; number: string | null; heading: string | null; text: string | null;
  breadcrumb: string | null; abbreviation: string | null; law_title: string | null;
}

const reversed = (word: string) => [...word].reverse().join('');

/** A text's stems, its long words noted in `words`. */
function indexText(text: string | null, words: Map<string, string>): string {
  if (!text) return '';
  const tokens = tokenize(text);
  noteLongWords(tokens, words);
  return stems(tokens);
}

function flushWords(db: Database.Database, words: Iterable<[string, string]>): void {
  const insert = sql(db, 'INSERT OR IGNORE INTO search_words (rev, stem) VALUES (?, ?)');
  for (const [word, stem] of words) insert.run(reversed(word), stem);
}

/**
 * Writes a decision's row of decisions_fts (replacing the one it had); `stored`: the chunks it has. When the analysis
 * did not see them all (only some were re-indexed), the row is made from all of them as stored.
 */
/**
 * A decision's own Aktenzeichen and ECLI (`d` names the decision): its title column indexes them beside the title
 * (search version 6), so a decision is found by its identifiers in every mode, weighted as its title.
 */
const OWN_IDENTIFIERS = `concat_ws(' ',
  (SELECT group_concat(f.aktenzeichen, ' ') FROM decision_file_numbers f WHERE f.decision_id = d.id), d.ecli)`;

function writeDecisionDoc(db: Database.Database, doc: AnalyzedDecision, stored: number, filters: DocFilters): void {
  if (stored === 0) {
    sql(db, 'DELETE FROM search_docs WHERE decision_id = ?').run(doc.id);
    return;
  }
  if (stored !== doc.chunks) {
    const title = sql<[string], { title: string | null }>(db, `SELECT concat_ws(' ', d.title, ${OWN_IDENTIFIERS}) AS title
      FROM decisions d WHERE d.id = ?`).get(doc.id)?.title ?? null;
    const lead: string[] = [];
    const body: string[] = [];
    for (const chunk of chunkTexts(db, doc.id)) {
      (fieldOf(chunk.section) === 'lead' ? lead : body).push(analyzedText(chunk.text));
    }
    doc = { ...doc, title: analyzedText(title), lead: lead.join(' '), body: body.join(' ') };
  }
  const held = sql<[string], { doc_id: number }>(db, 'SELECT doc_id FROM search_docs WHERE decision_id = ?').get(doc.id);
  let docId: number | bigint;
  if (held) {
    docId = held.doc_id;
    sql(db, 'DELETE FROM decisions_fts WHERE rowid = ?').run(docId);
  } else {
    docId = sql(db, 'INSERT INTO search_docs (decision_id, court, date, document_kind) VALUES (@id, @court, @date, @document_kind)')
      .run({ id: doc.id, ...filters }).lastInsertRowid;
  }
  sql(db, 'INSERT INTO decisions_fts (rowid, title, lead, body) VALUES (?, ?, ?, ?)').run(docId, doc.title, doc.lead, doc.body);
  noteChangedRow(db, docId);
}

/**
 * Queued chunks read at a time: those still stored, as their analysis needs them, the filter columns of their
 * decisions, and the last queue id read.
 */
interface ChunkBatch { chunks: ChunkText[]; filters: Map<string, DocFilters>; last: number; removed: boolean }

/**
 * The chunk queue in batches of whole decisions (a decision's vector pools all its chunks): a full page of the queue
 * ends before its last decision, which opens the next batch, unless that decision fills the page alone. The table
 * row_chunks, not the view chunks: a view that joins, on the right of a LEFT JOIN, is built whole (every chunk of the
 * corpus) for each page.
 */
function* queuedChunkBatches(db: Database.Database, size: number): Generator<ChunkBatch> {
  let after = 0;
  const texts = new ChunkTextReader(db);
  for (;;) {
    const rows = sql<[number, number], QueuedChunk>(db, `
      SELECT q.chunk_id, q.indexed, r.id AS decision_id, c.start_offset, c.end_offset, c.section, c.position,
        d.title, CASE WHEN c.position = 0 THEN ${OWN_IDENTIFIERS} END AS identifiers, d.court, d.date, d.document_kind
      FROM search_chunk_queue q
      LEFT JOIN row_chunks c ON c.id = q.chunk_id LEFT JOIN decision_rows r ON r.row = c.decision_row
      LEFT JOIN decisions d ON d.id = r.id
      WHERE q.chunk_id > ? ORDER BY q.chunk_id LIMIT ?`).all(after, size);
    if (rows.length === 0) return;
    let end = rows.length;
    if (rows.length === size) {
      const last = rows[end - 1].decision_id;
      while (end > 0 && rows[end - 1].decision_id === last) end--;
      if (end === 0) end = rows.length;
    }
    const batch: ChunkBatch = { chunks: [], filters: new Map(), last: rows[end - 1].chunk_id, removed: false };
    for (const row of rows.slice(0, end)) {
      batch.removed ||= row.indexed === 1;
      if (row.decision_id === null) continue;
      batch.filters.set(row.decision_id, { court: row.court!, date: row.date, document_kind: row.document_kind });
      const text = texts.text(row.decision_id, row.start_offset!, row.end_offset!);
      batch.chunks.push({ decision: row.decision_id, section: row.section, text,
        title: row.position === 0 ? row.title : null, identifiers: row.identifiers });
    }
    after = batch.last;
    yield batch;
  }
}

/** Writes what the analysis of a batch found, and takes the batch off the queue. Returns the chunks indexed. */
function writeChunkBatch(db: Database.Database, batch: ChunkBatch, analysis: ChunkAnalysis, vectors: VectorSync): number {
  const chunkCount = sql<[string], { n: number }>(db, 'SELECT count(*) AS n FROM chunks WHERE decision_id = ?');
  for (const doc of analysis.decisions) {
    const stored = chunkCount.get(doc.id)!.n;
    writeDecisionDoc(db, doc, stored, batch.filters.get(doc.id)!);
    vectors.decision(doc.id, doc.vector, stored === doc.chunks);
  }
  flushWords(db, analysis.words);
  sql(db, 'DELETE FROM search_chunk_queue WHERE chunk_id <= ?').run(batch.last);
  return batch.chunks.length;
}

/** Passages deleted without new ones (a decision kept without chunks) leave no decision row behind. */
function dropDocsWithoutChunks(db: Database.Database): void {
  db.exec(`DELETE FROM search_docs WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.decision_id = search_docs.decision_id)`);
}

function drainChunks(db: Database.Database, vectors: VectorSync, size: number): number {
  let done = 0;
  let removed = false;
  for (const batch of queuedChunkBatches(db, size)) {
    removed ||= batch.removed;
    done += writeChunkBatch(db, batch, analyzeChunks(batch.chunks, vectors.model), vectors);
  }
  if (removed) dropDocsWithoutChunks(db);
  return done;
}

/** drainChunks with the analysis in worker threads: a few batches ahead, written in queue order. */
async function drainChunksThreaded(db: Database.Database, vectors: VectorSync, threads: AnalysisThreads, size: number): Promise<number> {
  const model = vectors.model && shareModel(vectors.model);
  const batches = queuedChunkBatches(db, size);
  const out: { batch: ChunkBatch; analysis: Promise<ChunkAnalysis> }[] = [];
  let done = 0;
  let removed = false;
  for (;;) {
    while (out.length < threads.count * BATCHES_AHEAD_PER_THREAD) {
      const next = timed('search: read queued chunks', () => batches.next());
      if (next.done) break;
      const analysis = threads.analyze({ chunks: next.value.chunks, model });
      // Awaited in turn below; one still out when an earlier one failed must not end the process as unhandled.
      analysis.catch(() => {});
      out.push({ batch: next.value, analysis });
    }
    const first = out.shift();
    if (!first) break;
    removed ||= first.batch.removed;
    const analysis = await timedAsync('search: analysis (waited for)', first.analysis);
    done += timed('search: write rows and vectors', () => writeChunkBatch(db, first.batch, analysis, vectors));
  }
  if (removed) dropDocsWithoutChunks(db);
  return done;
}

/** '§ 573 BGB' as a law unit is cited (the title column, so a citation query finds the unit first). */
export function unitLabel(unit: { kind: string | null; number: string | null; abbreviation: string | null }): string {
  return [unit.kind, unit.number, unit.abbreviation].filter(Boolean).join(' ');
}

function drainUnits(db: Database.Database): number {
  let done = 0;
  const words = new Map<string, string>();
  const remove = sql(db, 'DELETE FROM law_units_fts WHERE rowid = ?');
  const insert = sql(db, 'INSERT INTO law_units_fts (rowid, title, heading, body) VALUES (?, ?, ?, ?)');
  const dequeue = sql(db, 'DELETE FROM search_unit_queue WHERE unit_rowid <= ?');
  for (;;) {
    const rows = sql<[number], QueuedUnit>(db, `
      SELECT q.unit_rowid, q.indexed, u.kind, u.number, u.heading, u.text, u.breadcrumb, l.abbreviation, l.title AS law_title
      FROM search_unit_queue q LEFT JOIN law_units u ON u.rowid = q.unit_rowid LEFT JOIN laws l ON l.id = u.law_id
      ORDER BY q.unit_rowid LIMIT ?`).all(BATCH);
    if (rows.length === 0) return done;
    for (const row of rows) {
      if (row.indexed) remove.run(row.unit_rowid);
      if (row.kind === null) continue;
      insert.run(row.unit_rowid, analyzedText(`${unitLabel(row)} ${row.law_title ?? ''}`),
        indexText(row.heading, words), indexText(row.text, words));
      done++;
    }
    dequeue.run(rows.at(-1)!.unit_rowid);
    flushWords(db, words);
    words.clear();
  }
}

export interface SyncOptions {
  /** The external embedder; default: read from the environment (JURALITE_EMBEDDINGS_*), as the server reads it. */
  embeddings?: EmbeddingsConfig | null;
  /** Everything is being indexed anew (rebuildSearchIndex). */
  rebuild?: boolean;
  /** An import's own index pass (Importer.finish), as opposed to completing what a killed import left. */
  byImport?: boolean;
  /** Chunk queue rows analysed per batch (default 2,000; a decision's chunks stay together unless it fills a batch alone). */
  batchChunks?: number;
}

type SyncCounts = { chunks: number; units: number; vectors: number };

/**
 * Brings the search indexes in step with what imports wrote since the last call: FTS5 and the trained model's vectors
 * in one transaction; an external embedder's vectors after it, a transaction per request (docs/search.md). Throws
 * when the external embedder fails, after the FTS5 part is committed.
 *
 * @example syncSearchIndex(db) // { chunks: 412, units: 0, vectors: 50 }
 */
export function syncSearchIndex(db: Database.Database, options: SyncOptions = {}): SyncCounts {
  let vectors: VectorSync | undefined;
  const drained = db.transaction(() => {
    bufferFtsWrites(db);
    ensureImpactTables(db);
    vectors = timed('search: vector model', () => beginVectorSync(db, embeddingsOf(options), options.rebuild ?? false, options.byImport ?? false));
    const counts = { chunks: timed('search: chunks', () => drainChunks(db, vectors!, options.batchChunks ?? BATCH)),
      units: timed('search: law units', () => drainUnits(db)) };
    timed('search: merge segments', () => mergeSegmentsAfterLargeDrain(db, counts));
    timed('search: impact lists', () => keepImpactLists(db));
    vectors.endOfDrain();
    return counts;
  })();
  timed('search: seal impact lists', () => sealImpactLists(db));
  return { ...drained, vectors: timed('search: vectors missing', () => vectors!.fillMissing()) };
}

/**
 * syncSearchIndex with the chunks analysed in worker threads (the end of a large import, whose threads are idle by
 * then). The transaction spans the awaits: nothing else writes through this connection meanwhile (the importer owns
 * it), and a failure rolls it all back.
 */
export async function syncSearchIndexThreaded(db: Database.Database, threads: AnalysisThreads, options: SyncOptions = {}): Promise<SyncCounts> {
  db.exec('BEGIN IMMEDIATE');
  let vectors: VectorSync;
  let drained: { chunks: number; units: number };
  try {
    bufferFtsWrites(db);
    ensureImpactTables(db);
    vectors = timed('search: vector model', () => beginVectorSync(db, embeddingsOf(options), options.rebuild ?? false, options.byImport ?? false));
    drained = { chunks: await drainChunksThreaded(db, vectors, threads, options.batchChunks ?? BATCH),
      units: timed('search: law units', () => drainUnits(db)) };
    timed('search: merge segments', () => mergeSegmentsAfterLargeDrain(db, drained));
    timed('search: impact lists', () => keepImpactLists(db));
    vectors.endOfDrain();
    timed('search: commit', () => db.exec('COMMIT'));
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  timed('search: seal impact lists', () => sealImpactLists(db));
  return { ...drained, vectors: timed('search: vectors missing', () => vectors.fillMissing()) };
}

/**
 * Merges each FTS5 index into one segment after a drain that wrote at least a quarter of its rows (a first import, a
 * rebuild): a query then reads a term's doclist from one segment instead of a dozen (at 100k decisions the BM25
 * ranking takes ~10% less, a keyword answer ~4%, bench/README), for 4 s against the drain's 45 s. Smaller drains
 * leave the merging to FTS5's automerge, which bounds the segments without rewriting the whole index each time.
 */
function mergeSegmentsAfterLargeDrain(db: Database.Database, drained: { chunks: number; units: number }): void {
  const indexes = [['decisions_fts', drained.chunks, 'chunks'], ['law_units_fts', drained.units, 'law_units']] as const;
  for (const [index, written, source] of indexes) {
    if (written === 0) continue;
    const rows = sql<[], { n: number }>(db, `SELECT count(*) AS n FROM ${source}`).get()!.n;
    if (written * 4 >= rows) db.exec(`INSERT INTO ${index} (${index}) VALUES ('optimize')`);
  }
}

const embeddingsOf = (options: SyncOptions) => (options.embeddings !== undefined ? options.embeddings : loadEmbeddingsConfig(process.env));

/**
 * True when the corpus holds a search index of this version (a file opened read-only before it was ever indexed, or
 * last indexed by an older juralite, has none).
 */
export function hasSearchIndex(db: Database.Database): boolean {
  return sql<[], { version: string }>(db, `SELECT value AS version FROM meta WHERE key = 'search_index_version'`).get()?.version
    === String(SEARCH_INDEX_VERSION);
}

/** Records the search index version this code writes. */
function recordSearchIndexVersion(db: Database.Database): void {
  sql(db, `INSERT INTO meta (key, value) VALUES ('search_index_version', ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(String(SEARCH_INDEX_VERSION));
}

/**
 * Gives search_docs of a search index older than 5 its filter columns (empty; upgradeSearchIndex fills them). Runs
 * before the schema, whose trigger keeping them in step names them.
 */
export function addSearchDocFilterColumns(db: Database.Database): void {
  const columns = new Set((db.pragma('table_info(search_docs)') as { name: string }[]).map((column) => column.name));
  if (columns.size === 0) return;
  for (const column of FILTER_COLUMNS) if (!columns.has(column)) db.exec(`ALTER TABLE search_docs ADD COLUMN ${column} TEXT`);
}

/**
 * Brings a search index of an older version up to this one: indexed anew. (Versions 3 and 4 were brought to 5 without
 * re-indexing; version 6 indexes each decision's own Aktenzeichen and ECLI in its title column, which needs every
 * decision's row written again.)
 */
export function upgradeSearchIndex(db: Database.Database, _from: string | undefined): void {
  rebuildSearchIndex(db);
}

/** Queues every chunk and law unit for indexing, the indexes emptied (what a rebuild then drains). */
export function queueEverything(db: Database.Database): void {
  db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS chunks_fts;
      DELETE FROM search_docs; INSERT INTO decisions_fts (decisions_fts) VALUES ('delete-all');
      INSERT INTO law_units_fts (law_units_fts) VALUES ('delete-all'); DELETE FROM search_words;
      DELETE FROM search_chunk_queue; DELETE FROM search_unit_queue;
      INSERT INTO search_chunk_queue (chunk_id) SELECT id FROM row_chunks;
      INSERT INTO search_unit_queue (unit_rowid) SELECT rowid FROM law_units;`);
  })();
}

/** Indexes everything anew (a corpus indexed by an older analysis, or one from before search existed). */
export function rebuildSearchIndex(db: Database.Database, options: Omit<SyncOptions, 'rebuild'> = {}): void {
  queueEverything(db);
  syncSearchIndex(db, { ...options, rebuild: true });
  recordSearchIndexVersion(db);
}
