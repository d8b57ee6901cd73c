/**
 * frequently_cited_by_results as session 21 answered it: one statement, GROUP BY with count(DISTINCT), joined to the
 * decisions, ordered and capped. The counting in JS (src/search/cited-by-results.ts) is held to it by
 * test/search/cited-by-results.test.ts and timed against it by bench/cited-by-results.ts.
 */
import type Database from 'better-sqlite3';
import type { CitedDecision } from '../../src/search/cited-by-results.ts';

/** The statement over the decision rows `fromRows` selects (SQL taking one JSON array); `capped` false: no LIMIT. */
export const citedBefore = (fromRows: string, capped = true) => `
    SELECT d.id, d.aktenzeichen, d.court, d.date, c.cited_by_results
    FROM (SELECT l.to_row, count(DISTINCT l.from_row) AS cited_by_results FROM citation_links l
          WHERE l.reference_type = 'case' AND l.to_row IS NOT NULL AND l.from_row IN (${fromRows})
          GROUP BY l.to_row HAVING cited_by_results >= 2) c
    JOIN decision_rows t ON t.row = c.to_row
    JOIN decisions d ON d.id = t.id
    ORDER BY c.cited_by_results DESC, d.date DESC, d.id${capped ? ' LIMIT 10' : ''}`;

/** Session 21's answer for results given by decision rows, by UUID (`byIds`), or uncapped (every decision listed). */
export function citedBeforeStatements(db: Database.Database) {
  return {
    byRows: db.prepare<[string], CitedDecision>(citedBefore('SELECT value FROM json_each(?)')),
    byIds: db.prepare<[string], CitedDecision>(citedBefore('SELECT r.row FROM decision_rows r WHERE r.id IN (SELECT value FROM json_each(?))')),
    uncapped: db.prepare<[string], CitedDecision>(citedBefore('SELECT value FROM json_each(?)', false)),
  };
}
