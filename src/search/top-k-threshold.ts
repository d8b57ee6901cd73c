// Keyword rankings of one phrase, an AND of phrases (and ORs of phrases) or an OR of phrases proven by the threshold
// algorithm (Fagin's TA): the first try of top-k-lists.ts where no filter applies and no phrase is floored. The passes
// there know a row's term for a phrase only once they reach the row in that phrase's list: a row read in one list alone
// is bounded by its term plus the other lists' last terms, which keeps the bound above the pool until the lists are
// read whole (59 of the 200 bench rankings at 100k read their 8,000 entries so; bench/README, session 24). Here each
// row is scored the moment it is first read: its terms for the other phrases are looked up by row id in their lists
// (listed and deeper rows, kept per connection in a form by row id), and a row that a complete list or a row set leaves
// out lacks the phrase. The lists of the phrases every match holds (the AND's own; for an OR of phrases, every list)
// are read best first, a step at a time; a row read in none of them scores at most the sum of their next terms and the
// other phrases' first; the pool is proven once its last row beats that and every row only bounded (one holding a
// phrase past its stored rows, or not known to).
import type Database from 'better-sqlite3';
import { keptRead } from './kept-reads.ts';
import { setAsideSwitch } from './set-aside.ts';
import { readDeeper, type StoredList } from './impact-lists.ts';
import type { RangeRanking } from './rank-range.ts';
import type { TreeTest } from './top-k-lists.ts';

/** Rounding room between a bound summed in JS and a score (both double): a bound is beaten only with this to spare. */
const MARGIN = 1e-6;
/** Rows each list reads before the next test of the pool (at least the pool's size: the test is a few comparisons). */
const STEP = (pool: number) => Math.max(pool, 16);

const setAside = setAsideSwitch();

/** Whether the threshold algorithm is set aside on this connection (withoutThreshold). */
export const thresholdSetAside = (db: Database.Database) => setAside.has(db);

/** Runs `work` with the threshold algorithm set aside on this connection (tests and benchmarks of the passes beneath). */
export const withoutThreshold = <T>(db: Database.Database, work: () => Promise<T>): Promise<T> => setAside.during(db, work);

/** 1-bits of a 32-bit word. */
export function bitsIn(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * A phrase's stored rows (listed, then deeper: best first) and where each row id stands among them: `bits` marks the
 * stored row ids (bit `id & 31` of word `id >> 5`), `ranks[w]` counts the marks before word `w`, and `positions` gives
 * a row's place in the stored order by its rank among the marked ids. `complete`: the stored rows are every row of
 * the phrase; else `matched`, its row set where stored.
 */
export interface ByRow {
  listed: { ids: Int32Array; terms: Float64Array };
  deeper: { ids: Int32Array; terms: Float64Array } | null;
  length: number;
  bits: Uint32Array;
  ranks: Uint32Array;
  positions: Int32Array;
  complete: boolean;
  matched: Uint8Array | null;
}

/**
 * A phrase's list looked up by row id (null: a row id is negative), built once a connection while the file is unchanged
 * (kept reads). `deeper`: the state says the lists hold deeper rows and row sets (else the listed rows alone).
 */
export function byRow(db: Database.Database, phrase: string, stored: StoredList & { terms: Float64Array }, deeper: boolean): ByRow | null {
  return keptRead(db, `by row ${deeper} ${phrase}`, () => {
    const more = deeper ? readDeeper(db, phrase) : null;
    const parts = [{ ids: stored.list.ids, terms: stored.terms }, ...(more ? [{ ids: more.ids, terms: more.terms }] : [])];
    let highest = 0;
    for (const { ids } of parts) {
      for (let i = 0; i < ids.length; i++) {
        if (ids[i] < 0) return null;
        if (ids[i] > highest) highest = ids[i];
      }
    }
    const bits = new Uint32Array((highest >>> 5) + 1);
    for (const { ids } of parts) for (let i = 0; i < ids.length; i++) bits[ids[i] >>> 5] |= 1 << (ids[i] & 31);
    const ranks = new Uint32Array(bits.length);
    for (let w = 0, ones = 0; w < bits.length; w++) {
      ranks[w] = ones;
      ones += bitsIn(bits[w]);
    }
    const length = parts.reduce((sum, { ids }) => sum + ids.length, 0);
    const positions = new Int32Array(length);
    let position = 0;
    for (const { ids } of parts) {
      for (let i = 0; i < ids.length; i++, position++) {
        const id = ids[i];
        positions[ranks[id >>> 5] + bitsIn(bits[id >>> 5] & ((1 << (id & 31)) - 1))] = position;
      }
    }
    return {
      listed: parts[0], deeper: parts[1] ?? null, length, bits, ranks, positions,
      complete: length === stored.rows, matched: more?.matched ?? null,
    };
  }, (form) => (form ? 4 * (form.bits.length * 2 + form.length) : 0));
}

/** A row's place in the stored order of `form` (-1: not stored). */
function positionOf(form: ByRow, id: number): number {
  const w = id >>> 5;
  if (w >= form.bits.length) return -1;
  const word = form.bits[w];
  const bit = 1 << (id & 31);
  return (word & bit) === 0 ? -1 : form.positions[form.ranks[w] + bitsIn(word & (bit - 1))];
}

/** The term stored at `position`. */
const termAt = (form: ByRow, position: number) => (position < form.listed.ids.length
  ? form.listed.terms[position] : form.deeper!.terms[position - form.listed.ids.length]);
/** The row id stored at `position`. */
const idAt = (form: ByRow, position: number) => (position < form.listed.ids.length
  ? form.listed.ids[position] : form.deeper!.ids[position - form.listed.ids.length]);

/** Whether a row not stored in `form` lacks its phrase: the stored rows are all of them, or its row set leaves it out. */
function lacks(form: ByRow, id: number): boolean {
  if (form.complete) return true;
  const set = form.matched;
  return set !== null && ((id >>> 3) >= set.length || (set[id >>> 3] & (1 << (id & 7))) === 0);
}

/** A phrase's term per phrase of the row being scored (summed in the expression's order), and whether the row holds it. */
let termScratch = new Float64Array(0);
let heldScratch = new Int8Array(0);
/** Held (a term looked up), lacked (a list complete or a row set says so), or not known (its rows go past the stored ones). */
const HELD = 1;
const LACKED = 0;
const UNKNOWN = -1;

/**
 * An expression of phrases, each with its list by row id (in the expression's order): the phrases every match holds
 * (`required`: the parts of its top AND, or its one phrase), its test, and whether it has ORs below the AND (then each
 * row read is tested; else a row lacking a required phrase is all that fails).
 */
export interface ThresholdQuery { forms: ByRow[]; required: boolean[]; matches: TreeTest; ors: boolean }

/**
 * The best `pool` rows of `query` with FTS5's scores, bit for bit: a matching row's terms summed in the expression's
 * order, as bm25() adds them (every phrase a match holds adds: no AND below an OR). `matched`: the rows matching where
 * every one was read, else null. Ranking null where the stored rows do not prove the pool. `entries`: list entries read
 * (each list best first, as far as the proof took).
 */
export function thresholdRanking(query: ThresholdQuery, pool: number): { ranking: RangeRanking | null; matched: number | null; entries: number } {
  const { forms, required, matches, ors } = query;
  const m = forms.length;
  // The lists read best first: those of the phrases every match holds; for an OR of phrases (none required), all.
  const anyRequired = required.includes(true);
  const source = (phrase: number) => required[phrase] || !anyRequired;
  if (termScratch.length < m) [termScratch, heldScratch] = [new Float64Array(m), new Int8Array(m)];
  const terms = termScratch;
  const held = heldScratch;
  const has = (phrase: number) => (held[phrase] === HELD ? true : held[phrase] === LACKED ? false : null);
  const read = new Array<number>(m).fill(0);
  // The pool so far, best first (score, then row id, as FTS5 orders): its rows' ids and summed terms.
  const keptIds: number[] = [];
  const keptScores: number[] = [];
  let exact = 0;
  // The most a row scores that is read but not known exactly (it may hold a phrase past the stored rows).
  let others = -Infinity;
  let entries = 0;
  const ranking = () => ({ docIds: keptIds.slice(), scores: keptScores.map((score) => -score), matches: 0 });
  for (let depth = STEP(pool); ; depth += STEP(pool)) {
    for (let phrase = 0; phrase < m; phrase++) {
      const form = forms[phrase];
      const end = source(phrase) ? Math.min(depth, form.length) : 0;
      entries += end - read[phrase];
      rows: for (let at = read[phrase]; at < end; at++) {
        const id = idAt(form, at);
        let known = true;
        for (let other = 0; other < m; other++) {
          if (other === phrase) {
            terms[other] = termAt(form, at);
            held[other] = HELD;
            continue;
          }
          const position = positionOf(forms[other], id);
          // Read before in another list: scored then.
          if (position >= 0 && position < read[other]) continue rows;
          if (position >= 0) {
            terms[other] = termAt(forms[other], position);
            held[other] = HELD;
          } else if (lacks(forms[other], id)) {
            if (required[other]) continue rows;
            terms[other] = 0;
            held[other] = LACKED;
          } else {
            // Held or not: at most the term of the list's last stored row.
            terms[other] = termAt(forms[other], forms[other].length - 1);
            held[other] = UNKNOWN;
            known = false;
          }
        }
        if (ors) {
          const match = matches(has);
          if (match === false) continue;
          if (match === null) known = false;
        }
        let sum = 0;
        for (let other = 0; other < m; other++) sum += terms[other];
        if (!known) {
          if (sum > others) others = sum;
          continue;
        }
        exact++;
        if (keptIds.length === pool && (sum < keptScores[pool - 1] || (sum === keptScores[pool - 1] && id > keptIds[pool - 1]))) continue;
        let place = keptIds.length === pool ? pool - 1 : keptIds.length;
        while (place > 0 && (keptScores[place - 1] < sum || (keptScores[place - 1] === sum && keptIds[place - 1] > id))) {
          keptIds[place] = keptIds[place - 1];
          keptScores[place] = keptScores[place - 1];
          place--;
        }
        keptIds[place] = id;
        keptScores[place] = sum;
      }
      read[phrase] = end;
    }
    // A row read in no list: at most each list's next term (its last where read whole); it matches nothing where the
    // lists read whole and complete say it lacks what every match holds.
    let unread = 0;
    for (let phrase = 0; phrase < m; phrase++) {
      const form = forms[phrase];
      const whole = read[phrase] === form.length;
      held[phrase] = whole && form.complete ? LACKED : UNKNOWN;
      if (held[phrase] === UNKNOWN) unread += termAt(form, whole ? form.length - 1 : read[phrase]);
    }
    if (matches(has) === false) unread = -Infinity;
    const bound = Math.max(unread, others);
    if (bound === -Infinity) return { ranking: ranking(), matched: exact, entries };
    if (keptIds.length === pool && keptScores[pool - 1] > bound * (1 + MARGIN) + MARGIN) return { ranking: ranking(), matched: null, entries };
    if (read.every((n, phrase) => n === forms[phrase].length || !source(phrase))) return { ranking: null, matched: null, entries };
  }
}
