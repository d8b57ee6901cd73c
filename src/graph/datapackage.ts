// POST /datapackages: up to ten decisions in one answer, in the order asked, with their outgoing citation edges.
// A response budget keeps the answer bounded whatever max_chars says: decisions that would exceed it are dropped from
// the end, and the answer says which.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { ApiError, notFound, validationFailed } from '../errors.ts';
import { findDecisionId } from '../corpus/find-decision.ts';
import { FORTGELTUNG } from '../corpus/read-decision.ts';
import { codePointLength } from '../text/code-points.ts';
import { edgeItem, type CitationEdgeItem, type EdgeDecision } from './edge-items.ts';

export const EXCERPT_CHARS = 700;
export const RESOLVED_TARGET_CAP = 25;
export const UNRESOLVED_ROW_CAP = 25;
/** Characters of text and edges one answer may carry (about 1 to 2 MB of JSON). */
export const RESPONSE_BUDGET_CHARS = 1_000_000;

export interface DatapackageRequest {
  ids: string[];
  include_citations: boolean;
  full_text: boolean;
  max_chars: number;
}

/** A decision as the datapackage serves it: its metadata and the head of its text that the answer can carry. */
interface PackagedDecision {
  id: string;
  aktenzeichen: string | null;
  court: string;
  date: string | null;
  document_type: string | null;
  ecli: string | null;
  /** The first `max_chars` (full texts) or EXCERPT_CHARS code points of the text, cut in SQL: never the whole text. */
  head: string;
  text_length: number;
}

/**
 * The decisions of the UUIDs (as the operation's normalize makes them), in order, duplicates collapsed, each with as
 * much of its text as the answer can carry, in one statement. A UUID naming nothing (a decision deleted by an import
 * since the ids were resolved) is 422 on `ids` as an unknown id.
 */
function decisionsOf(corpus: Database.Database, ids: string[], headChars: number): PackagedDecision[] {
  const rows = new Map(sql<[number, string], PackagedDecision>(corpus, `
    SELECT id, aktenzeichen, court, date, document_type, ecli, substr(decision_text(text_zstd), 1, ?) AS head, text_length
    FROM decisions WHERE id IN (SELECT value FROM json_each(?))`).all(headChars, JSON.stringify(ids)).map((row) => [row.id, row]));
  const found = eachFound(ids, (id) => {
    const row = rows.get(id);
    if (!row) throw notFound(`No decision with id ${id}.`);
    return row;
  });
  return [...new Set(found)];
}

/** The UUID of the decision each id names (UUID, ECLI or Aktenzeichen), in order, duplicates kept; 422 on `ids`. */
export function decisionIdsOf(corpus: Database.Database, ids: string[]): string[] {
  return eachFound(ids, (id) => findDecisionId(corpus, id));
}

function eachFound<T>(ids: string[], find: (id: string) => T): T[] {
  const problems: string[] = [];
  const found: T[] = [];
  ids.forEach((id, index) => {
    try {
      found.push(find(id));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // An Aktenzeichen held by several decisions: the datapackage takes no court or date, so ask for the UUID.
      const why = error.code === 'not_found' ? 'names no decision of the corpus' : 'names several decisions; send the decision\'s UUID or ECLI';
      problems.push(`ids[${index}] (${id}) ${why}`);
    }
  });
  if (problems.length > 0) throw validationFailed({ ids: problems });
  return found;
}

/** About 700 characters from the start (the head read), cut after a whole word. */
function excerptOf(head: string, length: number): string {
  if (length <= EXCERPT_CHARS) return head;
  const lastSpace = head.search(/\s\S*$/u);
  return lastSpace > EXCERPT_CHARS * 0.8 ? head.slice(0, lastSpace) : head;
}

function textOf(decision: PackagedDecision, request: DatapackageRequest) {
  if (!request.full_text) {
    const excerpt = excerptOf(decision.head, decision.text_length);
    return { excerpt, excerpt_span: 'document_start', truncated: codePointLength(excerpt) < decision.text_length };
  }
  const whole = decision.text_length <= request.max_chars;
  return { excerpt: decision.head, excerpt_span: whole ? 'whole_document' : 'document_start', truncated: !whole };
}

interface EdgeRow extends EdgeDecision {
  canonical: string;
  role: string | null;
  rn: number | null;
  to_decision_id: string | null;
}

/** One decision's case edges: the rows of its first 25 resolved targets and its first 25 unresolved rows. */
function edgesOf(corpus: Database.Database, publicUrl: string, from: string) {
  const rows = sql<[string], EdgeRow>(corpus,
    `SELECT e.reference_canonical AS canonical, e.reference_role AS role, e.rn, e.to_decision_id,
            d.id, d.court, d.date, d.aktenzeichen, d.document_type, d.ecli
     FROM citation_edges e LEFT JOIN decisions d ON d.id = e.to_decision_id
     WHERE e.from_decision_id = +? AND e.reference_type = 'case'
     ORDER BY e.id`).all(from);
  // Targets ranked by their first citation in the text.
  const targetRank = new Map<string, number>();
  for (const row of rows) if (row.to_decision_id && !targetRank.has(row.to_decision_id)) targetRank.set(row.to_decision_id, targetRank.size + 1);
  const resolved = rows.filter((row) => row.to_decision_id !== null);
  const unresolved = rows.filter((row) => row.to_decision_id === null);
  const resolvedIncluded = resolved.filter((row) => targetRank.get(row.to_decision_id!)! <= RESOLVED_TARGET_CAP);
  const unresolvedIncluded = unresolved.slice(0, UNRESOLVED_ROW_CAP);
  const targetsTotal = targetRank.size;
  const item = (row: EdgeRow): CitationEdgeItem => edgeItem(publicUrl,
    { canonical: row.canonical, role: row.role, from, rns: row.rn === null ? null : String(row.rn) },
    row.to_decision_id ? row : null);
  const chosen = new Set([...resolvedIncluded, ...unresolvedIncluded]);
  const included = rows.filter((row) => chosen.has(row));
  return {
    edges: included.map(item),
    accounting: {
      from_artifact_id: from,
      unit: 'edge_rows',
      edges_total: rows.length,
      edges_included: included.length,
      edges_resolved_included: resolvedIncluded.length,
      edges_unresolved_included: unresolvedIncluded.length,
      edges_resolved_total: resolved.length,
      edges_unresolved_total: unresolved.length,
      targets_resolved_included: Math.min(targetsTotal, RESOLVED_TARGET_CAP),
      targets_resolved_total: targetsTotal,
    },
  };
}

/** The datapackage answer (without the envelope); `request.ids` are decision UUIDs (decisionIdsOf). */
export function assembleDatapackage(corpus: Database.Database, publicUrl: string, request: DatapackageRequest, now: Date) {
  const decisions = decisionsOf(corpus, request.ids, request.full_text ? request.max_chars : EXCERPT_CHARS);
  const served: object[] = [];
  const edges: CitationEdgeItem[] = [];
  const accounting: ReturnType<typeof edgesOf>['accounting'][] = [];
  const dropped: string[] = [];
  let spent = 0;
  let cut = false;
  for (const decision of decisions) {
    const text = textOf(decision, request);
    const own = request.include_citations ? edgesOf(corpus, publicUrl, decision.id) : null;
    const size = text.excerpt.length + (own ? JSON.stringify(own.edges).length : 0);
    // The budget drops whole decisions from the end: never a gap in the order the caller gave.
    if (dropped.length > 0 || (served.length > 0 && spent + size > RESPONSE_BUDGET_CHARS)) {
      dropped.push(decision.id);
      continue;
    }
    spent += size;
    served.push({
      id: decision.id,
      aktenzeichen: decision.aktenzeichen,
      court: decision.court,
      date: decision.date,
      document_type: decision.document_type,
      ecli: decision.ecli,
      jurisdiction: 'DE',
      ...text,
      text_length: decision.text_length,
      ...FORTGELTUNG,
    });
    cut ||= request.full_text && text.truncated;
    if (own) {
      edges.push(...own.edges);
      accounting.push(own.accounting);
      cut ||= own.accounting.edges_included < own.accounting.edges_total;
    }
  }
  return {
    decisions: served,
    citation_edges: edges,
    edge_accounting: accounting,
    per_source_resolved_target_cap: RESOLVED_TARGET_CAP,
    per_source_unresolved_edge_row_cap: UNRESOLVED_ROW_CAP,
    requested: request.ids.length,
    included: served.length,
    deduped: request.ids.length - decisions.length,
    dropped_ids: dropped,
    text_mode: request.full_text ? 'full_text' : 'excerpt',
    max_chars: request.full_text ? request.max_chars : EXCERPT_CHARS,
    response_budget_chars: RESPONSE_BUDGET_CHARS,
    truncated: cut || dropped.length > 0,
    payload_truncated: dropped.length > 0,
    assembled_at: now.toISOString(),
  };
}
