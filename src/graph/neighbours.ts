// GET /decisions/{id}/citations: the decisions one decision cites (references) and those citing it (referenced_by).
// Depth 1 pages through the direct neighbours, 25 distinct decisions per direction and page; depth 2 walks one step
// further with a recursive CTE and serves a bounded, deterministic sample of at most 50 decisions.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { invalidArgument } from '../errors.ts';
import { FORTGELTUNG } from '../corpus/read-decision.ts';
import type { DecisionHead } from '../corpus/find-decision.ts';
import { edgeItem, type CitationEdgeItem, type EdgeDecision } from './edge-items.ts';

export const PAGE_SIZE = 25;
export const MAX_PAGE = 20;
export const UNRESOLVED_CAP = 25;
export const NODE_CAP = 50;
/** Edge rows a depth-2 walk may visit: bounds the work around hubs cited thousands of times. */
const WALK_ROW_LIMIT = 5_000;

export type Direction = 'outgoing' | 'incoming' | 'both';

export interface GraphRequest {
  direction: Direction;
  depth: number;
  page: number;
}

export interface GraphEdge extends CitationEdgeItem {
  hop: number;
  /** At hop 2: the decision at hop 1 that links the source with this one; null at hop 1. */
  via_artifact_id: string | null;
}

/** One neighbour decision as the queries return it. */
interface NeighbourRow extends EdgeDecision {
  first_edge: number;
  role: string | null;
  rns: string | null;
  canonical: string;
}

const DECISION_COLUMNS = 'd.id, d.court, d.date, d.aktenzeichen, d.document_type, d.ecli';

// How each direction reads an edge: `near` is the decision we stand on, `far` the neighbour.
const SIDES = {
  outgoing: { near: 'from_decision_id', far: 'to_decision_id' },
  incoming: { near: 'to_decision_id', far: 'from_decision_id' },
} as const;
type Side = keyof typeof SIDES;

// Outgoing neighbours in the order the text cites them; incoming ones newest first (what a researcher reads first).
const ORDER = { outgoing: 'h.first_edge', incoming: 'd.date DESC, d.id' } as const;

function neighbourQuery(side: Side): string {
  const { near, far } = SIDES[side];
  return `
    WITH hits AS (
      SELECT ${far} AS id, min(id) AS first_edge, max(reference_role) AS role, group_concat(rn) AS rns
      FROM citation_edges WHERE ${near} = +? AND reference_type = 'case' AND to_decision_id IS NOT NULL
      GROUP BY ${far})
    SELECT ${DECISION_COLUMNS}, h.first_edge, h.role, h.rns,
           (SELECT reference_canonical FROM citation_edges WHERE id = h.first_edge) AS canonical
    FROM hits h JOIN decisions d ON d.id = h.id
    ORDER BY ${ORDER[side]} LIMIT +? OFFSET +?`;
}

function neighbours(corpus: Database.Database, side: Side, id: string, limit: number, offset: number): NeighbourRow[] {
  return sql<[string, number, number], NeighbourRow>(corpus, neighbourQuery(side)).all(id, limit, offset);
}

function countNeighbours(corpus: Database.Database, side: Side, id: string): number {
  const { near, far } = SIDES[side];
  return sql<[string], { n: number }>(corpus,
    `SELECT count(DISTINCT ${far}) AS n FROM citation_edges
     WHERE ${near} = +? AND reference_type = 'case' AND to_decision_id IS NOT NULL`).get(id)!.n;
}

/** The source's citations that name no decision of the corpus, one row per distinct reference. */
function unresolved(corpus: Database.Database, id: string) {
  return sql<[string], { canonical: string; role: string | null; rns: string | null }>(corpus,
    `SELECT reference_canonical AS canonical, max(reference_role) AS role, group_concat(rn) AS rns
     FROM citation_edges WHERE from_decision_id = +? AND reference_type = 'case' AND to_decision_id IS NULL
     GROUP BY reference_canonical ORDER BY min(id)`).all(id);
}

/**
 * The depth-2 walk of one direction, breadth first from the source: hop 1 goes to the sampled hop-1 decisions only
 * (those depth 1 serves first), hop 2 on from them; at most WALK_ROW_LIMIT edge rows. One row per decision reached,
 * with the number of rows that reached it (to tell whether the bound cut the walk).
 */
function walkQuery(side: Side): string {
  const { near, far } = SIDES[side];
  return `
    WITH RECURSIVE walk(node, hop, via) AS (
      SELECT @source, 0, NULL
      UNION ALL
      SELECT e.${far}, w.hop + 1, w.node
      FROM walk w JOIN citation_edges e ON e.${near} = w.node
      WHERE w.hop < 2 AND e.reference_type = 'case' AND e.to_decision_id IS NOT NULL
        AND (w.hop = 1 OR e.${far} IN (SELECT value FROM json_each(@hopOne)))
      LIMIT ${WALK_ROW_LIMIT})
    SELECT node, min(hop) AS hop, count(DISTINCT via) AS paths, min(via) AS via, count(*) AS rows_reaching
    FROM walk GROUP BY node`;
}

interface Reached { node: string; hop: number; paths: number; via: string | null; rows_reaching: number }

/** The ids of the source's direct neighbours in one direction. */
function neighbourIds(corpus: Database.Database, side: Side, id: string): Set<string> {
  const { near, far } = SIDES[side];
  return new Set(sql<[string], { id: string }>(corpus, `SELECT DISTINCT ${far} AS id FROM citation_edges
     WHERE ${near} = +? AND reference_type = 'case' AND to_decision_id IS NOT NULL`).all(id).map((row) => row.id));
}

/** The edge details (first citation, role, Randnummern) between a citing and a cited decision. */
function edgeBetween(corpus: Database.Database, from: string, to: string) {
  return sql<[string, string], { canonical: string; role: string | null; rns: string | null }>(corpus,
    // '+to_decision_id': search by the citing decision (a few dozen rows), never by the cited one (a hub has thousands).
    `WITH hits AS (SELECT min(id) AS first_edge, max(reference_role) AS role, group_concat(rn) AS rns
                   FROM citation_edges WHERE from_decision_id = +? AND +to_decision_id = +?)
     SELECT (SELECT reference_canonical FROM citation_edges WHERE id = h.first_edge) AS canonical, h.role, h.rns
     FROM hits h`).get(from, to)!;
}

interface DirectionAnswer {
  items: GraphEdge[];
  /** Distinct decisions reached at depth 2 but left out of the sample. */
  omitted: number;
  /** The walk hit its row bound: more decisions may lie behind the sample than `omitted` counts. */
  omittedIsFloor: boolean;
}

function depthOne(corpus: Database.Database, publicUrl: string, side: Side, source: string, page: number): DirectionAnswer {
  const rows = neighbours(corpus, side, source, PAGE_SIZE, (page - 1) * PAGE_SIZE);
  return { items: rows.map((row) => atHopOne(publicUrl, side, source, row)), omitted: 0, omittedIsFloor: false };
}

function atHopOne(publicUrl: string, side: Side, source: string, row: NeighbourRow): GraphEdge {
  const from = side === 'outgoing' ? source : row.id;
  return { ...edgeItem(publicUrl, { canonical: row.canonical, role: row.role, rns: row.rns, from }, row), hop: 1, via_artifact_id: null };
}

/**
 * The depth-2 sample of one direction: the first `cap` hop-1 decisions in depth-1 order, then hop-2 decisions reached
 * from them, the best connected first (most hop-1 decisions leading to them), then by id.
 */
function depthTwo(corpus: Database.Database, publicUrl: string, side: Side, source: string, cap: number, hopOneTotal: number): DirectionAnswer {
  const hopOne = neighbours(corpus, side, source, cap, 0);
  const items = hopOne.map((row) => atHopOne(publicUrl, side, source, row));
  let omitted = hopOneTotal - hopOne.length;
  let cut = false;
  if (hopOne.length > 0) {
    const reached = sql<[{ source: string; hopOne: string }], Reached>(corpus, walkQuery(side))
      .all({ source, hopOne: JSON.stringify(hopOne.map((row) => row.id)) });
    // The LIMIT counts every row of the walk, the source's own included: a full walk may have been cut.
    cut = reached.reduce((rows, row) => rows + row.rows_reaching, 0) >= WALK_ROW_LIMIT;
    const hopTwo = reached.filter((row) => row.hop === 2)
      .sort((a, b) => b.paths - a.paths || (a.node < b.node ? -1 : 1));
    const served = hopTwo.slice(0, cap - hopOne.length);
    omitted += hopTwo.length - served.length;
    // A direct neighbour left out of the sample but reached again at hop 2 was counted twice.
    if (hopOne.length < hopOneTotal) {
      const direct = neighbourIds(corpus, side, source);
      omitted -= hopTwo.filter((row) => direct.has(row.node)).length;
    }
    const decision = sql<[string], EdgeDecision>(corpus, `SELECT ${DECISION_COLUMNS} FROM decisions d WHERE d.id = ?`);
    for (const row of served) {
      const [from, to] = side === 'outgoing' ? [row.via!, row.node] : [row.node, row.via!];
      items.push({ ...edgeItem(publicUrl, { ...edgeBetween(corpus, from, to), from }, decision.get(row.node)!), hop: 2, via_artifact_id: row.via });
    }
  }
  return { items, omitted, omittedIsFloor: cut };
}

/** The graph answer for one decision (without the envelope). */
export function citationGraph(corpus: Database.Database, publicUrl: string, source: DecisionHead, request: GraphRequest) {
  if (request.depth === 2 && request.page > 1) {
    throw invalidArgument('page', 'pages are defined at depth 1 only; depth 2 serves one bounded sample');
  }
  const wants = (side: Side) => request.direction === 'both' || request.direction === side;
  const referencesResolved = countNeighbours(corpus, 'outgoing', source.id);
  const referencedBy = countNeighbours(corpus, 'incoming', source.id);
  const open = unresolved(corpus, source.id);
  const perDirection = request.direction === 'both' ? NODE_CAP / 2 : NODE_CAP;
  const serve = (side: Side): DirectionAnswer => {
    if (!wants(side)) return { items: [], omitted: 0, omittedIsFloor: false };
    return request.depth === 1
      ? depthOne(corpus, publicUrl, side, source.id, request.page)
      : depthTwo(corpus, publicUrl, side, source.id, perDirection, side === 'outgoing' ? referencesResolved : referencedBy);
  };
  const outgoing = serve('outgoing');
  const incoming = serve('incoming');
  const unresolvedServed = wants('outgoing') && request.page === 1 ? open.slice(0, UNRESOLVED_CAP) : [];
  const references = [
    ...outgoing.items,
    ...unresolvedServed.map((row): GraphEdge => ({
      ...edgeItem(publicUrl, { ...row, from: source.id }, null), hop: 1, via_artifact_id: null,
    })),
  ];

  const pages = (total: number) => Math.min(MAX_PAGE, Math.ceil(total / PAGE_SIZE));
  // Unresolved references are served on page 1: alone, they still make one page.
  const referencesPages = Math.max(pages(referencesResolved), open.length > 0 ? 1 : 0);
  const referencedByPages = pages(referencedBy);
  const depthOneOnly = request.depth === 1;
  const hasMoreReferences = depthOneOnly && wants('outgoing') && request.page < referencesPages;
  const hasMoreReferencedBy = depthOneOnly && wants('incoming') && request.page < referencedByPages;
  const reachableMax = PAGE_SIZE * MAX_PAGE;

  const withheld: string[] = [];
  if (!wants('outgoing')) withheld.push('direction_not_requested');
  else {
    if (request.page === 1 && open.length > UNRESOLVED_CAP) withheld.push('unresolved_cap');
    if (request.page > 1 && open.length > 0) withheld.push('unresolved_on_first_page_only');
    if (hasMoreReferences || (depthOneOnly && request.page > 1 && referencesResolved > 0)) withheld.push('other_pages');
    if (depthOneOnly && referencesResolved > reachableMax) withheld.push('reachable_distinct_max');
    if (outgoing.omitted > 0) withheld.push('node_cap');
  }
  const nodesOmitted = outgoing.omitted + incoming.omitted;
  const truncated = hasMoreReferences || hasMoreReferencedBy || nodesOmitted > 0
    || (wants('outgoing') && open.length > unresolvedServed.length && request.page === 1)
    || (depthOneOnly && ((wants('outgoing') && referencesResolved > reachableMax) || (wants('incoming') && referencedBy > reachableMax)));

  return {
    source: { id: source.id, aktenzeichen: source.aktenzeichen, court: source.court, date: source.date },
    references,
    referenced_by: incoming.items,
    served_direction: request.direction,
    served_references_total: references.length,
    served_referenced_by_total: incoming.items.length,
    references_total: referencesResolved + open.length,
    references_resolved_total: referencesResolved,
    referenced_by_total: referencedBy,
    references_unresolved_total: open.length,
    references_withheld_reasons: withheld,
    totals_scope: 'direct_neighbours',
    per_direction_cap: PAGE_SIZE,
    unresolved_cap: UNRESOLVED_CAP,
    node_cap: NODE_CAP,
    nodes_omitted: nodesOmitted,
    nodes_omitted_is_floor: outgoing.omittedIsFloor || incoming.omittedIsFloor,
    truncated,
    // Every list is capped, so a graph answer stays small: nothing is ever cut for size.
    payload_truncated: false,
    pagination: {
      page: request.page,
      page_size: PAGE_SIZE,
      max_page: MAX_PAGE,
      reachable_distinct_max: reachableMax,
      references_pages: referencesPages,
      referenced_by_pages: referencedByPages,
      has_more_references: hasMoreReferences,
      has_more_referenced_by: hasMoreReferencedBy,
      applies_at_depth: 1,
    },
    ...FORTGELTUNG,
  };
}
