// Which decision of the corpus a case citation names. The rule is the citation check's (src/citations/verify.ts):
// by ECLI, else by Aktenzeichen narrowed by the court and the date the citation gives; exactly one fitting decision
// resolves the edge, none or several leave it unresolved. So an edge is resolved exactly when a check of the same
// citation would say `verified`.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { courtMatches } from '../corpus/find-decision.ts';

/** What a case citation names, as stored in citation_edges.target_*. */
export interface CaseTarget {
  ecli: string | null;
  court: string | null;
  date: string | null;
  azKey: string | null;
}

// Popular decisions and provisions are cited thousands of times: during an import each distinct target is looked up
// once. The caches live until the import's final pass (forgetResolutions), which re-resolves whatever was null.
interface ImportCache { cases: Map<string, CaseTargetHit | null>; statutes: Map<string, boolean> }

/** The decision a case citation names: its id and its integer row (decision_rows). */
export interface CaseTargetHit { id: string; row: number }
const importCaches = new WeakMap<Database.Database, ImportCache>();

function importCache(corpus: Database.Database): ImportCache {
  let cache = importCaches.get(corpus);
  if (!cache) importCaches.set(corpus, (cache = { cases: new Map(), statutes: new Map() }));
  return cache;
}

/** The one decision the citation names (id and row), or null; cached per connection until forgetResolutions. */
export function caseTarget(corpus: Database.Database, target: CaseTarget): CaseTargetHit | null {
  const { cases } = importCache(corpus);
  const key = `${target.ecli}\u0000${target.court}\u0000${target.date}\u0000${target.azKey}`;
  let hit = cases.get(key);
  if (hit === undefined) cases.set(key, (hit = lookUp(corpus, target)));
  return hit;
}

/** The id of the one decision the citation names, or null (caseTarget's id). */
export function resolveCaseTarget(corpus: Database.Database, target: CaseTarget): string | null {
  return caseTarget(corpus, target)?.id ?? null;
}

/**
 * Whether the corpus holds the text of a cited provision ('BGB', '§ 573'): a statute edge is resolved exactly then.
 * Cached like resolveCaseTarget.
 */
export function statuteHeld(corpus: Database.Database, law: string | null, unit: string | null): boolean {
  const { statutes } = importCache(corpus);
  const key = `${law}\u0000${unit}`;
  let held = statutes.get(key);
  if (held === undefined) {
    const space = unit?.indexOf(' ') ?? -1;
    held = space > 0 && sql(corpus, `SELECT 1 FROM laws l JOIN law_units u ON u.law_id = l.id
      WHERE l.abbreviation = +? AND u.kind = +? AND u.number = +? AND u.text IS NOT NULL`)
      .get(law, unit!.slice(0, space), unit!.slice(space + 1)) !== undefined;
    statutes.set(key, held);
  }
  return held;
}

/** Drops the lookups cached during an import (documents written since may answer them differently). */
export function forgetResolutions(corpus: Database.Database): void {
  importCaches.delete(corpus);
}

function lookUp(corpus: Database.Database, target: CaseTarget): CaseTargetHit | null {
  if (target.ecli) {
    const hit = sql<[string], CaseTargetHit>(corpus,
      'SELECT d.id, r.row FROM decisions d JOIN decision_rows r ON r.id = d.id WHERE d.ecli = +?').get(target.ecli);
    if (hit) return hit;
  }
  // An Aktenzeichen alone is no identifier: different courts reuse the same numbers.
  if (!target.azKey || (!target.court && !target.date)) return null;
  // Court and date from the covering index: the planner would read them from the decision row itself (full text
  // inline), a random page per cited decision, a third of a 100k corpus import's lookup time.
  const fitting = sql<[string], CaseTargetHit & { court: string; date: string | null }>(corpus,
    `SELECT DISTINCT r.id, r.row, d.court, d.date
     FROM row_file_numbers x JOIN decision_rows r ON r.row = x.decision_row
     JOIN decisions d INDEXED BY search_decision_filters ON d.id = r.id
     WHERE x.az_key = +?`,
  ).all(target.azKey).filter((row) =>
    (!target.court || courtMatches(row.court, target.court)) && (!target.date || row.date === target.date));
  return fitting.length === 1 ? { id: fitting[0].id, row: fitting[0].row } : null;
}

/**
 * The unresolved case edges whose ECLI or Aktenzeichen some decision now holds. On the partial index of the
 * unresolved edges: through the view, the planner scanned every case edge (search_case_edges) and read each one's row
 * for its status, 5 s at 120k decisions for the 8 edges it found (bench/README.md, "Session 18").
 */
export const PENDING_EDGES_SQL = `
  SELECT l.id, f.id AS from_decision_id, l.target_ecli, l.target_court, l.target_date, l.target_az_key
  FROM citation_links l INDEXED BY citation_links_unresolved JOIN decision_rows f ON f.row = l.from_row
  WHERE l.reference_type = 'case' AND l.resolution_status = 'unresolved'
    AND (EXISTS (SELECT 1 FROM decision_file_numbers x WHERE x.az_key = l.target_az_key)
         OR EXISTS (SELECT 1 FROM decisions d WHERE d.ecli = l.target_ecli))`;

interface PendingEdge {
  id: number;
  from_decision_id: string;
  target_ecli: string | null;
  target_court: string | null;
  target_date: string | null;
  target_az_key: string | null;
}

/**
 * Resolves the unresolved edges that a decision of the corpus may now answer (one imported after the citing one),
 * and, unless `statutes` is false, statute edges whose unit text is now held (a scan of every statute edge: the
 * importer skips it when it wrote no law, since writeEdges resolves new statute edges itself). Runs after every
 * import, inside the caller's transaction. Returns the number of decision citations resolved.
 */
export function resolvePendingEdges(corpus: Database.Database, { statutes = true } = {}): number {
  forgetResolutions(corpus);
  // Only edges whose ECLI or Aktenzeichen some decision now holds can resolve: the rest are not even looked at.
  const pending = sql<[], PendingEdge>(corpus, PENDING_EDGES_SQL).all();
  const resolve = sql(corpus, `UPDATE citation_links SET to_row = (SELECT row FROM decision_rows WHERE id = ?), resolution_status = 'resolved' WHERE id = ?`);
  const drop = sql(corpus, 'DELETE FROM citation_links WHERE id = ?');
  let resolved = 0;
  for (const edge of pending) {
    const to = resolveCaseTarget(corpus,
      { ecli: edge.target_ecli, court: edge.target_court, date: edge.target_date, azKey: edge.target_az_key });
    if (!to) continue;
    // A decision that cites itself (its own Aktenzeichen in its text) gets no edge.
    if (to === edge.from_decision_id) drop.run(edge.id);
    else {
      resolve.run(to, edge.id);
      resolved++;
    }
  }
  if (statutes) sql(corpus,
    `UPDATE citation_links SET resolution_status = 'resolved'
     WHERE reference_type = 'statute' AND resolution_status = 'unresolved'
       AND EXISTS (SELECT 1 FROM laws l JOIN law_units u ON u.law_id = l.id
                   WHERE l.abbreviation = citation_links.target_law AND u.text IS NOT NULL
                     AND u.kind = substr(citation_links.target_unit, 1, instr(citation_links.target_unit, ' ') - 1)
                     AND u.number = substr(citation_links.target_unit, instr(citation_links.target_unit, ' ') + 1))`,
  ).run();
  forgetResolutions(corpus);
  return resolved;
}
