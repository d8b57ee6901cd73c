// GET /decisions/search (endpoint 10): the exact-citation rule, then keyword (every group required, BM25, not
// reranked), semantic (vectors alone) or hybrid (reciprocal rank fusion of the lexical arm, the vector arm and, when
// the bridge names norms, the norm arm), each with the filters inside.
import type Database from 'better-sqlite3';
import { backendUnavailable } from '../errors.ts';
import { expansionReport, type QueryExpansion } from './bridge.ts';
import { exactCitationOf, exactCitationSearch } from './exact-citation.ts';
import { filterSql, hasSearchIndex, type DecisionFilters, type FilterSql } from './filters.ts';
import { reciprocalRankFusion, type ArmEntry } from './fusion.ts';
import { byDecision, lexicalArm } from './lexical.ts';
import { normArm } from './norm-arm.ts';
import { planQuery, type SearchPlan } from './plan.ts';
import { matchExpression } from './query.ts';
import { decisionItems, topConfidence, type DecisionItem, type RankedDecision } from './results.ts';
import { requireVectors, semanticArm } from './semantic.ts';
import { frequentlyCitedByResults, type CitedDecision } from './cited-by-results.ts';

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';

export interface DecisionSearchArgs extends DecisionFilters {
  query: string;
  mode?: SearchMode;
  limit: number;
  page: number;
  bridge: boolean;
}

/** What one ranking produced before paging: decisions in order, and what the lexical arm counted. */
export interface Ranking {
  decisions: RankedDecision[];
  total: { value: number; is_floor: boolean };
  basis: string;
  candidatePool: number;
  exhaustive: boolean;
  plan: SearchPlan | null;
  expansion: QueryExpansion;
  mode: SearchMode;
  /** Reads the passages of a page's decisions where the ranking did not (the exact-citation rule). */
  pageOf?: (ids: string[]) => RankedDecision[];
}

export interface DecisionSearchAnswer {
  results: DecisionItem[];
  payload_truncated: boolean;
  total_available: { value: number; is_floor: boolean };
  total_available_basis: string;
  candidate_pool: number;
  pool_exhaustive: boolean;
  truncated: boolean;
  page: number;
  limit: number;
  mode: SearchMode;
  frequently_cited_by_results: CitedDecision[];
  query_expansion: QueryExpansion;
  top_confidence: string;
}

export const LEXICAL_BASIS = 'matching_indexed_passages_lexical_arm';

/** Fails honestly (503) when the corpus file was never indexed for search. */
export function assertSearchable(db: Database.Database): void {
  if (!hasSearchIndex(db)) {
    throw backendUnavailable('This corpus has no search index yet; open it once with write access (juralite serve or import) to build it.');
  }
}

function keywordRanking(db: Database.Database, plan: SearchPlan, filters: FilterSql): Ranking {
  const lexical = lexicalArm(db, matchExpression(plan.groups, true), filters);
  const decisions = byDecision(lexical.hits);
  return {
    decisions, total: lexical.total, basis: LEXICAL_BASIS, candidatePool: lexical.hits.length,
    exhaustive: lexical.exhaustive, plan, expansion: plan.expansion, mode: 'keyword',
  };
}

function semanticRanking(db: Database.Database, query: string, plan: SearchPlan, filters: FilterSql): Ranking {
  const vector = requireVectors(semanticArm(db, query, filters));
  const decisions = vector.entries;
  return {
    decisions, total: { value: decisions.length, is_floor: !vector.exhaustive }, basis: 'nearest_indexed_passages_vector_arm',
    candidatePool: vector.candidates, exhaustive: vector.exhaustive, plan, expansion: plan.expansion, mode: 'semantic',
  };
}

function hybridRanking(db: Database.Database, query: string, plan: SearchPlan, filters: FilterSql): Ranking {
  const lexical = lexicalArm(db, matchExpression(plan.groups, false), filters);
  const lexicalEntries: ArmEntry[] = byDecision(lexical.hits);
  const vector = semanticArm(db, query, filters);
  const norms = normArm(db, plan.norms, filters);
  const fused = reciprocalRankFusion([{ entries: lexicalEntries }, { entries: vector.entries }, { entries: norms, weight: 0.5 }]);
  return {
    decisions: fused, total: lexical.total, basis: LEXICAL_BASIS,
    candidatePool: lexical.hits.length + vector.candidates + norms.length,
    exhaustive: lexical.exhaustive, plan, expansion: plan.expansion, mode: 'hybrid',
  };
}

/** Ranks decisions for a query in the requested mode (the exact-citation rule applies where `exactRule`). */
export function rankDecisions(db: Database.Database, args: Omit<DecisionSearchArgs, 'limit' | 'page'>, exactRule: boolean): Ranking {
  assertSearchable(db);
  const filters = filterSql(args);
  const citation = exactRule && (args.mode === undefined || args.mode === 'keyword') ? exactCitationOf(args.query) : null;
  if (citation) {
    const exact = exactCitationSearch(db, citation, filters);
    return {
      decisions: exact.ids.map((id) => ({ decision_id: id, chunks: [] })), total: { value: exact.total, is_floor: false },
      basis: 'matching_decisions_exact_citation', candidatePool: exact.total, exhaustive: true, plan: null,
      expansion: expansionReport(args.bridge, [], true), mode: 'keyword', pageOf: exact.page,
    };
  }
  const plan = planQuery(db, args.query, args.bridge);
  const mode = args.mode ?? 'hybrid';
  if (mode === 'keyword') return keywordRanking(db, plan, filters);
  if (mode === 'semantic') return semanticRanking(db, args.query, plan, filters);
  return hybridRanking(db, args.query, plan, filters);
}

/** The page of a ranking as result items. */
export function pageItems(db: Database.Database, ranking: Ranking, from: number, count: number, combined: boolean): DecisionItem[] {
  const slice = ranking.decisions.slice(from, from + count);
  const ranked = ranking.pageOf ? ranking.pageOf(slice.map((entry) => entry.decision_id)) : slice;
  return decisionItems(db, ranked, ranking.plan?.groups ?? [], combined);
}

/**
 * Endpoint 10.
 *
 * @example searchDecisions(db, { query: 'Eigenbedarf', limit: 20, page: 1, bridge: true }).results[0].snippet
 */
export function searchDecisions(db: Database.Database, args: DecisionSearchArgs): DecisionSearchAnswer {
  const ranking = rankDecisions(db, args, true);
  const from = (args.page - 1) * args.limit;
  const results = pageItems(db, ranking, from, args.limit, false);
  const more = ranking.decisions.length > from + args.limit || !ranking.exhaustive;
  return {
    results,
    payload_truncated: false,
    total_available: ranking.total,
    total_available_basis: ranking.basis,
    candidate_pool: ranking.candidatePool,
    pool_exhaustive: ranking.exhaustive,
    truncated: more,
    page: args.page,
    limit: args.limit,
    mode: ranking.mode,
    frequently_cited_by_results: frequentlyCitedByResults(db, results.map((item) => item.id)),
    query_expansion: ranking.expansion,
    top_confidence: topConfidence(results),
  };
}
