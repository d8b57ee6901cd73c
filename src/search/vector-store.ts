// Decision vectors: one per decision. The float vector (centered, unit length) lives in search_vectors and re-ranks;
// its sign bits live in the vec0 table search_vec, whose brute-force Hamming scan finds the candidates (sqlite-vec
// 0.1 has no ANN index; floats would take ~60 ms at 100k). The vec0 table carries court, branch, document kind and
// date as integer metadata, so those filters act inside the KNN scan, never after it; cited_norm narrows by rowid.
// A serving connection scans a copy of those bits in memory (bit-index.ts: the same neighbours, 20-40x faster at 500k).
// search_vec is created here, not in schema/corpus.sql: its width is the embedder's.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { BRANCHES } from '../corpus/courts.ts';
import { DOCUMENT_TYPES } from '../operations/schemas.ts';
import { citingVectors, type DecisionFilters } from './filters.ts';
import { currentBitIndex, type KnnFilter } from './bit-index.ts';
import { blobFloats, dot, floatBlob, signBits } from './vector-math.ts';

export const VEC_TABLE = 'search_vec';
const UNKNOWN_KIND = 99;

/** True when the corpus holds decision vectors (and the tables for them). */
export function hasVectors(db: Database.Database): boolean {
  const tables = sql<[], { n: number }>(db,
    `SELECT count(*) AS n FROM sqlite_master WHERE name IN ('search_vectors', '${VEC_TABLE}')`).get()!.n;
  return tables === 2 && sql(db, 'SELECT 1 FROM search_vectors LIMIT 1').get() !== undefined;
}

/**
 * The vec0 table for `dims`-dimensional vectors (bit width rounded up to whole bytes). A table of another width, or
 * none, is (re)created empty, and the float vectors go with it, so every decision is vectorized again.
 */
export function ensureVectorTable(db: Database.Database, dims: number): void {
  const bits = Math.ceil(dims / 8) * 8;
  const held = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(VEC_TABLE) as string | undefined;
  if (held?.includes(`bit[${bits}]`)) return;
  dropVectors(db);
  db.exec(`CREATE VIRTUAL TABLE ${VEC_TABLE} USING vec0(
    embedding bit[${bits}], court integer, branch integer, kind integer, day integer)`);
}

/** Removes every decision vector (a new embedder or a new training makes them all anew). */
export function dropVectors(db: Database.Database): void {
  db.exec(`DROP TABLE IF EXISTS ${VEC_TABLE}; DELETE FROM search_vectors; DELETE FROM search_vector_orphans;`);
}

interface DecisionMeta { court: string; branch: string | null; document_kind: string | null; date: string | null }

const dayOf = (date: string | null) => (date && /^\d{4}-\d{2}-\d{2}/u.test(date) ? Number(date.slice(0, 10).replaceAll('-', '')) : 0);
const kindCode = (kind: string | null) => {
  const at = (DOCUMENT_TYPES as readonly string[]).indexOf(kind ?? 'Sonstige');
  return at >= 0 ? at + 1 : UNKNOWN_KIND;
};
const branchCode = (branch: string | null) => (BRANCHES as readonly string[]).indexOf(branch ?? 'unbekannt') + 1;

function courtId(db: Database.Database, code: string): number {
  const held = sql<[string], { id: number }>(db, 'SELECT id FROM search_courts WHERE code = ?').get(code);
  if (held) return held.id;
  return Number(sql(db, 'INSERT INTO search_courts (code) VALUES (?)').run(code).lastInsertRowid);
}

/** Stores (or replaces) the vector of a decision; a null vector removes it (no word of the text is known). */
export function putDecisionVector(db: Database.Database, decisionId: string, vector: Float32Array | null): boolean {
  const held = sql<[string], { vec_id: number }>(db, 'SELECT vec_id FROM search_vectors WHERE decision_id = ?').get(decisionId);
  if (held) sql(db, `DELETE FROM ${VEC_TABLE} WHERE rowid = ?`).run(BigInt(held.vec_id));
  if (!vector) {
    if (held) sql(db, 'DELETE FROM search_vectors WHERE vec_id = ?').run(held.vec_id);
    return false;
  }
  // On the covering index of these columns: the planner would read the decision's own row, a page with its text
  // (70 against 18 microseconds a decision when the page is not cached, as for most of a large import's drain).
  const meta = sql<[string], DecisionMeta>(db, `SELECT d.court, c.branch, d.document_kind, d.date
    FROM decisions d INDEXED BY search_decision_filters LEFT JOIN courts c ON c.code = d.court WHERE d.id = ?`).get(decisionId);
  if (!meta) return false;
  let vecId: number;
  if (held) {
    sql(db, 'UPDATE search_vectors SET vector = ? WHERE vec_id = ?').run(floatBlob(vector), held.vec_id);
    vecId = held.vec_id;
  } else {
    vecId = Number(sql(db, 'INSERT INTO search_vectors (decision_id, vector) VALUES (?, ?)').run(decisionId, floatBlob(vector)).lastInsertRowid);
  }
  // sqlite-vec refuses integers bound as JavaScript numbers (they bind as REAL): BigInt.
  sql(db, `INSERT INTO ${VEC_TABLE} (rowid, embedding, court, branch, kind, day) VALUES (?, vec_bit(?), ?, ?, ?, ?)`).run(
    BigInt(vecId), signBits(vector), BigInt(courtId(db, meta.court)), BigInt(branchCode(meta.branch)),
    BigInt(kindCode(meta.document_kind)), BigInt(dayOf(meta.date)));
  return true;
}

/** Drops the vec0 rows of decisions that were deleted (search_vectors rows go with them by cascade; a trigger notes them). */
export function removeOrphanVectors(db: Database.Database): number {
  const orphans = sql<[], { vec_id: number }>(db, 'SELECT vec_id FROM search_vector_orphans').all();
  if (orphans.length === 0) return 0;
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(VEC_TABLE) !== undefined;
  if (exists) for (const { vec_id } of orphans) sql(db, `DELETE FROM ${VEC_TABLE} WHERE rowid = ?`).run(BigInt(vec_id));
  db.exec('DELETE FROM search_vector_orphans');
  return orphans.length;
}

/** Decisions after `after` (in id order) that have no vector (imported before a model existed, or an embedder call failed). */
export function decisionsWithoutVector(db: Database.Database, limit: number, after = ''): string[] {
  return sql<[string, number], { id: string }>(db, `SELECT d.id FROM decisions d WHERE d.id > ?
    AND NOT EXISTS (SELECT 1 FROM search_vectors v WHERE v.decision_id = d.id) ORDER BY d.id LIMIT ?`).all(after, limit).map((row) => row.id);
}

export interface VectorHit { decision_id: string; similarity: number }

/** The filters as the KNN scan applies them: court ids, codes, day bounds, a vec_id query for cited_norm. Null: nothing can match. */
export function knnFilter(db: Database.Database, filters: DecisionFilters): KnnFilter | null {
  let courts: number[] | null = null;
  if (filters.court !== undefined) {
    courts = sql<[string, string], { id: number }>(db, `SELECT s.id FROM courts c JOIN search_courts s ON s.code = c.code
      WHERE c.code = ? COLLATE NOCASE OR c.name = ? COLLATE NOCASE`).all(filters.court.trim(), filters.court.trim()).map((row) => row.id);
    if (courts.length === 0) return null;
  }
  // A decision without a date (day 0) fails every date bound, as `d.date >= ?` fails on NULL.
  const dated = filters.date_from !== undefined || filters.date_to !== undefined;
  const citing = filters.cited_norm === undefined ? null : citingVectors(db, filters.cited_norm);
  return {
    courts,
    branch: filters.branch === undefined ? null : branchCode(filters.branch),
    kind: filters.document_type === undefined ? null : kindCode(filters.document_type),
    dayFrom: dated ? Math.max(1, filters.date_from ? dayOf(filters.date_from) : 1) : null,
    dayTo: filters.date_to === undefined ? null : dayOf(filters.date_to),
    vecIds: citing === null ? null : { sql: 'SELECT value AS vec_id FROM json_each(?)', params: [citing] },
  };
}

/**
 * The vec_ids nearest to `bits` by sqlite-vec's own KNN query, the filters as metadata constraints inside its scan (the
 * path of a file whose vec0 tables the bit index does not read, and the reference the bit index is tested against).
 */
export function vec0Nearest(db: Database.Database, bits: Uint8Array, k: number, filter: KnnFilter): number[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.courts) {
    // One court (the usual case) as an equality: vec0 evaluates it faster than IN.
    where.push(filter.courts.length === 1 ? 'court = ?' : `court IN (${filter.courts.map(() => '?').join(', ')})`);
    params.push(...filter.courts.map(BigInt));
  }
  const conditions = [['branch = ?', filter.branch], ['kind = ?', filter.kind], ['day >= ?', filter.dayFrom], ['day <= ?', filter.dayTo]] as const;
  for (const [condition, value] of conditions) {
    if (value === null) continue;
    where.push(condition);
    params.push(BigInt(value));
  }
  if (filter.vecIds) {
    where.push(`rowid IN (${filter.vecIds.sql})`);
    params.push(...filter.vecIds.params);
  }
  // sqlite-vec refuses integers bound as JavaScript numbers (they bind as REAL): BigInt.
  return sql(db, `SELECT rowid AS vec_id FROM ${VEC_TABLE} WHERE embedding MATCH vec_bit(?) AND k = ?${where.map((c) => ` AND ${c}`).join('')}`)
    .all(bits, BigInt(k), ...params).map((row) => Number((row as { vec_id: number | bigint }).vec_id));
}

/**
 * The decisions nearest to `query` (centered, unit length): `candidates` by Hamming distance of the sign bits, the
 * filters applied inside that scan (the connection's bit index, src/search/bit-index.ts, or else vec0's KNN query:
 * the same list), re-ranked by the cosine of the float vectors.
 *
 * @example nearestDecisions(db, vector, { court: 'BGH' }, 80).hits[0] // { decision_id, similarity }
 */
export function nearestDecisions(db: Database.Database, query: Float32Array, filters: DecisionFilters, candidates: number):
  { hits: VectorHit[]; scanned: number } {
  const filter = knnFilter(db, filters);
  if (!filter) return { hits: [], scanned: 0 };
  const bits = signBits(query);
  const index = currentBitIndex(db, VEC_TABLE);
  const vecIds = index ? index.nearest(db, bits, candidates, filter) : vec0Nearest(db, bits, candidates, filter);
  const vector = sql<[number], { decision_id: string; vector: Buffer }>(db, 'SELECT decision_id, vector FROM search_vectors WHERE vec_id = ?');
  const hits: VectorHit[] = [];
  for (const vecId of vecIds) {
    const held = vector.get(vecId);
    if (held) hits.push({ decision_id: held.decision_id, similarity: dot(query, blobFloats(held.vector)) });
  }
  hits.sort((a, b) => b.similarity - a.similarity || (a.decision_id < b.decision_id ? -1 : 1));
  return { hits, scanned: vecIds.length };
}
