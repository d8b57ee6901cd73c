// The norm arm of hybrid: when the bridge maps a lay term to norms, the decisions that the other arms found and that
// cite those norms (statute edges of the text or the Normenkette) form a ranked list of their own, most citations
// first. It re-ranks candidates rather than listing every citing decision of the corpus: a common provision is cited
// by hundreds of thousands of edge rows at 100k decisions (the whole list took 200 ms), and the candidates already
// passed the filters.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import type { ArmEntry } from './fusion.ts';

const NORM_ARM_LIMIT = 200;

/** The candidates citing any of `norms`, most citations of them first; each with its first passage. */
export function normArm(db: Database.Database, norms: { law: string; unit: string }[], candidates: string[]): ArmEntry[] {
  if (norms.length === 0 || candidates.length === 0) return [];
  const rows = sql<[string, string, number], { id: string; first_chunk: number | null }>(db, `
    SELECT e.from_decision_id AS id,
      (SELECT id FROM chunks WHERE decision_id = e.from_decision_id ORDER BY position LIMIT 1) AS first_chunk
    FROM citation_edges e
    WHERE e.from_decision_id IN (SELECT value FROM json_each(?)) AND e.reference_type = 'statute'
      AND (e.target_law, e.target_unit) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))
    GROUP BY e.from_decision_id ORDER BY count(*) DESC, e.from_decision_id LIMIT ?`)
    .all(JSON.stringify(candidates), JSON.stringify(norms.map((n) => [n.law, n.unit])), NORM_ARM_LIMIT);
  return rows.filter((row) => row.first_chunk !== null).map((row) => ({ decision_id: row.id, chunks: [row.first_chunk!] }));
}
