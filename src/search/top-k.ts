// The top-k path of the decision ranking: the best `pool` rows of a MATCH expression without BM25 over every match.
// FTS5 spends most of a ranking in bm25() (about 5 µs a matching row: its column sizes and the position lists of every
// phrase), while merely iterating the matches costs a tenth of that; and SQLite computes bm25() only for rows that
// pass the WHERE clause. So: candidates are the best rows of each phrase's impact list (impact-lists.ts), every row of
// a phrase too rare for a list, and every row written since the lists were built; FTS5 then scores only those (the
// same bm25() as the full ranking, in one statement over the same expression, so the same scores). A row that is no
// candidate scores at most the sum over the phrases of IDF * (the saturation of its phrase's first unused list
// entry): where the pool's last candidate scores more, no other row can enter the pool, and the answer is the full
// ranking's (same rows, same order, same count). Otherwise, or without lists that hold, null: the caller ranks in full.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { setAsideSwitch } from './set-aside.ts';
import { decodeList, ftsTotals, idf, impactListsHold, impactState, K1 } from './impact-lists.ts';
import { ALL_ROWS, BM25, COUNT_CAP, matching, type DocFilter, type RangeRanking } from './rank-range.ts';

/** A phrase without a list is read whole up to this many rows; beyond it the full ranking runs. */
export const FETCH_MAX = 1_000;
/** List entries used per phrase for a pool of up to 20 (a page) and for deeper pools (hybrid's 200). */
const DEPTH_PAGE = 300;
const DEPTH_DEEP = 1_000;
/** The most candidates a second round scores (each costs FTS5 some 5 µs; 600 about half a full keyword ranking). */
const SECOND_ROUND_MAX = 600;
/** Rounding room between FTS5's sums and ours (both double; a bound is taken only with this much to spare). */
const MARGIN = 1e-6;

/** Counters of the top-k path per connection (benchmarks, tests): answers proven, and calls left to the full ranking. */
const counters = new WeakMap<Database.Database, { proven: number; declined: number }>();

export function topKServed(db: Database.Database): { proven: number; declined: number } {
  let served = counters.get(db);
  if (!served) counters.set(db, (served = { proven: 0, declined: 0 }));
  return served;
}

const setAside = setAsideSwitch();

/** Runs `work` with the top-k path set aside on this connection (benchmarks compare both on one page cache). */
export const withoutTopK = <T>(db: Database.Database, work: () => Promise<T>): Promise<T> => setAside.during(db, work);

/**
 * The candidates of the phrases, each with a bound on its score, best bound first, and the bound on any other row's
 * score; null where a phrase cannot be bounded. A candidate's bound: for each phrase, IDF times its saturation where
 * the candidate is listed, else the phrase's bound for rows not listed; IDF * (k1 + 1) for a phrase read whole that
 * it matches. A row written since the build is bounded by nothing: it comes first.
 */
function candidatesOf(db: Database.Database, phrases: string[], pool: number): { ids: number[]; bounds: number[]; bound: number } | null {
  const state = impactState(db);
  if (!impactListsHold(db, state)) return null;
  const changed = sql<[], { doc_id: number }>(db, 'SELECT doc_id FROM search_impacts_changed').all().map((row) => row.doc_id);
  const totals = ftsTotals(db);
  // Rows grown longer on average since the build raise every saturation by at most this factor (impact-lists.ts).
  const growth = Math.max(1, totals.avgdl / state.avgdl);
  const depth = pool <= 20 ? DEPTH_PAGE : DEPTH_DEEP;
  // What a candidate may score above `bound` (the bound of rows that are no candidate).
  const above = new Map<number, number>();
  let bound = 0;
  for (const phrase of phrases) {
    const stored = sql<[string], { rows: number; beyond: number; listed: Buffer }>(db,
      'SELECT rows, beyond, listed FROM search_impacts WHERE phrase = ?').get(phrase);
    if (stored) {
      const list = decodeList(stored.listed);
      const used = Math.min(depth, list.ids.length);
      const beyond = used < list.ids.length ? list.saturations[used] : stored.beyond;
      // Each changed row may have left the phrase: its rows now are at least these, its IDF at most this.
      const weight = growth * idf(totals.rows, Math.max(0, stored.rows - changed.length));
      bound += beyond * weight;
      for (let i = 0; i < used; i++) above.set(list.ids[i], (above.get(list.ids[i]) ?? 0) + (list.saturations[i] - beyond) * weight);
    } else {
      const rows = sql<[string, number], { id: number }>(db,
        'SELECT rowid AS id FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT ?').all(phrase, FETCH_MAX + 1);
      if (rows.length > FETCH_MAX) return null;
      // Read whole, the phrase's row count is exact (and no row outside these has it).
      const most = (K1 + 1) * idf(totals.rows, rows.length);
      for (const row of rows) above.set(row.id, (above.get(row.id) ?? 0) + most);
    }
  }
  for (const id of changed) above.set(id, Infinity);
  const ids = [...above.keys()].sort((a, b) => above.get(b)! - above.get(a)! || a - b);
  return { ids, bounds: ids.map((id) => bound + above.get(id)!), bound };
}

/** Candidates FTS5 scores in the first round, for a pool of `pool`: most pools are proven by their best bounds. */
export const firstRound = (pool: number) => 3 * pool + 40;

/**
 * The best `pool` rows matching `expression` with `filter` and their matches, exactly as rankRange over all rows
 * answers, or null where the lists cannot prove it (call inside a read transaction). `phrases`: every phrase of the
 * expression as it writes it (query.ts phrasesOf). FTS5 scores the candidates of the best bounds first (`round` of
 * them); where the pool's last row does not beat the bound of the first one left out, those whose bound reaches it.
 */
export function topKRanking(
  db: Database.Database, expression: string, phrases: string[], filter: DocFilter, pool: number, round = firstRound(pool),
): RangeRanking | null {
  if (setAside.has(db)) return null;
  const served = topKServed(db);
  const found = phrases.length > 0 ? candidatesOf(db, phrases, pool) : null;
  // The pool's last score can be no higher than the pool-th best bound: where that does not beat the bound of rows
  // that are no candidate, nothing can be proven, and nothing is scored.
  if (!found || (found.ids.length >= pool && found.bounds[pool - 1] <= found.bound * (1 + MARGIN) + MARGIN)) {
    served.declined++;
    return null;
  }
  const from = matching(filter);
  const scored = (ids: number[]) => sql<unknown[], { doc_id: number; score: number }>(db, `SELECT f.rowid AS doc_id, ${BM25} AS score
    ${from} AND +f.rowid IN (SELECT value FROM json_each(?)) ORDER BY score, f.rowid LIMIT ?`)
    .all(expression, ...ALL_ROWS, ...filter.params, JSON.stringify(ids), pool);
  // Counted only for an answer (iterating every match again: a third of a declined call at 500k decisions).
  const countMatches = () => sql<unknown[], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 ${from} LIMIT ?)`)
    .get(expression, ...ALL_ROWS, ...filter.params, COUNT_CAP + 1)!.n;
  const { ids, bounds } = found;
  let end = Math.min(round, ids.length);
  let rows = scored(ids.slice(0, end));
  // Every row not scored scores at most this: a candidate left out at most its bound, any other row `bound`.
  let most = Math.max(found.bound, end < ids.length ? bounds[end] : 0);
  const beaten = () => rows.length === pool && -rows[pool - 1].score > most * (1 + MARGIN) + MARGIN;
  if (!beaten() && end < ids.length) {
    // The pool's last score so far is a floor of its last score in the end: a candidate whose bound stays below it
    // cannot enter, and is left out; the others are scored (all of them when the pool is not full yet).
    const floor = rows.length === pool ? -rows[pool - 1].score : -Infinity;
    const from = end;
    while (end < ids.length && bounds[end] * (1 + MARGIN) + MARGIN >= floor) end++;
    // Past this many, scoring them costs about what the full ranking does, which may yet have to follow.
    if (end - from > SECOND_ROUND_MAX) {
      served.declined++;
      return null;
    }
    rows = [...rows, ...scored(ids.slice(from, end))].sort((a, b) => a.score - b.score || a.doc_id - b.doc_id).slice(0, pool);
    most = Math.max(found.bound, end < ids.length ? bounds[end] : 0);
  }
  const all = end === ids.length;
  // A short pool holds every match, or it is not proven; a full one, when its last row beats every row not scored.
  const matches = rows.length < pool ? (all ? countMatches() : -1) : beaten() ? countMatches() : -1;
  const proven = rows.length < pool ? matches === rows.length : matches >= 0;
  if (!proven) {
    served.declined++;
    return null;
  }
  served.proven++;
  return { docIds: rows.map((row) => row.doc_id), scores: rows.map((row) => row.score), matches };
}
