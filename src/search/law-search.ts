// The laws section of GET /search: FTS5 over law units (title '§ 573 BGB' and the law's name above the heading above
// the text), narrowed by jurisdiction. Law units carry no vectors, so this section is lexical in every mode; in
// hybrid and semantic mode any query group may match (BM25 ranks fuller matches first) and the bridge's norms lead
// (the caller passes none in keyword mode, where every group is required).
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { termMatcher, type TermGroup } from './query.ts';
import { snippetOf } from './snippets.ts';
import { confidenceOf, type Confidence } from './results.ts';
import { unitLabel } from './index-sync.ts';
import { COUNT_CAP } from './rank-range.ts';

export const UNIT_WEIGHTS = [5, 4, 1] as const;
const UNIT_POOL = 200;

export interface LawItem {
  id: string;
  artifact_type: 'LAW';
  aktenzeichen: null;
  court: null;
  date: null;
  document_type: null;
  title: string;
  snippet: string;
  snippets: { text: string }[];
  chunk_title: string | null;
  rn_range: null;
  fundstelle: null;
  breadcrumb: string | null;
  abbreviation: string;
  law_type: string | null;
  jurisdiction: string;
  confidence: Confidence;
}

interface UnitRow {
  rowid: number; id: string; kind: string; number: string; heading: string | null; text: string | null;
  breadcrumb: string | null; abbreviation: string; law_type: string | null; jurisdiction: string; law_title: string | null;
}

const UNIT_COLUMNS = `u.rowid, u.id, u.kind, u.number, u.heading, u.text, u.breadcrumb, l.abbreviation, l.law_type,
  l.jurisdiction, l.title AS law_title`;

export interface LawSection {
  items: LawItem[];
  total: { value: number; is_floor: boolean };
  candidatePool: number;
  exhaustive: boolean;
}

/** The law units named by the bridge's norms (they lead the section when the bridge applied). */
function bridgeUnits(db: Database.Database, norms: { law: string; unit: string }[], jurisdiction?: string): UnitRow[] {
  const unit = sql<[string, string], UnitRow>(db, `SELECT ${UNIT_COLUMNS} FROM law_units u JOIN laws l ON l.id = u.law_id
    WHERE l.abbreviation = ? AND (u.kind || ' ' || u.number) = ?`);
  return norms.map((norm) => unit.get(norm.law, norm.unit))
    .filter((row): row is UnitRow => row !== undefined && (!jurisdiction || row.jurisdiction === jurisdiction));
}

function lawItem(row: UnitRow, groups: TermGroup[], isMatch: (stem: string) => boolean): LawItem {
  const label = unitLabel(row);
  const body = row.text ?? row.heading ?? '';
  const snippet = snippetOf(body, isMatch).text;
  return {
    id: row.id, artifact_type: 'LAW', aktenzeichen: null, court: null, date: null, document_type: null,
    title: row.heading ? `${label} ${row.heading}` : label,
    snippet, snippets: [{ text: snippet }],
    // The unit is the passage: its heading, or its label where it has none (many EU articles).
    chunk_title: row.heading ?? label, rn_range: null, fundstelle: null, breadcrumb: row.breadcrumb,
    abbreviation: row.abbreviation, law_type: row.law_type, jurisdiction: row.jurisdiction,
    confidence: confidenceOf(groups, [`${label} ${row.law_title ?? ''} ${row.heading ?? ''} ${row.text ?? ''}`]),
  };
}

/**
 * Searches law units.
 *
 * @example searchLaws(db, { expression: '"kundig"*', groups, norms: [], limit: 5 }).items[0].abbreviation
 */
export function searchLaws(db: Database.Database, options: {
  expression: string; groups: TermGroup[]; norms: { law: string; unit: string }[]; limit: number; jurisdiction?: string;
}): LawSection {
  const jurisdiction = options.jurisdiction ? ' AND l.jurisdiction = ?' : '';
  const params = options.jurisdiction ? [options.jurisdiction] : [];
  const rows = options.expression === '' ? [] : sql<unknown[], UnitRow>(db, `
    SELECT ${UNIT_COLUMNS} FROM law_units_fts f JOIN law_units u ON u.rowid = f.rowid JOIN laws l ON l.id = u.law_id
    WHERE law_units_fts MATCH ?${jurisdiction} ORDER BY bm25(law_units_fts, ${UNIT_WEIGHTS.join(', ')}) LIMIT ?`)
    .all(options.expression, ...params, UNIT_POOL);
  let total = { value: rows.length, is_floor: false };
  if (rows.length >= UNIT_POOL) {
    const { n } = sql<unknown[], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM law_units_fts f
      JOIN law_units u ON u.rowid = f.rowid JOIN laws l ON l.id = u.law_id WHERE law_units_fts MATCH ?${jurisdiction} LIMIT ?)`)
      .get(options.expression, ...params, COUNT_CAP + 1)!;
    total = { value: Math.min(n, COUNT_CAP), is_floor: n > COUNT_CAP };
  }
  const ordered = new Map<number, UnitRow>();
  for (const row of [...bridgeUnits(db, options.norms, options.jurisdiction), ...rows]) ordered.set(row.rowid, row);
  // The bridge's units count with the matches: exactly while the pool holds every match; past it, one of them may
  // be among the matches counted, so the count becomes a floor.
  const bridged = ordered.size - rows.length;
  const exhaustive = rows.length < UNIT_POOL;
  if (exhaustive) total = { value: ordered.size, is_floor: false };
  else if (bridged > 0) total = { ...total, is_floor: true };
  const isMatch = termMatcher(options.groups);
  const items = [...ordered.values()].slice(0, options.limit).map((row) => lawItem(row, options.groups, isMatch));
  return { items, total, candidatePool: ordered.size, exhaustive };
}
