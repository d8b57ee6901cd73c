// Comparing a ranking of the top-k path (src/search/top-k.ts) with FTS5's full ranking (rank-range.ts rankRange).
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { ftsTotals, readList } from '../../src/search/impact-lists.ts';
import type { RangeRanking } from '../../src/search/rank-range.ts';
import { parseExpression } from '../../src/search/top-k-lists.ts';

/** FTS5's most for a floored phrase in a row (fts5_aux.c): IDF 1e-6 times a saturation below k1 + 1 = 2.2. */
export const FLOORED_MOST = 2.2e-6;

/**
 * The phrases of `expression` (each occurrence) with lists, stored or made, of half the index's rows or more: FTS5
 * floors their IDF.
 */
export function flooredPhrases(db: Database.Database, expression: string): string[] {
  const rows = ftsTotals(db).rows;
  return (parseExpression(expression)?.phrases ?? []).filter((phrase) => (readList(db, phrase, false, undefined, true)?.rows ?? 0) * 2 >= rows);
}

/**
 * Asserts `actual` is FTS5's ranking `full`: the same rows in the same order, the same count, and the same scores bit
 * for bit; where the expression holds floored phrases, scores FTS5's less at most FLOORED_MOST per floored phrase
 * (a ranking from the lists' sums leaves those terms out: top-k-lists.ts).
 */
export function assertSameRanking(db: Database.Database, actual: RangeRanking, full: RangeRanking, expression: string): void {
  const floored = db.transaction(() => flooredPhrases(db, expression).length)();
  if (floored === 0) {
    assert.deepEqual(actual, full, expression);
    return;
  }
  assert.deepEqual({ docIds: actual.docIds, matches: actual.matches }, { docIds: full.docIds, matches: full.matches }, expression);
  actual.scores.forEach((score, i) => {
    const left = score - full.scores[i];
    assert.ok(Object.is(score, full.scores[i]) || (left >= -1e-9 && left <= floored * FLOORED_MOST + 1e-9),
      `${expression}: score ${score} against FTS5's ${full.scores[i]}`);
  });
}
