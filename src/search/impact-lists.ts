// Impact lists beside decisions_fts, for the top-k path (src/search/top-k.ts). FTS5's BM25 score of a row is a sum over
// the query's phrases of IDF(phrase) * s(phrase, row), where the saturation s = f(k1+1) / (f + k1(1-b+b*D/avgdl)) grows
// with the phrase's weighted count f in the row (title 4, lead 2.5, body 1) and falls with the row's length D. For each
// phrase that many rows match (a word as '"stem"', a word with the words it begins as '"stem"*'), the list holds the
// rows of highest s, best first, with their s, and the highest s of any row not listed: so a row outside the lists is
// bounded without reading it. The s values are FTS5's own (one single-phrase bm25() per phrase divided by its IDF),
// rounded up.
//
// Kept in step by the index drain (index-sync.ts): every decision row written or removed since the lists were built
// is noted in search_impacts_changed (written rows by the drain, removed ones by a trigger on search_docs) and always
// scored by the top-k path; past CHANGED_MAX noted rows the drain builds the lists anew. After each drain the state of
// the index is sealed into meta ('search_impacts'): a file written since by anything else (an older juralite) fails
// the seal, and the top-k path is not taken there. Nothing else reads these tables; a file without them ranks in full.
//
// Since session 19 each list also holds its rows' BM25 terms as FTS5 computed them (IDF times saturation, the double
// that bm25() adds up for the phrase): while the index is the one the lists were built from, FTS5's score of a row
// for any expression of such phrases is the sum of these terms in the expression's phrase order, so a ranking proven
// from the lists needs no FTS5 statement (top-k-lists.ts). Kept in a column of its own: a juralite that does not know
// it reads `listed` as before and leaves the column empty when it builds, which the state's `terms` then says.
//
// Since session 20 a list also holds, in two more columns read only where the first rows do not prove a ranking, the
// rows after them down to DEEPER_FACTOR times the list's length with their terms (`deeper`), and, where the listed
// rows leave rows of the phrase out, the set of every row the phrase matches as a bitmap (`matched`): the count of a
// ranking proven from the lists is then taken from the sets, without FTS5's set-up of the expression (at 500k
// decisions its prefix merges cost 3-4 ms a query), and a candidate known to lack a phrase is known exactly. The
// state's `deeper` says every list was built so; an older juralite that builds leaves both columns empty and the
// state without it.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { bridgeUnits } from './bridge-units.ts';
import { keptRead } from './kept-reads.ts';
import { PREFIX_MIN } from './query.ts';
import { BM25, indexFingerprint } from './rank-range.ts';

/** FTS5's BM25 constant k1 (fts5_aux.c): a phrase's saturation stays below k1 + 1. */
export const K1 = 1.2;
/**
 * Rows listed per phrase for an index of `rows` rows: 4,000, and a hundredth of the rows beyond 400,000. Since session
 * 19 a ranking is proven from the lists' terms alone where the pool's rows are listed for every phrase: at 100k, lists
 * of 1,000 / 2,000 / 3,000 / 4,000 rows proved 36 / 70 / 80 / 88 of 100 keyword pages so. At 500k lists of 20,000
 * rows proved 55 of 60 so, but reading them cost more than it saved (keyword path 24.8 ms p50, hybrid's arm 30.3
 * against 19.5 before); lists of 5,000: 34 of 60 from the terms, the path 4.9 against 10.8 ms, hybrid's arm 19.7
 * against 21.3 (bench/README, session 19).
 */
export const listLength = (rows: number) => Math.max(4_000, Math.ceil(rows / 100));
/**
 * A list's deeper rows reach this many times its length: at 500k decisions lists of 20,000 rows proved 55 of 60
 * keyword pages from their terms where 5,000 proved 34 (bench/README, session 19); read only where needed.
 */
export const DEEPER_FACTOR = 4;
/** Phrases matching fewer rows get no list: the top-k path reads all their rows. */
export const LIST_MIN_ROWS = 300;
/** Rows written or removed since the build that the top-k path scores on every query before the drain builds anew. */
export const CHANGED_MAX = 2_000;

const META_KEY = 'search_impacts';

/**
 * The lists' tables and the trigger noting removed rows; created when missing (no schema version of their own). A rowid
 * table with the phrase indexed apart: in a WITHOUT ROWID table (the layout before session 20) every comparison of
 * the key lookup read a whole overflowing record (SQLite compares such index cells only in full: 64-300 KB a probe,
 * some 0.4 ms a list at 100k decisions). The row set before the deeper rows: a count reads it without walking them.
 */
const TABLES = `
  CREATE TABLE IF NOT EXISTS search_impacts (
    id      INTEGER PRIMARY KEY,
    phrase  TEXT NOT NULL UNIQUE, -- as the FTS5 expression writes it: '"stem"', '"stem"*', '"a b"' or 'NEAR("a" "b", 6)'
    rows    INTEGER NOT NULL,     -- rows matching the phrase when built
    beyond  REAL NOT NULL,        -- the highest saturation of a matching row not listed (0: all listed; a NEAR group: its sum)
    listed  BLOB NOT NULL,        -- int32 row ids, best first, then their saturations as float32 (rounded up; NEAR: sums)
    terms   BLOB,                 -- the listed rows' BM25 terms as float64, as FTS5 computed them (null: built before session 19)
    matched BLOB,                 -- every row matching the phrase, a bitmap by row id, where the listed rows leave some out
    deeper  BLOB                  -- the rows after the listed ones: float64 terms, then int32 ids (null: built before session 20; a NEAR group: its sums, since session 21)
  );
  CREATE TABLE IF NOT EXISTS search_impacts_changed (doc_id INTEGER PRIMARY KEY);
  CREATE TRIGGER IF NOT EXISTS search_impacts_removed AFTER DELETE ON search_docs
    BEGIN INSERT OR IGNORE INTO search_impacts_changed (doc_id) VALUES (old.doc_id); END;`;

/** What the lists were built from, and the index state they were last sealed with (null: not sealed). */
export interface ImpactState {
  rows: number;
  avgdl: number;
  fingerprint: string | null;
  /** Rows listed per phrase at most (absent: 1,000, lists built before session 18). */
  length?: number;
  /** Every list holds its rows' BM25 terms (absent: built before session 19, or by a juralite that does not write them). */
  terms?: boolean;
  /** Every list holds its deeper rows and, where they leave rows out, its row set (absent: built before session 20). */
  deeper?: boolean;
  /** The bridge's multi-word phrases and norms' NEAR groups have lists too (absent: built before session 20). */
  groups?: boolean;
  /**
   * The NEAR groups' lists hold their deeper rows too, and groups of any number of rows are listed (absent: built
   * before session 21).
   */
  groupRows?: boolean;
  /**
   * The least rows of a listed phrase, and the rows kept with the deeper ones (absent: LIST_MIN_ROWS and DEEPER_FACTOR
   * times the length: lists built before session 26). Lists made at search time are made alike (madeList).
   */
  minRows?: number;
  depth?: number;
}

/** Creates the lists' tables and trigger where missing (a writable connection, before the drain writes rows). */
export function ensureImpactTables(db: Database.Database): void {
  // The layout before session 20 (above): dropped with the lists' state, so that the lists are built anew.
  // As the name resolves (a temporary table first: bench/lists-beside.ts).
  const table = sql<[], { wr: number }>(db,
    `SELECT wr FROM pragma_table_list('search_impacts') WHERE schema IN ('temp', 'main') ORDER BY schema = 'temp' DESC LIMIT 1`).get();
  if (table?.wr === 1) {
    db.exec(`DROP TABLE search_impacts; DELETE FROM meta WHERE key = '${META_KEY}'`);
  }
  db.exec(TABLES);
  // Tables created without a column get it; their lists have no terms (deeper rows) until built anew.
  const columns = new Set(sql<[], { name: string }>(db, 'SELECT name FROM pragma_table_info(\'search_impacts\')').all().map((column) => column.name));
  for (const column of ['terms', 'matched', 'deeper']) {
    if (!columns.has(column)) db.exec(`ALTER TABLE search_impacts ADD COLUMN ${column} BLOB`);
  }
}

/** IDF as FTS5 computes it for a phrase matching `hits` of `rows` rows (floored at 1e-6). */
export function idf(rows: number, hits: number): number {
  const value = Math.log((rows - Math.min(hits, rows) + 0.5) / (Math.min(hits, rows) + 0.5));
  return value > 0 ? value : 1e-6;
}

/** FTS5's row count and average row length in tokens (all columns), read from its averages record. */
export function ftsTotals(db: Database.Database): { rows: number; avgdl: number } {
  const block = sql<[], { block: Buffer }>(db, 'SELECT block FROM decisions_fts_data WHERE id = 1').get()?.block;
  if (!block) return { rows: 0, avgdl: 0 };
  let at = 0;
  // SQLite's varint: seven bits a byte, high bit set while more follow; a ninth byte gives all eight.
  const varint = () => {
    let value = 0;
    for (let i = 0; i < 9; i++) {
      const byte = block[at++];
      if (i === 8) return value * 256 + byte;
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    return value;
  };
  const rows = varint();
  let tokens = 0;
  while (at < block.length) tokens += varint();
  return { rows, avgdl: rows > 0 ? tokens / rows : 0 };
}

/** The lists' state (null when the file has none). */
export function impactState(db: Database.Database): ImpactState | null {
  const value = sql<[string], { value: string }>(db, 'SELECT value FROM meta WHERE key = ?').get(META_KEY)?.value;
  return value ? JSON.parse(value) as ImpactState : null;
}

function setState(db: Database.Database, state: ImpactState): void {
  sql(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(META_KEY, JSON.stringify(state));
}

/** A list as stored: row ids best first and their saturations. */
export interface ImpactList { ids: Int32Array; saturations: Float32Array }

/**
 * A blob's bytes where they are aligned to `alignment` (a blob of some size has a buffer of its own, at offset 0), else
 * a copy: no fresh memory per list read (a first touch of a fresh page costs 10-18 µs on the development machine).
 */
const aligned = (blob: Buffer, alignment: number): Uint8Array => (blob.byteOffset % alignment === 0 ? blob : new Uint8Array(blob));

export function decodeList(listed: Buffer): ImpactList {
  const n = listed.byteLength / 8;
  const bytes = aligned(listed, 4);
  return { ids: new Int32Array(bytes.buffer, bytes.byteOffset, n), saturations: new Float32Array(bytes.buffer, bytes.byteOffset + 4 * n, n) };
}

/** A list's BM25 terms as stored (float64, in the order of its rows). */
export function decodeTerms(terms: Buffer): Float64Array {
  const bytes = aligned(terms, 8);
  return new Float64Array(bytes.buffer, bytes.byteOffset, terms.byteLength / 8);
}

function encodeList(ids: number[], saturations: number[]): Buffer {
  const bytes = Buffer.alloc(8 * ids.length);
  for (let i = 0; i < ids.length; i++) {
    bytes.writeInt32LE(ids[i], 4 * i);
    bytes.writeFloatLE(roundedUp(saturations[i]), 4 * (ids.length + i));
  }
  return bytes;
}

/**
 * A phrase's list as stored, decoded; `terms` null where built without them. `made`: made at search time (madeList),
 * not stored by the build.
 */
export interface StoredList { rows: number; beyond: number; list: ImpactList; terms: Float64Array | null; made: boolean }

/**
 * A phrase's list (null: none), read once per ranking where `memo` is given (the top-k path reads it twice at most).
 * `terms`: the state says the lists hold them (a file of an older juralite has no such column). `make`: a phrase the
 * build did not list gets the list the build would have stored (madeList), where the caller's path gains by it.
 */
export function readList(
  db: Database.Database, phrase: string, terms: boolean, memo?: Map<string, StoredList | null>, make = false,
): StoredList | null {
  const kept = memo?.get(phrase);
  if (kept !== undefined && (kept !== null || !make)) return kept;
  const decoded = (stored: { rows: number; beyond: number; listed: Buffer; terms: Buffer | null }, made: boolean): StoredList => ({
    rows: stored.rows, beyond: stored.beyond, list: decodeList(stored.listed), terms: terms && stored.terms ? decodeTerms(stored.terms) : null, made,
  });
  const size = (list: StoredList | null) => (list ? list.list.ids.byteLength * 2 + (list.terms?.byteLength ?? 0) : 0);
  let read = keptRead(db, `list ${terms} ${phrase}`, () => {
    const stored = sql<[string], { rows: number; beyond: number; listed: Buffer; terms: Buffer | null }>(db,
      `SELECT rows, beyond, listed, ${terms ? 'terms' : 'NULL AS terms'} FROM search_impacts WHERE phrase = ?`).get(phrase);
    return stored ? decoded(stored, false) : null;
  }, size);
  if (!read && make) {
    read = keptRead(db, `made list ${terms} ${phrase}`, () => {
      const made = madeList(db, phrase);
      return made && decoded(made, true);
    }, size);
  }
  memo?.set(phrase, read);
  return read;
}

const encodeTerms = (terms: number[]) => Buffer.from(Float64Array.from(terms).buffer);

/** A list's deeper rows (after its listed ones, best first) with their terms, and its phrase's rows where it leaves some out. */
export interface DeeperRows { ids: Int32Array; terms: Float64Array; matched: Uint8Array | null }

/** Deeper rows as stored: their terms as float64, then their ids as int32 (the terms first: aligned without a copy). */
function encodeDeeper(ids: number[], terms: number[]): Buffer {
  const bytes = Buffer.alloc(12 * ids.length);
  for (let i = 0; i < ids.length; i++) {
    bytes.writeDoubleLE(terms[i], 8 * i);
    bytes.writeInt32LE(ids[i], 8 * ids.length + 4 * i);
  }
  return bytes;
}

/** A set of row ids as a bitmap: bit `id & 7` of byte `id >> 3`, padded to whole 32-bit words. */
function encodeRowSet(ids: number[]): Buffer {
  const bytes = Buffer.alloc(4 * ((ids.reduce((most, id) => Math.max(most, id), 0) >> 5) + 1));
  for (const id of ids) bytes[id >> 3] |= 1 << (id & 7);
  return bytes;
}

/** A stored bitmap's bytes (a view where the blob has a buffer of its own, as blobs this large do). */
const rowSet = (matched: Buffer | null) => matched && new Uint8Array(matched.buffer, matched.byteOffset, matched.byteLength);

/**
 * A phrase's deeper rows and row set (null: no list, or one built before session 20; call only where the state says
 * `deeper`). Read apart from the list: most rankings are proven by the listed rows alone.
 */
export function readDeeper(db: Database.Database, phrase: string): DeeperRows | null {
  return keptRead(db, `deeper ${phrase}`, () => {
    const stored = sql<[string], { deeper: Buffer | null; matched: Buffer | null }>(db,
      'SELECT deeper, matched FROM search_impacts WHERE phrase = ?').get(phrase) ?? madeList(db, phrase);
    if (!stored?.deeper) return null;
    const bytes = aligned(stored.deeper, 8);
    const n = bytes.byteLength / 12;
    return {
      terms: new Float64Array(bytes.buffer, bytes.byteOffset, n),
      ids: new Int32Array(bytes.buffer, bytes.byteOffset + 8 * n, n),
      matched: rowSet(stored.matched),
    };
  }, (deeper) => (deeper ? deeper.ids.byteLength * 3 + (deeper.matched?.byteLength ?? 0) : 0));
}

/** A phrase's row set where its list leaves rows out (null: none stored; call only where the state says `deeper`). */
export function readRowSet(db: Database.Database, phrase: string): Uint8Array | null {
  return keptRead(db, `set ${phrase}`,
    () => rowSet((sql<[string], { matched: Buffer | null }>(db, 'SELECT matched FROM search_impacts WHERE phrase = ?').get(phrase)
      ?? madeList(db, phrase))?.matched ?? null),
    (set) => set?.byteLength ?? 0);
}

/** A float32 at or above `value` (float32 rounds to nearest: 2^-24 relative at most; this adds 1e-6). */
const roundedUp = (value: number) => Math.fround(value * (1 + 1e-6));

/** A list's columns as search_impacts stores them. */
interface ListRecord { rows: number; beyond: number; listed: Buffer; terms: Buffer; deeper: Buffer; matched: Buffer | null }

const COUNT_SQL = 'SELECT count(*) AS n FROM decisions_fts WHERE decisions_fts MATCH ?';
const RANKED_SQL = `SELECT rowid AS doc_id, ${BM25} AS score FROM decisions_fts WHERE decisions_fts MATCH ? ORDER BY score, rowid LIMIT +?`;

/** The rows matching a phrase: FTS5's count, not fts5vocab's (the IDF bound must not rest on rows a delete left there). */
const rowsMatching = (db: Database.Database, phrase: string) => sql<[string], { n: number }>(db, COUNT_SQL).get(phrase)!.n;

/**
 * The list of a phrase matching `rows` of the index's `indexRows` rows, from decisions_fts as this connection reads it.
 * A phrase matching half the rows or more gets an empty list: FTS5 floors its IDF at 1e-6, so it bounds a score by
 * 1e-6 * (k1 + 1) without any row. A phrase matching none gets an empty list too (a made list: the build lists none).
 */
function listOf(db: Database.Database, phrase: string, rows: number, indexRows: number, length: number, deep: number): ListRecord {
  const empty = Buffer.alloc(0);
  if (rows === 0) return { rows, beyond: 0, listed: empty, terms: empty, deeper: empty, matched: null };
  if (rows * 2 >= indexRows) return { rows, beyond: K1 + 1, listed: empty, terms: empty, deeper: empty, matched: null };
  const weight = idf(indexRows, rows);
  // One row more than kept: the first row left out gives `beyond`.
  const best = sql<[string, number], { doc_id: number; score: number }>(db, RANKED_SQL).all(phrase, deep + 1);
  const saturations = best.map((row) => -row.score / weight);
  const listed = best.slice(0, length);
  const deeper = best.slice(length, deep);
  // FTS5's score of one phrase is -1.0 * (0.0 + term): the term itself, bit for bit.
  const terms = (part: typeof best) => part.map((row) => -row.score);
  const matching = sql<[string], { doc_id: number }>(db, 'SELECT rowid AS doc_id FROM decisions_fts WHERE decisions_fts MATCH ?');
  return {
    rows, beyond: best.length > length ? roundedUp(saturations[length]) : 0,
    listed: encodeList(listed.map((row) => row.doc_id), saturations.slice(0, length)), terms: encodeTerms(terms(listed)),
    deeper: encodeDeeper(deeper.map((row) => row.doc_id), terms(deeper)),
    matched: rows > length ? encodeRowSet(matching.all(phrase).map((row) => row.doc_id)) : null,
  };
}

/**
 * The list of a phrase the build did not list, made as the build would and kept per connection while the file is
 * unchanged (null: it matches too few rows to be listed, or the lists are not the index's own now). The build lists
 * the corpus's words and their prefixes; a typed word that is no word of the corpus, only the start of its compounds
 * ("vertrag"* where only 'Kaufvertrag' and 'Vertragsschluss' occur), matched thousands of rows without a list: the
 * top-k path declined and FTS5 ranked every match on every search (57 ms for 'Vertrag' at 100k). NEAR groups are
 * listed by the build or not at all (their lists hold sums, not terms).
 */
function madeList(db: Database.Database, phrase: string): ListRecord | null {
  if (phrase.startsWith('NEAR(')) return null;
  return keptRead(db, `made list ${phrase}`, () => {
    const state = impactState(db);
    if (!state?.terms || !state.deeper || sql(db, 'SELECT 1 FROM search_impacts_changed LIMIT 1').get() !== undefined) return null;
    const totals = ftsTotals(db);
    if (totals.rows !== state.rows || totals.avgdl !== state.avgdl) return null;
    const rows = rowsMatching(db, phrase);
    // A phrase of a few rows is read whole where needed (the build lists none either); one of none is known to match none.
    if (rows > 0 && rows < (state.minRows ?? LIST_MIN_ROWS)) return null;
    const length = state.length ?? listLength(totals.rows);
    return listOf(db, phrase, rows, totals.rows, length, state.depth ?? length * DEEPER_FACTOR);
  }, (record) => (record ? record.listed.byteLength + record.terms.byteLength + record.deeper.byteLength + (record.matched?.byteLength ?? 0) : 0));
}

/**
 * length: rows listed per phrase; depth: rows kept with the deeper ones (listed included); minRows: the least rows of a
 * listed phrase; flush: false where decisions_fts is another schema's, read-only, with no writes pending (a benchmark
 * building lists beside a corpus it must not write: bench/lists-beside.ts).
 */
export interface BuildOptions { length?: number; depth?: number; minRows?: number; flush?: boolean }

/**
 * Builds every list anew from decisions_fts as this connection reads it (inside the caller's transaction): one per
 * indexed word matching at least `minRows` rows, and one per such word of PREFIX_MIN letters or more (no digits) with
 * the words it begins (listOf). Clears the noted rows; the caller seals after its commit.
 */
export function buildImpactLists(db: Database.Database, options: BuildOptions = {}): void {
  // FTS5 writes its averages record when the transaction ends (or at a flush): inside the drain that wrote the rows
  // the record as stored still says what the index held before (0 rows after a fresh import's first drain).
  if (options.flush !== false) db.exec(`INSERT INTO decisions_fts (decisions_fts) VALUES ('flush')`);
  const totals = ftsTotals(db);
  const length = options.length ?? listLength(totals.rows);
  const minRows = options.minRows ?? LIST_MIN_ROWS;
  ensureImpactTables(db);
  db.exec('DELETE FROM search_impacts; DELETE FROM search_impacts_changed');
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_impacts_vocab USING fts5vocab(main, decisions_fts, row)`);
  const words = sql<[number], { term: string }>(db, 'SELECT term FROM temp.search_impacts_vocab WHERE doc >= ?').all(minRows);
  const deep = Math.max(length, options.depth ?? length * DEEPER_FACTOR);
  const insert = sql(db, `INSERT OR IGNORE INTO search_impacts (phrase, rows, beyond, listed, terms, deeper, matched)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const list = (phrase: string) => {
    const rows = rowsMatching(db, phrase);
    if (rows < minRows) return;
    const record = listOf(db, phrase, rows, totals.rows, length, deep);
    insert.run(phrase, record.rows, record.beyond, record.listed, record.terms, record.deeper, record.matched);
  };
  for (const { term } of words) {
    list(`"${term}"`);
    if (term.length >= PREFIX_MIN && !/\d/u.test(term)) list(`"${term}"*`);
  }
  // The bridge's phrases are phrases like any other; a norm's NEAR group is listed by its rows' bm25() of the group
  // alone, the sum of its words' terms (top-k-bounded.ts bounds with it and lets FTS5 score the rows it needs), and
  // since session 21 with its deeper rows (sums too): hybrid-arm.ts orders an arm whose lists hold every row of every
  // unit without FTS5 (no row set: nothing counts a group from one, and building it walked the group once more). The keyword ranking never reads a NEAR group's list. A group is
  // listed however few rows it matches: read whole, its bm25() has FTS5 count every row of its words for their IDFs
  // (`NEAR("546" "bgb", 6)`, 8 rows: 1.6 ms at 100k, 'bgb' being in 45,000).
  const recorded = sql<[string], { rows: number }>(db, 'SELECT rows FROM search_impacts WHERE phrase = ?');
  const units = bridgeUnits((stem) => (recorded.get(`"${stem.replace(/"/gu, '""')}"`)?.rows ?? 0) * 2 >= totals.rows);
  for (const phrase of units.phrases) list(phrase);
  const ranked = sql<[string, number], { doc_id: number; score: number }>(db, RANKED_SQL);
  for (const group of units.groups) {
    const rows = rowsMatching(db, group);
    if (rows === 0) continue;
    const sums = ranked.all(group, deep + 1).map((row) => ({ doc_id: row.doc_id, sum: -row.score }));
    const listed = sums.slice(0, length);
    const deeper = sums.slice(length, deep);
    insert.run(group, rows, sums.length > length ? roundedUp(sums[length].sum) : 0,
      encodeList(listed.map((row) => row.doc_id), listed.map((row) => row.sum)), encodeTerms(listed.map((row) => row.sum)),
      encodeDeeper(deeper.map((row) => row.doc_id), deeper.map((row) => row.sum)), null);
  }
  setState(db, { rows: totals.rows, avgdl: totals.avgdl, fingerprint: null, length, terms: true, deeper: true, groups: true, groupRows: true, minRows, depth: deep });
}

/** Notes a decision row the drain writes (a new row, or one written anew), for the top-k path to score it always. */
export function noteChangedRow(db: Database.Database, docId: number | bigint): void {
  sql(db, 'INSERT OR IGNORE INTO search_impacts_changed (doc_id) VALUES (?)').run(docId);
}

/**
 * The end of a drain (inside its transaction): builds the lists when the file has none yet or more than CHANGED_MAX
 * rows changed since they were built (a large import).
 */
export function keepImpactLists(db: Database.Database): void {
  const changed = sql<[], { n: number }>(db, 'SELECT count(*) AS n FROM search_impacts_changed').get()!.n;
  if (!impactState(db) || changed > CHANGED_MAX) buildImpactLists(db);
}

/** Seals the lists with the index state as committed (after the drain's commit; its own small transaction). */
export function sealImpactLists(db: Database.Database): void {
  const state = impactState(db);
  if (state) setState(db, { ...state, fingerprint: indexFingerprint(db).toString('base64') });
}

/**
 * Whether the lists hold for the index as this connection reads it: built, and sealed with its current state, and
 * built from it (no row changed since, so the index has the rows they were built from: lists that a drain of the
 * session 17 code built before FTS5 had written its totals recorded 0 rows, and do not hold).
 */
export function impactListsHold(db: Database.Database, state: ImpactState | null): state is ImpactState {
  if (state?.fingerprint !== indexFingerprint(db).toString('base64')) return false;
  return state.rows === ftsTotals(db).rows || sql(db, 'SELECT 1 FROM search_impacts_changed LIMIT 1').get() !== undefined;
}

/**
 * On a writable open of a file whose lists do not hold (none yet, or written since by something that does not keep
 * them) or were built before session 19 (no terms; shorter than listLength asks for), 20 (no deeper rows, no lists
 * of the bridge's phrases and norm groups) or 21 (no deeper rows of the groups, no lists of groups under 300 rows):
 * builds them, in a transaction of its own, and seals them.
 */
export function completeImpactLists(db: Database.Database): void {
  const state = impactState(db);
  // Lists built before session 19 (20, 21) (or by a juralite that does not write them) hold no terms (deeper rows,
  // group lists, the groups' deeper rows) and may be shorter than listLength asks for now: built anew.
  if (impactListsHold(db, state) && state.terms && state.deeper && state.groups && state.groupRows) return;
  db.transaction(() => buildImpactLists(db))();
  sealImpactLists(db);
}
