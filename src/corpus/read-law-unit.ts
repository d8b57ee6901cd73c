import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { notFound } from '../errors.ts';
import { findLaw } from './law-store.ts';

interface UnitRow {
  id: string; kind: string; number: string; heading: string | null; text: string | null;
  breadcrumb: string | null; position: number; repealed: number;
}

/** How many citing decisions a unit's answer lists (the total is always given). */
export const CITED_BY_LIMIT = 20;

/** '823', '§ 823', '§823', 'Art. 6', 'Artikel 6', '6': the kind if written, and the number. */
function parseUnit(text: string): { kind: string | null; number: string } {
  const match = /^\s*(§|Art\.?|Artikel)?\s*([0-9]+\s*[a-z]?)\s*$/iu.exec(text);
  if (!match) return { kind: null, number: text.trim() };
  const kind = match[1] ? (match[1] === '§' ? '§' : 'Art.') : null;
  return { kind, number: match[2].replace(/\s+/gu, '').toLowerCase() };
}

const COLUMNS = 'id, kind, number, heading, text, breadcrumb, position, repealed';

/**
 * One § or article of a law by the law's abbreviation (or any name the registry knows) and the unit's number, with
 * its neighbours in the law and the decisions of the corpus that cite it.
 *
 * @example readLawUnit(corpus, 'BGB', '823').unit.label   // '§ 823'
 */
export function readLawUnit(corpus: Database.Database, lawText: string, unitText: string) {
  const law = findLaw(corpus, lawText);
  if (!law) throw notFound(`No law "${lawText}" in the corpus; the laws held are listed by the facet law_abbreviation.`);
  const { kind, number } = parseUnit(unitText);
  const units = sql<[string, string], UnitRow>(corpus,
    `SELECT ${COLUMNS} FROM law_units WHERE law_id = +? AND number = +? ORDER BY kind = '§' DESC, position`).all(law.id, number);
  // A bare number reads the § of a German law and the article of an EU or international act.
  const preferred = kind ?? (law.jurisdiction === 'DE' ? '§' : 'Art.');
  const unit = units.find((row) => row.kind === preferred) ?? (kind ? undefined : units[0]);
  if (!unit) throw notFound(`${law.abbreviation} has no ${kind ?? ''}${kind ? ' ' : ''}${number} in the corpus.`);
  const label = (row: UnitRow) => (row.number ? `${row.kind} ${row.number}` : row.kind);
  const neighbour = (order: 'DESC' | 'ASC', compare: '<' | '>') => {
    const row = sql<[string, number], UnitRow>(corpus, `SELECT ${COLUMNS} FROM law_units WHERE law_id = +? AND position ${compare} +?
      ORDER BY position ${order} LIMIT 1`).get(law.id, unit.position);
    return row ? { kind: row.kind, number: row.number, label: label(row), heading: row.heading } : null;
  };
  const citing = `FROM citation_edges e JOIN decisions d ON d.id = e.from_decision_id
    WHERE e.reference_type = 'statute' AND e.target_law = +? AND e.target_unit = +?`;
  const { total } = sql<[string, string], { total: number }>(corpus,
    `SELECT count(DISTINCT e.from_decision_id) AS total ${citing}`).get(law.abbreviation, label(unit))!;
  const citedBy = sql<[string, string, number], { id: string; court: string; date: string | null; aktenzeichen: string | null }>(corpus,
    `SELECT DISTINCT d.id, d.court, d.date, d.aktenzeichen ${citing} ORDER BY d.date DESC LIMIT +?`)
    .all(law.abbreviation, label(unit), CITED_BY_LIMIT);
  const details = sql<[string], { law_type: string | null; stand: string | null }>(corpus,
    'SELECT law_type, stand FROM laws WHERE id = ?').get(law.id)!;
  return {
    law: { id: law.id, abbreviation: law.abbreviation, title: law.title, jurisdiction: law.jurisdiction,
      law_type: details.law_type, stand: details.stand, text_available: law.text_available === 1 },
    unit: { id: unit.id, kind: unit.kind, number: unit.number, label: label(unit), citation: `${label(unit)} ${law.abbreviation}`,
      heading: unit.heading, text: unit.text, text_available: unit.text !== null, breadcrumb: unit.breadcrumb,
      repealed: unit.repealed === 1 },
    previous: neighbour('DESC', '<'),
    next: neighbour('ASC', '>'),
    cited_by_total: total,
    cited_by: citedBy,
  };
}
