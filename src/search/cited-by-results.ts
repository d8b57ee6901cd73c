// What the result decisions cite, read from the citation edges: the decisions several results cite
// (frequently_cited_by_results) and the provisions they cite (norms_cited_by_decision_results).
import type Database from 'better-sqlite3';
import { inTransaction, sql } from '../db/statements.ts';

export interface CitedDecision { id: string; aktenzeichen: string | null; court: string; date: string | null; cited_by_results: number }
export interface CitedNorm { norm: string; law: string; unit: string; cited_by_results: number }

/**
 * The decisions each result row cites (`?`: a JSON array of distinct decision rows), each once per result, as one
 * comma-separated list (NULL when none): one correlated read of the covering index search_case_edges per result.
 * Counting them in JS is cheaper than SQLite's GROUP BY with count(DISTINCT) (two temporary b-trees).
 */
const CITED_ROWS = `SELECT group_concat((SELECT group_concat(DISTINCT l.to_row) FROM citation_links l
    WHERE l.from_row = r.value AND l.reference_type = 'case' AND l.to_row IS NOT NULL)) FROM json_each(?) r`;

/**
 * The decisions `?` names (a JSON array of [row, cited_by_results]), ordered and capped as the answer is. A decision
 * is read by its rowid where that equals its decision row (both tables numbered alike by the importer; an upsert keeps
 * both), its UUID checked; by the UUID's index otherwise (rows renumbered by an upgrade): one seek fewer each.
 */
const CITED_DECISIONS = `WITH c AS MATERIALIZED (SELECT t.row, t.id, j.value ->> 1 AS n FROM json_each(?) j
      JOIN decision_rows t ON t.row = j.value ->> 0)
    SELECT d.id AS id, d.aktenzeichen AS aktenzeichen, d.court AS court, d.date AS date, c.n AS cited_by_results
      FROM c JOIN decisions d ON d.rowid = c.row WHERE d.id = c.id
    UNION ALL
    SELECT d.id, d.aktenzeichen, d.court, d.date, c.n FROM c JOIN decisions d ON d.id = c.id
      WHERE NOT EXISTS (SELECT 1 FROM decisions x WHERE x.rowid = c.row AND x.id = c.id)
    ORDER BY cited_by_results DESC, date DESC, id LIMIT 10`;

/**
 * How many results cite each decision row, indexed by row: one array reused by every count and zeroed after it
 * (~400 rows a page at 100k: 5 µs with JSON.parse, against 20 in a new Map; bench/README Session 22). 2 bytes a row
 * up to the corpus's highest cited row (SQLite numbers rows from 1 on); rows beyond TALLIED_ROWS are counted in a Map.
 */
let tally = new Uint16Array(0);
const TALLIED_ROWS = 1 << 24;

/** The rows `listed` (each result's cited rows, once per result) holds twice or more, with how often: [row, count]. */
function listedTwice(listed: number[], results: number): [number, number][] {
  let low = 1;
  let top = 0;
  for (const row of listed) {
    if (row > top) top = row;
    if (row < low) low = row;
  }
  const cited: [number, number][] = [];
  if (low < 1 || top >= TALLIED_ROWS || results > 0xffff) {
    const counts = new Map<number, number>();
    for (const row of listed) counts.set(row, (counts.get(row) ?? 0) + 1);
    for (const [row, n] of counts) if (n >= 2) cited.push([row, n]);
    return cited;
  }
  if (top >= tally.length) tally = new Uint16Array(top + 1 + (top >> 2));
  for (const row of listed) if (++tally[row] === 2) cited.push([row, 0]);
  for (const entry of cited) entry[1] = tally[entry[0]];
  for (const row of listed) tally[row] = 0;
  return cited;
}

/** The answer holds at most this many decisions. */
const CITED_CAP = 10;

/**
 * Decisions of the corpus cited by at least two of the results, most cited first (then the newest, then by id), at
 * most 10.
 */
export function frequentlyCitedByResults(db: Database.Database, resultIds: string[]): CitedDecision[] {
  if (resultIds.length < 2) return [];
  const rows = sql<[string], number>(db, 'SELECT row FROM decision_rows WHERE id IN (SELECT value FROM json_each(?))')
    .pluck().all(JSON.stringify(resultIds));
  return frequentlyCitedByRows(db, rows);
}

/**
 * The same for results given by their decision rows (a result page has them: no UUID looked up again). Each result's
 * cited rows are read from the covering index in one statement and counted here (`listedTwice`); only the decisions
 * that can still be among the 10 (cited at least as often as the tenth most cited: its ties) are read, ordered by
 * SQLite as before.
 */
export function frequentlyCitedByRows(db: Database.Database, resultRows: number[]): CitedDecision[] {
  const rows = [...new Set(resultRows)];
  if (rows.length < 2) return [];
  const read = () => {
    const listed = sql<[string], string | null>(db, CITED_ROWS).pluck().get(JSON.stringify(rows));
    if (listed == null) return [];
    let cited = listedTwice(JSON.parse(`[${listed}]`) as number[], rows.length);
    if (cited.length === 0) return [];
    if (cited.length > CITED_CAP) {
      cited.sort((a, b) => b[1] - a[1]);
      const least = cited[CITED_CAP - 1][1];
      cited = cited.filter(([, n]) => n >= least);
    }
    return sql<[string], CitedDecision>(db, CITED_DECISIONS).all(JSON.stringify(cited));
  };
  // Both statements read one state of the file (searches call this inside their read transaction).
  return db.inTransaction ? read() : inTransaction(db, read);
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
