// The importer's use of the citation engine: every decision's text, and its Normenkette, becomes citation edges.
// One row per cited decision or provision per Randnummer, so "cited at Rn. 12, 15 and 31" stays visible while the
// graph counts the cited decision once.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { extractCitations } from '../citations/extract.ts';
import type { Citation } from '../citations/types.ts';
import { azKey } from '../corpus/ids.ts';
import { courtMatches } from '../corpus/find-decision.ts';
import type { ParsedNorm } from '../corpus/norms.ts';
import { codePointIndexer } from '../text/code-points.ts';
import { caseTarget, resolvePendingEdges, statuteHeld } from './resolve.ts';
import { timed } from '../ingest/import-profile.ts';

/** A decision as the edge finder needs it; offsets of `randnummern` are code points into `fullText`, ascending. */
export interface CitingDecision {
  court: string;
  ecli: string | null;
  azKeys: string[];
  fullText: string;
  randnummern: { rn: number; start: number; end: number }[];
  norms: ParsedNorm[];
}

/** An edge as the text states it, before its target is looked up in the corpus. */
export interface EdgeCandidate {
  rn: number | null;
  reference_canonical: string;
  reference_type: 'case' | 'statute';
  reference_role: string | null;
  target_ecli: string | null;
  target_court: string | null;
  target_date: string | null;
  target_az_key: string | null;
  target_law: string | null;
  target_unit: string | null;
}

interface EdgeRow extends EdgeCandidate {
  to_row: number | null;
  resolution_status: 'resolved' | 'unresolved';
}

/** The printed Randnummer whose span holds code point `offset`, or null (headings, Tenor, unnumbered texts). */
function randnummerAt(randnummern: CitingDecision['randnummern'], offset: number): number | null {
  let low = 0;
  let high = randnummern.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const span = randnummern[middle];
    if (offset < span.start) high = middle - 1;
    else if (offset >= span.end) low = middle + 1;
    else return span.rn;
  }
  return null;
}

/** Whether a case citation names the citing decision itself (its own ECLI, or its Aktenzeichen at its court). */
function citesItself(decision: CitingDecision, c: Extract<Citation, { type: 'case' }>): boolean {
  if (c.ecli && c.ecli === decision.ecli) return true;
  return c.aktenzeichen !== null && decision.azKeys.includes(azKey(c.aktenzeichen))
    && (!c.court || courtMatches(decision.court, c.court));
}

const NO_TARGET = {
  target_ecli: null, target_court: null, target_date: null, target_az_key: null, target_law: null, target_unit: null,
} as const;

function candidateOf(decision: CitingDecision, c: Citation, rn: number | null): EdgeCandidate | null {
  if (c.type === 'statute') {
    return { ...NO_TARGET, rn, reference_canonical: c.canonical, reference_type: 'statute', reference_role: null,
      target_law: c.law, target_unit: `${c.kind} ${c.number}` };
  }
  if (citesItself(decision, c)) return null;
  return { ...NO_TARGET, rn, reference_canonical: c.canonical, reference_type: 'case', reference_role: c.role,
    target_ecli: c.ecli, target_court: c.court, target_date: c.date, target_az_key: c.aktenzeichen ? azKey(c.aktenzeichen) : null };
}

/**
 * The edges a decision's text and Normenkette state, in reading order. Needs no corpus, so the importer finds them
 * in its worker threads; writeEdges looks their targets up.
 */
export function findEdgeCandidates(decision: CitingDecision): EdgeCandidate[] {
  const toCodePoint = codePointIndexer(decision.fullText);
  const candidates: EdgeCandidate[] = [];
  for (const c of extractCitations(decision.fullText, { citingCourt: decision.court }).citations) {
    const candidate = candidateOf(decision, c, randnummerAt(decision.randnummern, toCodePoint(c.start)));
    if (candidate) candidates.push(candidate);
  }
  for (const norm of decision.norms) {
    candidates.push({ ...NO_TARGET, rn: null, reference_canonical: norm.norm, reference_type: 'statute',
      reference_role: null, target_law: norm.law, target_unit: norm.unit });
  }
  return candidates;
}

/**
 * Writes a decision's edges (the caller has deleted the old ones). Edges resolve against the corpus as it stands;
 * those naming a decision not yet imported, or a provision whose text is not held yet, wait for resolvePendingEdges.
 */
export function writeEdges(corpus: Database.Database, decisionId: string, candidates: readonly EdgeCandidate[]): void {
  const rows = timed('decision: edge targets', () => edgeRows(corpus, decisionId, candidates));
  timed('decision: edge rows', () => insertEdgeRows(corpus, decisionId, rows.values()));
}

/**
 * The edges' rows, written on integer decision rows: the citing decision's row looked up once, the cited one's found
 * with its id (a UUID lookup per edge cost about a tenth of the edges' writing; bench/README.md, "Session 18").
 */
function insertEdgeRows(corpus: Database.Database, decisionId: string, rows: Iterable<EdgeRow>): void {
  const fromRow = sql<[string], { row: number }>(corpus, 'SELECT row FROM decision_rows WHERE id = ?').get(decisionId)?.row;
  if (fromRow === undefined) throw new Error(`decision ${decisionId} has no row: its edges cannot be written`);
  const insert = sql(corpus, `
    INSERT INTO citation_links (from_row, rn, reference_canonical, reference_type, reference_role, target_ecli,
      target_court, target_date, target_az_key, target_law, target_unit, to_row, resolution_status)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const r of rows) {
    insert.run(fromRow, r.rn, r.reference_canonical, r.reference_type, r.reference_role, r.target_ecli, r.target_court,
      r.target_date, r.target_az_key, r.target_law, r.target_unit, r.to_row, r.resolution_status);
  }
}

/** A decision's edges, their targets looked up, one per target and Randnummer. */
function edgeRows(corpus: Database.Database, decisionId: string, candidates: readonly EdgeCandidate[]): Map<string, EdgeRow> {
  const rows = new Map<string, EdgeRow>();
  for (const candidate of candidates) {
    const to = candidate.reference_type === 'case' ? caseTarget(corpus, {
      ecli: candidate.target_ecli, court: candidate.target_court, date: candidate.target_date, azKey: candidate.target_az_key,
    }) : null;
    if (to?.id === decisionId) continue;
    // Joined proceedings cited together ('VIII ZR 10/19, VIII ZR 11/19') name one decision: one edge.
    const target = to?.id ?? `${candidate.reference_type}\u0000${candidate.reference_canonical}`;
    const key = `${target}\u0000${candidate.rn ?? ''}`;
    const held = rows.get(key);
    if (held) held.reference_role ??= candidate.reference_role;
    else {
      const resolved = candidate.reference_type === 'case' ? to !== null : statuteHeld(corpus, candidate.target_law, candidate.target_unit);
      rows.set(key, { ...candidate, to_row: to?.row ?? null, resolution_status: resolved ? 'resolved' : 'unresolved' });
    }
  }
  return rows;
}

/**
 * Builds every decision's edges anew (a corpus written before edges existed, or after the engine improved), then
 * resolves them. Runs in one transaction: the graph is the old one or the new one, never half of each.
 */
export function rebuildCitationEdges(corpus: Database.Database): void {
  const decision = sql<[string], { id: string; court: string; ecli: string | null; full_text: string }>(corpus,
    'SELECT id, court, ecli, decision_text(text_zstd) AS full_text FROM decisions WHERE id = ?');
  const azKeys = sql<[string], { az_key: string }>(corpus,
    'SELECT az_key FROM decision_file_numbers WHERE decision_id = +? ORDER BY position');
  const randnummern = sql<[string], { rn: number; start: number; end: number }>(corpus,
    'SELECT rn, start_offset AS start, end_offset AS "end" FROM decision_randnummern WHERE decision_id = +? ORDER BY position');
  const norms = sql<[string], ParsedNorm>(corpus,
    'SELECT norm, law, unit FROM decision_norms WHERE decision_id = +? ORDER BY position');
  corpus.transaction(() => {
    sql(corpus, 'DELETE FROM citation_links').run();
    // Ids first: better-sqlite3 allows no writes on a connection while one of its queries is being iterated.
    const ids = sql<[], { id: string }>(corpus, 'SELECT id FROM decisions ORDER BY id').all();
    for (const { id } of ids) {
      const d = decision.get(id)!;
      writeEdges(corpus, id, findEdgeCandidates({
        court: d.court, ecli: d.ecli, fullText: d.full_text,
        azKeys: azKeys.all(id).map((row) => row.az_key), randnummern: randnummern.all(id), norms: norms.all(id),
      }));
    }
    resolvePendingEdges(corpus);
  })();
}
