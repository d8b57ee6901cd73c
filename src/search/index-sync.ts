// Keeps the search indexes in step with chunks and law units. Triggers (schema/corpus.sql) queue every chunk and law
// unit written or deleted; syncSearchIndex drains the queues after each import (Importer.finish), so an import pays
// for what it changed, and a re-imported decision (new chunk ids) leaves no stale rows behind. The decision vectors
// of semantic search follow in the same call (src/search/vector-sync.ts), fed by the tokens the drain produces.
import type Database from 'better-sqlite3';
import { loadEmbeddingsConfig, type EmbeddingsConfig } from '../config.ts';
import { sql } from '../db/statements.ts';
import { analyzedText, tokenize, type Token } from './analyze.ts';
import { beginVectorSync, type VectorSync } from './vector-sync.ts';

/**
 * Bumped when the analysis changes or the indexes gain a part: a corpus indexed by an older version is re-indexed
 * when opened for writing. 2: decision vectors (semantic search). 3: decisions_fts (keyword ranking per decision).
 * 4: the passage index chunks_fts dropped (no query read it since 3; it doubled the indexing work of an import).
 */
export const SEARCH_INDEX_VERSION = 4;
const BATCH = 2_000;
/** Only long words can be compounds worth finding by their last part. */
const COMPOUND_MIN = 7;

/** Sections whose text outranks the reasons (the `lead` column). */
const LEAD_SECTIONS = new Set(['Leitsatz', 'Orientierungssatz', 'Tenor']);

interface QueuedChunk {
  chunk_id: number; indexed: number; decision_id: string | null; text: string | null; section: string | null; position: number | null;
  title: string | null;
}
interface QueuedUnit {
  unit_rowid: number; indexed: number; kind: string | null; number: string | null; heading: string | null; text: string | null;
  breadcrumb: string | null; abbreviation: string | null; law_title: string | null;
}

const reversed = (word: string) => [...word].reverse().join('');

/** The tokens of a text, remembering its long words for the compound lookup (src/search/query.ts). */
function indexTokens(text: string | null, words: Map<string, string>): Token[] {
  if (!text) return [];
  const tokens = tokenize(text);
  for (const token of tokens) {
    if (token.word.length >= COMPOUND_MIN && !words.has(token.word) && !/\d/u.test(token.word)) words.set(token.word, token.stem);
  }
  return tokens;
}

/** The text as indexed: stems separated by spaces. */
const stems = (tokens: Token[]) => tokens.map((token) => token.stem).join(' ');
const indexText = (text: string | null, words: Map<string, string>) => stems(indexTokens(text, words));

function flushWords(db: Database.Database, words: Map<string, string>): void {
  const insert = sql(db, 'INSERT OR IGNORE INTO search_words (rev, stem) VALUES (?, ?)');
  for (const [word, stem] of words) insert.run(reversed(word), stem);
  words.clear();
}

/** A decision's row of decisions_fts as the drain gathers it from its chunks. */
interface DecisionDoc { id: string; chunks: number; title: string; lead: string[]; body: string[] }

/**
 * Writes a decision's row of decisions_fts (replacing the one it had). When the drain did not see all of its chunks
 * (only some were re-indexed), the row is made from all of them as stored.
 */
function writeDecisionDoc(db: Database.Database, doc: DecisionDoc): void {
  const stored = sql<[string], { n: number }>(db, 'SELECT count(*) AS n FROM chunks WHERE decision_id = ?').get(doc.id)!.n;
  if (stored !== doc.chunks) {
    const title = sql<[string], { title: string | null }>(db, 'SELECT title FROM decisions WHERE id = ?').get(doc.id)?.title ?? null;
    doc = { id: doc.id, chunks: stored, title: analyzedText(title ?? ''), lead: [], body: [] };
    for (const chunk of sql<[string], { text: string; section: string | null }>(db,
      'SELECT text, section FROM chunks WHERE decision_id = ? ORDER BY position').all(doc.id)) {
      (LEAD_SECTIONS.has(chunk.section ?? '') ? doc.lead : doc.body).push(analyzedText(chunk.text));
    }
  }
  if (stored === 0) {
    sql(db, 'DELETE FROM search_docs WHERE decision_id = ?').run(doc.id);
    return;
  }
  const held = sql<[string], { doc_id: number }>(db, 'SELECT doc_id FROM search_docs WHERE decision_id = ?').get(doc.id);
  let docId: number | bigint;
  if (held) {
    docId = held.doc_id;
    sql(db, 'DELETE FROM decisions_fts WHERE rowid = ?').run(docId);
  } else {
    docId = sql(db, 'INSERT INTO search_docs (decision_id) VALUES (?)').run(doc.id).lastInsertRowid;
  }
  sql(db, 'INSERT INTO decisions_fts (rowid, title, lead, body) VALUES (?, ?, ?, ?)')
    .run(docId, doc.title, doc.lead.join(' '), doc.body.join(' '));
}

function drainChunks(db: Database.Database, words: Map<string, string>, vectors: VectorSync): number {
  let done = 0;
  let removed = false;
  let doc = null as DecisionDoc | null;
  const dequeue = sql(db, 'DELETE FROM search_chunk_queue WHERE chunk_id <= ?');
  for (;;) {
    const rows = sql<[number], QueuedChunk>(db, `
      SELECT q.chunk_id, q.indexed, c.decision_id, c.text, c.section, c.position, d.title FROM search_chunk_queue q
      LEFT JOIN chunks c ON c.id = q.chunk_id LEFT JOIN decisions d ON d.id = c.decision_id
      ORDER BY q.chunk_id LIMIT ?`).all(BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      removed ||= row.indexed === 1;
      if (row.text === null) continue;
      const title = row.position === 0 && row.title ? tokenize(row.title) : [];
      const tokens = indexTokens(row.text, words);
      const text = stems(tokens);
      const lead = LEAD_SECTIONS.has(row.section ?? '');
      vectors.chunk({ decisionId: row.decision_id!, section: row.section, title, tokens });
      if (doc?.id !== row.decision_id) {
        if (doc) writeDecisionDoc(db, doc);
        doc = { id: row.decision_id!, chunks: 0, title: '', lead: [], body: [] };
      }
      doc.chunks++;
      if (title.length > 0) doc.title = stems(title);
      (lead ? doc.lead : doc.body).push(text);
      done++;
    }
    dequeue.run(rows.at(-1)!.chunk_id);
    flushWords(db, words);
  }
  if (doc) writeDecisionDoc(db, doc);
  // Passages deleted without new ones (a decision kept without chunks) leave no decision row behind.
  if (removed) {
    db.exec(`DELETE FROM search_docs WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.decision_id = search_docs.decision_id)`);
  }
  return done;
}

/** '§ 573 BGB' as a law unit is cited (the title column, so a citation query finds the unit first). */
export function unitLabel(unit: { kind: string | null; number: string | null; abbreviation: string | null }): string {
  return [unit.kind, unit.number, unit.abbreviation].filter(Boolean).join(' ');
}

function drainUnits(db: Database.Database, words: Map<string, string>): number {
  let done = 0;
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
  }
}

export interface SyncOptions {
  /** The external embedder; default: read from the environment (JURALITE_EMBEDDINGS_*), as the server reads it. */
  embeddings?: EmbeddingsConfig | null;
  /** Everything is being indexed anew (rebuildSearchIndex). */
  rebuild?: boolean;
}

/**
 * Brings the search indexes in step with what imports wrote since the last call: FTS5 and the trained model's vectors
 * in one transaction; an external embedder's vectors after it, a transaction per request (docs/search.md). Throws
 * when the external embedder fails, after the FTS5 part is committed.
 *
 * @example syncSearchIndex(db) // { chunks: 412, units: 0, vectors: 50 }
 */
export function syncSearchIndex(db: Database.Database, options: SyncOptions = {}): { chunks: number; units: number; vectors: number } {
  const embeddings = options.embeddings !== undefined ? options.embeddings : loadEmbeddingsConfig(process.env);
  let vectors: VectorSync | undefined;
  const drained = db.transaction(() => {
    vectors = beginVectorSync(db, embeddings, options.rebuild ?? false);
    const words = new Map<string, string>();
    const counts = { chunks: drainChunks(db, words, vectors), units: drainUnits(db, words) };
    vectors.endOfDrain();
    return counts;
  })();
  return { ...drained, vectors: vectors!.fillMissing() };
}

/** Records the search index version this code writes. */
function recordSearchIndexVersion(db: Database.Database): void {
  sql(db, `INSERT INTO meta (key, value) VALUES ('search_index_version', ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(String(SEARCH_INDEX_VERSION));
}

/**
 * Brings a search index of an older version up to this one: version 3 only loses its passage index (the analysis is
 * the same), any older one is indexed anew.
 */
export function upgradeSearchIndex(db: Database.Database, from: string | undefined): void {
  if (from === '3') {
    db.transaction(() => {
      db.exec('DROP TABLE IF EXISTS chunks_fts');
      recordSearchIndexVersion(db);
    })();
  } else {
    rebuildSearchIndex(db);
  }
}

/** Indexes everything anew (a corpus indexed by an older analysis, or one from before search existed). */
export function rebuildSearchIndex(db: Database.Database, options: Omit<SyncOptions, 'rebuild'> = {}): void {
  db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS chunks_fts;
      DELETE FROM search_docs; INSERT INTO decisions_fts (decisions_fts) VALUES ('delete-all');
      INSERT INTO law_units_fts (law_units_fts) VALUES ('delete-all'); DELETE FROM search_words;
      DELETE FROM search_chunk_queue; DELETE FROM search_unit_queue;
      INSERT INTO search_chunk_queue (chunk_id) SELECT id FROM chunks;
      INSERT INTO search_unit_queue (unit_rowid) SELECT rowid FROM law_units;`);
  })();
  syncSearchIndex(db, { ...options, rebuild: true });
  recordSearchIndexVersion(db);
}
