// Hybrid's lexical arm ordered from lists that hold every row of every unit, without an FTS5 statement over the
// expression. At 100k generated decisions the slowest lay arms ('Vermieter will mich rauswerfen, weil sein Sohn einziehen
// soll', 'gebrauchtes Auto gekauft und es ist kaputt') spent 20-90 ms in the top-k path's walk of the expression
// (bench/README "Session 21: hybrid's tail"): FTS5 checks a norm's NEAR group's positions in every row holding its
// words (some 6 ms a group at 100k), and the bounds left thousands of rows of one topic for bm25() to score. Yet each of
// their units (a word, a bridged phrase, a NEAR group) matches fewer rows than its list and deeper rows hold
// (impact-lists.ts: 16,000 at 100k): so every matching row, whether it matches, and every unit's part of its score are
// known. A word's or phrase's part is FTS5's own term (bit for bit); a NEAR group's is the sum of its words' terms,
// which FTS5 adds one by one into the row's running sum, so a row holding a group scores here within a few units in
// the last place of FTS5's score. The order is taken where no two rows it puts in order (nor the pool's last and any
// row after it) are that close, with a margin far above that error; otherwise, and wherever a unit's rows are not all
// known, the arm is ranked as before (lexical.ts, top-k.ts). The answer is the full ranking's: the same rows in the
// same order, the same count; only the scores, which the arm does not keep, are not FTS5's.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import type { FilterSql } from './filters.ts';
import { impactState, readDeeper, readList, type StoredList } from './impact-lists.ts';
import { lexicalArm, lexicalResult, type LexicalResult } from './lexical.ts';
import { BM25, COUNT_CAP } from './rank-range.ts';
import { best, compiled, FETCH_MAX, parseExpression, slotsOfRows, termsHold, type MatchTree, type TreeTest } from './top-k-lists.ts';

/**
 * A row's score here against FTS5's, relative: both add the same n terms (none negative) in double, each addition
 * rounding by at most 2^-53 of the running sum, never more than the score: they differ by less than 2n x 2^-53 of the
 * score (1e-13 for 500 terms). Two rows holding a NEAR group are put in order only where their scores differ by more.
 */
const TOLERANCE = 1e-9;

/** Arms ordered here, and arms left to the ranking as before (benchmarks, tests). */
export interface ArmsOrdered { ordered: number; declined: number }
const counters = new WeakMap<Database.Database, ArmsOrdered>();

export function armsOrdered(db: Database.Database): ArmsOrdered {
  let counted = counters.get(db);
  if (!counted) counters.set(db, (counted = { ordered: 0, declined: 0 }));
  return counted;
}

/**
 * Hybrid's lexical arm (lexical.ts lexicalArm's answer, the same entries and count): ordered from the lists where they
 * hold every row of every unit and no filter applies, else ranked as lexicalArm ranks.
 */
export function hybridArm(db: Database.Database, expression: string, filters: FilterSql, pool: number, phrases: string[]): LexicalResult {
  const ordered = expression !== '' && filters.whereOnDocs === '' ? db.transaction(() => orderFromLists(db, expression, pool))() : null;
  if (ordered) return lexicalResult(db, ordered, pool);
  return lexicalArm(db, expression, filters, pool, phrases);
}

/** A unit's rows and their parts of a score (a word's term, a NEAR group's sum), in parts as stored. */
interface UnitRows { parts: { ids: Int32Array; values: Float64Array }[]; group: boolean }

/** Every row of a unit (its list and deeper rows, or read whole), or null where they are not all known. */
function everyRow(db: Database.Database, text: string, memo: Map<string, StoredList | null>): UnitRows | null {
  const group = text.startsWith('NEAR(');
  const stored = readList(db, text, true, memo, true);
  if (stored) {
    // A phrase in half the rows or more has no list: FTS5 scores it 1e-6 a row.
    if (!stored.terms || (stored.list.ids.length === 0 && stored.rows > 0)) return null;
    const parts = [{ ids: stored.list.ids, values: stored.terms }];
    let known = stored.list.ids.length;
    if (known < stored.rows) {
      const deeper = readDeeper(db, text);
      if (!deeper) return null;
      parts.push({ ids: deeper.ids, values: deeper.terms });
      known += deeper.ids.length;
    }
    return known === stored.rows ? { parts, group } : null;
  }
  const rows = sql<[string, number], { id: number; score: number }>(db,
    `SELECT rowid AS id, ${BM25} AS score FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT +?`).all(text, FETCH_MAX + 1);
  if (rows.length > FETCH_MAX) return null;
  return { parts: [{ ids: Int32Array.from(rows, (row) => row.id), values: Float64Array.from(rows, (row) => -row.score) }], group };
}

/** The ANDs above each leaf of the tree (a phrase adds to a row's score only where every one of them matches it). */
function andsAbove(tree: MatchTree, leaves: TreeTest[][] = [], above: TreeTest[] = []): TreeTest[][] {
  if ('phrase' in tree) leaves[tree.phrase] = above;
  else if ('all' in tree) for (const part of tree.all) andsAbove(part, leaves, [...above, compiled(tree)]);
  else for (const part of tree.any) andsAbove(part, leaves, above);
  return leaves;
}

/** Candidate arrays reused from arm to arm (fresh memory is dear: a first touch of a page costs 10-18 µs here). */
let arrays = { ids: new Int32Array(0), score: new Float64Array(0), held: new Uint32Array(0), inexact: new Uint8Array(0) };

function candidateArrays(capacity: number, words: number) {
  if (arrays.ids.length < capacity || arrays.held.length < capacity * words) {
    const size = Math.max(capacity, 2 * arrays.ids.length);
    arrays = { ids: new Int32Array(size), score: new Float64Array(size), held: new Uint32Array(size * Math.max(words, 2)), inexact: new Uint8Array(size) };
    return arrays;
  }
  arrays.score.fill(0, 0, capacity);
  arrays.held.fill(0, 0, capacity * words);
  arrays.inexact.fill(0, 0, capacity);
  return arrays;
}

/**
 * The best `pool` rows matching `expression` (phrases, NEAR groups, AND, OR: hybrid's arm) best first, as FTS5's
 * ranking over every match orders them (score, then row id), and the matches (up to COUNT_CAP + 1); null where a unit's
 * rows are not all known (call inside a read transaction, without filters) or two rows' order rests on a difference
 * within the NEAR groups' rounding.
 */
export function orderFromLists(db: Database.Database, expression: string, pool: number): { docIds: number[]; matches: number } | null {
  const counted = armsOrdered(db);
  const declined = () => {
    counted.declined++;
    return null;
  };
  if (impactState(db)?.groupRows !== true || !termsHold(db)) return declined();
  const parsed = parseExpression(expression, true);
  if (!parsed) return declined();
  const memo = new Map<string, StoredList | null>();
  const units: UnitRows[] = [];
  for (const text of parsed.phrases) {
    const unit = everyRow(db, text, memo);
    if (!unit) return declined();
    units.push(unit);
  }
  const m = units.length;
  const words = Math.ceil(m / 32);
  let capacity = 0;
  let highest = 0;
  for (const unit of units) {
    for (const part of unit.parts) {
      capacity += part.ids.length;
      for (let i = 0; i < part.ids.length; i++) if (part.ids[i]! > highest) highest = part.ids[i]!;
    }
  }
  const { ids, score, held, inexact } = candidateArrays(capacity, words);
  const slots = slotsOfRows(highest);
  // Row ids up to `highest` have their slots in the tables (the map only past TABLE_ROWS): read there in the loops.
  const { stamps, table, mine } = slots.tables;
  let count = 0;
  const slotOf = (id: number): number => {
    if (id >= 0 && id < stamps.length) {
      if (stamps[id] !== mine) {
        stamps[id] = mine;
        table[id] = count;
        ids[count] = id;
        return count++;
      }
      return table[id]!;
    }
    let slot = slots.get(id);
    if (slot === undefined) {
      slots.set(id, (slot = count++));
      ids[slot] = id;
    }
    return slot;
  };
  // Which units every row holds (all of them known), and the parts of its score in the expression's order: in one
  // pass where every unit adds to the rows holding it; where a unit sits inside an AND (a lay term's words), its part
  // only where the AND matches the row, so in a second pass once every row's units are known.
  let at = 0;
  const has = (unit: number) => (held[at * words + (unit >>> 5)]! & (1 << (unit & 31))) !== 0;
  const ands = andsAbove(parsed.tree);
  const everyUnitAdds = ands.every((above) => above.length === 0);
  units.forEach((unit, leaf) => {
    const word = leaf >>> 5;
    const bit = 1 << (leaf & 31);
    for (const part of unit.parts) {
      for (let i = 0; i < part.ids.length; i++) {
        at = slotOf(part.ids[i]!);
        held[at * words + word]! |= bit;
        if (!everyUnitAdds) continue;
        score[at] += part.values[i]!;
        if (unit.group) inexact[at] = 1;
      }
    }
  });
  if (!everyUnitAdds) {
    units.forEach((unit, leaf) => {
      const above = ands[leaf]!;
      for (const part of unit.parts) {
        for (let i = 0; i < part.ids.length; i++) {
          at = slotOf(part.ids[i]!);
          // FTS5 adds nothing for a phrase inside an AND that does not match the row (top-k-lists.ts everyTermAdds).
          if (above.length > 0 && !above.every((and) => and(has) === true)) continue;
          score[at] += part.values[i]!;
          if (unit.group) inexact[at] = 1;
        }
      }
    });
  }
  // Any of the units (hybrid's arm without a lay term's ANDs): every row held matches.
  const tree = parsed.tree;
  const anyUnit = 'phrase' in tree || ('any' in tree && tree.any.every((part) => 'phrase' in part));
  const matches = compiled(tree);
  const matching: number[] = [];
  for (at = 0; at < count; at++) if (anyUnit || matches(has) === true) matching.push(at);
  // Best first as FTS5 orders them: score, then row id; the pool and the row after it.
  const order = (a: number, b: number) => score[b]! - score[a]! || ids[a]! - ids[b]!;
  const top = best(matching, pool + 1, order);
  const slack = (slot: number) => (inexact[slot] ? TOLERANCE * Math.max(1, Math.abs(score[slot]!)) : 0);
  // Each row of the pool must come before every row after it whatever the rounding: rows beyond the pool's next one
  // score at most as it does (and where any row holds a group, may hold one).
  const anyInexact = matching.some((slot) => inexact[slot] === 1);
  const shown = Math.min(pool, top.length);
  for (let i = 0; i < shown; i++) {
    const a = top[i]!;
    const low = score[a]! - slack(a);
    for (let j = i + 1; j < top.length; j++) {
      const b = top[j]!;
      if ((inexact[a] || inexact[b]) && !(low > score[b]! + slack(b))) return declined();
    }
    if (matching.length > top.length && anyInexact) {
      const last = top[top.length - 1]!;
      if (!(low > score[last]! + TOLERANCE * Math.max(1, Math.abs(score[last]!)))) return declined();
    }
  }
  counted.ordered++;
  return { docIds: top.slice(0, shown).map((slot) => ids[slot]!), matches: Math.min(matching.length, COUNT_CAP + 1) };
}
