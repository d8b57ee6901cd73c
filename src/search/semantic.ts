// The vector arm: the decisions nearest to the query vector (src/search/vector-store.ts: bit candidates from the bit
// index in memory or vec0, the filters inside the scan, float re-ranking), and the passages that represent a decision found this way. A corpus
// without vectors gives an unavailable arm: semantic answers 503, hybrid runs without it. Never a fake neighbour list.
import type Database from 'better-sqlite3';
import { backendUnavailable } from '../errors.ts';
import { sql } from '../db/statements.ts';
import { tokenize } from './analyze.ts';
import { Bag, MIN_TRAIN_TOKENS } from './corpus-model.ts';
import { trainedModelOf, type QueryVector } from './embedder.ts';
import type { TrainedModel } from './corpus-model.ts';
import { corpusVersion } from '../db/corpus-version.ts';
import type { DecisionFilters, FilterSql } from './filters.ts';
import { entriesOf, type ArmEntry } from './fusion.ts';
import type { TermGroup } from './query.ts';
import type { PageChunks, Passage } from './page-chunks.ts';
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
 * @example semanticArm(db, await queryVector(db, 'Schimmel Wohnung', null), args, filterSql(args, db), 20)
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

/** What a chunk gives the passage choice whatever the query: its number of words and its pooled vector. */
interface ChunkShape { words: number; vector: Float32Array | null }

/** Chunk shapes kept per trained model (1 KB each at 256 dimensions: 16 MB at most). */
const SHAPES_KEPT = 16_384;
const shapes = new WeakMap<TrainedModel, { version: string; byChunk: Map<number, ChunkShape> }>();

/**
 * A chunk's shape, kept for the next page that shows its decision: pooling a chunk's words is most of a hybrid
 * page's work (a result's passages are read from all its chunks). Kept per model and state of the corpus file (an
 * import may give chunk ids to new texts); the oldest go first.
 */
function chunkShape(db: Database.Database, model: TrainedModel | null, chunk: Passage): ChunkShape {
  const compute = (): ChunkShape => {
    const tokens = tokenize(chunk.text);
    if (!model) return { words: tokens.length, vector: null };
    const bag = new Bag(model);
    bag.addTokens(tokens, 1);
    return { words: tokens.length, vector: bag.vector() };
  };
  if (!model) return compute();
  const version = corpusVersion(db);
  let held = shapes.get(model);
  if (held?.version !== version) shapes.set(model, held = { version, byChunk: new Map() });
  let shape = held.byChunk.get(chunk.id);
  if (!shape) {
    held.byChunk.set(chunk.id, shape = compute());
    if (held.byChunk.size > SHAPES_KEPT) held.byChunk.delete(held.byChunk.keys().next().value!);
  }
  return shape;
}

/**
 * The passages that represent a decision the vector arm found (best first), chosen among its chunks on `page`: with
 * the trained model, the chunks whose own pooled vectors are nearest to the query; otherwise the chunks holding most
 * query words; in order of position where nothing tells them apart (Leitsatz and Tenor come first). The query's
 * words in a chunk are those the page found for its snippets.
 */
export function passagesFor(db: Database.Database, page: PageChunks, decisionId: string, qv: QueryVector | null, groups: TermGroup[]): number[] {
  const chunks = page.of(decisionId);
  if (chunks.length <= 1) return chunks.map((chunk) => chunk.id);
  const model = qv?.status === 'ready' && qv.vector && qv.record.kind === 'trained' ? trainedModelOf(db, qv.record) : null;
  const query = qv?.status === 'ready' ? qv.vector : null;
  const scored = chunks.map((chunk, position) => {
    const shape = chunkShape(db, model, chunk);
    let score = groups.length > 0 ? page.matches(chunk).length / (shape.words + 10) : 0;
    if (query && shape.vector) score += dot(query, shape.vector);
    return { id: chunk.id, score, position };
  });
  return scored.sort((a, b) => b.score - a.score || a.position - b.position).slice(0, PASSAGES).map((chunk) => chunk.id);
}
