// How much a law weighs in the laws section before any query word: with all 6,877 federal laws held, a common word
// matches hundreds of ordinances nobody looks for ('Eigenbedarf' in the Pflanzenschutzmittelverordnung) beside the
// code that governs the question. A law counts more when the law-name registry knows it (the laws lawyers cite by
// abbreviation: BGB, StGB, ZPO, KSchG, ...), when the corpus's decisions cite it often, and when it is a statute;
// an amending law ('Zweites Gesetz zur Änderung ...', its articles only amending instructions) counts least.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';

interface Priors {
  version: string; builtAt: number; byLaw: Map<string, number>;
  /** Law-unit rows of the core laws (prior at least CORE_PRIOR). */
  coreUnits: Set<number>;
  /** Decisions citing each unit, keyed 'BGB|§ 573'. */
  citingDecisions: Map<string, number>;
}
const cache = new WeakMap<Database.Database, Priors>();

const AMENDING = /^(?:\p{L}+\s+)?(?:Gesetz|Verordnung)\s+zur\s+(?:Änderung|Neuregelung|Anpassung)\b/u;

/** A changed database rebuilds the priors at most this often (a sync writing every second would rebuild them each time). */
const REBUILD_MS = 60_000;

/**
 * The priors of every law `db` holds, from 0 (an amending law) to 1 (a registry law its decisions cite most);
 * built once per connection and again when the database changed (an import: SQLite's data_version, or a write on it),
 * at most once a minute: a prior a minute old ranks as well.
 */
function priors(db: Database.Database): Priors {
  const { data_version: other } = sql<[], { data_version: number }>(db, 'PRAGMA data_version').get()!;
  const { own } = sql<[], { own: number }>(db, 'SELECT total_changes() AS own').get()!;
  const version = `${other}:${own}`;
  const held = cache.get(db);
  if (held && (held.version === version || Date.now() - held.builtAt < REBUILD_MS)) return held;
  const cites = new Map(sql<[], { law: string; n: number }>(db, `SELECT target_law AS law, count(*) AS n FROM citation_edges
    WHERE reference_type = 'statute' AND target_law IS NOT NULL GROUP BY target_law`).all().map((r) => [r.law, r.n]));
  const maxCites = Math.max(1, ...cites.values());
  const byLaw = new Map<string, number>();
  for (const law of sql<[], { id: string; abbreviation: string; title: string | null; law_type: string | null; core: number }>(db, `
    SELECT l.id, l.abbreviation, l.title, l.law_type,
      EXISTS (SELECT 1 FROM law_aliases a WHERE a.law_id = l.id AND a.kind = 'registry') AS core FROM laws l`).all()) {
    if (AMENDING.test(law.title ?? '')) {
      byLaw.set(law.id, 0);
      continue;
    }
    const cited = Math.log1p(cites.get(law.abbreviation) ?? 0) / Math.log1p(maxCites);
    byLaw.set(law.id, 0.5 * law.core + 0.3 * cited + (law.law_type === 'Gesetz' ? 0.2 : 0.1));
  }
  const core = JSON.stringify([...byLaw].filter(([, prior]) => prior >= CORE_PRIOR).map(([id]) => id));
  const coreUnits = new Set(sql<[string], { rowid: number }>(db, 'SELECT rowid FROM law_units WHERE law_id IN (SELECT value FROM json_each(?))')
    .all(core).map((row) => row.rowid));
  const citingDecisions = new Map(sql<[], { key: string; n: number }>(db, `SELECT target_law || '|' || target_unit AS key,
    count(DISTINCT from_decision_id) AS n FROM citation_edges WHERE reference_type = 'statute' AND target_law IS NOT NULL
      AND target_unit IS NOT NULL GROUP BY target_law, target_unit`).all().map((row) => [row.key, row.n]));
  const priorsNow = { version, builtAt: Date.now(), byLaw, coreUnits, citingDecisions };
  cache.set(db, priorsNow);
  return priorsNow;
}

/**
 * A law's prior (0..1; a law the corpus does not hold: 0.1).
 *
 * @example lawPrior(db, bgbId) // 1 where the decisions cite the BGB most
 */
export function lawPrior(db: Database.Database, lawId: string): number {
  return priors(db).byLaw.get(lawId) ?? 0.1;
}

/** A law with a prior of 0.6 or more is a core law: the registry's laws, the ones a lawyer cites by abbreviation. */
const CORE_PRIOR = 0.6;

/** Whether a law-unit row belongs to a core law. */
export function isCoreUnit(db: Database.Database, rowid: number): boolean {
  return priors(db).coreUnits.has(rowid);
}

/** How many of the corpus's decisions cite a unit ('BGB', '§ 573'). */
export function decisionsCiting(db: Database.Database, law: string, unit: string): number {
  return priors(db).citingDecisions.get(`${law}|${unit}`) ?? 0;
}
