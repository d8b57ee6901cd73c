// The lexical arm: FTS5 over decision chunks, BM25 with field weights, filters joined inside the query (so a filter
// never empties a page that the unfiltered pool would have filled with other decisions).
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import type { FilterSql } from './filters.ts';

/** BM25 weights of chunks_fts columns: title, lead (Leitsatz, Orientierungssatz, Tenor), body (Tatbestand, Gründe). */
export const CHUNK_WEIGHTS = [4, 2.5, 1] as const;
/** Passages read per query: enough for 10 pages of 20 decisions in all but pathological cases. */
export const CHUNK_POOL = 1000;
/** Matching passages are counted up to this number; beyond it total_available is a floor. */
export const COUNT_CAP = 10_000;

export interface ChunkHit {
  chunk_id: number;
  decision_id: string;
  /** BM25 as FTS5 gives it: lower is better. */
  score: number;
}

export interface LexicalResult {
  hits: ChunkHit[];
  /** Matching passages (a floor when `is_floor`). */
  total: { value: number; is_floor: boolean };
  /** The pool held every matching passage. */
  exhaustive: boolean;
}

const BM25 = `bm25(chunks_fts, ${CHUNK_WEIGHTS.join(', ')})`;

/**
 * Runs the FTS5 expression over chunks with the filters; an empty expression matches nothing. Without filters, FTS5
 * ranks alone and only the pool's passages are joined to their chunks: joining every match first (to read its
 * decision id) tripled the cost of a common term at 100k decisions. With filters, the join to the decision sits inside
 * the ranking, so a filter never empties a page that other decisions would have filled.
 */
export function lexicalArm(db: Database.Database, expression: string, filters: FilterSql, pool = CHUNK_POOL): LexicalResult {
  if (expression === '') return { hits: [], total: { value: 0, is_floor: false }, exhaustive: true };
  const hits = filters.active
    ? sql<unknown[], ChunkHit>(db, `
      SELECT f.rowid AS chunk_id, c.decision_id, ${BM25} AS score
      FROM chunks_fts f JOIN chunks c ON c.id = f.rowid JOIN decisions d ON d.id = c.decision_id
      WHERE chunks_fts MATCH ?${filters.where} ORDER BY score LIMIT ?`).all(expression, ...filters.params, pool)
    : sql<unknown[], ChunkHit>(db, `
      SELECT r.chunk_id, c.decision_id, r.score FROM
        (SELECT rowid AS chunk_id, ${BM25} AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?) r
      JOIN chunks c ON c.id = r.chunk_id ORDER BY r.score`).all(expression, pool);
  if (hits.length < pool) return { hits, total: { value: hits.length, is_floor: false }, exhaustive: true };
  const { n } = filters.active
    ? sql<unknown[], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
      JOIN decisions d ON d.id = c.decision_id WHERE chunks_fts MATCH ?${filters.where} LIMIT ?)`).get(expression, ...filters.params, COUNT_CAP + 1)!
    : sql<unknown[], { n: number }>(db, 'SELECT count(*) AS n FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)')
      .get(expression, COUNT_CAP + 1)!;
  return { hits, total: { value: Math.min(n, COUNT_CAP), is_floor: n > COUNT_CAP }, exhaustive: false };
}

/** Decisions in the order of their best passage, with up to three passages each. */
export function byDecision(hits: ChunkHit[]): { decision_id: string; chunks: number[]; score: number }[] {
  const decisions = new Map<string, { decision_id: string; chunks: number[]; score: number }>();
  for (const hit of hits) {
    const held = decisions.get(hit.decision_id);
    if (!held) decisions.set(hit.decision_id, { decision_id: hit.decision_id, chunks: [hit.chunk_id], score: hit.score });
    else if (held.chunks.length < 3) held.chunks.push(hit.chunk_id);
  }
  return [...decisions.values()];
}
