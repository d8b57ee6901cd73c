// How much a law weighs in the laws section before any query word: with all 6,877 federal laws held, a common word
// matches hundreds of ordinances nobody looks for ('Eigenbedarf' in the Pflanzenschutzmittelverordnung) beside the
// code that governs the question. A law counts more when the law-name registry knows it (the laws lawyers cite by
// abbreviation: BGB, StGB, ZPO, KSchG, ...), when the corpus's decisions cite it often, and when it is a statute;
// an amending law ('Zweites Gesetz zur Änderung ...', its articles only amending instructions) counts least.
import type Database from 'better-sqlite3';
import { corpusVersion } from '../db/corpus-version.ts';
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
  const version = corpusVersion(db);
  const held = cache.get(db);
  if (held && (held.version === version || Date.now() - held.builtAt < REBUILD_MS)) return held;
  const counts = citationCounts(db);
  const cites = new Map<string, number>();
  const citingDecisions = new Map<string, number>();
  for (const { law, unit, edges, decisions } of counts) {
    cites.set(law, (cites.get(law) ?? 0) + edges);
    if (unit !== '') citingDecisions.set(`${law}|${unit}`, decisions);
  }
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
  const priorsNow = { version, builtAt: Date.now(), byLaw, coreUnits, citingDecisions };
  cache.set(db, priorsNow);
  return priorsNow;
}

/** A law with a prior of 0.6 or more is a core law: the registry's laws, the ones a lawyer cites by abbreviation. */
const CORE_PRIOR = 0.6;

/** The priors as one query reads them (looked up once: a search asks for thousands of rows). */
export interface LawPriors {
  /** A law's prior (0..1; a law the corpus does not hold: 0.1). */
  prior(lawId: string): number;
  /** Whether a law-unit row belongs to a core law. */
  isCore(rowid: number): boolean;
  /** How many of the corpus's decisions cite a unit ('BGB', '§ 573'). */
  decisionsCiting(law: string, unit: string): number;
}

/**
 * The priors of the corpus as `db` reads it now: call once per search (inside its read transaction).
 *
 * @example lawPriors(db).prior(bgbId) // 1 where the decisions cite the BGB most
 */
export function lawPriors(db: Database.Database): LawPriors {
  const { byLaw, coreUnits, citingDecisions } = priors(db);
  return {
    prior: (lawId) => byLaw.get(lawId) ?? 0.1,
    isCore: (rowid) => coreUnits.has(rowid),
    decisionsCiting: (law, unit) => citingDecisions.get(`${law}|${unit}`) ?? 0,
  };
}

/**
 * The statute edges and their citing decisions per cited law and unit (unit '' where only the law is named): kept in
 * law_unit_citations by the corpus's triggers; counted from the edges only in a file of this version written before
 * that table or with its counts out of step (opened read-only: a writable open counts them anew).
 */
function citationCounts(db: Database.Database): { law: string; unit: string; edges: number; decisions: number }[] {
  const kept = sql<[], { n: number }>(db, `SELECT count(*) AS n FROM sqlite_master m JOIN meta ON meta.key = 'law_unit_citations'
    WHERE m.name = 'law_unit_citations'`).get()!.n > 0;
  return sql<[], { law: string; unit: string; edges: number; decisions: number }>(db, kept
    ? 'SELECT law, unit, edges, decisions FROM law_unit_citations WHERE edges > 0'
    : `SELECT target_law AS law, coalesce(target_unit, '') AS unit, count(*) AS edges, count(DISTINCT from_decision_id) AS decisions
        FROM citation_edges WHERE reference_type = 'statute' AND target_law IS NOT NULL GROUP BY 1, 2`).all();
}
