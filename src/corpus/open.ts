import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { seedRegistries } from './seed.ts';
import { recodeTexts, registerTextFunctions } from './stored-text.ts';
import { addPageParts } from './page-parts.ts';
import { rebuildCitationEdges } from '../graph/edges.ts';
import { addSearchDocFilterColumns, SEARCH_INDEX_VERSION, syncSearchIndex, upgradeSearchIndex } from '../search/index-sync.ts';
import { completeImpactLists } from '../search/impact-lists.ts';
import { betterSqliteBinding, vecExtensionFile } from '../runtime/executable.ts';
import { createPrivately } from '../runtime/private-file.ts';

/** A better-sqlite3 connection to a corpus file (sqlite-vec loaded, corpus schema applied when writable). */
export type CorpusDb = Database.Database;

/** The corpus schema version this code writes and reads (`PRAGMA user_version`). */
export const CORPUS_SCHEMA_VERSION = 4;

/**
 * The page size of a new corpus file, in bytes. A decision row (its compressed text inline) is about 2.6 KB: a 4 KB
 * page held one and left a third empty, an 8 KB page holds three (bench/README.md, "Session 17").
 */
export const CORPUS_PAGE_SIZE = 8192;

export interface OpenCorpusOptions {
  /** Open read-only: no schema is applied, nothing is seeded. Default false. */
  readonly?: boolean;
  /** Path to better_sqlite3.node (the standalone executable cannot find the addon by itself; default: beside it). */
  nativeBinding?: string;
  /** Path to the sqlite-vec loadable extension, where `sqliteVec.load` cannot find it (default: beside the executable). */
  vecExtensionPath?: string;
}

/** better-sqlite3's options for the addon: the given path, the one beside the executable, or none. */
function bindingOption(options: OpenCorpusOptions): { nativeBinding?: string } {
  const nativeBinding = options.nativeBinding ?? betterSqliteBinding();
  return nativeBinding ? { nativeBinding } : {};
}

const SCHEMA_URL = new URL('../../schema/corpus.sql', import.meta.url);
let schemaSql: string | undefined;

/** The text of schema/corpus.sql (read once). */
export function corpusSchemaSql(): string {
  schemaSql ??= readFileSync(SCHEMA_URL, 'utf8');
  return schemaSql;
}

/**
 * Opens (and, when writable, creates or upgrades) a corpus database.
 *
 * @example
 * const db = openCorpus('data/corpus.db');
 * const n = db.prepare('SELECT count(*) AS n FROM decisions').get();
 */
export function openCorpus(path: string, options: OpenCorpusOptions = {}): CorpusDb {
  const readonly = options.readonly ?? false;
  if (!readonly) createPrivately(path);
  const db = new Database(path, { readonly, fileMustExist: readonly, ...bindingOption(options) });
  try {
    // A new corpus is an empty file; anything else must already be one (never write a schema, or even the journal
    // mode, into another database).
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
    if (tables.length > 0 && !tables.includes('decisions')) {
      throw new Error(`${path} is no juralite corpus (it has no decisions table; the state database, say, is another file)`);
    }
    // A new file's page size is fixed by its first table; an existing file keeps its own (until a VACUUM).
    if (!readonly && tables.length === 0) db.pragma(`page_size = ${CORPUS_PAGE_SIZE}`);
    applyPragmas(db, readonly);
    registerTextFunctions(db);
    const vecExtension = options.vecExtensionPath ?? vecExtensionFile();
    if (vecExtension) db.loadExtension(vecExtension);
    else sqliteVec.load(db);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > CORPUS_SCHEMA_VERSION) {
      throw new Error(`corpus ${path} has schema version ${version}; this juralite reads up to ${CORPUS_SCHEMA_VERSION}`);
    }
    if (readonly && version > 0 && version < CORPUS_SCHEMA_VERSION) {
      throw new Error(`corpus ${path} has schema version ${version}, older than this juralite's ${CORPUS_SCHEMA_VERSION}; `
        + 'open it once with write access (juralite serve or juralite import) to upgrade it');
    }
    if (!readonly) {
      if (version === 1) addEdgeTargetColumns(db);
      if (version === 1 || version === 2) storeTextsOnce(db);
      addSearchDocFilterColumns(db);
      addCoverageVerifiedAt(db);
      keyPartsOnRows(db);
      db.exec(corpusSchemaSql());
      addPageParts(db);
      recodeTexts(db);
      // Whatever the version says: a file whose edges are still a table (versions 1 and 2, or a build of version 3
      // from before the graph moved to integer keys) is moved over; otherwise this finds nothing to do.
      keyGraphOnRows(db);
      countLawUnitCitations(db);
      // Corpora of version 1 were imported before the citation engine wrote edges.
      if (version === 1) rebuildCitationEdges(db);
      const created = version === 0;
      seedRegistries(db);
      // The search indexes (schema/corpus.sql, search section) are versioned on their own in meta: a corpus built
      // before search existed, or indexed by an older analysis, is indexed anew here.
      const searchIndexVersion = getMeta(db, 'search_index_version');
      if (searchIndexVersion !== String(SEARCH_INDEX_VERSION)) upgradeSearchIndex(db, searchIndexVersion);
      else if (searchQueued(db)) completeSearchIndex(db, path);
      else completeImpactLists(db);
      setMeta(db, 'schema_version', String(CORPUS_SCHEMA_VERSION));
      if (created || getMeta(db, 'built_at') === undefined) setMeta(db, 'built_at', new Date().toISOString());
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Whether the corpus file is of an older schema version, holds a search index of an older version, or one that an
 * import cut short left behind its documents.
 */
export function corpusNeedsUpgrade(path: string, options: Omit<OpenCorpusOptions, 'readonly'> = {}): boolean {
  const probe = new Database(path, { readonly: true, fileMustExist: true, ...bindingOption(options) });
  try {
    const version = probe.pragma('user_version', { simple: true }) as number;
    if (version === 0) return false;
    const searchIndex = probe.prepare(`SELECT value FROM meta WHERE key = 'search_index_version'`).pluck().get();
    // A file written before decisions.page_parts (Session 19) has the column added and filled.
    const pageParts = probe.prepare(`SELECT value FROM meta WHERE key = 'page_parts'`).pluck().get();
    // A file whose texts are zstd frames (before Session 20) has them recoded (src/corpus/stored-text.ts).
    const textCodec = probe.prepare(`SELECT value FROM meta WHERE key = 'text_codec'`).pluck().get();
    return version < CORPUS_SCHEMA_VERSION || searchIndex !== String(SEARCH_INDEX_VERSION) || searchQueued(probe) || pageParts !== '1'
      || textCodec !== 'lz1';
  } finally {
    probe.close();
  }
}

/** Whether chunks or law units wait for the search index (an import killed before its last step leaves them). */
function searchQueued(db: CorpusDb): boolean {
  return db.prepare('SELECT EXISTS (SELECT 1 FROM search_chunk_queue) OR EXISTS (SELECT 1 FROM search_unit_queue)')
    .pluck().get() === 1;
}

/**
 * Indexes what waits in the queues. A failure (an external embedder down) leaves them for the next import or open:
 * the corpus still opens, its newest documents not yet searchable.
 */
function completeSearchIndex(db: CorpusDb, path: string): void {
  try {
    syncSearchIndex(db);
  } catch (error) {
    console.warn(`juralite: the search index of ${path} could not be completed: ${error instanceof Error ? error.message : error}`);
  }
}

/** Upgrades an older corpus file in place (corpusNeedsUpgrade); a current one is not even opened for writing. */
export function upgradeCorpus(path: string, options: Omit<OpenCorpusOptions, 'readonly'> = {}): void {
  if (corpusNeedsUpgrade(path, options)) openCorpus(path, options).close();
}

/** Version 1 to 2: citation_edges learns the cited law and unit of statute edges (before the schema's indexes use them). */
function addEdgeTargetColumns(db: CorpusDb): void {
  const columns = new Set((db.pragma('table_info(citation_edges)') as { name: string }[]).map((column) => column.name));
  for (const column of ['target_law', 'target_unit']) {
    if (!columns.has(column)) db.exec(`ALTER TABLE citation_edges ADD COLUMN ${column} TEXT`);
  }
}

/**
 * Version 2 to 3: a decision's text is held once, compressed (decisions.text_zstd); chunks lose their copy of it.
 * One transaction: a file killed during the upgrade is still the version 2 file. The pages freed are reused by later
 * imports (no VACUUM: it may renumber the rowids that the law search index keys on).
 */
function storeTextsOnce(db: CorpusDb): void {
  const columns = new Set((db.pragma('table_info(decisions)') as { name: string }[]).map((column) => column.name));
  if (!columns.has('full_text')) return;
  db.transaction(() => {
    db.exec(`ALTER TABLE decisions ADD COLUMN text_zstd BLOB NOT NULL DEFAULT x'';
      UPDATE decisions SET text_zstd = compress_text(full_text);
      ALTER TABLE decisions DROP COLUMN full_text;
      ALTER TABLE chunks DROP COLUMN text;`);
  })();
}

/**
 * Version 2 to 3: the citation graph keyed on integer decision rows. The edges move from the table citation_edges
 * (UUID keys) to citation_links (decision_rows), and citation_edges becomes the view every reader queries, with the
 * same columns and rows. One transaction, like the text's upgrade.
 */
function keyGraphOnRows(db: CorpusDb): void {
  const edgesTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'citation_edges'`).get();
  if (!edgesTable) return;
  db.transaction(() => {
    db.exec(`INSERT OR IGNORE INTO decision_rows (id) SELECT id FROM decisions ORDER BY rowid;
      INSERT INTO citation_links (id, from_row, rn, reference_canonical, reference_type, reference_role, target_ecli,
        target_court, target_date, target_az_key, target_law, target_unit, to_row, resolution_status)
      SELECT e.id, f.row, e.rn, e.reference_canonical, e.reference_type, e.reference_role, e.target_ecli, e.target_court,
        e.target_date, e.target_az_key, e.target_law, e.target_unit, t.row, e.resolution_status
      FROM citation_edges e JOIN decision_rows f ON f.id = e.from_decision_id LEFT JOIN decision_rows t ON t.id = e.to_decision_id
      ORDER BY e.id;
      DROP TABLE citation_edges;`);
    db.exec(corpusSchemaSql());
  })();
}

/** The parts of a decision that schema 4 keys on decision rows: the schema 3 table, its schema 4 table. */
const PARTS_ON_ROWS = [
  ['decision_file_numbers', 'row_file_numbers', 'position, aktenzeichen, az_key'],
  ['decision_sections', 'row_sections', 'position, name, start_offset, end_offset'],
  ['decision_randnummern', 'row_randnummern', 'position, rn, start_offset, end_offset'],
  ['decision_norms', 'row_norms', 'position, norm, law, unit'],
  ['chunks', 'row_chunks', 'id, position, section, rn_from, rn_to, start_offset, end_offset'],
] as const;

/**
 * Versions 2 and 3 to 4: a decision's file numbers, sections, Randnummern, chunks and norms keyed on its decision
 * row instead of its UUID, each table then read through a view of its old name. The old tables are renamed out of
 * the views' way, their rows copied in key order (so each new b-tree is written from end to end, its pages full) and
 * dropped. Chunks keep their ids and are not queued for the search index again (their text is unchanged). One
 * transaction: a file killed during the upgrade is still the older file.
 */
function keyPartsOnRows(db: CorpusDb): void {
  const isTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck();
  if (!isTable.get('chunks')) return;
  db.transaction(() => {
    for (const [old] of PARTS_ON_ROWS) db.exec(`ALTER TABLE ${old} RENAME TO ${old}_before_rows`);
    db.exec(corpusSchemaSql());
    db.exec(`INSERT OR IGNORE INTO decision_rows (id) SELECT id FROM decisions ORDER BY rowid;
      DROP TRIGGER row_chunks_search_insert;`);
    for (const [old, table, columns] of PARTS_ON_ROWS) {
      const order = table === 'row_chunks' ? 'x.id' : 'r.row, x.position';
      db.exec(`INSERT INTO ${table} (decision_row, ${columns})
        SELECT r.row, ${columns.split(', ').map((column) => `x.${column}`).join(', ')}
        FROM ${old}_before_rows x JOIN decision_rows r ON r.id = x.decision_id ORDER BY ${order};
        DROP TABLE ${old}_before_rows;`);
    }
    db.exec(corpusSchemaSql());
  })();
}

/**
 * law_unit_citations filled from the edges, once per file: a file of this version written before the table existed
 * (the triggers keep it in step from then on; one transaction).
 */
function countLawUnitCitations(db: CorpusDb): void {
  if (getMeta(db, 'law_unit_citations') === '1') return;
  db.transaction(() => {
    db.exec(`DELETE FROM law_unit_citations;
      INSERT INTO law_unit_citations (law, unit, edges, decisions)
      SELECT target_law, coalesce(target_unit, ''), count(*), count(DISTINCT from_row) FROM citation_links
      WHERE reference_type = 'statute' AND target_law IS NOT NULL GROUP BY 1, 2;`);
    setMeta(db, 'law_unit_citations', '1');
  })();
}

/**
 * coverage_ranges learns `verified_at` (a sync's day). A column added without a version change: readers take the
 * ranges with `SELECT *` and read a missing column as null, so an older file stays readable read-only.
 */
function addCoverageVerifiedAt(db: CorpusDb): void {
  const columns = new Set((db.pragma('table_info(coverage_ranges)') as { name: string }[]).map((column) => column.name));
  if (columns.size > 0 && !columns.has('verified_at')) db.exec('ALTER TABLE coverage_ranges ADD COLUMN verified_at TEXT');
}

// The one place where connection pragmas are set.
function applyPragmas(db: CorpusDb, readonly: boolean): void {
  // 1. busy_timeout first: every later statement, even the journal_mode switch, may have to wait for a writer.
  db.pragma('busy_timeout = 5000');
  // 2. WAL: readers (the server) never block the writer (an import) and vice versa. A read-only connection cannot
  //    change the journal mode; it follows whatever the file already uses.
  if (!readonly) db.pragma('journal_mode = WAL');
  // 3. NORMAL is durable enough under WAL (a power cut may lose the last commit, never corrupt the file) and much
  //    faster for bulk imports than FULL.
  db.pragma('synchronous = NORMAL');
  // 4. Foreign keys: deleting a decision cascades to its chunks, sections, file numbers and norms.
  db.pragma('foreign_keys = ON');
  // 5. Temporary b-trees (sorts for facets, index builds) in memory; up to 256 MB of page cache for the read-mostly
  //    corpus (filled only as pages are read). The keyword index of a 100k corpus reads some 100 MB of doclists for
  //    common words: with 64 MB they were read again for every other query, from disk wherever the OS keeps little
  //    file cache (keyword p50 18 -> 14 ms through HTTP, bench/README).
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -262144');
}

export function getMeta(db: CorpusDb, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string | null } | undefined;
  return row?.value ?? undefined;
}

export function setMeta(db: CorpusDb, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
    .run(key, value);
}
