// The decision filters of both search endpoints as one SQL condition on `d` (decisions), applied inside every arm.
import type Database from 'better-sqlite3';
import { invalidArgument } from '../errors.ts';
import { familyCondition, parseProvision } from '../corpus/norm-family.ts';
import { sql } from '../db/statements.ts';
import { keptRead } from './kept-reads.ts';

export interface DecisionFilters {
  court?: string;
  branch?: string;
  document_type?: string;
  cited_norm?: string;
  date_from?: string;
  date_to?: string;
}

export interface FilterSql {
  /** 'AND ...' conditions on alias d (decisions), or ''. */
  where: string;
  /** The same conditions on alias s (search_docs, which repeats the filtered columns), or ''. */
  whereOnDocs: string;
  /** The parameters of either. */
  params: unknown[];
  /** True when any filter is set. */
  active: boolean;
  /** The conditions test a set this thread keeps (cited_norm): never handed to another thread's connection. */
  inThread: boolean;
}

/**
 * The decisions citing a provision or a subdivision of it (statute edges of the text and the Normenkette), as a
 * subquery selecting decision ids, each once (a decision cites a provision it applies ten times on average); 422 on
 * cited_norm when the text names no one provision with its law.
 */
export function citedNormCondition(text: string): { sql: string; params: unknown[] } {
  const family = familyCondition(parseProvision(text, 'cited_norm'));
  return { sql: `SELECT id FROM decision_rows WHERE row IN (SELECT from_row FROM citation_links WHERE ${family.sql})`, params: family.params };
}

/**
 * The vectors of the decisions citing a provision or a subdivision of it (the vector arm's filter: the bit index and
 * vec0 test vec_ids) as a JSON array, read once per connection while the file is unchanged (kept-reads.ts; call inside
 * the read transaction that uses it).
 */
export function citingVectors(db: Database.Database, text: string): string {
  const norm = citedNormCondition(text);
  return keptRead(db, `cited_norm vectors ${JSON.stringify(norm)}`, () => JSON.stringify(sql<unknown[], { vec_id: number }>(db,
    `SELECT v.vec_id FROM search_vectors v WHERE v.decision_id IN (${norm.sql})`).all(...norm.params).map((row) => row.vec_id)),
  (ids) => 2 * ids.length);
}

/**
 * The decisions citing a provision or a subdivision of it as one set of their ids and their search_docs rows (an id
 * is a string, a row a number: one set serves the conditions on decisions and on search_docs), tested row by row by
 * `juralite_cites(?, id)` with the set's key bound. A list in SQL (`IN (SELECT value FROM json_each(?))`) was built again by every statement of a
 * search: for a norm 98,792 of 100,000 decisions cite, 200-600 ms a statement against 11-35 ms with the set
 * (bench/README "Session 25: searches with filters").
 */
function citingSet(db: Database.Database, text: string): string {
  const norm = citedNormCondition(text);
  const key = `cited_norm set ${JSON.stringify(norm)}`;
  const set = keptRead(db, key, () => {
    const rows = sql<unknown[], { id: string; doc_id: number | null }>(db, `SELECT c.id, s.doc_id FROM (${norm.sql}) c
      LEFT JOIN search_docs s ON s.decision_id = c.id`).all(...norm.params);
    return new Set<string | number>(rows.flatMap((row) => (row.doc_id === null ? [row.id] : [row.id, row.doc_id])));
  }, (ids) => 80 * ids.size);
  setsInUse(db).set(key, set);
  return key;
}

/** The sets the statements of this connection's current search test, by key: the few last asked (a search asks one). */
const SETS_IN_USE = 4;
const inUse = new WeakMap<Database.Database, Map<string, Set<string | number>>>();
function setsInUse(db: Database.Database): Map<string, Set<string | number>> {
  let sets = inUse.get(db);
  if (!sets) {
    inUse.set(db, sets = new Map());
    const held = sets;
    db.function('juralite_cites', { deterministic: true }, (key: unknown, id: unknown) => {
      const set = held.get(key as string);
      if (!set) throw new Error(`juralite_cites: no set ${String(key)} on this connection`);
      return set.has(id as string | number) ? 1 : 0;
    });
  }
  if (sets.size >= SETS_IN_USE) sets.delete(sets.keys().next().value!);
  return sets;
}

/**
 * SQL for the filters, on decisions (d) and on search_docs (s). cited_norm nests subdivisions (src/corpus/norm-family.ts):
 * '§ 573 BGB' also finds decisions citing '§ 573 Abs. 2 Nr. 2 BGB', '§ 573 Abs. 2 BGB' not those citing only
 * '§ 573 Abs. 1 BGB'. With `db` (call inside the read transaction of the statements that use it) the norm's decisions
 * are read once and kept; without (a statement's shape alone), the subquery itself.
 */
export function filterSql(filters: DecisionFilters, db?: Database.Database): FilterSql {
  // Each condition on a table alias and the column holding the decision id.
  const conditions: ((t: string, id: string) => string)[] = [];
  const params: unknown[] = [];
  if (filters.court !== undefined) {
    conditions.push((t) => `${t}.court IN (SELECT code FROM courts WHERE code = ? COLLATE NOCASE OR name = ? COLLATE NOCASE)`);
    params.push(filters.court.trim(), filters.court.trim());
  }
  if (filters.branch !== undefined) {
    // Every decision's court has its row in courts (the importer writes it first): a court without branch is 'unbekannt'.
    conditions.push((t) => `${t}.court IN (SELECT code FROM courts WHERE coalesce(branch, 'unbekannt') = ?)`);
    params.push(filters.branch);
  }
  if (filters.document_type !== undefined) {
    conditions.push((t) => `coalesce(${t}.document_kind, 'Sonstige') = ?`);
    params.push(filters.document_type);
  }
  if (filters.date_from !== undefined) {
    conditions.push((t) => `${t}.date >= ?`);
    params.push(filters.date_from);
  }
  if (filters.date_to !== undefined) {
    conditions.push((t) => `${t}.date <= ?`);
    params.push(filters.date_to);
  }
  if (filters.cited_norm !== undefined) {
    // The filter tests rows another condition found (FTS5's matches, a list of ids). As a subquery, `+`: left usable
    // as an index term, SQLite drove search_docs by decision_id from the norm's (thousands of) decisions, each against
    // every id of the list: 24 s for 5,000 ids and '§ 823 BGB' at 100k decisions.
    if (db) {
      // Row ids on search_docs (its rows need not be read for their decision ids), decision ids on decisions.
      conditions.push((t, id) => (t === 's' ? 'juralite_cites(?, s.doc_id)' : `juralite_cites(?, ${t}.${id})`));
      params.push(citingSet(db, filters.cited_norm));
    } else {
      const norm = citedNormCondition(filters.cited_norm);
      conditions.push((t, id) => `+${t}.${id} IN (${norm.sql})`);
      params.push(...norm.params);
    }
  }
  const on = (t: string, id: string) => conditions.map((condition) => ` AND ${condition(t, id)}`).join('');
  return { where: on('d', 'id'), whereOnDocs: on('s', 'decision_id'), params, active: conditions.length > 0, inThread: db !== undefined && filters.cited_norm !== undefined };
}
