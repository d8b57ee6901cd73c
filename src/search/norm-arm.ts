// The norm arm of hybrid: when the bridge maps a lay term to norms, the decisions that the other arms found and that
// cite those norms (statute edges of the text or the Normenkette) form a ranked list of their own, most citations
// first. It re-ranks candidates rather than listing every citing decision of the corpus: the candidates already passed
// the filters.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { keptStore } from './kept-reads.ts';
import type { ArmEntry } from './fusion.ts';

const NORM_ARM_LIMIT = 200;

/**
 * The candidates citing any of `norms`, most citations of them first (ties by id); each with its first passage, and
 * none without a passage.
 *
 * Each norm's citing decisions (their edge counts and first chunks) are read once per connection while the file is
 * unchanged (kept apart from other reads), so a search looks its candidates up in memory. Read per search (a seek per candidate and norm,
 * then one per decision for its first chunk), the arm took 2-11 ms of a lay hybrid query at 100k; a norm's read takes
 * 25-60 ms once (§ 573 BGB: 10,000 decisions, 102,000 edges; bench/README "Session 26: the norm arm").
 */
export function normArm(db: Database.Database, norms: { law: string; unit: string }[], candidates: string[]): ArmEntry[] {
  if (norms.length === 0 || candidates.length === 0) return [];
  const distinctNorms = [...new Map(norms.map((norm) => [JSON.stringify([norm.law, norm.unit]), norm])).values()];
  const citingOfNorms = distinctNorms.map((norm) => citingDecisions(db, norm.law, norm.unit));
  const cited: { id: string; count: number; firstChunk: number | null }[] = [];
  for (const id of new Set(candidates)) {
    let count = 0;
    let firstChunk: number | null = null;
    for (const citing of citingOfNorms) {
      const held = citing.get(id);
      if (held) [count, firstChunk] = [count + held.count, held.firstChunk];
    }
    if (count > 0) cited.push({ id, count, firstChunk });
  }
  // Decision ids are UUIDs (src/corpus/ids.ts): JavaScript's order of them is SQLite's binary one.
  cited.sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return cited.slice(0, NORM_ARM_LIMIT).filter((entry) => entry.firstChunk !== null)
    .map((entry) => ({ decision_id: entry.id, chunks: [entry.firstChunk!] }));
}

interface CitingDecision { count: number; firstChunk: number | null }

/**
 * Norms' citing decisions kept per connection, apart from the impact lists (kept-reads.ts) so that neither evicts the
 * other: some 160 bytes a decision (1.6 MB for § 573 BGB at 100k; at 500k a popular norm ~8 MB, four of them).
 */
const NORMS_KEPT_BYTES = 32 * 1024 * 1024;
const keptNorms = keptStore(NORMS_KEPT_BYTES);

/** The decisions citing the norm (law and unit as cited), each with its number of statute edges to it and its first chunk. */
export function citingDecisions(db: Database.Database, law: string, unit: string): Map<string, CitingDecision> {
  return keptNorms(db, `norm arm ${JSON.stringify([law, unit])}`, () => new Map(
    sql<[string, string], [string, number, number | null]>(db, CITING_DECISIONS_SQL).raw().all(law, unit)
      .map(([id, count, firstChunk]) => [id, { count, firstChunk }])), (citing) => 160 * citing.size);
}

/** A norm's citing decisions: their edges from the index citation_links_statutes (law, unit), their first chunks. */
export const CITING_DECISIONS_SQL = `SELECT r.id, count(*),
    (SELECT x.id FROM row_chunks x WHERE x.decision_row = l.from_row ORDER BY x.position LIMIT 1)
  FROM citation_links l INDEXED BY citation_links_statutes JOIN decision_rows r ON r.row = l.from_row
  WHERE l.reference_type = 'statute' AND l.target_law = ? AND l.target_unit = ? GROUP BY l.from_row`;
