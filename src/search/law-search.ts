// The laws section of GET /search: FTS5 over law units (title '§ 573 BGB' and the law's name above the heading above
// the text), narrowed by jurisdiction. Law units carry no vectors, so this section is lexical in every mode; in
// hybrid and semantic mode any query group may match (BM25 ranks fuller matches first), a rare compound also matches
// by its parts, and the units the bridge names and the ranked decisions cite join. With all federal laws held, BM25
// alone lists ordinances that happen to use a word ('Eigenbedarf' in the Pflanzenschutzmittelverordnung) before the
// code that governs the question (which often does not use the lawyers' word at all: § 573 BGB never says
// 'Eigenbedarf'), so the score adds the law's prior (law-prior.ts) and the decisions' citations.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { asTyped, matchExpression, termMatcher, type TermGroup } from './query.ts';
import { splitCompounds } from './compound-parts.ts';
import { snippetOf } from './snippets.ts';
import { confidenceOf, type Confidence } from './results.ts';
import { unitLabel } from './index-sync.ts';
import { COUNT_CAP } from './rank-range.ts';
import { lawPriors, type LawPriors } from './law-prior.ts';

export const UNIT_WEIGHTS = [5, 4, 1] as const;
const UNIT_POOL = 200;
/** The best matches of the core laws (law-prior.ts) join a full pool. */
const CORE_POOL = 100;
/** The ranked decisions whose citations count, and the weight a cited unit needs to join without matching. */
const CITING_DECISIONS = 10;
const CITED_JOIN = 0.1;
// A unit's score: its BM25 share of the best match (0..1; of the words as typed, or 0.7 of it for prefixes and
// compounds only), plus the law's prior (0..1), plus its citations by the ranked decisions (0..1), plus 2 where the
// bridge named it. Each weight was chosen on the judged laws set (bench/README.md, "Laws section").
const PRIOR_WEIGHT = 1;
const CITED_WEIGHT = 1;
const BRIDGE_WEIGHT = 2;
const WIDENED_SHARE = 0.7;
/** How far the first unit's score must lead the second's for confidence 'high'. */
const HIGH_MARGIN = 0.3;

export interface LawItem {
  id: string;
  artifact_type: 'LAW';
  aktenzeichen: null;
  court: null;
  date: null;
  document_type: null;
  title: string;
  snippet: string;
  snippets: { text: string }[];
  chunk_title: string | null;
  rn_range: null;
  fundstelle: null;
  breadcrumb: string | null;
  abbreviation: string;
  law_type: string | null;
  jurisdiction: string;
  confidence: Confidence;
}

/** What ranking a unit reads (its text is read only for the units listed: a pool holds hundreds). */
interface UnitKey { rowid: number; law_id: string; kind: string; number: string; abbreviation: string; jurisdiction: string }
interface UnitRow extends UnitKey {
  id: string; heading: string | null; text: string | null; breadcrumb: string | null; law_type: string | null; law_title: string | null;
}

const KEY_COLUMNS = 'u.rowid, u.law_id, u.kind, u.number, l.abbreviation, l.jurisdiction';
const UNIT_COLUMNS = `${KEY_COLUMNS}, u.id, u.heading, u.text, u.breadcrumb, l.law_type, l.title AS law_title`;

/** The rows of law units by rowid, in no particular order. */
const unitRows = (db: Database.Database, rowids: number[]) => sql<[string], UnitRow>(db, `SELECT ${UNIT_COLUMNS}
  FROM law_units u JOIN laws l ON l.id = u.law_id WHERE u.rowid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(rowids));

export interface LawSection {
  items: LawItem[];
  total: { value: number; is_floor: boolean };
  candidatePool: number;
  exhaustive: boolean;
}

/**
 * The best matches of an FTS5 expression (UNIT_POOL of them, and the CORE_POOL best of the core laws however many
 * ordinances match better), each with its BM25 share of the best match, and the number of matches. One pass over the
 * matches: ranking, count and the core laws' best come from the same rows (three FTS5 queries cost three passes).
 */
function lexicalPool(db: Database.Database, priors: LawPriors, expression: string, jurisdiction?: string): { rows: (UnitKey & { share: number })[]; matches: number } {
  if (expression === '') return { rows: [], matches: 0 };
  // Each match as [rowid, bm25] (a common word matches tens of thousands of units: no object per row).
  const scored = (jurisdiction
    ? sql(db, `SELECT f.rowid, bm25(law_units_fts, ${UNIT_WEIGHTS.join(', ')}) AS bm25
      FROM law_units_fts f JOIN law_units u ON u.rowid = f.rowid JOIN laws l ON l.id = u.law_id
      WHERE law_units_fts MATCH ? AND l.jurisdiction = ?`).raw().all(expression, jurisdiction)
    : sql(db, `SELECT rowid, bm25(law_units_fts, ${UNIT_WEIGHTS.join(', ')}) AS bm25
      FROM law_units_fts WHERE law_units_fts MATCH ?`).raw().all(expression)) as [rowid: number, bm25: number][];
  scored.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const picked = scored.slice(0, UNIT_POOL);
  for (let at = UNIT_POOL, core = 0; at < scored.length && core < CORE_POOL; at++) {
    if (priors.isCore(scored[at][0])) {
      picked.push(scored[at]);
      core++;
    }
  }
  const best = Math.min(-1e-9, picked[0]?.[1] ?? 0);
  const share = new Map(picked.map(([rowid, bm25]) => [rowid, bm25 / best]));
  const rows = sql<[string], UnitKey>(db, `SELECT ${KEY_COLUMNS} FROM law_units u JOIN laws l ON l.id = u.law_id
    WHERE u.rowid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(picked.map(([rowid]) => rowid)));
  return { rows: rows.map((row) => ({ ...row, share: share.get(row.rowid)! })), matches: scored.length };
}

/** '§ 573' as kind and number ('Art. 229 § 27': 'Art.', '229 § 27'). */
const splitUnit = (unit: string): [string, string] => {
  const at = unit.indexOf(' ');
  return at < 0 ? [unit, ''] : [unit.slice(0, at), unit.slice(at + 1)];
};

/** The law units named by `norms` (law abbreviation and '§ 573'), in their order. */
function unitsNamed(db: Database.Database, norms: { law: string; unit: string }[], jurisdiction?: string): UnitKey[] {
  if (norms.length === 0) return [];
  const rows = sql<[string], UnitKey & { law_unit: string }>(db, `SELECT ${KEY_COLUMNS}, l.abbreviation || '|' || u.kind || ' ' || u.number AS law_unit
    FROM json_each(?) n JOIN laws l ON l.abbreviation = n.value ->> 0 JOIN law_units u ON u.law_id = l.id
      AND u.kind = n.value ->> 1 AND u.number = n.value ->> 2`)
    .all(JSON.stringify(norms.map((norm) => [norm.law, ...splitUnit(norm.unit)])));
  const byKey = new Map(rows.map((row) => [row.law_unit, row]));
  return norms.map((norm) => byKey.get(`${norm.law}|${norm.unit}`))
    .filter((row): row is UnitKey & { law_unit: string } => row !== undefined && (!jurisdiction || row.jurisdiction === jurisdiction));
}

/**
 * The units the ranked decisions cite, weighed by the citing decisions' ranks (the first counts most) and by how
 * rare a citation of the unit is in the corpus (a cost rule every judgment cites, § 91 ZPO, says nothing about the
 * question): 0..1, keyed by the unit's law and label ('BGB|§ 573').
 */
function citedByDecisions(db: Database.Database, priors: LawPriors, decisions: string[]): Map<string, number> {
  const ranked = decisions.slice(0, CITING_DECISIONS);
  if (ranked.length === 0) return new Map();
  const { n: corpus } = sql<[], { n: number }>(db, 'SELECT count(*) AS n FROM decisions').get()!;
  const rows = sql<[string], { law: string; unit: string; at: number }>(db, `
    SELECT DISTINCT e.target_law AS law, e.target_unit AS unit, j.key AS at
    FROM json_each(?) j JOIN citation_edges e ON e.from_decision_id = j.value
    WHERE e.reference_type = 'statute' AND e.target_law IS NOT NULL AND e.target_unit IS NOT NULL`).all(JSON.stringify(ranked));
  const full = ranked.reduce((sum, _, rank) => sum + 1 / (rank + 1), 0);
  const weights = new Map<string, number>();
  for (const row of rows) {
    const rarity = Math.log((corpus + 1) / Math.max(1, priors.decisionsCiting(row.law, row.unit))) / Math.log(corpus + 1);
    const key = `${row.law}|${row.unit}`;
    weights.set(key, (weights.get(key) ?? 0) + rarity / (row.at + 1) / full);
  }
  return weights;
}

function lawItem(row: UnitRow, groups: TermGroup[], isMatch: (stem: string) => boolean): LawItem {
  const label = unitLabel(row);
  const body = row.text ?? row.heading ?? '';
  const snippet = snippetOf(body, isMatch).text;
  return {
    id: row.id, artifact_type: 'LAW', aktenzeichen: null, court: null, date: null, document_type: null,
    title: row.heading ? `${label} ${row.heading}` : label,
    snippet, snippets: [{ text: snippet }],
    // The unit is the passage: its heading, or its label where it has none (many EU articles).
    chunk_title: row.heading ?? label, rn_range: null, fundstelle: null, breadcrumb: row.breadcrumb,
    abbreviation: row.abbreviation, law_type: row.law_type, jurisdiction: row.jurisdiction,
    confidence: confidenceOf(groups, [`${label} ${row.law_title ?? ''} ${row.heading ?? ''} ${row.text ?? ''}`]),
  };
}

interface Candidate { row: UnitKey; lexical: number; cited: number; bridged: boolean; score: number }

/**
 * Searches law units: the units matching the expression (BM25, the label and law's name above the heading above the
 * text) and, outside keyword mode, the units the bridge names and those the ranked decisions cite, ranked by their
 * BM25 share of the best match, the law's prior (law-prior.ts) and the citations by the ranked decisions.
 *
 * @example searchLaws(db, { query: 'Kündigung', groups: wordGroups(db, 'Kündigung'), all: false, norms: [], limit: 5 }).items[0].abbreviation
 */
export function searchLaws(db: Database.Database, options: {
  /** The query as typed (its compound words are split, not their stems) and its groups. */
  query: string; groups: TermGroup[]; norms: { law: string; unit: string }[]; limit: number; jurisdiction?: string;
  /** Every group required (keyword mode), else any (BM25 ranks fuller matches first). */
  all: boolean;
  /** Decision ids as the decision section ranked them: the units they cite rank higher. */
  decisions?: string[];
  /** Whether units the decisions cite may join the section without matching (not in keyword mode). */
  joinCited?: boolean;
}): LawSection {
  // A rare compound also matches by its parts together ('Pflichtteilsanspruch': Pflichtteil and Anspruch); in keyword
  // mode too, where the parts stand for the required word only within six words of each other.
  const groups = splitCompounds(db, 'law_units_fts', options.groups, options.query, options.all);
  const priors = lawPriors(db);
  const expression = matchExpression(groups, options.all);
  const candidates = new Map<number, Candidate>();
  // The words as typed first: their matches score by their BM25 share of the best; the matches of the widened forms
  // (prefixes, compounds) at WIDENED_SHARE of their share ('Schadensersatz' finds § 823 BGB by its heading
  // 'Schadensersatzpflicht'). The widened pass also gives the count.
  const typedExpression = matchExpression(asTyped(groups), options.all);
  const typed = lexicalPool(db, priors, typedExpression, options.jurisdiction);
  const widened = typedExpression === expression ? null : lexicalPool(db, priors, expression, options.jurisdiction);
  for (const [pool, share] of [[typed, 1], [widened, WIDENED_SHARE]] as const) {
    for (const row of pool?.rows ?? []) {
      if (!candidates.has(row.rowid)) candidates.set(row.rowid, { row, lexical: share * row.share, cited: 0, bridged: false, score: 0 });
    }
  }
  const matches = (widened ?? typed).matches;
  const exhaustive = matches <= UNIT_POOL;
  let total = { value: Math.min(matches, COUNT_CAP), is_floor: matches > COUNT_CAP };
  const matched = candidates.size;
  for (const row of unitsNamed(db, options.norms, options.jurisdiction)) {
    const held = candidates.get(row.rowid);
    if (held) held.bridged = true;
    else candidates.set(row.rowid, { row, lexical: 0, cited: 0, bridged: true, score: 0 });
  }
  const cited = citedByDecisions(db, priors, options.decisions ?? []);
  if (options.joinCited) {
    const named = [...cited].filter(([, weight]) => weight >= CITED_JOIN).map(([key]) => {
      const [law, unit] = key.split('|');
      return { law: law!, unit: unit! };
    });
    for (const row of unitsNamed(db, named, options.jurisdiction)) {
      if (!candidates.has(row.rowid)) candidates.set(row.rowid, { row, lexical: 0, cited: 0, bridged: false, score: 0 });
    }
  }
  for (const candidate of candidates.values()) {
    const { row } = candidate;
    candidate.cited = cited.get(`${row.abbreviation}|${row.kind} ${row.number}`) ?? 0;
    candidate.score = candidate.lexical + PRIOR_WEIGHT * priors.prior(row.law_id) + CITED_WEIGHT * candidate.cited
      + (candidate.bridged ? BRIDGE_WEIGHT : 0);
  }
  const ordered = [...candidates.values()].sort((a, b) => b.score - a.score || a.row.rowid - b.row.rowid);
  // Units the bridge named or the decisions cite count with the matches: exactly while the pool holds every match;
  // past it, one of them may be among the matches counted, so the count becomes a floor.
  const added = candidates.size - matched;
  if (exhaustive) total = { value: candidates.size, is_floor: false };
  else if (added > 0) total = { ...total, is_floor: true };
  const isMatch = termMatcher(groups);
  const listed = ordered.slice(0, options.limit);
  const rows = new Map(unitRows(db, listed.map((candidate) => candidate.row.rowid)).map((row) => [row.rowid, row]));
  const items = listed.map((candidate, index) => {
    const item = lawItem(rows.get(candidate.row.rowid)!, groups, isMatch);
    // 'high' only for a first unit well ahead of the second and named by more than the words: the bridge, or the
    // ranked decisions' citations (judged laws set: 28 of 29 such firsts relevant in hybrid, 5 of 5 in keyword mode;
    // ahead by the words alone, 6 of 18 in keyword mode); others answering every group say 'medium'.
    const ahead = index === 0 && candidate.score - (ordered[1]?.score ?? 0) >= HIGH_MARGIN
      && (candidate.bridged || candidate.cited >= CITED_JOIN);
    if (ahead) item.confidence = 'high';
    else if (item.confidence === 'high') item.confidence = 'medium';
    return item;
  });
  return { items, total, candidatePool: candidates.size, exhaustive };
}
