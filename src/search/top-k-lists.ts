// Keyword rankings proven from the impact lists alone, without an FTS5 statement (the first try of the top-k path,
// top-k.ts). FTS5's bm25() of a row is -1.0 * (0.0 + t1 + t2 + ... + tm), one term per phrase of the expression in the
// order the expression writes them, each term IDF(phrase) * saturation computed from the phrase's weighted count in the
// row, the row's length and the index's row count and average length; a phrase the row lacks adds 0. The lists hold
// each listed row's term as FTS5 computed it for the phrase alone (impact-lists.ts): the same double, since nothing in
// it depends on the other phrases. So while the index is the one the lists were built from (no row changed since),
// the score of a row listed for every phrase is that sum, bit for bit. A phrase without a list is read whole with its
// terms (one small FTS5 statement; up to FETCH_MAX rows). A list holding all of its phrase's rows is complete: a row it
// leaves out lacks the phrase. Any other row's term for a phrase is at most the list's last term (the list holds the
// rows of highest term, ties by row id). The answer is taken where the pool's last row, scored exactly, beats every
// row whose score is not known (a candidate listed for some phrases only, or a row in no list, that could match the
// expression); the count where the lists hold every match, or for a single phrase without filters from the row count
// recorded at the build, else from one count-only walk of the expression (no bm25(): no statistics, no scoring).
// Since session 20: where the listed rows prove nothing in an expression requiring all its parts, the lists' deeper
// rows are read and the pass runs again (half of them, then all), the phrases' row sets saying which phrases a
// candidate lacks; and without filters the count comes from the row sets (impact-lists.ts), not from the walk.
// Since session 22: a phrase in half the rows or more (an empty list) no longer sends a ranking without filters to
// FTS5. FTS5 floors its IDF at 1e-6, so its term in any row is below FLOOR_TERM; the rows are ranked by the sums of
// the other phrases' terms, and the answer is taken only where every two rows of the pool, its last and the next
// exact row, and its last and the bound of the rows not known lie more than FLOOR_TERM per such phrase apart: then
// the order is FTS5's whatever those terms are. Whether a row holds such a phrase: every row does where the phrase
// matches every row, else unknown (a row of unknown match is bounded, not ranked). The scores of such a ranking are
// FTS5's less those terms (below 2.2e-6 each; nothing reads them but the order); the count is FTS5's.
// Since session 24: the passes of a ranking read each list entry once (each goes deeper than the one before and reads
// only the entries past it), so they go deeper in smaller steps; a pass is tested only where a quick look at the sums
// says it may prove the pool, and an exact row's terms are summed again in the expression's order.
// Since session 25: an expression of one phrase or an AND (of phrases and ORs of phrases) without filters or floored
// phrases is first ranked by the threshold algorithm (top-k-threshold.ts); the passes where it does not prove the pool.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { ftsTotals, impactListsHold, impactState, K1, readDeeper, readList, readRowSet, type ImpactState, type StoredList } from './impact-lists.ts';
import { keptRead } from './kept-reads.ts';
import { ALL_ROWS, BM25, COUNT_CAP, matching, type DocFilter, type RangeRanking } from './rank-range.ts';
import { bitsIn, byRow, thresholdRanking, thresholdSetAside, type ByRow, type ThresholdQuery } from './top-k-threshold.ts';

/**
 * Per connection (benchmarks, tests): rankings proven only once the deeper rows were read, counts taken from the row
 * sets, and list entries skipped as rows lacking a phrase every match holds (requiredPhrase).
 */
export interface ListsServed {
  deeper: number;
  countedFromSets: number;
  skipped: number;
  /** Rankings proven with floored phrases (PhraseRows.floor): their scores leave those phrases' terms out. */
  floored: number;
  /** Rankings proven from the lists' first rows alone (HEAD_ROWS, or more of them: not the whole lists). */
  fromHead: number;
  /** List entries read into candidates (or by the threshold algorithm). */
  entries: number;
  /** Rankings proven by the threshold algorithm (top-k-threshold.ts). */
  threshold: number;
}
const served = new WeakMap<Database.Database, ListsServed>();

export function listsServed(db: Database.Database): ListsServed {
  let counts = served.get(db);
  if (!counts) served.set(db, (counts = { deeper: 0, countedFromSets: 0, skipped: 0, floored: 0, fromHead: 0, entries: 0, threshold: 0 }));
  return counts;
}

/**
 * Deeper rows are read for an expression requiring all of its parts (a keyword query; not hybrid's arm of OR'd words,
 * whose unproven rankings at 500k held 50,000 candidates and more and spent 60-90 ms p95 in the deeper passes before
 * the statement path: bench/README, session 20) where at most this many lists leave rows out.
 */
const DEEPER_PHRASES = 4;

/** The rows of each list the first pass reads (listsRanking): a pool's worth four times over (one row at least). */
const HEAD_ROWS = (pool: number) => 4 * Math.max(pool, 1);
/** Each pass over the lists' first rows reads this many times the rows of the pass before it. */
const HEAD_GROWTH = 4;

/**
 * The shares of the lists' deeper rows the deeper passes read: each reads only the rows past the pass before it, so
 * smaller first steps cost only their tests (at 100k the 19 of 200 bench rankings proven there read 3,400 fewer
 * entries each than with halves: bench/README, session 24).
 */
const DEEPER_SHARES = [0.125, 0.25, 0.5, 1];

/** A phrase without a list is read whole up to this many rows; beyond it the path gives up. */
export const FETCH_MAX = 1_000;
/** Rounding room between a bound summed in JS and a score (both double): a bound is beaten only with this to spare. */
const MARGIN = 1e-6;
/**
 * The most a floored phrase (in half the rows or more) adds to a row's score: FTS5 floors its IDF at 1e-6 and a
 * saturation f(k1+1)/(f + k1(1-b+b*D/avgdl)) stays below k1 + 1 whatever the column weights make f.
 */
export const FLOOR_TERM = 1e-6 * (K1 + 1);

/** An expression's structure: a phrase (by its place in the expression), or all / any of the parts. */
export type MatchTree = { phrase: number } | { all: MatchTree[] } | { any: MatchTree[] };

const TOKEN = /\s*(?:("(?:[^"]|"")*"\*?)|(\()|(\))|(AND|OR)(?=[\s("]|$)|(NEAR\((?:\s*"(?:[^"]|"")*")+\s*,\s*\d+\s*\)))/uy;

/**
 * The phrases (in order, as written) and the structure of an FTS5 expression of quoted phrases, prefix stars, AND, OR
 * and parentheses (query.ts matchExpression but for NEAR groups and column filters); null for anything else. With
 * `groups`, a NEAR group is read too, as one leaf (its text as a phrase): top-k-bounded.ts bounds it by its list.
 */
export function parseExpression(expression: string, groups = false): { phrases: string[]; tree: MatchTree } | null {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expression);
    if (!match || (match[5] && !groups)) {
      if (expression.slice(at).trim() === '') break;
      return null;
    }
    tokens.push(match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5]);
  }
  const phrases: string[] = [];
  let next = 0;
  // Parts joined by one operator, nested joins of the same operator flattened.
  const chain = (operator: string, part: () => MatchTree | null, join: (parts: MatchTree[]) => MatchTree,
    split: (tree: MatchTree) => MatchTree[]) => (): MatchTree | null => {
    const parts = [part()];
    while (tokens[next] === operator) {
      next++;
      parts.push(part());
    }
    if (parts.some((found) => found === null)) return null;
    return parts.length === 1 ? parts[0] : join((parts as MatchTree[]).flatMap(split));
  };
  const primary = (): MatchTree | null => {
    const token = tokens[next++];
    if (token === '(') {
      const inner = any();
      return tokens[next++] === ')' ? inner : null;
    }
    if (token?.startsWith('"') || token?.startsWith('NEAR(')) return { phrase: phrases.push(token) - 1 };
    return null;
  };
  // FTS5: AND binds tighter than OR.
  const all = chain('AND', primary, (parts) => ({ all: parts }), (tree) => ('all' in tree ? tree.all : [tree]));
  const any = chain('OR', all, (parts) => ({ any: parts }), (tree) => ('any' in tree ? tree.any : [tree]));
  const tree = tokens.length > 0 ? any() : null;
  return tree && next === tokens.length ? { phrases, tree } : null;
}

/** A test of the tree: true where it matches with the phrases `has` says true for, null where it may (`has` null). */
export type TreeTest = (has: (phrase: number) => boolean | null) => boolean | null;

/** The tree as nested functions (tested once per candidate: thousands per ranking). */
export function compiled(tree: MatchTree): TreeTest {
  if ('phrase' in tree) {
    const { phrase } = tree;
    return (has) => has(phrase);
  }
  const parts = ('all' in tree ? tree.all : tree.any).map(compiled);
  // all: false decides, any: true decides; otherwise null where a part may, else the other value.
  const decides = 'any' in tree;
  return (has) => {
    let unknown = false;
    for (const part of parts) {
      const value = part(has);
      if (value === null) unknown = true;
      else if (value === decides) return decides;
    }
    return unknown ? null : !decides;
  };
}

/**
 * A phrase's rows with their terms, best first; complete where it holds every row the phrase matches. `rows`: how many
 * it matches; `matched`: every row it matches as a bitmap (impact-lists.ts; null where not read or not stored);
 * `deeper`: its deeper rows have been read (or it has none).
 */
interface PhraseRows {
  ids: Int32Array;
  terms: Float64Array;
  /** The deeper rows where read: they follow `ids` (kept apart: no copy of both into fresh memory). */
  more: { ids: Int32Array; terms: Float64Array } | null;
  complete: boolean;
  rows: number;
  matched: Uint8Array | null;
  deeper: boolean;
  /**
   * A phrase in half the rows or more (an empty list): FTS5 floors its IDF at 1e-6, so its term in any row lies in
   * [0, FLOOR_TERM). It lists nothing and adds nothing to the terms summed here (`complete`, no rows); whether a row
   * holds it: every row does (`every`), its row set says (`matched`), or unknown (null: no set stored). Null otherwise.
   */
  floor: { every: boolean; matched: Uint8Array | null } | null;
}

/** A phrase's rows in their parts (the listed, then the deeper ones), each of one shape (the hot loops stay monomorphic). */
const partsOf = (list: PhraseRows) => [{ ids: list.ids, terms: list.terms }, ...(list.more ? [{ ids: list.more.ids, terms: list.more.terms }] : [])];
/** The highest row id of a phrase's rows (0 where none is higher). */
function highestOf(list: PhraseRows): number {
  let highest = 0;
  for (const { ids } of partsOf(list)) for (let i = 0; i < ids.length; i++) if (ids[i] > highest) highest = ids[i];
  return highest;
}
/** The term of a phrase's last row read: the most any row it leaves out scores for it. */
const lastTerm = (list: PhraseRows) => {
  const part = list.more && list.more.terms.length > 0 ? list.more : list;
  return part.terms[part.terms.length - 1];
};

/**
 * Whether the lists' terms are the index's as this connection reads it: lists with terms, sealed with its state, and
 * no row changed since the build (same row count and average length: the same IDFs and saturations).
 */
export function termsHold(db: Database.Database): boolean {
  return exactState(db) !== null;
}

/**
 * A test that every phrase a row holds adds its term to the row's score, for `has` known for every phrase; null where
 * every phrase does whatever the row (no AND below an OR). FTS5 adds a phrase's term only where every AND above it
 * matches the row (an AND that does not is positioned at its own next match, its phrases with it): in hybrid's arm
 * '("urlaub" AND "verfall") OR ...' scores "verfall" nowhere while no decision holds "urlaub".
 */
export function everyTermAdds(tree: MatchTree): ((has: (phrase: number) => boolean) => boolean) | null {
  const nested = (node: MatchTree, belowAny: boolean): boolean => ('phrase' in node ? false
    : 'all' in node ? belowAny || node.all.some((part) => nested(part, false)) : node.any.some((part) => nested(part, true)));
  if (!nested(tree, false)) return null;
  const leaves = (node: MatchTree): number[] => ('phrase' in node ? [node.phrase] : ('all' in node ? node.all : node.any).flatMap(leaves));
  const check = (node: MatchTree): ((has: (phrase: number) => boolean) => boolean) => {
    if ('phrase' in node) return () => true;
    const parts = ('all' in node ? node.all : node.any).map(check);
    if ('any' in node) return (has) => parts.every((part) => part(has));
    const matches = compiled(node);
    const held = leaves(node);
    // An AND that does not match: none of its phrases may be held; one that does: each part as above.
    return (has) => (matches(has) === true ? parts.every((part) => part(has)) : !held.some(has));
  };
  return check(tree);
}

/**
 * A phrase's rows as the lists hold them (null: none that score). `floorOf`: the index's row count where a phrase in
 * half its rows or more may be read as floored (PhraseRows.floor: the state's row sets read where `sets`), else null.
 */
function phraseRows(
  db: Database.Database, phrase: string, memo: Map<string, StoredList | null>, floorOf: { rows: number; sets: boolean } | null = null,
): PhraseRows | null {
  const stored = readList(db, phrase, true, memo, true);
  if (stored) {
    const { ids } = stored.list;
    if (stored.terms === null) return null;
    // An empty list of a phrase in half the rows or more bounds but scores nothing: read as floored where asked.
    if (ids.length === 0 && stored.rows > 0) {
      if (!floorOf || stored.rows * 2 < floorOf.rows) return null;
      const every = stored.rows >= floorOf.rows;
      return {
        ids, terms: stored.terms, more: null, complete: true, rows: stored.rows, matched: null, deeper: true,
        floor: { every, matched: every || !floorOf.sets ? null : readRowSet(db, phrase) },
      };
    }
    const complete = ids.length === stored.rows;
    return { ids, terms: stored.terms, more: null, complete, rows: stored.rows, matched: null, deeper: complete, floor: null };
  }
  const rows = sql<[string, number], { id: number; score: number }>(db,
    `SELECT rowid AS id, ${BM25} AS score FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT +?`).all(phrase, FETCH_MAX + 1);
  if (rows.length > FETCH_MAX) return null;
  return {
    ids: Int32Array.from(rows, (row) => row.id), terms: Float64Array.from(rows, (row) => -row.score), more: null,
    complete: true, rows: rows.length, matched: null, deeper: true, floor: null,
  };
}

/** The list with its deeper rows read, and its row set where it leaves rows out. */
function deepened(db: Database.Database, phrase: string, rows: PhraseRows): PhraseRows {
  const deeper = readDeeper(db, phrase);
  if (!deeper) return { ...rows, deeper: true };
  const n = rows.ids.length + deeper.ids.length;
  return { ...rows, more: { ids: deeper.ids, terms: deeper.terms }, complete: n === rows.rows, matched: deeper.matched, deeper: true };
}

/** The list with only the first `share` of its deeper rows (the rest left out: it is incomplete then). */
function partly(rows: PhraseRows, share: number): PhraseRows {
  if (!rows.more) return rows;
  const n = Math.ceil(rows.more.ids.length * share);
  if (n === rows.more.ids.length) return rows;
  return { ...rows, more: { ids: rows.more.ids.subarray(0, n), terms: rows.more.terms.subarray(0, n) }, complete: false };
}

/**
 * An incomplete list's first `n` rows alone (where it has more): its last term then bounds the rows left out, as the
 * list's rows are a stored list's, best first. A complete list stays whole (a phrase read whole through FTS5 is not
 * in the order of its terms).
 */
function headOf(rows: PhraseRows, n: number): PhraseRows {
  if (rows.complete || rows.ids.length <= n) return rows;
  return { ...rows, ids: rows.ids.subarray(0, n), terms: rows.terms.subarray(0, n), more: null, complete: false };
}

/** Row ids below this find their candidate's slot in arrays (32 MB at most; 8 MB at 500k decisions), others in a Map. */
const TABLE_ROWS = 1 << 22;
let slotTable = new Int32Array(0);
let stampTable = new Uint32Array(0);
let stamp = 0;

/** Grows the slot tables to hold row id `id` (below TABLE_ROWS). */
function growSlots(id: number): void {
  if (id < stampTable.length) return;
  const size = Math.min(TABLE_ROWS, Math.max(1 << 16, 2 ** Math.ceil(Math.log2(id + 1))));
  const stamps = new Uint32Array(size);
  stamps.set(stampTable);
  const table = new Int32Array(size);
  table.set(slotTable);
  [stampTable, slotTable] = [stamps, table];
}

/** The slot tables of one ranking: a row id below `stamps.length` has slot `table[id]` where `stamps[id] === mine`. */
interface SlotTables { stamps: Uint32Array; table: Int32Array; mine: number }

/**
 * An empty map of row ids to candidate slots, for one ranking at a time (the path runs synchronously): the slots of
 * row ids below TABLE_ROWS live in arrays reused from ranking to ranking, valid where stamped with this ranking's
 * number, so nothing is cleared (a Map of 10,000 candidates cost milliseconds). `highest`: the tables are grown to
 * hold row ids up to it now, and `tables` stays valid for them (hot loops read the arrays themselves).
 */
export function slotsOfRows(highest = -1): { get(id: number): number | undefined; set(id: number, slot: number): void; tables: SlotTables } {
  if (++stamp === 0xffffffff) {
    stampTable.fill(0);
    stamp = 1;
  }
  const mine = stamp;
  if (highest >= 0) growSlots(Math.min(highest, TABLE_ROWS - 1));
  const others = new Map<number, number>();
  return {
    get: (id) => (id >= 0 && id < stampTable.length ? (stampTable[id] === mine ? slotTable[id] : undefined) : others.get(id)),
    set: (id, slot) => {
      if (id >= 0 && id < TABLE_ROWS) {
        growSlots(id);
        stampTable[id] = mine;
        slotTable[id] = slot;
      } else {
        others.set(id, slot);
      }
    },
    // The arrays as they are now (a row id set past their length grows them).
    get tables() {
      return { stamps: stampTable, table: slotTable, mine };
    },
  };
}

/** The best `pool` of `slots` in `order` (one pass keeping the best so far, sorted: most slots do not enter it). */
export function best(slots: number[], pool: number, order: (a: number, b: number) => number): number[] {
  const kept: number[] = [];
  for (const slot of slots) {
    if (kept.length === pool && order(slot, kept[pool - 1]) >= 0) continue;
    let at = kept.length === pool ? pool - 1 : kept.length;
    while (at > 0 && order(slot, kept[at - 1]) < 0) {
      kept[at] = kept[at - 1];
      at--;
    }
    kept[at] = slot;
  }
  return kept;
}

/** The rows of `ids` that pass the filter (all where there is none). */
function passing(db: Database.Database, ids: number[], filter: DocFilter): Set<number> | null {
  if (filter.whereOnDocs === '') return null;
  return new Set(sql<unknown[], { doc_id: number }>(db,
    `SELECT s.doc_id FROM search_docs s WHERE s.doc_id IN (SELECT value FROM json_each(?))${filter.whereOnDocs}`)
    .all(JSON.stringify(ids), ...filter.params).map((row) => row.doc_id));
}

/**
 * What the lists' terms gave: the ranking where they prove it; otherwise, without filters, the rows whose scores they
 * know exactly (listed for every phrase, or known to lack it), all matching, with those scores (FTS5's, negative).
 */
export type FromLists = { ranking: RangeRanking } | { known: Map<number, number> };

/**
 * The best `pool` rows matching `expression` with `filter` and their matches, exactly as rankRange over all rows
 * answers, computed from the impact lists' terms (call inside a read transaction); null where the lists do not hold
 * for the index as it is (a row changed since the build, lists without terms), the expression is not one of phrases,
 * AND and OR, or a phrase cannot be read. Where the lists do not prove the pool, the rows they score exactly (without
 * filters). `memo`: the lists read in this ranking (top-k.ts hands the same to its statement path: no list is read twice).
 */
export function listsRanking(
  db: Database.Database, expression: string, filter: DocFilter, pool: number, memo = new Map<string, StoredList | null>(),
): FromLists | null {
  const state = exactState(db);
  if (!state) return null;
  const parsed = parseExpression(expression);
  if (!parsed) return null;
  const byText = new Map<string, PhraseRows | null>();
  // Floored phrases only without filters (the proof below orders the exact rows beyond the pool too).
  const floorOf = filter.whereOnDocs === '' ? { rows: state.rows, sets: state.deeper === true } : null;
  for (const phrase of parsed.phrases) {
    if (!byText.has(phrase)) byText.set(phrase, phraseRows(db, phrase, memo, floorOf));
    if (!byText.get(phrase)) return null;
  }
  const listsOf = () => parsed.phrases.map((phrase) => byText.get(phrase)!);
  const floored = parsed.phrases.filter((phrase) => byText.get(phrase)!.floor !== null).length;
  // The count where a pass did not give it: one phrase's row count as the build counted it (the index is the same),
  // else from the phrases' row sets, else one count-only walk of the expression.
  const countOf = (passMatched: number | null) => {
    let matched = passMatched;
    if (matched === null && filter.whereOnDocs === '') {
      const lists = listsOf();
      if (lists.length === 1) matched = lists[0].rows;
      else if (state.deeper) {
        matched = countFromSets(parsed.tree, withSets(db, parsed.phrases, lists), COUNT_CAP + 1);
        if (matched !== null) listsServed(db).countedFromSets++;
      }
    }
    matched ??= sql<unknown[], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 ${matching(filter)} LIMIT +?)`)
      .get(expression, ...ALL_ROWS, ...filter.params, COUNT_CAP + 1)!.n;
    return Math.min(matched, COUNT_CAP + 1);
  };
  // One phrase or an AND of phrases (and ORs of them): first the threshold algorithm, each row scored the moment it is read.
  const threshold = floored === 0 && filter.whereOnDocs === '' && pool > 0 && !thresholdSetAside(db) ? thresholdQuery(db, parsed, memo, state.deeper === true) : null;
  if (threshold) {
    const found = thresholdRanking(threshold, pool);
    listsServed(db).entries += found.entries;
    if (found.ranking) {
      listsServed(db).threshold++;
      // The count where the algorithm did not read every match: from the lists' row sets (one phrase: its rows).
      const counted = found.matched === null && parsed.phrases.length > 1 ? countFromForms(parsed.tree, threshold.forms, COUNT_CAP + 1) : null;
      if (counted !== null) listsServed(db).countedFromSets++;
      return { ranking: { ...found.ranking, matches: countOf(found.matched ?? counted) } };
    }
  }
  // The passes read each entry once: a deeper pass reads only the entries past those the passes before it read.
  const into = accumulated(parsed.phrases.length);
  // First from the lists' first rows alone (HEAD_ROWS), then four times as many, and so on to the whole lists: where
  // they prove the pool, the rest of each list cannot enter it (its terms are at most the head's last), and the rest
  // of the lists is not read (one phrase: 80 entries instead of 4,000). Not with floored phrases (their order rests on
  // the exact rows beyond the pool) or filters (each pass would read the rows passing them): the whole lists at once.
  let rows = floored === 0 && filter.whereOnDocs === '' ? HEAD_ROWS(pool) : Infinity;
  let found: Ranked;
  for (let pass = 0; ; pass++, rows *= HEAD_GROWTH) {
    const lists = listsOf().map((list) => headOf(list, rows));
    const whole = lists.every((list, phrase) => list === byText.get(parsed.phrases[phrase]));
    readEntries(db, into, parsed.tree, lists);
    // A pass that cannot prove the pool is not tested (unless it is the last over the listed rows: its known rows).
    if (!whole && !mayProve(into, parsed.tree, lists, pool)) continue;
    found = rankedFrom(db, parsed.tree, lists, into, filter, pool);
    // Counted as before session 24: the first pass over the heads (lists shorter than a head whole), and now the
    // passes that read more of them.
    if (found.proven && rows < Infinity && (pass === 0 || !whole)) listsServed(db).fromHead++;
    if (found.proven || whole) break;
  }
  // Not proven by the listed rows: on into the deeper rows of the lists that leave rows out (and their sets), by
  // growing shares of them (DEEPER_SHARES).
  const shallow = [...byText.values()].filter((rows) => !rows!.deeper).length;
  if (!found.proven && !found.tied && state.deeper && 'all' in parsed.tree && shallow > 0 && shallow <= DEEPER_PHRASES) {
    for (const [phrase, rows] of byText) if (!rows!.deeper) byText.set(phrase, deepened(db, phrase, rows!));
    for (const share of DEEPER_SHARES) {
      if (found.proven || found.tied) break;
      const lists = listsOf().map((rows) => (share === 1 ? rows : partly(rows, share)));
      readEntries(db, into, parsed.tree, lists);
      if (share < 1 && !mayProve(into, parsed.tree, lists, pool)) continue;
      found = rankedFrom(db, parsed.tree, lists, into, filter, pool);
      if (found.proven) listsServed(db).deeper++;
    }
  }
  // With floored phrases the rows' sums leave their terms out: not FTS5's scores, so no known rows for the statement path.
  if (!found.proven) return filter.whereOnDocs === '' && floored === 0 ? { known: found.known() } : null;
  if (floored > 0) listsServed(db).floored++;
  return { ranking: { ...found.ranking, matches: countOf(found.matched) } };
}

/**
 * The expression for the threshold algorithm (top-k-threshold.ts) where it is one phrase, an AND of phrases and ORs
 * of phrases, or an OR of phrases (a word and the compounds ending in it), each phrase with a stored list with terms;
 * else null.
 */
function thresholdQuery(db: Database.Database, parsed: { phrases: string[]; tree: MatchTree }, memo: Map<string, StoredList | null>, deeper: boolean): ThresholdQuery | null {
  const { tree } = parsed;
  // An OR of phrases: each phrase is a part no match needs (none required: every list is read).
  const anyOfPhrases = 'any' in tree && tree.any.every((part) => 'phrase' in part);
  const parts = 'phrase' in tree ? [tree] : 'all' in tree ? tree.all : anyOfPhrases ? [tree] : null;
  if (!parts?.every((part) => 'phrase' in part || ('any' in part && part.any.every((alternative) => 'phrase' in alternative)))) return null;
  const forms: ByRow[] = [];
  for (const phrase of parsed.phrases) {
    const stored = readList(db, phrase, true, memo, true);
    // An empty list: a phrase in half the rows or more (floored: not here), or one matching none (complete, empty).
    if (!stored?.terms || (stored.list.ids.length === 0 && stored.rows > 0)) return null;
    const form = byRow(db, phrase, { ...stored, terms: stored.terms }, deeper);
    if (!form) return null;
    forms.push(form);
  }
  const required = parsed.phrases.map((_, phrase) => parts.some((part) => 'phrase' in part && part.phrase === phrase));
  return { forms, required, matches: compiled(tree), ors: parts.some((part) => 'any' in part) };
}

/**
 * The lists' state where their terms are the index's own (built from it, no row changed since), else null: kept while
 * the file is unchanged (its reads of the state, the index's structure and totals were some 25 µs a ranking).
 */
function exactState(db: Database.Database): ImpactState | null {
  return keptRead(db, 'exact state', () => {
    const state = impactState(db);
    if (!state?.terms || !impactListsHold(db, state)) return null;
    const totals = ftsTotals(db);
    if (totals.rows !== state.rows || totals.avgdl !== state.avgdl) return null;
    return sql(db, 'SELECT 1 FROM search_impacts_changed LIMIT 1').get() === undefined ? state : null;
  }, () => 256);
}

/** The lists with the row sets of those that leave rows out read (where not read with their deeper rows). */
const withSets = (db: Database.Database, phrases: string[], lists: PhraseRows[]) =>
  lists.map((list, phrase) => (list.complete || list.matched ? list : { ...list, matched: readRowSet(db, phrases[phrase]) }));

/**
 * The rows matching `expression` (no filters), counted up to `cap`, from the lists' row sets, as FTS5 would count them
 * (call inside a read transaction); null where the lists' terms do not hold for the index as it is, the lists were
 * built before session 20, or the expression is not one of phrases, AND and OR.
 */
export function matchesFromLists(db: Database.Database, expression: string, cap: number): number | null {
  const state = exactState(db);
  const parsed = state?.deeper ? parseExpression(expression) : null;
  if (!parsed) return null;
  const lists: PhraseRows[] = [];
  for (const phrase of parsed.phrases) {
    const rows = phraseRows(db, phrase, new Map());
    if (!rows) return null;
    lists.push(rows);
  }
  return countFromSets(parsed.tree, withSets(db, parsed.phrases, lists), cap);
}

/**
 * Per candidate (by its slot), reused from ranking to ranking (the path runs synchronously): its row id, its score so
 * far (the terms of the phrases it is listed for, in the order read), the phrases it is listed for (bits, `words` a
 * candidate) and its last entry read (`lastEntry`, with three phrases or more).
 */
let arrays = { ids: new Int32Array(0), score: new Float64Array(0), listedIn: new Uint32Array(0), lastEntry: new Int32Array(0) };
/**
 * Per entry read (with three phrases or more): its phrase, its term and the entry read before it for the same candidate
 * (-1: none), from which an exact row's score is summed again in the expression's order, as bm25() adds the terms (a
 * row's terms arrive in the order the passes read them). Per entry, not per candidate and phrase: a query of many
 * phrases would take that many times the memory.
 */
let entryArrays = { phrase: new Int32Array(0), term: new Float64Array(0), previous: new Int32Array(0) };

/** An array of at least `size` values, the first `kept` of `array` in it. */
function grown<T extends Int32Array | Uint32Array | Float64Array>(array: T, size: number, kept: number, make: (size: number) => T): T {
  if (array.length >= size) return array;
  const larger = make(Math.max(size, 2 * array.length));
  larger.set(array.subarray(0, kept));
  return larger;
}

/** The candidate arrays holding `capacity` candidates of `m` phrases, the first `kept` candidates' values kept. */
function candidateArrays(capacity: number, m: number, kept: number) {
  const words = Math.ceil(m / 32);
  arrays = {
    ids: grown(arrays.ids, capacity, kept, (size) => new Int32Array(size)),
    score: grown(arrays.score, capacity, kept, (size) => new Float64Array(size)),
    listedIn: grown(arrays.listedIn, capacity * words, kept * words, (size) => new Uint32Array(size)),
    lastEntry: grown(arrays.lastEntry, capacity, kept, (size) => new Int32Array(size)),
  };
  return arrays;
}

/** The entry arrays holding `capacity` entries, the first `kept` entries' values kept. */
function entriesArrays(capacity: number, kept: number) {
  entryArrays = {
    phrase: grown(entryArrays.phrase, capacity, kept, (size) => new Int32Array(size)),
    term: grown(entryArrays.term, capacity, kept, (size) => new Float64Array(size)),
    previous: grown(entryArrays.previous, capacity, kept, (size) => new Int32Array(size)),
  };
  return entryArrays;
}

/** A phrase's term per phrase of one candidate (summed in order, then cleared). */
let termScratch = new Float64Array(0);

/** An exact candidate's score as bm25() adds it: its terms in the expression's order (its entries by phrase). */
function orderedSum(slot: number, m: number): number {
  if (termScratch.length < m) termScratch = new Float64Array(m);
  const { phrase, term, previous } = entryArrays;
  for (let entry = arrays.lastEntry[slot]; entry >= 0; entry = previous[entry]) termScratch[phrase[entry]] = term[entry];
  let sum = 0;
  for (let at = 0; at < m; at++) {
    sum += termScratch[at];
    termScratch[at] = 0;
  }
  return sum;
}

/**
 * The lists' entries read into candidates so far in one ranking: `read` entries of each list (its listed rows, then its
 * deeper ones), `count` candidates in the candidate arrays. A pass reads only the entries past those (a deeper pass
 * no longer reads the lists anew from their first rows).
 */
interface Accumulated {
  read: number[];
  count: number;
  /** Entries kept in the entry arrays (three phrases or more). */
  kept: number;
  slots: ReturnType<typeof slotsOfRows>;
  /** The rows every match holds as a pass found them (requiredBits), with the list they were taken from. */
  required: { from: PhraseRows; bits: Uint8Array | null } | null;
}

const accumulated = (m: number): Accumulated => ({ read: new Array<number>(m).fill(0), count: 0, kept: 0, slots: slotsOfRows(), required: null });

/** Entries in a list: its listed rows and the deeper ones read. */
const entriesOf = (list: PhraseRows) => list.ids.length + (list.more?.ids.length ?? 0);

/**
 * Reads the entries of `lists` (each the same list as in the passes before, as deep or deeper) past those read into
 * `into`. Entries of rows outside the set of a phrase every match holds are skipped: such rows cannot match (at 500k
 * decisions the lists' deeper rows held 100,000 entries, most of rows lacking the rarest required phrase).
 */
function readEntries(db: Database.Database, into: Accumulated, tree: MatchTree, lists: PhraseRows[]): void {
  const m = lists.length;
  const words = Math.ceil(m / 32);
  const entries = lists.reduce((sum, list, phrase) => sum + entriesOf(list) - into.read[phrase], 0);
  const capacity = into.count + entries;
  const { ids, score, listedIn, lastEntry } = candidateArrays(capacity, m, into.count);
  const { slots } = into;
  let { stamps, table } = slots.tables;
  const { mine } = slots.tables;
  // The rows every match holds, from the list of the phrase that says so: a complete list's bitmap built once a ranking.
  const rarest = requiredPhrase(tree, lists);
  if (rarest >= 0 && into.required?.from !== lists[rarest]) into.required = { from: lists[rarest], bits: requiredBits(lists[rarest]) };
  const required = rarest >= 0 && into.required!.bits !== null ? { phrase: rarest, bits: into.required!.bits } : null;
  // Entries are kept only where an exact row's terms must be summed again in order (three phrases or more).
  const perPhrase = m > 2;
  const { phrase: entryPhrase, term: entryTerm, previous } = perPhrase ? entriesArrays(into.kept + entries, into.kept) : entryArrays;
  let kept = into.kept;
  let skipped = 0;
  let count = into.count;
  // Plain loops, no closure: the hot loop's variables stay the function's own.
  for (let phrase = 0; phrase < m; phrase++) {
    const word = phrase >>> 5;
    const bit = 1 << (phrase & 31);
    let offset = 0;
    for (const part of partsOf(lists[phrase])) {
      const partIds = part.ids;
      const partTerms = part.terms;
      // This part's entries not read yet.
      const from = Math.max(0, into.read[phrase] - offset);
      offset += partIds.length;
      for (let i = from; i < partIds.length; i++) {
        const id = partIds[i];
        if (required !== null && phrase !== required.phrase
          && (id < 0 || (id >> 3) >= required.bits.length || (required.bits[id >> 3] & (1 << (id & 7))) === 0)) {
          skipped++;
          continue;
        }
        let slot: number | undefined;
        let fresh = false;
        // The tables hold every row id below their length (negative ids and ids past TABLE_ROWS: the map; the tables
        // are grown for the others).
        if (id >= 0 && id < stamps.length) {
          if (stamps[id] === mine) slot = table[id];
          else {
            stamps[id] = mine;
            table[id] = slot = count++;
            fresh = true;
          }
        } else if ((slot = slots.get(id)) === undefined) {
          slots.set(id, (slot = count++));
          ({ stamps, table } = slots.tables);
          fresh = true;
        }
        const term = partTerms[i];
        if (fresh) {
          ids[slot] = id;
          score[slot] = term;
          for (let w = 0; w < words; w++) listedIn[slot * words + w] = 0;
          listedIn[slot * words + word] = bit;
          lastEntry[slot] = -1;
        } else {
          score[slot] += term;
          listedIn[slot * words + word] |= bit;
        }
        if (perPhrase) {
          entryPhrase[kept] = phrase;
          entryTerm[kept] = term;
          previous[kept] = lastEntry[slot];
          lastEntry[slot] = kept++;
        }
      }
    }
    into.read[phrase] = offset;
  }
  into.count = count;
  into.kept = kept;
  listsServed(db).entries += entries;
  listsServed(db).skipped += skipped;
}

/** A bitmap reused from pass to pass for a required phrase whose list is complete (cleared before each use). */
let requiredScratch = new Uint8Array(0);

/**
 * The rarest phrase of the tree's top AND (every match holds it) whose rows are known (its list complete, or its row
 * set read); -1 where none is or the tree is no AND.
 */
function requiredPhrase(tree: MatchTree, lists: PhraseRows[]): number {
  let phrase = -1;
  if (!('all' in tree)) return phrase;
  for (const part of tree.all) {
    if (!('phrase' in part)) continue;
    const list = lists[part.phrase];
    // A floored phrase lists no rows: its empty list says nothing of the rows it holds.
    if (list.floor === null && (list.complete || list.matched !== null) && (phrase < 0 || list.rows < lists[phrase].rows)) phrase = part.phrase;
  }
  return phrase;
}

/**
 * The rows of a phrase every match holds (requiredPhrase) as a bitmap by row id (bit `id & 7` of byte `id >> 3`): its
 * row set, or a complete list's rows (the scratch, valid until the next call); null where a row id is negative.
 */
function requiredBits(list: PhraseRows): Uint8Array | null {
  if (!list.complete) return list.matched!;
  const size = (highestOf(list) >> 3) + 1;
  if (requiredScratch.length < size) requiredScratch = new Uint8Array(Math.max(size, 2 * requiredScratch.length));
  else requiredScratch.fill(0, 0, size);
  for (const { ids } of partsOf(list)) {
    for (let i = 0; i < ids.length; i++) {
      // A negative row id has no bit (a row set leaves such rows out too: lacks() below says so).
      if (ids[i] < 0) return null;
      requiredScratch[ids[i] >> 3] |= 1 << (ids[i] & 7);
    }
  }
  return requiredScratch;
}

/** Each list's last term read (0 for a complete list): the most a row it leaves out scores for its phrase. */
const lastTerms = (lists: PhraseRows[]) => lists.map((list) => (list.complete ? 0 : lastTerm(list)));

/**
 * The most a row in no list scores: the sum of the incomplete lists' last terms; -Infinity where such a row cannot
 * match (it lacks every phrase of a complete list, may have those of the others; a floored phrase: every row's, or
 * unknown).
 */
function boundOfUnlisted(tree: MatchTree, lists: PhraseRows[]): number {
  const inNoList = compiled(tree)((phrase) => {
    const { floor } = lists[phrase];
    if (floor !== null) return floor.every ? true : null;
    return lists[phrase].complete ? false : null;
  });
  return inNoList === false ? -Infinity : lastTerms(lists).reduce((sum, last) => sum + last, 0);
}

/**
 * Whether a pass over `lists` may prove the pool (one quick look at the candidates' sums and bits, before the pass's
 * test of each candidate): every row of the pool is known exactly, so listed for each phrase whose list leaves rows out
 * and says nothing of them (no row set), and scores above the most a row in no list scores; at least `pool`
 * candidates must be so. Where every list is so (and no phrase floored), that is the pass's own test (rankedFrom)
 * without its closures: a candidate listed for every phrase is exact and matches, any other may match, bounded by its
 * sum and the last terms of the phrases it is not listed for, and the pool's last must beat every such bound.
 */
function mayProve(into: Accumulated, tree: MatchTree, lists: PhraseRows[], pool: number): boolean {
  const bound = boundOfUnlisted(tree, lists);
  if (bound === -Infinity) return true;
  const m = lists.length;
  const words = Math.ceil(m / 32);
  const lasts = lastTerms(lists);
  // The phrases an exact row is listed for (the first 32 of them: enough to say it may not be exact).
  let needed = 0;
  lists.forEach((list, phrase) => {
    if (phrase < 32 && !list.complete && list.matched === null) needed |= 1 << phrase;
  });
  const plain = m <= 32 && lists.every((list) => !list.complete && list.matched === null && list.floor === null);
  const { score, listedIn } = arrays;
  // The best `pool` sums of candidates that may be exact, best first; the most any other candidate scores.
  const kept: number[] = [];
  let others = bound;
  for (let at = 0; at < into.count; at++) {
    const listed = listedIn[at * words];
    if ((listed & needed) !== needed) {
      if (plain) {
        let most = score[at];
        for (let missing = needed & ~listed; missing !== 0; missing &= missing - 1) most += lasts[31 - Math.clz32(missing & -missing)];
        if (most > others) others = most;
      }
    } else if (score[at] > bound && (kept.length < pool || score[at] > kept[pool - 1])) {
      let place = kept.length < pool ? kept.length : pool - 1;
      while (place > 0 && kept[place - 1] < score[at]) {
        kept[place] = kept[place - 1];
        place--;
      }
      kept[place] = score[at];
    }
  }
  return kept.length === pool && (!plain || kept[pool - 1] > others * (1 + MARGIN) + MARGIN);
}

/** What one pass over the lists gave: the ranking (matches: `matched`, null where not known) or the rows known exactly. */
type Ranked = { proven: true; ranking: RangeRanking; matched: number | null }
  | { proven: false; known: () => Map<number, number>; tied?: boolean };

/**
 * The ranking the lists (one per phrase of `tree`, in the expression's order) prove, with the count where they hold
 * every match; otherwise the rows they score exactly. A candidate is known exactly where, for each phrase, it is
 * listed, or the phrase's list is complete, or the phrase's row set says it lacks the phrase.
 */
function rankedFrom(db: Database.Database, tree: MatchTree, lists: PhraseRows[], into: Accumulated, filter: DocFilter, pool: number): Ranked {
  const m = lists.length;
  const words = Math.ceil(m / 32);
  const { count } = into;
  const { ids, score, listedIn } = arrays;
  // The most a row not listed for a phrase of an incomplete list scores for it: the list's last term.
  const lasts = lastTerms(lists);
  // The phrases of incomplete lists (bits, `words` of them): a candidate not listed for one may hold it.
  const open = new Uint32Array(words);
  lists.forEach((list, phrase) => {
    if (!list.complete) open[phrase >>> 5] |= 1 << (phrase & 31);
  });
  // Any of the phrases (hybrid's arm): every candidate is listed for one, so it matches.
  const anyPhrase = 'phrase' in tree || ('any' in tree && tree.any.every((part) => 'phrase' in part));
  // The candidate the tree is tested for (one function each way, not a closure per candidate).
  let at = 0;
  const isListed = (phrase: number) => (listedIn[at * words + (phrase >>> 5)] & (1 << (phrase & 31))) !== 0;
  // Whether the candidate has the phrase: listed; not, where the list is complete or its row set leaves it out; else
  // unknown (null).
  const lacks = (phrase: number) => {
    const { complete, matched } = lists[phrase];
    if (complete) return true;
    if (matched === null) return false;
    const id = ids[at];
    return (id >> 3) >= matched.length || (matched[id >> 3] & (1 << (id & 7))) === 0;
  };
  // A floored phrase: held by every row, or as its row set says, or unknown (null: no set stored).
  const floors = lists.map((list) => list.floor);
  const floorHas = (floor: NonNullable<PhraseRows['floor']>, id: number) => (floor.every ? true : floor.matched === null ? null
    : (id >> 3) < floor.matched.length && (floor.matched[id >> 3] & (1 << (id & 7))) !== 0);
  const mayHave = (phrase: number) => {
    const floor = floors[phrase];
    if (floor !== null) return floorHas(floor, ids[at]);
    return isListed(phrase) ? true : lacks(phrase) ? false : null;
  };
  // Held as far as known (a floored phrase not known to be held: not; everyTermAdds then bounds rather than scores).
  const holds = (phrase: number) => isListed(phrase) || (floors[phrase] !== null && mayHave(phrase) === true);
  // A row in no list: lacks every phrase of a complete list, may have those of the others (a floored phrase: every
  // row's, or unknown).
  const matches = compiled(tree);
  let others = boundOfUnlisted(tree, lists);
  const exact: number[] = [];
  // A row holding a phrase whose AND does not match it is bounded, not scored: its sum holds that phrase's term.
  const adds = everyTermAdds(tree);
  for (at = 0; at < count; at++) {
    // The most its phrases not listed add: the lists' last terms, but for those it lacks (complete lists, row sets:
    // FTS5 adds 0.0 for them).
    let most = 0;
    for (let word = 0; word < words; word++) {
      for (let missing = open[word] & ~listedIn[at * words + word]; missing !== 0; missing &= missing - 1) {
        const phrase = 32 * word + 31 - Math.clz32(missing & -missing);
        if (!lacks(phrase)) most += lasts[phrase];
      }
    }
    if (most === 0 && (adds === null || adds(holds))) {
      // Whether it matches: true, false, or null where a phrase it may hold is not known (a floored one without a set).
      const match = anyPhrase || matches(mayHave);
      if (match === true) {
        // Its score as bm25() adds it, the terms in the expression's order (two add alike either way round).
        if (m > 2) score[at] = orderedSum(at, m);
        exact.push(at);
      }
      else if (match === null && score[at] > others) others = score[at];
    } else if (score[at] + most > others && (anyPhrase || matches(mayHave) !== false)) {
      others = score[at] + most;
    }
  }
  // Floored phrases' terms (each below FLOOR_TERM) are left out of the sums: a row's score is its sum plus at most
  // `slack`, so one sum must beat another by more than that to order them as FTS5 does (without filters only).
  const slack = floors.filter((floor) => floor !== null).length * FLOOR_TERM;
  const apart = (a: number, b: number) => a > (b + slack) * (1 + MARGIN) + MARGIN;
  // Best first as FTS5 orders them (score, then row id); without filters only the pool's rows are ordered (and the
  // row after them where sums leave floored terms out).
  const byScore = (a: number, b: number) => score[b] - score[a] || ids[a] - ids[b];
  const ordered = filter.whereOnDocs === '' ? best(exact, slack > 0 ? pool + 1 : pool, byScore) : exact.sort(byScore);
  const everyMatch = others === -Infinity;
  let top: number[];
  let matched: number | null = null;
  if (filter.whereOnDocs === '') {
    top = ordered.slice(0, pool);
    if (everyMatch) matched = exact.length;
  } else if (everyMatch) {
    const pass = passing(db, exact.map((slot) => ids[slot]), filter)!;
    const kept = ordered.filter((slot) => pass.has(ids[slot]));
    top = kept.slice(0, pool);
    matched = kept.length;
  } else {
    // The best rows passing the filter, read in growing steps.
    top = [];
    for (let from = 0, step = Math.max(2 * pool, 64); from < ordered.length && top.length < pool; from += step, step *= 2) {
      const part = ordered.slice(from, from + step);
      const pass = passing(db, part.map((slot) => ids[slot]), filter)!;
      for (const slot of part) if (pass.has(ids[slot]) && top.length < pool) top.push(slot);
    }
  }
  // With floored phrases every two rows of the pool, and its last and the next exact row, must be that far apart.
  const unordered = slack > 0 && top.some((slot, i) => (i + 1 < ordered.length && !apart(score[slot], score[ordered[i + 1]])));
  if (unordered || (!everyMatch && (top.length < pool || !apart(score[top[pool - 1]], others)))) {
    // The map built where asked for only (the last pass): 50,000 rows took some 16 ms at 500k. Its rows copied into
    // two typed arrays (the candidate arrays are the next pass's), not into a pair per row: garbage in every pass.
    const knownIds = Int32Array.from(exact, (slot) => ids[slot]);
    const knownScores = Float64Array.from(exact, (slot) => -score[slot]);
    // `tied`: exact rows of the pool too close to order without the floored terms; the deeper passes are not tried then
    // (rows they bring in could push a tied pair out of the pool, which is rarely so: FTS5 ranks it instead).
    return { proven: false, known: () => new Map(Array.from(knownIds, (id, at) => [id, knownScores[at]])), tied: unordered };
  }
  return { proven: true, ranking: { docIds: top.map((slot) => ids[slot]), scores: top.map((slot) => -score[slot]), matches: 0 }, matched };
}

/** Bitmaps reused from count to count for the phrases whose row sets are their rows (bits cleared after each count). */
const setScratch: Uint32Array[] = [];
/** No bit set: a floored phrase whose rows are not known, counted as in no row. */
const NO_ROWS = new Uint32Array(0);
/** Every bit set: the rows of a floored phrase every row holds (never written after it is filled). */
let onesScratch = new Uint32Array(0);

/**
 * The rows matching `tree`, counted up to `cap`, from the phrases' row sets: a complete list's rows, or the bitmap of an
 * incomplete one (null where one has none: the caller counts through FTS5).
 */
function countFromSets(tree: MatchTree, lists: PhraseRows[], cap: number): number | null {
  // A row set where the rows are not a complete list's: an incomplete list's, or a floored phrase's.
  const setOf = (list: PhraseRows) => (list.floor ? list.floor.matched : list.complete ? null : list.matched);
  const every = (phrase: number) => lists[phrase].floor?.every === true;
  // A floored phrase without a stored set: counted both as in no row and as in every row, the count taken where
  // both agree (an OR holding a phrase of every row: 'Stand' as '"stand"* OR "tatbestand" OR ...').
  const unknown = (phrase: number) => lists[phrase].floor !== null && !every(phrase) && lists[phrase].floor!.matched === null;
  if (lists.some((list, phrase) => !every(phrase) && !unknown(phrase) && !(list.complete && !list.floor) && setOf(list) === null)) return null;
  // A phrase in every row sets every bit, those of row ids no row has too: only where no row matches by such phrases
  // alone.
  const loose = (phrase: number) => every(phrase) || unknown(phrase);
  if (lists.some((_, phrase) => loose(phrase)) && compiled(tree)(loose) !== false) return null;
  let size = 0;
  for (const [phrase, list] of lists.entries()) {
    const set = setOf(list);
    if (!loose(phrase)) size = Math.max(size, set ? (set.length + 3) >> 2 : (highestOf(list) >> 5) + 1);
  }
  if (onesScratch.length < size) onesScratch = new Uint32Array(Math.max(size, 2 * onesScratch.length)).fill(0xffffffff);
  const filled: { bits: Uint32Array; ids: Int32Array }[] = [];
  const bits = lists.map((list, phrase) => {
    if (every(phrase)) return onesScratch;
    if (unknown(phrase)) return NO_ROWS;
    const bytes = setOf(list);
    if (bytes === null) {
      if ((setScratch[phrase]?.length ?? 0) < size) setScratch[phrase] = new Uint32Array(size);
      const scratch = setScratch[phrase];
      for (const { ids } of partsOf(list)) {
        for (let i = 0; i < ids.length; i++) scratch[ids[i] >> 5] |= 1 << (ids[i] & 31);
        filled.push({ bits: scratch, ids });
      }
      return scratch;
    }
    return wordsOf(bytes);
  });
  const high = lists.some((_, phrase) => unknown(phrase))
    ? compiledWords(tree, bits.map((set, phrase) => (unknown(phrase) ? onesScratch : set))) : null;
  const count = countedWords(compiledWords(tree, bits), high, size, cap);
  for (const { bits: scratch, ids } of filled) for (let i = 0; i < ids.length; i++) scratch[ids[i] >> 5] = 0;
  return count;
}

/** A stored bitmap as words (its bytes in order: little-endian words), padded where its length is not a multiple of 4. */
function wordsOf(bytes: Uint8Array): Uint32Array {
  if (bytes.byteOffset % 4 === 0 && bytes.length % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  const words = new Uint32Array((bytes.length + 3) >> 2);
  new Uint8Array(words.buffer).set(bytes);
  return words;
}

/**
 * The rows of the first `size` words of `word` (the rows matching a tree), counted up to `cap`; null where `high` (the
 * same tree with the phrases of unknown rows in every row) says otherwise for a word.
 */
function countedWords(word: (w: number) => number, high: ((w: number) => number) | null, size: number, cap: number): number | null {
  let count = 0;
  for (let w = 0; w < size && count < cap; w++) {
    const low = word(w);
    if (high !== null && high(w) !== low) return null;
    count += bitsIn(low);
  }
  return Math.min(count, cap);
}

/**
 * The rows matching `tree` (no floored phrase), counted up to `cap`, from the threshold algorithm's lists by row id: a
 * complete list's rows are its marks, another's its row set (null where it has none).
 */
function countFromForms(tree: MatchTree, forms: ByRow[], cap: number): number | null {
  const bits: Uint32Array[] = [];
  for (const form of forms) {
    if (form.complete) bits.push(form.bits);
    else if (form.matched) bits.push(wordsOf(form.matched));
    else return null;
  }
  return countedWords(compiledWords(tree, bits), null, Math.max(...bits.map((set) => set.length)), cap);
}

/** The tree as a function of a word's index to the word of rows matching it (a word past a bitmap's end: 0). */
function compiledWords(tree: MatchTree, bits: Uint32Array[]): (w: number) => number {
  if ('phrase' in tree) {
    const set = bits[tree.phrase];
    return (w) => (w < set.length ? set[w] : 0);
  }
  const parts = ('all' in tree ? tree.all : tree.any).map((part) => compiledWords(part, bits));
  if ('all' in tree) {
    return (w) => {
      let word = parts[0](w);
      for (let i = 1; i < parts.length && word !== 0; i++) word &= parts[i](w);
      return word;
    };
  }
  return (w) => {
    let word = 0;
    for (const part of parts) word |= part(w);
    return word;
  };
}

/** listsRanking's ranking where the lists prove it, else null. */
export function rankFromLists(db: Database.Database, expression: string, filter: DocFilter, pool: number): RangeRanking | null {
  const found = listsRanking(db, expression, filter, pool);
  return found && 'ranking' in found ? found.ranking : null;
}
