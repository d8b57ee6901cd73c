// The norm arm of hybrid: when the bridge maps a lay term to norms, the decisions citing those norms (statute edges)
// are a ranked list of their own, most citations first, filters applied.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import type { FilterSql } from './filters.ts';
import type { ArmEntry } from './fusion.ts';

const NORM_ARM_LIMIT = 200;

export function normArm(db: Database.Database, norms: { law: string; unit: string }[], filters: FilterSql): ArmEntry[] {
  if (norms.length === 0) return [];
  const rows = sql<unknown[], { id: string; first_chunk: number | null }>(db, `
    SELECT d.id, (SELECT id FROM chunks WHERE decision_id = d.id ORDER BY position LIMIT 1) AS first_chunk
    FROM citation_edges e JOIN decisions d ON d.id = e.from_decision_id
    WHERE e.reference_type = 'statute' AND (e.target_law, e.target_unit) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))
      ${filters.where}
    GROUP BY d.id ORDER BY count(*) DESC, d.date DESC LIMIT ?`)
    .all(JSON.stringify(norms.map((n) => [n.law, n.unit])), ...filters.params, NORM_ARM_LIMIT);
  return rows.filter((row) => row.first_chunk !== null).map((row) => ({ decision_id: row.id, chunks: [row.first_chunk!] }));
}
