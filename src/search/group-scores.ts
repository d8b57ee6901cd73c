// A query group counts once, by its best alternative. FTS5's BM25 sums every phrase of an OR'd expression, so a lay
// term the bridge widened to six legal terms and two norms ('Demo': Versammlung, Versammlungsfreiheit,
// Versammlungsverbot, Aufzug, Art. 8 GG, § 15 VersammlG) scored up to eight times a word: decisions on the topic's
// law outranked the one holding the rare words of the question ('AfD-Parteitag', 'Parkautomat'), and the lexicon, written
// from the tuning set's failures, cost on wording it was not written for (bench/README "Session 19: an unseen set").
// Scored by its best alternative, the group says what it means (the topic), and the other words choose within it.
// FTS5's bm25() counts every phrase's matches over the whole index (93 ms for one common word, 318 ms for a norm's
// NEAR group at 100k decisions), so the order is kept as BM25's sum wherever a phrase of the query is held by
// COMMON_ROWS decisions or more; deciding that costs one count per phrase, stopping at the first common one.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import type { ArmEntry } from './fusion.ts';
import { matchCount, matchExpression, phrasesOf, type TermGroup } from './query.ts';
import { CHUNK_WEIGHTS } from './rank-range.ts';

/** Decisions holding a phrase, at this many and more, make bm25() too costly to call per alternative. */
const COMMON_ROWS = 2000;

/** Whether every phrase is held by fewer than COMMON_ROWS rows (counted up to that, the first common one ending it). */
function allRare(db: Database.Database, phrases: string[]): boolean {
  return [...new Set(phrases)].every((phrase) => matchCount(db, 'decisions_fts', phrase, COMMON_ROWS) < COMMON_ROWS);
}

/** BM25 of an expression's phrases for the given decisions_fts rows (FTS5's statistics are the whole table's). */
function scoresOf(db: Database.Database, expression: string, rows: number[]): Map<number, number> {
  const found = sql<[string, string], { row: number; score: number }>(db, `SELECT rowid AS row,
    -bm25(decisions_fts, ${CHUNK_WEIGHTS.join(', ')}) AS score FROM decisions_fts
    WHERE decisions_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`).all(expression, JSON.stringify(rows));
  return new Map(found.map((hit) => [hit.row, hit.score]));
}

/**
 * The first `head` decisions of a lexical ranking in the order of the sum over `groups` of each group's best
 * alternative (BM25 of that alternative alone); decisions no group matches (found by widened forms only, or by the
 * norm arm alone) follow them, and those after the head keep their places. Where no group has two alternatives the
 * sum is BM25's own and the ranking is returned as it is, at no cost; so it is where a phrase is common
 * (COMMON_ROWS), bm25() being too costly there. Only the head is reordered, so a deeper ranking begins with the same
 * decisions as the first page's.
 */
export function bestAlternativeOrder(db: Database.Database, groups: TermGroup[], ranking: ArmEntry[], head: number): ArmEntry[] {
  const widened = groups.filter((group) => group.alternatives.length > 1);
  const first = ranking.slice(0, head);
  if (widened.length === 0 || first.length < 2 || !allRare(db, phrasesOf(groups))) return ranking;
  const rowOf = new Map(sql<[string], { decision_id: string; doc_id: number }>(db,
    'SELECT decision_id, doc_id FROM search_docs WHERE decision_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(first.map((entry) => entry.decision_id))).map((row) => [row.decision_id, row.doc_id]));
  const rows = [...rowOf.values()];
  const total = new Map<number, number>();
  const add = (scores: Map<number, number>) => {
    for (const [row, score] of scores) total.set(row, (total.get(row) ?? 0) + score);
  };
  const single = matchExpression(groups.filter((group) => group.alternatives.length === 1), false);
  if (single !== '') add(scoresOf(db, single, rows));
  for (const group of widened) {
    const best = new Map<number, number>();
    for (const alternative of group.alternatives) {
      for (const [row, score] of scoresOf(db, matchExpression([{ alternatives: [alternative] }], false), rows)) {
        best.set(row, Math.max(best.get(row) ?? 0, score));
      }
    }
    add(best);
  }
  const scoreOf = (entry: ArmEntry) => total.get(rowOf.get(entry.decision_id) ?? -1);
  const ordered = first.map((entry, at) => ({ entry, at, score: scoreOf(entry) }))
    .sort((a, b) => (a.score === undefined || b.score === undefined
      ? Number(a.score === undefined) - Number(b.score === undefined) || a.at - b.at
      : b.score - a.score || a.at - b.at))
    .map(({ entry }) => entry);
  return [...ordered, ...ranking.slice(head)];
}
