// The norm arm of hybrid: when the bridge maps a lay term to norms, the decisions that the other arms found and that
// cite those norms (statute edges of the text or the Normenkette) form a ranked list of their own, most citations
// first. It re-ranks candidates rather than listing every citing decision of the corpus: a common provision is cited
// by hundreds of thousands of edge rows at 100k decisions (the whole list took 200 ms), and the candidates already
// passed the filters.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import type { ArmEntry } from './fusion.ts';

const NORM_ARM_LIMIT = 200;

/**
 * The candidates citing any of `norms`, most citations of them first; each with its first passage. Read from the
 * candidates: for each candidate and norm, its edges in the index citation_links_statutes (law, unit, row), so the
 * cost follows the candidates (some 280), not the norm's edges in the corpus (102,000 to § 573 BGB at 100k: the query
 * over citation_edges read them all, 10 to 100 ms a hybrid query; bench/README "Session 17: where a search's time goes").
 */
export function normArm(db: Database.Database, norms: { law: string; unit: string }[], candidates: string[]): ArmEntry[] {
  if (norms.length === 0 || candidates.length === 0) return [];
  const rows = sql<[string, string, number], { id: string; first_chunk: number | null }>(db, NORM_ARM_SQL)
    .all(JSON.stringify(candidates), JSON.stringify(norms.map((n) => [n.law, n.unit])), NORM_ARM_LIMIT);
  return rows.filter((row) => row.first_chunk !== null).map((row) => ({ decision_id: row.id, chunks: [row.first_chunk!] }));
}

/** The norm arm's query: candidates (JSON ids), norms (JSON [law, unit] pairs), limit. */
export const NORM_ARM_SQL = `
    SELECT r.id AS id, (SELECT id FROM chunks WHERE decision_id = r.id ORDER BY position LIMIT 1) AS first_chunk
    FROM (SELECT DISTINCT value AS id FROM json_each(?)) c
    JOIN decision_rows r ON r.id = c.id
    JOIN (SELECT DISTINCT value ->> 0 AS law, value ->> 1 AS unit FROM json_each(?)) n
    JOIN citation_links l INDEXED BY citation_links_statutes
      ON l.reference_type = 'statute' AND l.target_law = n.law AND l.target_unit = n.unit AND l.from_row = r.row
    GROUP BY r.id ORDER BY count(*) DESC, r.id LIMIT +?`;
