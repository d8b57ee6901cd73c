// Hybrid's lexical arm for a lay query (any of the words, the bridge's legal terms and norms) proven from the impact
// lists' bounds, with FTS5 scoring only the rows that could enter the pool (the third try of the top-k path, top-k.ts).
// Such an arm ORs 8 to 16 phrases and NEAR groups of norms; no row is listed for all of them, so the lists' terms
// cannot score the pool exactly (top-k-lists.ts), and the statement path's shorter lists bound the rows outside them
// too high (bench/README "Session 19: hybrid's tail": 6 of 41 arms at 100k ranked in full, 19-93 ms). Here every unit
// of the expression (a phrase, or a norm's NEAR group, listed by the sum of its words' terms: impact-lists.ts) bounds
// a row by its listed value, or by the list's last value where the row is not listed; a row listed for units that make
// the expression match scores at least the sum of their values. The pool-th best such lower bound is a floor: a row
// whose bound stays below it cannot enter the pool. Where the rows in no list stay below it too, FTS5 scores the rows
// that reach it in the walk that counts the matches (the same bm25() as the full ranking: the same scores), and the
// answer is proven where the pool's last score beats every row not scored.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { impactState, K1, readList, type StoredList } from './impact-lists.ts';
import { BM25, byScore, COUNT_CAP, countAndScore, type DocFilter, type RangeRanking } from './rank-range.ts';
import { compiled, everyTermAdds, FETCH_MAX, parseExpression, slotsOfRows, termsHold } from './top-k-lists.ts';

/** Rows FTS5 may always score in the walk (some 5 µs each); more only while fewer than half the matches. */
const BOUNDED_MIN = 1_000;
/** Rounding room between sums in JS and FTS5's (a bound is beaten only with this to spare). */
const MARGIN = 1e-6;

/** A unit's rows and values (terms, or a NEAR group's sums), best first; `last` bounds a row it does not list. */
interface Unit { ids: Int32Array; values: Float64Array; complete: boolean; last: number; rows: number }

function unitRows(db: Database.Database, text: string, memo: Map<string, StoredList | null>): Unit | null {
  const stored = readList(db, text, true, memo);
  // As before lists were made at search time (top-k.ts candidatesOf says why).
  if (stored && !stored.made) {
    const { ids } = stored.list;
    if (!stored.terms) return null;
    // A phrase in half the rows or more has an empty list: FTS5's IDF of it is 1e-6.
    if (ids.length === 0 && stored.rows > 0) return { ids, values: stored.terms, complete: false, last: 1e-6 * (K1 + 1), rows: stored.rows };
    const complete = ids.length === stored.rows;
    return { ids, values: stored.terms, complete, last: complete ? 0 : stored.terms[ids.length - 1]!, rows: stored.rows };
  }
  const rows = sql<[string, number], { id: number; score: number }>(db,
    `SELECT rowid AS id, ${BM25} AS score FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT +?`).all(text, FETCH_MAX + 1);
  if (rows.length > FETCH_MAX) return null;
  return { ids: Int32Array.from(rows, (row) => row.id), values: Float64Array.from(rows, (row) => -row.score), complete: true, last: 0, rows: rows.length };
}

/**
 * The best `pool` rows matching `expression` (an OR of phrases, NEAR groups and AND'd phrases: hybrid's arm) and
 * their matches, exactly as rankRange over all rows answers, or null where the bounds do not prove it (before any
 * walk where the floor does not beat the rows in no list, or more rows reach it than ranking in full would score).
 * Without filters only, while the lists' terms are the index's (termsHold) and the lists hold the bridge's groups.
 * Call inside a read transaction.
 */
export function boundedRanking(
  db: Database.Database, expression: string, filter: DocFilter, pool: number, memo = new Map<string, StoredList | null>(),
): RangeRanking | null {
  if (filter.whereOnDocs !== '') return null;
  const parsed = parseExpression(expression, true);
  // Not on lists built before the bridge's groups were listed (a file read-only): at 500k decisions such lists proved
  // nothing this way (bench/README "Session 20"), and the attempt cost its reading.
  if (!parsed || !('any' in parsed.tree) || impactState(db)?.groups !== true || !termsHold(db)) return null;
  const units: Unit[] = [];
  for (const text of parsed.phrases) {
    const unit = unitRows(db, text, memo);
    if (!unit) return null;
    units.push(unit);
  }
  const words = Math.ceil(units.length / 32);
  const capacity = units.reduce((sum, unit) => sum + unit.ids.length, 0);
  // Per candidate (by its slot): the sum of its listed values, the units it is listed for (bits), and the sum of the
  // last values of the incomplete units that list it.
  const ids = new Int32Array(capacity);
  const known = new Float64Array(capacity);
  const heldLast = new Float64Array(capacity);
  const listedIn = new Uint32Array(capacity * words);
  const slots = slotsOfRows();
  let count = 0;
  // The most a row in no list scores: every incomplete unit's last value.
  let rest = 0;
  units.forEach((unit, at) => {
    if (!unit.complete) rest += unit.last;
    const word = at >>> 5;
    const bit = 1 << (at & 31);
    for (let i = 0; i < unit.ids.length; i++) {
      let slot = slots.get(unit.ids[i]!);
      if (slot === undefined) slots.set(unit.ids[i]!, (slot = count++));
      ids[slot] = unit.ids[i]!;
      known[slot] += unit.values[i]!;
      listedIn[slot * words + word] |= bit;
      if (!unit.complete) heldLast[slot] += unit.last;
    }
  });
  const matches = compiled(parsed.tree);
  let at = 0;
  const isListed = (unit: number) => (listedIn[at * words + (unit >>> 5)]! & (1 << (unit & 31))) !== 0;
  const mayHave = (unit: number) => (isListed(unit) ? true : units[unit]!.complete ? false : null);
  const outside = matches((unit) => (units[unit]!.complete ? false : null)) === false ? -Infinity : rest;
  // Each candidate's bound (-Infinity where it cannot match), and the lower bounds of those that match.
  const bounds = new Float64Array(count);
  const lows: number[] = [];
  // A row's listed values are a lower bound where every one adds to its score (top-k-lists.ts everyTermAdds).
  const adds = everyTermAdds(parsed.tree);
  for (at = 0; at < count; at++) {
    bounds[at] = matches(mayHave) === false ? -Infinity : known[at]! + (rest - heldLast[at]!);
    if (matches(isListed) === true && (adds === null || adds(isListed))) lows.push(known[at]!);
  }
  if (lows.length < pool) return null;
  const floor = Float64Array.from(lows).sort()[lows.length - pool]! * (1 - MARGIN);
  const above = (value: number) => value * (1 + MARGIN) + MARGIN;
  if (!(floor > above(outside))) return null;
  const scored: number[] = [];
  let most = outside;
  for (at = 0; at < count; at++) {
    if (above(bounds[at]!) >= floor) scored.push(ids[at]!);
    else most = Math.max(most, bounds[at]!);
  }
  // FTS5 scoring them costs less than ranking in full while they are fewer than half the matches (at least the rows
  // of the unit matching most).
  if (scored.length > Math.max(BOUNDED_MIN, Math.max(...units.map((unit) => unit.rows)) / 2)) return null;
  const walk = countAndScore(db, expression, filter, scored);
  const rows = walk.scored.sort(byScore).slice(0, pool);
  if (rows.length < pool || !(-rows[pool - 1]!.score > above(most))) return null;
  return { docIds: rows.map((row) => row.doc_id), scores: rows.map((row) => row.score), matches: Math.min(walk.n, COUNT_CAP + 1) };
}
