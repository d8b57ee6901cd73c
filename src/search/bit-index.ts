// The sign bits of every decision vector held in memory per corpus connection, with the filter columns beside them,
// scanned by a WebAssembly popcount (hamming-kernel.ts) instead of sqlite-vec's KNN query, whose per-chunk top-k
// selection (k passes over each 1,024 rows) made it 93 ms at 500k decisions: 20-40x faster at 500k, 30-120x at 100k
// in one run each; the same neighbours in the same order (bench/README "Session 17: vector arm",
// test/search/bit-index.test.ts).
//
// - Read from vec0's own storage, which sqlite-vec 0.1 documents as plain shadow tables: search_vec_chunks (per chunk
//   of 1,024 slots a validity bitmap and the rowids), search_vec_vector_chunks00 (the bits of a chunk, slot by slot)
//   and search_vec_metadatachunks00..03 (court, branch, kind, day: one int64 per slot). Reading them is 0.5 s at
//   500k; vec0's own full scan (a blob opened per row) was 16 s. A file whose tables are laid out otherwise (another
//   sqlite-vec, another table) gets no index: vec0 answers as before.
// - Ties: vec0 orders by distance, then chunk (in chunk_id order), then slot from the last to the first within a
//   chunk (its per-chunk selection keeps the last of equal distances first, and a merge keeps earlier chunks first).
//   The index holds the vectors in exactly that order and keeps the first of equal distances: the same list as vec0.
// - Kept in step with the file: built for the corpus state it was read in (data_version and the connection's own
//   changes, as the answer cache), built anew on the first search after anything committed. While the file keeps
//   changing (an import or sync writing the served corpus), a new build waits until REBUILD_SPACING times the last
//   build's duration has passed, and vec0 answers meanwhile: building costs at most a twentieth of the time.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { setAsideSwitch } from './set-aside.ts';
import { corpusVersion } from '../db/corpus-version.ts';
import { PackedBits } from './hamming-kernel.ts';

/** The filters as the scan applies them; null: no condition. */
export interface KnnFilter {
  /** search_courts ids allowed. */
  courts: number[] | null;
  branch: number | null;
  kind: number | null;
  /** Inclusive bounds on the day (yyyymmdd, 0 when unknown). */
  dayFrom: number | null;
  dayTo: number | null;
  /** A query selecting the vec_ids allowed (cited_norm). */
  vecIds: { sql: string; params: unknown[] } | null;
}

/** A build waits this many times the last build's duration after it (see above). */
export const REBUILD_SPACING = 20;
/** Distances are at most this (bit columns of sqlite-vec up to 8,192 bits); excluded vectors get it plus one. */
const EXCLUDED = 0xffff;

/** The sign bits, vec_ids and filter columns of every vector, in vec0's scan order. */
export class BitIndex {
  readonly size: number;
  readonly #bits: PackedBits;
  readonly #vecIds: Float64Array;
  readonly #courts: Int32Array;
  readonly #branches: Uint8Array;
  readonly #kinds: Uint8Array;
  readonly #days: Int32Array;
  readonly #maxBits: number;

  constructor(size: number, bytesPerVector: number) {
    this.size = size;
    this.#bits = new PackedBits(size, bytesPerVector);
    this.#vecIds = new Float64Array(size);
    this.#courts = new Int32Array(size);
    this.#branches = new Uint8Array(size);
    this.#kinds = new Uint8Array(size);
    this.#days = new Int32Array(size);
    this.#maxBits = bytesPerVector * 8;
  }

  /** Writes entry `at` (the loader, in scan order). */
  set(at: number, vecId: number, bits: Uint8Array, court: number, branch: number, kind: number, day: number): void {
    this.#vecIds[at] = vecId;
    this.#bits.vector(at).set(bits);
    this.#courts[at] = court;
    this.#branches[at] = branch;
    this.#kinds[at] = kind;
    this.#days[at] = day;
  }

  /**
   * The vec_ids of the `k` vectors nearest to `query` (sign bits) among those passing `filter`, nearest first, ties
   * in scan order: the list vec0's KNN query gives. Counting selection: a histogram of the distances gives the
   * distance of the k-th, then one pass takes those below it and the first of those at it.
   */
  nearest(db: Database.Database, query: Uint8Array, k: number, filter: KnnFilter): number[] {
    const distances = this.#bits.distancesTo(query);
    const histogram = new Uint32Array(this.#maxBits + 1);
    const n = this.size;
    const { courts, branch, kind, dayFrom, dayTo } = filter;
    if (courts === null && branch === null && kind === null && dayFrom === null && dayTo === null && filter.vecIds === null) {
      for (let i = 0; i < n; i++) histogram[distances[i]]++;
    } else {
      // The columns as locals: the loop runs once per vector.
      const [courtOf, branchOf, kindOf, dayOf, vecIdOf] = [this.#courts, this.#branches, this.#kinds, this.#days, this.#vecIds];
      const courtMask = courts && maskOf(courts);
      const vecMask = filter.vecIds && maskOf(sql<unknown[], { vec_id: number }>(db, filter.vecIds.sql)
        .all(...filter.vecIds.params).map((row) => row.vec_id));
      const [from, to] = [dayFrom ?? -Infinity, dayTo ?? Infinity];
      for (let i = 0; i < n; i++) {
        const passes = (courtMask === null || courtMask[courtOf[i]] === 1)
          && (branch === null || branchOf[i] === branch) && (kind === null || kindOf[i] === kind)
          && dayOf[i] >= from && dayOf[i] <= to && (vecMask === null || vecMask[vecIdOf[i]] === 1);
        if (passes) histogram[distances[i]]++;
        else distances[i] = EXCLUDED;
      }
    }
    // The distance of the k-th nearest (or past the farthest when fewer pass), and how many at it to take.
    let cut = 0;
    let below = 0;
    while (cut <= this.#maxBits && below + histogram[cut] < k) below += histogram[cut++];
    let ties = k - below;
    const found: number[] = [];
    for (let i = 0; i < n && found.length < k; i++) {
      const distance = distances[i];
      if (distance < cut || (distance === cut && ties-- > 0)) found.push(i);
    }
    found.sort((a, b) => distances[a] - distances[b] || a - b);
    return found.map((at) => this.#vecIds[at]);
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.#bits.byteLength + this.size * (8 + 4 + 1 + 1 + 4);
  }
}

/** A membership table over small non-negative integers (court ids, vec_ids). */
function maskOf(values: number[]): Uint8Array {
  let max = 0;
  for (const value of values) max = Math.max(max, value);
  const mask = new Uint8Array(max + 1);
  for (const value of values) mask[value] = 1;
  return mask;
}

interface Held { version: string; index: BitIndex | null; builtAt: number; buildMs: number }
const held = new WeakMap<Database.Database, Held>();

/**
 * The bit index of the corpus as this connection reads it now, built if due; null when vec0 must answer (the file's
 * tables are not laid out as this code reads them, or a rebuild is not due yet while the file keeps changing).
 */
export function currentBitIndex(db: Database.Database, table: string): BitIndex | null {
  if (vec0Only.has(db)) return null;
  const version = corpusVersion(db);
  const last = held.get(db);
  if (last?.version === version) return last.index;
  if (last && performance.now() - last.builtAt < REBUILD_SPACING * last.buildMs) return null;
  const started = performance.now();
  // One snapshot for all the tables read (a savepoint inside the caller's transaction).
  const index = db.transaction(() => loadBitIndex(db, table))();
  const builtAt = performance.now();
  held.set(db, { version, index, builtAt, buildMs: builtAt - started });
  return index;
}

const vec0Only = setAsideSwitch();

/** Runs `work` with vec0's query answering on this connection (benchmarks put both paths side by side with it). */
export const withoutBitIndex = <T>(db: Database.Database, work: () => Promise<T>): Promise<T> => vec0Only.during(db, work);

/** The index held for a connection now, if any (tests, benchmarks). */
export function heldBitIndex(db: Database.Database): BitIndex | null {
  return held.get(db)?.index ?? null;
}

/** Forgets a connection's index (benchmarks time the build with it). */
export function dropBitIndex(db: Database.Database): void {
  held.delete(db);
}

const COLUMNS = /^create virtual table \w+ using vec0\(embedding bit\[(\d+)\], court integer, branch integer, kind integer, day integer\)$/u;
const METADATA = ['court', 'branch', 'kind', 'day'];

/** Reads vec0's shadow tables of `table` into a BitIndex; null when they are not what sqlite-vec 0.1 writes. */
export function loadBitIndex(db: Database.Database, table: string): BitIndex | null {
  const declared = sql<[string], { sql: string }>(db, 'SELECT sql FROM sqlite_master WHERE name = ?').get(table)?.sql;
  const width = declared && COLUMNS.exec(declared.replaceAll(/\s+/gu, ' ').replace(/\( /u, '(').toLowerCase());
  const library = sql<[], { version: string }>(db, 'SELECT vec_version() AS version').get()!.version;
  if (!width || !library.startsWith('v0.1.')) return null;
  const shadows = [`${table}_info`, `${table}_chunks`, `${table}_vector_chunks00`, ...METADATA.map((_, i) => `${table}_metadatachunks0${i}`)];
  const present = sql<[string], { n: number }>(db, `SELECT count(*) AS n FROM sqlite_master
    WHERE type = 'table' AND name IN (SELECT value FROM json_each(?))`).get(JSON.stringify(shadows))!.n;
  if (present !== shadows.length) return null;
  const created = db.prepare(`SELECT value FROM "${table}_info" WHERE key = 'CREATE_VERSION'`).pluck().get();
  if (typeof created !== 'string' || !created.startsWith('v0.1.')) return null;
  const bytes = Number(width[1]) / 8;

  let size = 0;
  for (const validity of db.prepare(`SELECT validity FROM "${table}_chunks"`).pluck().iterate() as Iterable<Buffer>) {
    for (const byte of validity) size += BITS_SET[byte];
  }
  const index = new BitIndex(size, bytes);
  // _rowid_: the table's own rowid (vec0 opens its blobs by it; the column these tables declare as "rowid" has no
  // integer type, and joining on it scanned each table once per chunk).
  const rows = db.prepare(`SELECT c.validity, c.rowids, v.vectors, m0.data, m1.data, m2.data, m3.data
    FROM "${table}_chunks" c JOIN "${table}_vector_chunks00" v ON v._rowid_ = c.chunk_id
    ${METADATA.map((_, i) => `JOIN "${table}_metadatachunks0${i}" m${i} ON m${i}._rowid_ = c.chunk_id`).join(' ')}
    ORDER BY c.chunk_id`).raw().iterate() as Iterable<Buffer[]>;
  let at = 0;
  for (const [validity, rowids, vectors, ...metadata] of rows) {
    const slots = validity.length * 8;
    if (rowids.length !== slots * 8 || vectors.length !== slots * bytes || metadata.some((data) => data.length !== slots * 8)) return null;
    const [courts, branches, kinds, days] = metadata;
    for (let slot = slots - 1; slot >= 0; slot--) {
      if (((validity[slot >> 3] >> (slot & 7)) & 1) === 0) continue;
      if (at >= size) return null;
      index.set(at++, int64(rowids, slot), vectors.subarray(slot * bytes, (slot + 1) * bytes),
        int64(courts, slot), int64(branches, slot), int64(kinds, slot), int64(days, slot));
    }
  }
  return at === size ? index : null;
}

/** The little-endian int64 at `slot` of a blob, as a number (exact below 2^53; no BigInt: 2.5 million at 500k). */
const int64 = (blob: Buffer, slot: number) => blob.readInt32LE(slot * 8 + 4) * 2 ** 32 + blob.readUInt32LE(slot * 8);

const BITS_SET = Uint8Array.from({ length: 256 }, (_, byte) => {
  let n = 0;
  for (let b = byte; b; b >>= 1) n += b & 1;
  return n;
});
