// The top-k path of the decision ranking: the best `pool` rows of a MATCH expression without BM25 over every match.
// FTS5 spends most of a ranking in bm25() (about 5 µs a matching row: its column sizes and the position lists of every
// phrase), while merely iterating the matches costs a tenth of that; and SQLite computes bm25() only for rows that
// pass the WHERE clause. So: candidates are the best rows of each phrase's impact list (impact-lists.ts), every row of
// a phrase too rare for a list, and every row written since the lists were built; FTS5 then scores only those (the
// same bm25() as the full ranking, in one statement over the same expression, so the same scores; the same walk of
// the matches counts them). A row that is no candidate scores at most the sum over the phrases of IDF * (the
// saturation of the best row its phrase's list leaves out): where the pool's last candidate scores more, no other row
// can enter the pool, and the answer is the full ranking's (same rows, same order, same count). Which candidates to
// score: the rows listed for every phrase are bounded from below too, and the pool-th best of those lower bounds (the
// floor) leaves out every candidate whose bound stays below it. Otherwise, or without lists that hold, null: the
// caller ranks in full.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { setAsideSwitch } from './set-aside.ts';
import { ftsTotals, idf, impactListsHold, impactState, K1, readList, type StoredList } from './impact-lists.ts';
import { ALL_ROWS, BM25, byScore, COUNT_CAP, countAndScore, matching, type DocFilter, type RangeRanking, type Scored } from './rank-range.ts';
import { boundedRanking } from './top-k-bounded.ts';
import { FETCH_MAX, listsRanking, slotsOfRows } from './top-k-lists.ts';

/**
 * Rows of each list the statement path takes as candidates, for an index of `rows` rows (session 18's list length):
 * with the lists of 4,000 rows whole, hybrid's arm at 100k spent 13.8 against 8.8 ms p50 in the path, FTS5 scoring
 * the more candidates that reach the floor.
 */
const STATEMENT_ROWS = (rows: number) => Math.max(1_000, Math.ceil(rows / 100));
/** The most candidates a second round scores (each costs FTS5 some 5 µs; 600 about half a full keyword ranking). */
const SECOND_ROUND_MAX = 600;
/** Rounding room between FTS5's sums and ours (both double; a bound is taken only with this much to spare). */
const MARGIN = 1e-6;

/**
 * Counters of the top-k path per connection (benchmarks, tests): answers proven, calls left to the full ranking, and
 * candidates FTS5 scored.
 */
export interface TopKServed {
  proven: number;
  declined: number;
  scored: number;
  /** Of the proven: answered from the lists' terms alone (top-k-lists.ts), without FTS5 scoring anything. */
  fromLists: number;
  /** Of the proven: answered from the lists' bounds of phrases and NEAR groups (top-k-bounded.ts: hybrid's arm). */
  bounded: number;
}
const counters = new WeakMap<Database.Database, TopKServed>();

export function topKServed(db: Database.Database): TopKServed {
  let served = counters.get(db);
  if (!served) counters.set(db, (served = { proven: 0, declined: 0, scored: 0, fromLists: 0, bounded: 0 }));
  return served;
}

const setAside = setAsideSwitch();

/** Runs `work` with the top-k path set aside on this connection (benchmarks compare both on one page cache). */
export const withoutTopK = <T>(db: Database.Database, work: () => Promise<T>): Promise<T> => setAside.during(db, work);

/** The candidates of a ranking (in no order) and what bounds their scores. */
interface Candidates {
  ids: number[];
  /** Each candidate's bound. */
  bounds: Float64Array;
  /** The bound of any row that is no candidate. */
  bound: number;
  /**
   * The pool-th best lower bound of the candidates listed for every phrase (0 where fewer are): where they match, the
   * pool's last score is at least this, so a candidate whose bound stays below it cannot enter the pool.
   */
  floor: number;
  /** The pool-th best lower bound of all candidates (those listed for some phrases only may not match at all). */
  floorAny: number;
}

/**
 * The candidates of the phrases, each with a bound on its score, the bound on any other row's
 * score, and the floor (above); null where a phrase cannot be bounded. A candidate's bound: for each phrase, IDF times
 * its saturation where the candidate is listed, else the phrase's bound for rows not listed; IDF * (k1 + 1) for a
 * phrase read whole that it matches. A row written since the build is bounded by nothing: it comes first.
 */
function candidatesOf(db: Database.Database, phrases: string[], pool: number, memo: Map<string, StoredList | null>): Candidates | null {
  const state = impactState(db);
  if (!impactListsHold(db, state)) return null;
  const changed = sql<[], { doc_id: number }>(db, 'SELECT doc_id FROM search_impacts_changed').all().map((row) => row.doc_id);
  const totals = ftsTotals(db);
  // Rows grown longer on average since the build raise every saturation by at most this factor (impact-lists.ts),
  // rows grown shorter lower it by at most this one.
  const growth = Math.max(1, totals.avgdl / state.avgdl);
  const shrink = Math.min(1, totals.avgdl / state.avgdl);
  // Per candidate (by its slot): what it may score above `bound` (the bound of rows that are no candidate), what it
  // scores at least from the phrases it is listed for, and for how many phrases it is listed or read.
  const ids: number[] = [];
  const above: number[] = [];
  const least: number[] = [];
  const held: number[] = [];
  const slots = slotsOfRows();
  const slotOf = (id: number) => {
    let slot = slots.get(id);
    if (slot === undefined) {
      slots.set(id, (slot = ids.length));
      ids.push(id);
      above.push(0);
      least.push(0);
      held.push(0);
    }
    return slot;
  };
  let bound = 0;
  for (const phrase of phrases) {
    const stored = readList(db, phrase, state.terms === true, memo);
    // Not a list made at search time (the lists' path may have made it): its thousands of rows as candidates cost more
    // than the path can save (a bridged lay query spent 5 ms here to decline; read whole, such a phrase declines at once).
    if (stored && !stored.made) {
      // The statement path uses a list's first rows only (session 18's length): longer lists serve the terms' path
      // (top-k-lists.ts), and every candidate more is one FTS5 may have to score. The row after them bounds the rest
      // (its saturation rounded up, at least any later row's).
      const used = Math.min(stored.list.ids.length, STATEMENT_ROWS(totals.rows));
      const list = { ids: stored.list.ids.subarray(0, used), saturations: stored.list.saturations.subarray(0, used) };
      const beyond = used < stored.list.ids.length ? stored.list.saturations[used] : stored.beyond;
      // Each changed row may have left the phrase: its rows now are at least these, its IDF at most this.
      const weight = growth * idf(totals.rows, Math.max(0, stored.rows - changed.length));
      // And each may have joined it: its IDF at least this (the saturations are rounded up by 1e-6 at most).
      const low = shrink * idf(totals.rows, stored.rows + changed.length) / (1 + 2e-6);
      bound += beyond * weight;
      for (let i = 0; i < list.ids.length; i++) {
        const slot = slotOf(list.ids[i]);
        above[slot] += (list.saturations[i] - beyond) * weight;
        least[slot] += list.saturations[i] * low;
        held[slot]++;
      }
    } else {
      const rows = sql<[string, number], { id: number }>(db,
        'SELECT rowid AS id FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT +?').all(phrase, FETCH_MAX + 1);
      if (rows.length > FETCH_MAX) return null;
      // Read whole, the phrase's row count is exact (and no row outside these has it).
      const most = (K1 + 1) * idf(totals.rows, rows.length);
      for (const { id } of rows) {
        const slot = slotOf(id);
        above[slot] += most;
        held[slot]++;
      }
    }
  }
  for (const id of changed) {
    const slot = slotOf(id);
    above[slot] = Infinity;
    least[slot] = 0;
    held[slot] = 0;
  }
  const lows: number[] = [];
  for (let slot = 0; slot < ids.length; slot++) if (held[slot] === phrases.length) lows.push(least[slot]);
  const pick = (values: number[]) => (values.length >= pool ? values.sort((a, b) => b - a)[pool - 1] : 0);
  return {
    ids, bounds: Float64Array.from(above, (value) => bound + value), bound, floor: pick(lows), floorAny: pick(least.filter((value) => value > 0)),
  };
}

/** Whether a bound reaches `floor` (with the margin). */
const reaches = (bound: number, floor: number) => bound * (1 + MARGIN) + MARGIN >= floor;

/**
 * The best `pool` rows matching `expression` with `filter` and their matches, exactly as rankRange over all rows
 * answers, or null where the lists cannot prove it (call inside a read transaction). `phrases`: every phrase of the
 * expression as it writes it (query.ts phrasesOf). Declined before anything is scored where the floor does not beat
 * the bound of rows that are no candidate. The first round scores the candidates whose bound reaches the floor (all
 * where no row but the candidates can match; the `round` best bounds where given) and counts the matches in the same
 * walk of the expression; where the pool's last row does not beat the bound of every candidate left out, a second
 * round scores those whose bound reaches it (at most SECOND_ROUND_MAX).
 */
export function topKRanking(
  db: Database.Database, expression: string, phrases: string[], filter: DocFilter, pool: number, round?: number,
): RangeRanking | null {
  if (setAside.has(db)) return null;
  const served = topKServed(db);
  // First from the lists' terms alone (not where a round size is forced: the tests' way to the rounds below).
  const memo = new Map<string, StoredList | null>();
  const fromLists = round === undefined ? listsRanking(db, expression, filter, pool, memo) : null;
  if (fromLists && 'ranking' in fromLists) {
    served.proven++;
    served.fromLists++;
    return fromLists.ranking;
  }
  // Then an OR'd arm from the lists' bounds, FTS5 scoring the rows that reach the floor (top-k-bounded.ts).
  const bounded = round === undefined ? boundedRanking(db, expression, filter, pool, memo) : null;
  if (bounded) {
    served.proven++;
    served.bounded++;
    return bounded;
  }
  // Rows whose scores the lists' terms gave exactly (matching, no filter): not scored by FTS5 again.
  const known = fromLists?.known ?? new Map<number, number>();
  const declined = () => {
    served.declined++;
    return null;
  };
  const found = phrases.length > 0 ? candidatesOf(db, phrases, pool, memo) : null;
  if (!found) return declined();
  const { ids, bounds, bound } = found;
  // The pool's last score can be no higher than the pool-th best bound: where that does not beat the bound of rows
  // that are no candidate, nothing can be proven, and nothing is scored.
  if (ids.length >= pool && bounds.filter((value) => value > bound * (1 + MARGIN) + MARGIN).length < pool) return declined();
  // Where the floor beats the bound of rows that are no candidate, the candidates whose bound reaches the floor hold
  // the pool (where the rows of the floor match); where no row is bounded but the candidates (phrases read whole and
  // lists holding every row), all of them. Otherwise nothing is scored: the pool would rest on rows the lists do not
  // bound well enough (at 500k decisions such rankings took 90-190 ms in the path before the full ranking).
  // A floor of rows listed for some phrases only holds where they match (an expression of OR'd words: hybrid's arm):
  // taken only where the floor of rows listed for every phrase does not beat the bound.
  const beats = (value: number) => value > bound * (1 + MARGIN) + MARGIN;
  // The pool-th best known score is a floor too (those rows match), and as high as a lower bound can be.
  const knownFloor = known.size >= pool ? -[...known.values()].sort((a, b) => a - b)[pool - 1] : 0;
  const floor = Math.max(knownFloor, beats(found.floor) ? found.floor : found.floorAny);
  const floorBeats = beats(floor);
  if (round === undefined && !floorBeats && bound > 0) return declined();
  // Candidates are picked by their bounds (linear passes: a full sort of 10,000 candidates cost milliseconds).
  const taken = new Uint8Array(ids.length);
  const take = (slots: number[]) => {
    for (const slot of slots) taken[slot] = 1;
    return slots.map((slot) => ids[slot]);
  };
  const open = () => Array.from(ids.keys()).filter((slot) => taken[slot] === 0);
  // The highest bound of a candidate not scored (0: none).
  const rest = () => open().reduce((most, slot) => Math.max(most, bounds[slot]), 0);
  const knownRows = take(known.size === 0 ? [] : open().filter((slot) => known.has(ids[slot])))
    .map((doc_id) => ({ doc_id, score: known.get(doc_id)! }));
  const firstIds = take(round !== undefined
    ? open().sort((a, b) => bounds[b] - bounds[a] || ids[a] - ids[b]).slice(0, round)
    : open().filter((slot) => !floorBeats || reaches(bounds[slot], floor)));
  const from = matching(filter);
  const first = countAndScore(db, expression, filter, firstIds);
  served.scored += firstIds.length;
  const matches = Math.min(first.n, COUNT_CAP + 1);
  let rows = [...knownRows, ...first.scored];
  // Every match scored: the answer whatever the bounds.
  let scoredMatches = rows.length;
  rows = rows.sort(byScore).slice(0, pool);
  // Every row not scored scores at most this: a candidate left out at most its bound, any other row `bound`.
  let most = Math.max(bound, rest());
  const beaten = () => rows.length === pool && -rows[pool - 1].score > most * (1 + MARGIN) + MARGIN;
  if (scoredMatches < first.n && !beaten() && most > bound) {
    // The pool's last score so far is a floor of its last score in the end: a candidate whose bound stays below it
    // cannot enter, and is left out; the others are scored (all of them when the pool is not full yet).
    const least = rows.length === pool ? -rows[pool - 1].score : -Infinity;
    const second = open().filter((slot) => reaches(bounds[slot], least));
    if (second.length > SECOND_ROUND_MAX) return declined();
    served.scored += second.length;
    const more = sql<unknown[], Scored>(db, `SELECT f.rowid AS doc_id, ${BM25} AS score
      ${from} AND +f.rowid IN (SELECT value FROM json_each(?))`)
      .all(expression, ...ALL_ROWS, ...filter.params, JSON.stringify(take(second)));
    scoredMatches += more.length;
    rows = [...rows, ...more].sort(byScore).slice(0, pool);
    most = Math.max(bound, rest());
  }
  // Proven where every match was scored, or where the pool is full and its last row beats every row not scored.
  if (scoredMatches < first.n && !beaten()) return declined();
  served.proven++;
  return { docIds: rows.map((row) => row.doc_id), scores: rows.map((row) => row.score), matches };
}
