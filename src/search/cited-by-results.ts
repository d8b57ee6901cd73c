// What the result decisions cite, read from the citation edges: the decisions several results cite
// (frequently_cited_by_results) and the provisions they cite (norms_cited_by_decision_results).
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';

export interface CitedDecision { id: string; aktenzeichen: string | null; court: string; date: string | null; cited_by_results: number }
export interface CitedNorm { norm: string; law: string; unit: string; cited_by_results: number }

/** The decisions cited by at least two of the decision rows `fromRows` selects (SQL taking one JSON array). */
const citedByTwo = (fromRows: string) => `
    SELECT d.id, d.aktenzeichen, d.court, d.date, c.cited_by_results
    FROM (SELECT l.to_row, count(DISTINCT l.from_row) AS cited_by_results FROM citation_links l
          WHERE l.reference_type = 'case' AND l.to_row IS NOT NULL AND l.from_row IN (${fromRows})
          GROUP BY l.to_row HAVING cited_by_results >= 2) c
    JOIN decision_rows t ON t.row = c.to_row
    JOIN decisions d ON d.id = t.id
    ORDER BY c.cited_by_results DESC, d.date DESC, d.id LIMIT 10`;

/**
 * Decisions of the corpus cited by at least two of the results, most cited first (then the newest, then by id), at
 * most 10. Counted on citation_links' covering index by integer row (the view citation_edges would look up both
 * decisions of every edge by UUID: 3x the time at 100k); only the decisions cited twice or more are read.
 */
export function frequentlyCitedByResults(db: Database.Database, resultIds: string[]): CitedDecision[] {
  if (resultIds.length < 2) return [];
  return sql<[string], CitedDecision>(db, citedByTwo('SELECT r.row FROM decision_rows r WHERE r.id IN (SELECT value FROM json_each(?))'))
    .all(JSON.stringify(resultIds));
}

/** The same for results given by their decision rows (a result page has them: no UUID looked up again). */
export function frequentlyCitedByRows(db: Database.Database, resultRows: number[]): CitedDecision[] {
  if (resultRows.length < 2) return [];
  return sql<[string], CitedDecision>(db, citedByTwo('SELECT value FROM json_each(?)')).all(JSON.stringify(resultRows));
}

/** Provisions (§ or article with its law) the results cite, by how many results cite them, at most 10. */
export function normsCitedByResults(db: Database.Database, resultIds: string[]): CitedNorm[] {
  if (resultIds.length === 0) return [];
  return sql<[string], CitedNorm>(db, `
    SELECT target_unit || ' ' || target_law AS norm, target_law AS law, target_unit AS unit,
      count(DISTINCT from_decision_id) AS cited_by_results
    FROM citation_edges WHERE reference_type = 'statute' AND target_law IS NOT NULL AND target_unit IS NOT NULL
      AND from_decision_id IN (SELECT value FROM json_each(?))
    GROUP BY target_law, target_unit ORDER BY cited_by_results DESC, norm LIMIT 10`).all(JSON.stringify(resultIds));
}
