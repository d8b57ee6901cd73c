// The decision filters of both search endpoints as one SQL condition on `d` (decisions), applied inside every arm.
import type Database from 'better-sqlite3';
import { invalidArgument } from '../errors.ts';
import { parseNormenkette } from '../corpus/norms.ts';

export interface DecisionFilters {
  court?: string;
  branch?: string;
  document_type?: string;
  cited_norm?: string;
  date_from?: string;
  date_to?: string;
}

export interface FilterSql {
  /** 'AND ...' conditions on alias d, or ''. */
  where: string;
  params: unknown[];
  /** True when any filter is set. */
  active: boolean;
}

/** The cited norm as law, unit and the canonical form without the law ('§ 573 Abs. 2'), or 422 on cited_norm. */
export function parseCitedNorm(text: string): { canonical: string; law: string; unit: string; base: string } {
  const parsed = parseNormenkette(text);
  if (parsed.length !== 1) throw invalidArgument('cited_norm', 'must name one provision with its law, e.g. § 573 BGB or Art. 6 DSGVO');
  const { norm, law, unit } = parsed[0];
  return { canonical: norm, law, unit, base: norm.slice(0, -law.length - 1) };
}

/**
 * The decisions citing a provision or a subdivision of it (statute edges of the text and the Normenkette), as a
 * subquery selecting decision ids.
 */
export function citedNormCondition(text: string): { sql: string; params: unknown[] } {
  const norm = parseCitedNorm(text);
  return {
    sql: `SELECT from_decision_id FROM citation_edges WHERE reference_type = 'statute'
      AND target_law = ? AND target_unit = ? AND (reference_canonical = ? OR substr(reference_canonical, 1, ?) = ?)`,
    params: [norm.law, norm.unit, norm.canonical, norm.base.length + 1, `${norm.base} `],
  };
}

/**
 * SQL for the filters. cited_norm nests subdivisions: '§ 573 BGB' also finds decisions citing '§ 573 Abs. 2 Nr. 2
 * BGB', '§ 573 Abs. 2 BGB' not those citing only '§ 573 Abs. 1 BGB' (statute edges of the text and the Normenkette).
 */
export function filterSql(filters: DecisionFilters): FilterSql {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filters.court !== undefined) {
    where.push('d.court IN (SELECT code FROM courts WHERE code = ? COLLATE NOCASE OR name = ? COLLATE NOCASE)');
    params.push(filters.court.trim(), filters.court.trim());
  }
  if (filters.branch !== undefined) {
    where.push(`coalesce((SELECT branch FROM courts WHERE code = d.court), 'unbekannt') = ?`);
    params.push(filters.branch);
  }
  if (filters.document_type !== undefined) {
    where.push(`coalesce(d.document_kind, 'Sonstige') = ?`);
    params.push(filters.document_type);
  }
  if (filters.date_from !== undefined) {
    where.push('d.date >= ?');
    params.push(filters.date_from);
  }
  if (filters.date_to !== undefined) {
    where.push('d.date <= ?');
    params.push(filters.date_to);
  }
  if (filters.cited_norm !== undefined) {
    const norm = citedNormCondition(filters.cited_norm);
    where.push(`d.id IN (${norm.sql})`);
    params.push(...norm.params);
  }
  return { where: where.map((condition) => ` AND ${condition}`).join(''), params, active: where.length > 0 };
}

/** True when the corpus has the search tables (a file opened read-only before it was ever indexed has not). */
export function hasSearchIndex(db: Database.Database): boolean {
  return db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'decisions_fts'`).pluck().get() === 1;
}
