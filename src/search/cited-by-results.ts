// What the result decisions cite, read from the citation edges: the decisions several results cite
// (frequently_cited_by_results) and the provisions they cite (norms_cited_by_decision_results).
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';

export interface CitedDecision { id: string; aktenzeichen: string | null; court: string; date: string | null; cited_by_results: number }
export interface CitedNorm { norm: string; law: string; unit: string; cited_by_results: number }

/** Decisions of the corpus cited by at least two of the results (not by themselves), most cited first, at most 10. */
export function frequentlyCitedByResults(db: Database.Database, resultIds: string[]): CitedDecision[] {
  if (resultIds.length < 2) return [];
  // Counted on the covering index first; only the decisions cited twice or more are read.
  return sql<[string], CitedDecision>(db, `
    SELECT d.id, d.aktenzeichen, d.court, d.date, c.cited_by_results
    FROM (SELECT to_decision_id, count(DISTINCT from_decision_id) AS cited_by_results FROM citation_edges
          WHERE reference_type = 'case' AND to_decision_id IS NOT NULL AND from_decision_id IN (SELECT value FROM json_each(?))
          GROUP BY to_decision_id HAVING cited_by_results >= 2) c
    JOIN decisions d ON d.id = c.to_decision_id
    ORDER BY c.cited_by_results DESC, d.date DESC LIMIT 10`)
    .all(JSON.stringify(resultIds));
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
