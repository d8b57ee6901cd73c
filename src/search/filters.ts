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
 * The decisions citing a provision or a subdivision of it as a JSON array of their ids, read once per connection while
 * the file is unchanged (kept-reads.ts; call inside the read transaction that uses it): every statement of a search
 * tests it (a ranking's passes, its count, the hybrid arms), and '§ 573 BGB' at 100k decisions is 100,000 edges read
 * to 10,000 decisions, some 50 ms each time as a subquery.
 */
export function citingDecisions(db: Database.Database, text: string): string {
  const norm = citedNormCondition(text);
  return keptRead(db, `cited_norm ${JSON.stringify(norm)}`,
    () => JSON.stringify(sql<unknown[], { id: string }>(db, norm.sql).all(...norm.params).map((row) => row.id)),
    (ids) => 2 * ids.length);
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
    // `+`: the filter tests rows another condition found (FTS5's matches, a list of ids); left usable as an index
    // term, SQLite drove search_docs by decision_id from the norm's (thousands of) decisions, each against every id of
    // the list: 24 s for 5,000 ids and '§ 823 BGB' at 100k decisions.
    if (db) {
      conditions.push((t, id) => `+${t}.${id} IN (SELECT value FROM json_each(?))`);
      params.push(citingDecisions(db, filters.cited_norm));
    } else {
      const norm = citedNormCondition(filters.cited_norm);
      conditions.push((t, id) => `+${t}.${id} IN (${norm.sql})`);
      params.push(...norm.params);
    }
  }
  const on = (t: string, id: string) => conditions.map((condition) => ` AND ${condition(t, id)}`).join('');
  return { where: on('d', 'id'), whereOnDocs: on('s', 'decision_id'), params, active: conditions.length > 0 };
}
