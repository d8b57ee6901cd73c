// GET /search (endpoint 11): a laws section and a decisions section. The decision filters act on the decisions only,
// jurisdiction on the laws only; there is no exact-citation rule and no paging.
import type Database from 'better-sqlite3';
import type { EmbeddingsConfig } from '../config.ts';
import type { QueryVector } from './embedder.ts';
import { pageItems, queryVectorFor, rankDecisions, type Ranking, type SearchMode } from './decision-search.ts';
import type { DecisionFilters } from './filters.ts';
import { searchLaws } from './law-search.ts';
import { planQuery } from './plan.ts';
import { topConfidence, type DecisionItem } from './results.ts';
import { frequentlyCitedByResults, normsCitedByResults } from './cited-by-results.ts';
import { answerKey, cachedAnswer, keepAnswer } from './answer-cache.ts';

export interface CombinedSearchArgs extends DecisionFilters {
  query: string;
  mode?: SearchMode;
  limit: number;
  bridge: boolean;
  jurisdiction?: 'DE' | 'EU' | 'XI';
}

const DECISION_FILTERS = ['court', 'branch', 'document_type', 'cited_norm', 'date_from', 'date_to'] as const;

/** Which section each given filter acted on (the contract names filters_applied_sections.jurisdiction). */
function filtersAppliedSections(args: CombinedSearchArgs): Record<string, string[]> {
  const applied: Record<string, string[]> = {};
  for (const name of DECISION_FILTERS) if (args[name] !== undefined) applied[name] = ['decisions'];
  if (args.jurisdiction !== undefined) applied.jurisdiction = ['laws'];
  return applied;
}

/**
 * Endpoint 11. `embeddings`: the external embedder of the configuration (used only when the corpus's vectors are its).
 *
 * @example (await searchCombined(db, { query: 'Eigenbedarf', limit: 5, bridge: true })).sections.laws
 */
export async function searchCombined(db: Database.Database, args: CombinedSearchArgs, embeddings: EmbeddingsConfig | null = null) {
  const key = answerKey('combined', args);
  const cached = cachedAnswer<ReturnType<typeof answerCombined>>(db, key);
  if (cached) return cached;
  const qv = await queryVectorFor(db, args, false, embeddings);
  // Kept for the state of the corpus it was read from (a failed embedder throws: nothing is kept).
  return db.transaction(() => keepAnswer(db, key, answerCombined(db, args, qv)))();
}

function answerCombined(db: Database.Database, args: CombinedSearchArgs, qv: QueryVector | null) {
  const ranking = rankDecisions(db, { ...args, depth: args.limit }, false, qv);
  const decisions = pageItems(db, ranking, 0, args.limit, true);
  const laws = searchLaws(db, lawSearchOptions(db, args, ranking, decisions));
  const lawsTruncated = laws.total.value > laws.items.length || laws.total.is_floor;
  const decisionsTruncated = ranking.decisions.length > decisions.length || !ranking.exhaustive;
  const ids = decisions.map((item) => item.id);
  const best = [...laws.items, ...decisions].sort((a, b) => rank(a.confidence) - rank(b.confidence));
  return {
    sections: { laws: laws.items, decisions },
    section_totals: {
      laws: {
        total_available: laws.total, total_available_basis: 'matching_indexed_law_units_lexical_arm',
        candidate_pool: laws.candidatePool, pool_exhaustive: laws.exhaustive, truncated: lawsTruncated,
      },
      decisions: {
        total_available: ranking.total, total_available_basis: ranking.basis,
        candidate_pool: ranking.candidatePool, pool_exhaustive: ranking.exhaustive, truncated: decisionsTruncated,
      },
    },
    limit: args.limit,
    total_available: {
      value: laws.total.value + ranking.total.value, is_floor: laws.total.is_floor || ranking.total.is_floor,
    },
    total_available_basis: 'sum_of_section_totals',
    pool_exhaustive: laws.exhaustive && ranking.exhaustive,
    truncated: lawsTruncated || decisionsTruncated,
    mode: ranking.mode,
    filters_applied_sections: filtersAppliedSections(args),
    query_expansion: ranking.expansion,
    frequently_cited_by_results: frequentlyCitedByResults(db, ids),
    norms_cited_by_decision_results: normsCitedByResults(db, ids),
    top_confidence: topConfidence(best),
  };
}

/** The laws section's options for a query and its ranked decisions (exported for bench/laws-speed.ts). */
export function lawSearchOptions(db: Database.Database, args: CombinedSearchArgs, ranking: Ranking, decisions: DecisionItem[]): Parameters<typeof searchLaws>[1] {
  const mode = args.mode ?? 'hybrid';
  const plan = ranking.plan ?? planQuery(db, args.query, args.bridge);
  return {

    // Keyword requires every query group, so the bridge widens the groups there but its norms lead only otherwise.
    query: args.query, groups: plan.groups, all: mode === 'keyword', norms: mode === 'keyword' ? [] : plan.norms,
    limit: args.limit, jurisdiction: args.jurisdiction,
    // The units the ranked decisions cite rank higher, and join the section unless every group is required; not where
    // no listed decision holds the query's words (all found by their vectors: their citations are no evidence, and
    // they pushed the one unit using a rare word off the list).
    decisions: decisions.some((decision) => decision.confidence !== 'low') ? ranking.decisions.map((decision) => decision.decision_id) : [],
    joinCited: mode !== 'keyword',
  };
}

const rank = (confidence: string) => ['high', 'medium', 'low'].indexOf(confidence);
