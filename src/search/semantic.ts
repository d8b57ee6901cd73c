// The vector arm: the decisions nearest to the query vector (src/search/vector-store.ts: bit candidates in vec0 with
// the filters inside the scan, float re-ranking), and the passages that represent a decision found this way. A corpus
// without vectors gives an unavailable arm: semantic answers 503, hybrid runs without it. Never a fake neighbour list.
import type Database from 'better-sqlite3';
import { backendUnavailable } from '../errors.ts';
import { sql } from '../db/statements.ts';
import { tokenize } from './analyze.ts';
import { Bag, MIN_TRAIN_TOKENS } from './corpus-model.ts';
import { trainedModelOf, type QueryVector } from './embedder.ts';
import type { DecisionFilters, FilterSql } from './filters.ts';
import { entriesOf, type ArmEntry } from './fusion.ts';
import { termMatcher, type TermGroup } from './query.ts';
import type { Passage } from './page-chunks.ts';
import { dot } from './vector-math.ts';
import { nearestDecisions } from './vector-store.ts';

export interface VectorArm { entries: ArmEntry[]; candidates: number; exhaustive: boolean; available: boolean }

/** Bit candidates re-ranked per query: enough for four pages of 20 and for fusion; KNN cost grows with it. */
export const VECTOR_CANDIDATES = 80;
/** Deeper semantic pages (up to 10 x 20) widen the scan up to this many. */
const MAX_CANDIDATES = 220;
/** Passages shown per decision (as the lexical arm gives). */
const PASSAGES = 3;

const UNAVAILABLE: VectorArm = { entries: [], candidates: 0, exhaustive: true, available: false };

/**
 * The decisions nearest to the query, filters applied inside the scan (and checked again on the rows, so a stale
 * metadata value can only drop a decision, never admit one).
 *
 * @example semanticArm(db, await queryVector(db, 'Schimmel Wohnung', null), args, filterSql(args), 20)
 */
export function semanticArm(db: Database.Database, qv: QueryVector | null, filters: DecisionFilters, filterSql: FilterSql, depth = 0): VectorArm {
  if (!qv || qv.status !== 'ready') return UNAVAILABLE;
  if (!qv.vector) return { entries: [], candidates: 0, exhaustive: true, available: true };
  const candidates = Math.min(MAX_CANDIDATES, Math.max(VECTOR_CANDIDATES, depth + 20));
  const { hits, scanned } = nearestDecisions(db, qv.vector, filters, candidates);
  let ids = hits.map((hit) => hit.decision_id);
  if (filterSql.active && ids.length > 0) {
    const passing = new Set(sql<unknown[], { id: string }>(db, `SELECT d.id FROM decisions d
      WHERE d.id IN (SELECT value FROM json_each(?))${filterSql.where}`).all(JSON.stringify(ids), ...filterSql.params).map((row) => row.id));
    ids = ids.filter((id) => passing.has(id));
  }
  return { entries: entriesOf(ids), candidates: scanned, exhaustive: scanned < candidates, available: true };
}

/** Semantic mode needs vectors; without them the answer is 503, nothing charged. */
export function requireVectors(arm: VectorArm): VectorArm {
  if (!arm.available) {
    throw backendUnavailable('Semantic search needs decision vectors, which this corpus does not hold: the embedder is trained '
      + `at import once the corpus holds ${MIN_TRAIN_TOKENS.toLocaleString('en')} words of text (an older corpus gets them `
      + 'when opened once with write access: juralite serve or juralite import); mode=keyword works.');
  }
  return arm;
}

/**
 * The passages that represent a decision the vector arm found (best first), chosen among its `chunks` (PageChunks):
 * with the trained model, the chunks whose own pooled vectors are nearest to the query; otherwise the chunks holding
 * most query words; in order of position where nothing tells them apart (Leitsatz and Tenor come first).
 */
export function passagesFor(db: Database.Database, chunks: Passage[], qv: QueryVector | null, groups: TermGroup[]): number[] {
  if (chunks.length <= 1) return chunks.map((chunk) => chunk.id);
  const isMatch = termMatcher(groups);
  const model = qv?.status === 'ready' && qv.vector && qv.record.kind === 'trained' ? trainedModelOf(db, qv.record) : null;
  const scored = chunks.map((chunk, position) => {
    const tokens = tokenize(chunk.text);
    let score = groups.length > 0 ? tokens.filter((token) => isMatch(token.stem)).length / (tokens.length + 10) : 0;
    if (model && qv?.status === 'ready' && qv.vector) {
      const bag = new Bag(model);
      bag.addTokens(tokens, 1);
      const vector = bag.vector();
      if (vector) score += dot(qv.vector, vector);
    }
    return { id: chunk.id, score, position };
  });
  return scored.sort((a, b) => b.score - a.score || a.position - b.position).slice(0, PASSAGES).map((chunk) => chunk.id);
}
