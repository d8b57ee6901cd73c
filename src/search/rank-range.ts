// BM25 ranking of decisions over one range of decisions_fts row ids: the whole index in one thread, or one of two
// halves while the rank helper (src/search/rank-helper.ts) ranks the other. FTS5 computes BM25's statistics (row
// count, average length, each term's document frequency) over the whole table whatever range is read, so the scores
// of two halves are those of one query, and the best of both halves are the best of all.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';

/** BM25 weights of the decisions_fts columns: title, lead (Leitsatz, Orientierungssatz, Tenor), body. */
export const CHUNK_WEIGHTS = [4, 2.5, 1] as const;
/** Matching decisions are counted up to this number; beyond it total_available is a floor. */
export const COUNT_CAP = 10_000;

/** FTS5 BM25 of a decisions_fts row with the column weights. */
export const BM25 = `bm25(decisions_fts, ${CHUNK_WEIGHTS.join(', ')})`;

/** The filters as a condition on search_docs `s` (FilterSql.whereOnDocs) with its parameters. */
export interface DocFilter { whereOnDocs: string; params: unknown[]; /** FilterSql.inThread */ inThread?: boolean }

/** The state of decisions_fts as a connection reads it: its averages record and its structure record. */
export function indexFingerprint(db: Database.Database): Buffer {
  const blocks = sql<[], { block: Buffer }>(db, 'SELECT block FROM decisions_fts_data WHERE id IN (1, 10) ORDER BY id').all();
  return Buffer.concat(blocks.map((row) => row.block));
}

/** Row ids from `from` (inclusive) to `to` (exclusive). */
export type RowRange = readonly [from: number, to: number];
export const ALL_ROWS: RowRange = [0, Number.MAX_SAFE_INTEGER];

export interface RangeRanking {
  /** The best `pool` rows of the range, best first (equal scores by row id). */
  docIds: number[];
  /**
   * Their FTS5 bm25() (negative); from the lists with phrases in half the rows or more, FTS5's less those phrases'
   * terms (under 2.2e-6 each; the order is FTS5's: top-k-lists.ts).
   */
  scores: number[];
  /** Matches in the range: exact when fewer than `pool`, else counted up to COUNT_CAP + 1. */
  matches: number;
}

/** The rows matching `expression` in `range` (joined to search_docs only when a filter needs its columns). */
export const matching = (filter: DocFilter) => (filter.whereOnDocs === ''
  ? 'FROM decisions_fts f WHERE decisions_fts MATCH ? AND f.rowid >= ? AND f.rowid < ?'
  : `FROM decisions_fts f JOIN search_docs s ON s.doc_id = f.rowid
     WHERE decisions_fts MATCH ? AND f.rowid >= ? AND f.rowid < ?${filter.whereOnDocs}`);

/**
 * Ranks the rows of `range` matching `expression` with `filter`; counts them when the pool is full. Equal scores go
 * by row id, so pools of different depth agree on their common part (the pages of a query never overlap).
 */
export function rankRange(db: Database.Database, expression: string, filter: DocFilter, range: RowRange, pool: number): RangeRanking {
  const from = matching(filter);
  const rows = sql<unknown[], { doc_id: number; score: number }>(db,
    `SELECT f.rowid AS doc_id, ${BM25} AS score ${from} ORDER BY score, f.rowid LIMIT +?`)
    .all(expression, ...range, ...filter.params, pool);
  const matches = rows.length < pool ? rows.length
    : sql<unknown[], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 ${from} LIMIT +?)`)
      .get(expression, ...range, ...filter.params, COUNT_CAP + 1)!.n;
  return { docIds: rows.map((row) => row.doc_id), scores: rows.map((row) => row.score), matches };
}

/** The best `pool` of two rankings of disjoint ranges, and their matches together. */
export function mergeRankings(a: RangeRanking, b: RangeRanking, pool: number): RangeRanking {
  const merged: RangeRanking = { docIds: [], scores: [], matches: a.matches + b.matches };
  let i = 0;
  let k = 0;
  while (merged.docIds.length < pool && (i < a.docIds.length || k < b.docIds.length)) {
    const fromA = k >= b.docIds.length
      || (i < a.docIds.length && (a.scores[i] < b.scores[k] || (a.scores[i] === b.scores[k] && a.docIds[i] < b.docIds[k])));
    if (fromA) {
      merged.docIds.push(a.docIds[i]);
      merged.scores.push(a.scores[i++]);
    } else {
      merged.docIds.push(b.docIds[k]);
      merged.scores.push(b.scores[k++]);
    }
  }
  return merged;
}

/** A row and its FTS5 bm25() (negative: best first). */
export interface Scored { doc_id: number; score: number }

/** Best first as FTS5 orders them: score (negative), then row id. */
export function byScore(a: Scored, b: Scored): number {
  return a.score - b.score || a.doc_id - b.doc_id;
}

/**
 * One walk of the expression: every match counted, the rows of `ids` scored (FTS5's bm25(), negative). FTS5 computes
 * bm25() only where the CASE asks for it, its statistics (the same for every row) once per statement. bm25() must be
 * called in the walk itself, not inside an aggregate: the LIMIT keeps SQLite from flattening the walk into the count.
 */
export function countAndScore(db: Database.Database, expression: string, filter: DocFilter, ids: number[]): { n: number; scored: Scored[] } {
  const walk = sql<unknown[], { n: number; scored: string }>(db, `SELECT count(*) AS n,
      json_group_array(json_array(doc_id, score)) FILTER (WHERE score IS NOT NULL) AS scored
    FROM (SELECT f.rowid AS doc_id, CASE WHEN f.rowid IN (SELECT value FROM json_each(?)) THEN ${BM25} END AS score ${matching(filter)} LIMIT -1)`)
    .get(JSON.stringify(ids), expression, ...ALL_ROWS, ...filter.params)!;
  return { n: walk.n, scored: (JSON.parse(walk.scored) as [number, number][]).map(([doc_id, score]) => ({ doc_id, score })) };
}
