// The lexical arm: FTS5 over decisions (decisions_fts: a decision's chunks in one row, in the columns title, lead, body),
// BM25 with field weights, filters joined inside the query (so a filter never empties a page that the unfiltered pool
// would have filled with other decisions). The passages shown for a decision are picked afterwards among its chunks,
// for the page's decisions only (lexicalPassages).
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { fieldOf } from './corpus-model.ts';
import type { FilterSql } from './filters.ts';
import { entriesOf, type ArmEntry } from './fusion.ts';
import type { PageChunks } from './page-chunks.ts';
import { rankDecisionRows } from './rank-helper.ts';
import { CHUNK_WEIGHTS, COUNT_CAP } from './rank-range.ts';
import { termMatcher, type TermGroup } from './query.ts';

/** Decisions the lexical arm of hybrid ranks for fusion: ten pages of 20 (keyword mode ranks as deep as its page). */
export const DECISION_POOL = 200;
/** Passages shown per decision. */
const PASSAGES = 3;

export interface LexicalResult {
  /** The pool, best first. */
  entries: ArmEntry[];
  /** Matching decisions (a floor when `is_floor`). */
  total: { value: number; is_floor: boolean };
  /** The pool held every matching decision. */
  exhaustive: boolean;
}

/**
 * Runs the FTS5 expression over decisions with the filters and keeps the best `pool`; an empty expression matches
 * nothing. FTS5 ranks (rank-range.ts; in two threads on a large index, rank-helper.ts), the filters test search_docs,
 * which repeats the filtered columns (looking each of tens of thousands of matches up by UUID in decisions took twice
 * as long), and only the pool's rows are looked up to their decision ids. `phrases` (query.ts phrasesOf): the
 * expression's phrases, which let the top-k path (top-k.ts) rank without scoring every match.
 */
export function lexicalArm(db: Database.Database, expression: string, filters: FilterSql, pool = DECISION_POOL, phrases?: string[]): LexicalResult {
  if (expression === '') return { entries: [], total: { value: 0, is_floor: false }, exhaustive: true };
  return lexicalResult(db, rankDecisionRows(db, expression, filters, pool, phrases), pool);
}

/** A ranking of decisions_fts rows (best first, with its matches: rank-range.ts) as the arm's decisions and count. */
export function lexicalResult(db: Database.Database, ranking: { docIds: number[]; matches: number }, pool: number): LexicalResult {
  const decisionOf = new Map(sql<[string], { doc_id: number; decision_id: string }>(db,
    'SELECT doc_id, decision_id FROM search_docs WHERE doc_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(ranking.docIds)).map((row) => [row.doc_id, row.decision_id]));
  const entries = entriesOf(ranking.docIds.map((id) => decisionOf.get(id)!));
  const exhaustive = entries.length < pool;
  return { entries, total: { value: Math.min(ranking.matches, COUNT_CAP), is_floor: ranking.matches > COUNT_CAP }, exhaustive };
}

/**
 * The passages that earned a decision its lexical rank (best first): the chunks answering most query groups, then
 * those where the matches are densest (Leitsatz, Orientierungssatz and Tenor weighted as in BM25), then position.
 * Chunks without any match only when none has one (the decision matched by its title). The matching words are
 * found once per chunk (PageChunks.matches) and marked again by the snippets.
 */
export function lexicalPassages(page: PageChunks, decisionId: string, groups: TermGroup[]): number[] {
  const chunks = page.of(decisionId);
  if (groups.length === 0 || chunks.length <= 1) return chunks.slice(0, PASSAGES).map((chunk) => chunk.id);
  const groupsOf = groupIndexer(groups);
  // The groups a chunk answers, counted without a set per chunk: a group counts once per chunk (its stamp).
  const answeredIn = new Int32Array(groups.length).fill(-1);
  // The best PASSAGES chunks so far, best first, kept as the chunks are read (no object or sort for the other ~10).
  const best: { position: number; answered: number; density: number }[] = [];
  let anyAnswered = false;
  chunks.forEach((chunk, position) => {
    const matches = page.matches(chunk);
    let answered = 0;
    for (const { stem } of matches) {
      for (const index of groupsOf(stem)) {
        if (answeredIn[index] === position) continue;
        answeredIn[index] = position;
        answered++;
      }
    }
    if (answered > 0) anyAnswered = true;
    const weight = fieldOf(chunk.section) === 'lead' ? CHUNK_WEIGHTS[1] : CHUNK_WEIGHTS[2];
    const density = (weight * matches.length) / (chunk.text.length / 8 + 10);
    // Before the first of the best that it beats (more groups, then denser; an equal one read earlier stays first).
    let at = best.length;
    while (at > 0 && (answered - best[at - 1].answered || density - best[at - 1].density) > 0) at--;
    if (at < PASSAGES) {
      best.splice(at, 0, { position, answered, density });
      if (best.length > PASSAGES) best.pop();
    }
  });
  // Chunks without any match only when none has one (the decision matched by its title).
  return best.filter((chunk) => !anyAnswered || chunk.answered > 0).map((chunk) => chunks[chunk.position].id);
}

/** The groups' indexes a stem answers, by the page's groups (one list for its 20 decisions: each stem tested once). */
const indexersOf = new WeakMap<TermGroup[], (stem: string) => number[]>();
function groupIndexer(groups: TermGroup[]): (stem: string) => number[] {
  let indexer = indexersOf.get(groups);
  if (!indexer) {
    const groupMatchers = groups.map((group) => termMatcher([group]));
    const groupsOfStem = new Map<string, number[]>();
    indexer = (stem) => {
      let indexes = groupsOfStem.get(stem);
      if (!indexes) groupsOfStem.set(stem, indexes = groupMatchers.flatMap((isMatch, index) => (isMatch(stem) ? [index] : [])));
      return indexes;
    };
    indexersOf.set(groups, indexer);
  }
  return indexer;
}
