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
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { ftsTotals, impactListsHold, impactState, readList, type StoredList } from './impact-lists.ts';
import { ALL_ROWS, BM25, COUNT_CAP, matching, type DocFilter, type RangeRanking } from './rank-range.ts';

/** A phrase without a list is read whole up to this many rows; beyond it the path gives up. */
export const FETCH_MAX = 1_000;
/** Rounding room between a bound summed in JS and a score (both double): a bound is beaten only with this to spare. */
const MARGIN = 1e-6;

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
 * Whether the lists' terms are the index's as this connection reads it: lists with terms, sealed with its state, and
 * no row changed since the build (same row count and average length: the same IDFs and saturations).
 */
export function termsHold(db: Database.Database): boolean {
  const state = impactState(db);
  if (!state?.terms || !impactListsHold(db, state)) return false;
  const totals = ftsTotals(db);
  if (totals.rows !== state.rows || totals.avgdl !== state.avgdl) return false;
  return sql(db, 'SELECT 1 FROM search_impacts_changed LIMIT 1').get() === undefined;
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

/** A phrase's rows with their terms, best first; complete where it holds every row the phrase matches. */
interface PhraseRows { ids: Int32Array; terms: Float64Array; complete: boolean }

function phraseRows(db: Database.Database, phrase: string, memo: Map<string, StoredList | null>): PhraseRows | null {
  const stored = readList(db, phrase, true, memo);
  if (stored) {
    const { ids } = stored.list;
    // An empty list of a phrase in half the rows or more bounds but scores nothing.
    if (stored.terms === null || (ids.length === 0 && stored.rows > 0)) return null;
    return { ids, terms: stored.terms, complete: ids.length === stored.rows };
  }
  const rows = sql<[string, number], { id: number; score: number }>(db,
    `SELECT rowid AS id, ${BM25} AS score FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT ?`).all(phrase, FETCH_MAX + 1);
  if (rows.length > FETCH_MAX) return null;
  return { ids: Int32Array.from(rows, (row) => row.id), terms: Float64Array.from(rows, (row) => -row.score), complete: true };
}

/** Row ids below this find their candidate's slot in arrays (32 MB at most; 8 MB at 500k decisions), others in a Map. */
const TABLE_ROWS = 1 << 22;
let slotTable = new Int32Array(0);
let stampTable = new Uint32Array(0);
let stamp = 0;

/**
 * An empty map of row ids to candidate slots, for one ranking at a time (the path runs synchronously): the slots of
 * row ids below TABLE_ROWS live in arrays reused from ranking to ranking, valid where stamped with this ranking's
 * number, so nothing is cleared (a Map of 10,000 candidates cost milliseconds).
 */
export function slotsOfRows(): { get(id: number): number | undefined; set(id: number, slot: number): void } {
  if (++stamp === 0xffffffff) {
    stampTable.fill(0);
    stamp = 1;
  }
  const mine = stamp;
  const others = new Map<number, number>();
  return {
    get: (id) => (id >= 0 && id < stampTable.length ? (stampTable[id] === mine ? slotTable[id] : undefined) : others.get(id)),
    set: (id, slot) => {
      if (id >= 0 && id < TABLE_ROWS) {
        if (id >= stampTable.length) {
          const size = Math.min(TABLE_ROWS, Math.max(1 << 16, 2 ** Math.ceil(Math.log2(id + 1))));
          const stamps = new Uint32Array(size);
          stamps.set(stampTable);
          const table = new Int32Array(size);
          table.set(slotTable);
          [stampTable, slotTable] = [stamps, table];
        }
        stampTable[id] = mine;
        slotTable[id] = slot;
      } else {
        others.set(id, slot);
      }
    },
  };
}

/** The best `pool` of `slots` in `order` (one pass keeping the best so far, sorted: most slots do not enter it). */
function best(slots: number[], pool: number, order: (a: number, b: number) => number): number[] {
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
  if (!termsHold(db)) return null;
  const parsed = parseExpression(expression);
  if (!parsed) return null;
  const lists: PhraseRows[] = [];
  const byText = new Map<string, PhraseRows | null>();
  for (const phrase of parsed.phrases) {
    if (!byText.has(phrase)) byText.set(phrase, phraseRows(db, phrase, memo));
    const rows = byText.get(phrase);
    if (!rows) return null;
    lists.push(rows);
  }
  const m = lists.length;
  const words = Math.ceil(m / 32);
  const capacity = lists.reduce((sum, list) => sum + list.ids.length, 0);
  // Per candidate (by its slot): its score so far (the terms of the phrases it is listed for, added in the
  // expression's order, as bm25() adds them), the phrases it is listed for (bits), how many incomplete lists hold it
  // and the sum of those lists' last terms.
  const ids = new Int32Array(capacity);
  const score = new Float64Array(capacity);
  const listedIn = new Uint32Array(capacity * words);
  const held = new Uint16Array(capacity);
  const heldLast = new Float64Array(capacity);
  const slots = slotsOfRows();
  let count = 0;
  // The most a row not listed for a phrase of an incomplete list scores for it: the list's last term.
  let unlisted = 0;
  let incomplete = 0;
  lists.forEach((list, phrase) => {
    const last = list.complete ? 0 : list.terms[list.terms.length - 1];
    if (!list.complete) {
      unlisted += last;
      incomplete++;
    }
    const word = phrase >>> 5;
    const bit = 1 << (phrase & 31);
    for (let i = 0; i < list.ids.length; i++) {
      let slot = slots.get(list.ids[i]);
      if (slot === undefined) slots.set(list.ids[i], (slot = count++));
      ids[slot] = list.ids[i];
      score[slot] += list.terms[i];
      listedIn[slot * words + word] |= bit;
      if (!list.complete) {
        held[slot]++;
        heldLast[slot] += last;
      }
    }
  });
  // Any of the phrases (hybrid's arm): every candidate is listed for one, so it matches.
  const anyPhrase = 'phrase' in parsed.tree || ('any' in parsed.tree && parsed.tree.any.every((part) => 'phrase' in part));
  // The candidate the tree is tested for (one function each way, not a closure per candidate).
  let at = 0;
  const isListed = (phrase: number) => (listedIn[at * words + (phrase >>> 5)] & (1 << (phrase & 31))) !== 0;
  const mayHave = (phrase: number) => (isListed(phrase) ? true : lists[phrase].complete ? false : null);
  // A row in no list: lacks every phrase of a complete list, may have those of the others.
  const matches = compiled(parsed.tree);
  let others = matches((phrase) => (lists[phrase].complete ? false : null)) === false ? -Infinity : unlisted;
  const exact: number[] = [];
  // A row holding a phrase whose AND does not match it is bounded, not scored: its sum holds that phrase's term.
  const adds = everyTermAdds(parsed.tree);
  for (at = 0; at < count; at++) {
    if (held[at] === incomplete && (adds === null || adds(isListed))) {
      if (anyPhrase || matches(isListed)) exact.push(at);
    } else {
      const most = score[at] + (unlisted - heldLast[at]);
      if (most > others && (anyPhrase || matches(mayHave) !== false)) others = most;
    }
  }
  // Best first as FTS5 orders them (score, then row id); without filters only the pool's rows are ordered.
  const byScore = (a: number, b: number) => score[b] - score[a] || ids[a] - ids[b];
  const ordered = filter.whereOnDocs === '' ? best(exact, pool, byScore) : exact.sort(byScore);
  const everyMatch = others === -Infinity;
  let top: number[];
  let matched: number | null = null;
  if (filter.whereOnDocs === '') {
    top = ordered;
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
  if (!everyMatch && (top.length < pool || !(score[top[pool - 1]] > others * (1 + MARGIN) + MARGIN))) {
    return filter.whereOnDocs === '' ? { known: new Map(exact.map((slot) => [ids[slot], -score[slot]])) } : null;
  }
  if (matched === null) {
    // One phrase, no filter: its row count as the build counted it (the index is the same).
    const stored = m === 1 && filter.whereOnDocs === ''
      ? sql<[string], { rows: number }>(db, 'SELECT rows FROM search_impacts WHERE phrase = ?').get(parsed.phrases[0]) : undefined;
    matched = stored?.rows ?? sql<unknown[], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 ${matching(filter)} LIMIT ?)`)
      .get(expression, ...ALL_ROWS, ...filter.params, COUNT_CAP + 1)!.n;
  }
  return { ranking: { docIds: top.map((slot) => ids[slot]), scores: top.map((slot) => -score[slot]), matches: Math.min(matched, COUNT_CAP + 1) } };
}

/** listsRanking's ranking where the lists prove it, else null. */
export function rankFromLists(db: Database.Database, expression: string, filter: DocFilter, pool: number): RangeRanking | null {
  const found = listsRanking(db, expression, filter, pool);
  return found && 'ranking' in found ? found.ranking : null;
}
