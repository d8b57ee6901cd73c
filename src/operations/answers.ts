/**
 * The answers of the operations, as valibot schemas: each operation declares its `answer` from these (beside its
 * arguments), and the OpenAPI document states it (src/http/openapi.ts), so that a generated client types every field.
 * test/http/answers.test.ts validates real answers of every operation against the document and requires every field
 * an answer holds to be declared, so an answer cannot grow a field the document does not name.
 */
import * as v from 'valibot';

const nullableString = v.nullable(v.string());
const nullableInt = v.nullable(v.number());
const described = <T extends v.GenericSchema>(schema: T, description: string) => v.pipe(schema, v.description(description));

/** A count that may be a lower bound (`is_floor`) where counting on would cost too much. */
export const countAnswer = v.object({ value: v.number(), is_floor: v.boolean() });

/** Every decision carries the notice that it was not checked for continued validity. */
const fortgeltung = { fortgeltung_checked: v.literal(false), fortgeltung_note: v.string() };

// Citation checks (check_citations, get_citation_check).

const verdict = v.picklist(['verified', 'not_found', 'not_in_corpus', 'out_of_coverage', 'ambiguous']);

const claimCheck = v.picklist(['supported', 'not_supported', 'not_checked', 'not_applicable']);

/** A quotation the text attributes to a finding, looked up in the held text (docs/citations.md, Claims). */
const quotationFinding = v.object({
  text: v.string(),
  start_offset: described(v.number(), 'code-point offset into the checked text (the opening mark)'),
  end_offset: described(v.number(), 'code-point offset into the checked text (exclusive, after the closing mark)'),
  omissions: v.number(),
  check: v.picklist(['found', 'not_found', 'not_checked']),
  similarity: described(v.nullable(v.number()), '1 when found; else the share of its words the closest passage matches'),
  rn_from: nullableInt,
  rn_to: nullableInt,
  section: nullableString,
  best_match: described(nullableString, 'the closest passage when not found (at most 500 characters)'),
  advisory: nullableString,
});

const finding = v.object({
  id: v.string(),
  raw_text: v.string(),
  canonical: v.string(),
  type: v.picklist(['case', 'statute']),
  role: nullableString,
  verdict,
  external_status: v.literal('skipped'),
  start_offset: described(v.number(), 'code-point offset into the checked text'),
  end_offset: described(v.number(), 'code-point offset into the checked text (exclusive)'),
  occurrence_index: v.number(),
  confidence: v.number(),
  matched_decision: v.nullable(v.object({ artifact_id: v.string(), ecli: nullableString, court: v.string(), date: nullableString })),
  subdivision_check: v.picklist(['verified', 'not_found', 'not_checked']),
  subdivision_advisory: nullableString,
  check_scope: v.object({
    subdivision: v.picklist(['checked', 'not_applicable', 'not_checked']),
    article_text_available: v.nullable(v.boolean()),
    article_text_read: v.boolean(),
    court: v.picklist(['checked', 'inferred_from_aktenzeichen', 'not_named', 'not_applicable']),
  }),
  ambiguity_advisory: nullableString,
  numbering_advisory: nullableString,
  coverage: v.nullable(v.object({
    court: v.string(), from: nullableString, until: nullableString, exhaustive: v.boolean(), source: v.picklist(['manifest', 'holdings']),
  })),
  // A union, not v.nullable: OpenAPI 3.0 reads `nullable` beside an `enum` without null as not allowing null.
  coverage_boundary: v.union([v.picklist(['before_start', 'after_end']), v.null()]),
  coverage_advisory: nullableString,
  evidence: v.object({
    reason: v.string(),
    match_strength: v.picklist(['exact', 'strong', 'none']),
    citation_date_source: v.picklist(['sentence', 'reference_date', 'none']),
    citation_date: nullableString,
    law_source: v.optional(v.picklist(['written', 'context'])),
    court_source: v.optional(v.picklist(['written', 'aktenzeichen', 'none'])),
  }),
  disputed_at: nullableString,
  pinpoint: v.nullable(v.object({
    text: v.string(),
    start_offset: v.number(),
    end_offset: v.number(),
    randnummern: v.array(v.object({ from: v.number(), to: v.number(), following: v.union([v.picklist(['f.', 'ff.']), v.null()]) })),
  })),
  pinpoint_check: v.picklist(['verified', 'not_found', 'not_checked', 'not_applicable']),
  pinpoint_advisory: nullableString,
  quotations: v.array(quotationFinding),
  claim_check: described(claimCheck, 'whether the pinpoint, subdivision and quotations are in what is cited; the verdict is unchanged'),
});

/** A citation check run (check_citations answers it, get_citation_check reads it back). */
export const checkRunAnswer = v.object({
  id: v.string(),
  status: v.literal('complete'),
  source: v.string(),
  progress: v.object({ citations_total: v.number(), citations_checked: v.number(), unique_citations_total: v.number() }),
  verdict_counts: described(v.record(v.string(), v.number()), 'findings per verdict'),
  partial: v.boolean(),
  unverified_count: v.number(),
  reason_counts: v.array(v.object({ category: v.string(), count: v.number() })),
  unique_citations: v.array(v.object({
    key_basis: v.picklist(['matched_decision', 'canonical']),
    target_artifact_id: nullableString,
    canonical: v.string(),
    spellings: v.array(v.string()),
    occurrences: v.number(),
    verdict,
    reference_type: v.picklist(['case', 'statute']),
  })),
  extraction: described(v.object({
    detected: v.number(), dropped: v.number(), dropped_unreadable: v.number(), dropped_truncation: v.number(),
    dropped_trailing_noun: v.number(), dropped_stacked_subdivision: v.number(), dropped_refused_collision: v.number(),
    not_verifiable: v.number(), possible_citations_unparsed: v.number(),
    dropped_by_token: v.array(v.object({ token: v.string(), count: v.number() })),
    dropped_unreadable_texts: v.array(v.string()), refused_contract_collision: v.array(v.string()),
    not_verifiable_by_type: v.array(v.object({ type: v.string(), count: v.number() })),
    possible_citations_unparsed_texts: v.array(v.string()),
  }), 'what the extractor found and why candidates were dropped (counts and examples per reason)'),
  notes: v.array(v.object({ code: v.string(), message: v.string() })),
  claim_counts: described(v.object({ supported: v.number(), not_supported: v.number(), not_checked: v.number() }),
    'findings per claim_check (not_applicable left out)'),
  findings_unavailable_reason: nullableString,
  findings_purged_at: nullableString,
  findings: v.array(finding),
  submitted_at: v.string(),
  completed_at: v.string(),
  created_at: v.string(),
  payload_truncated: v.boolean(),
});

/** An upload for a citation check (upload_citation_document, get_citation_document). */
export const uploadAnswer = v.object({
  id: v.string(),
  filename: v.string(),
  format: v.string(),
  status: described(v.string(), 'uploaded, ready, failed, consumed or expired'),
  char_count: nullableInt,
  page_count: nullableInt,
  pages_without_text_layer: nullableInt,
  check_max_chars: v.number(),
  quoted_credits: nullableInt,
  error_code: nullableString,
  error_detail: nullableString,
  expires_at: v.string(),
  created_at: v.string(),
});

// The citation graph and datapackages.

const citationEdge = {
  reference_canonical: v.string(),
  reference_role: nullableString,
  resolution_status: v.picklist(['resolved', 'unresolved']),
  in_corpus: v.boolean(),
  corpus: v.nullable(v.object({
    artifact_id: v.string(), court: v.string(), date: nullableString, az: nullableString, document_type: nullableString,
    ecli: nullableString, corpus_url: v.string(),
  })),
  from_artifact_id: v.string(),
  rns: v.array(v.number()),
};

const graphEdge = v.object({ ...citationEdge, hop: v.number(), via_artifact_id: nullableString });

export const citationGraphAnswer = v.object({
  source: v.object({ id: v.string(), aktenzeichen: nullableString, court: v.string(), date: nullableString }),
  references: v.array(graphEdge),
  referenced_by: v.array(graphEdge),
  served_direction: v.picklist(['outgoing', 'incoming', 'both']),
  served_references_total: v.number(),
  served_referenced_by_total: v.number(),
  references_total: v.number(),
  references_resolved_total: v.number(),
  referenced_by_total: v.number(),
  references_unresolved_total: v.number(),
  references_withheld_reasons: v.array(v.unknown()),
  totals_scope: v.string(),
  per_direction_cap: v.number(),
  unresolved_cap: v.number(),
  node_cap: v.number(),
  nodes_omitted: v.number(),
  nodes_omitted_is_floor: v.boolean(),
  truncated: v.boolean(),
  payload_truncated: v.boolean(),
  pagination: v.object({
    page: v.number(), page_size: v.number(), max_page: v.number(), reachable_distinct_max: v.number(),
    references_pages: v.number(), referenced_by_pages: v.number(), has_more_references: v.boolean(),
    has_more_referenced_by: v.boolean(), applies_at_depth: v.number(),
  }),
  ...fortgeltung,
});

export const datapackageAnswer = v.object({
  decisions: v.array(v.object({
    id: v.string(), aktenzeichen: nullableString, court: v.string(), date: nullableString, document_type: nullableString,
    ecli: nullableString, jurisdiction: v.string(),
    excerpt: v.optional(v.string()), excerpt_span: v.optional(v.string()),
    full_text: v.optional(v.string()),
    truncated: v.boolean(), text_length: v.number(), ...fortgeltung,
  })),
  citation_edges: v.array(v.object(citationEdge)),
  edge_accounting: v.array(v.object({
    from_artifact_id: v.string(), unit: v.string(), edges_total: v.number(), edges_included: v.number(),
    edges_resolved_included: v.number(), edges_unresolved_included: v.number(), edges_resolved_total: v.number(),
    edges_unresolved_total: v.number(), targets_resolved_included: v.number(), targets_resolved_total: v.number(),
  })),
  per_source_resolved_target_cap: v.number(),
  per_source_unresolved_edge_row_cap: v.number(),
  requested: v.number(),
  included: v.number(),
  deduped: v.number(),
  dropped_ids: v.array(v.string()),
  text_mode: described(v.string(), 'excerpt or full_text'),
  max_chars: v.number(),
  response_budget_chars: v.number(),
  truncated: v.boolean(),
  payload_truncated: v.boolean(),
  assembled_at: v.string(),
});

// The corpus.

const courtSpan = { count: v.number(), earliest: nullableString, latest: nullableString };
const courtFounding = { court_founding_year: nullableInt, court_founding_basis: nullableString, has_dates_below_floor: v.boolean() };

export const corpusCoverageAnswer = v.object({
  total_decisions: countAnswer,
  branches: v.array(v.object({
    branch: v.string(), ...courtSpan, ...courtFounding,
    instance_mix: v.object({
      federal: v.optional(countAnswer), appellate: v.optional(countAnswer), first_instance_and_regional: v.optional(countAnswer),
      other: v.optional(countAnswer), note: v.string(),
    }),
    top_courts: v.array(v.object({ court: v.string(), ...courtSpan })),
  })),
  courts: v.array(v.object({ court: v.string(), branch: v.string(), ...courtSpan, ...courtFounding })),
  courts_returned: v.number(),
  courts_total: v.number(),
  corpus_floors: v.string(),
  coverage_ranges: v.object({
    note: v.string(), scope: v.string(), verified_at: nullableString,
    ranges: v.array(v.object({
      bucket: v.string(), court: nullableString, label: v.string(), from: nullableString, until: nullableString,
      sources: v.array(v.string()), exhaustive: v.boolean(), ocr: v.boolean(), note: nullableString,
      verified_at: described(nullableString, 'when a manifest or a complete sync last stated the range; null where derived from holdings'),
      holdings_earliest: v.optional(nullableString),
    })),
  }),
  as_of: v.string(),
  filter_coverage_caveats: v.string(),
  law_coverage: v.object({ note: v.string(), eu: v.array(v.string()), international: v.array(v.string()) }),
});

export const facetsAnswer = v.object({
  field: v.string(),
  norm: v.optional(described(v.string(), 'cited_norms only: the norm whose family is listed')),
  applies_to: described(v.string(), 'DECISION or LAW'),
  values: described(v.record(v.string(), countAnswer), 'value → count, most frequent first'),
  total_values: v.number(),
  truncated: v.boolean(),
  value_limit: v.number(),
  count_basis: v.string(),
  as_of: v.string(),
});

// Decisions.

export const decisionAnswer = v.object({
  id: v.string(),
  aktenzeichen: nullableString,
  court: v.string(),
  date: nullableString,
  jurisdiction: v.string(),
  metadata: v.object({
    document_type: nullableString, ecli: nullableString, file_numbers: v.array(v.string()), chamber: v.optional(nullableString),
    title: v.optional(nullableString), norms: v.optional(nullableString),
  }),
  ...fortgeltung,
  full_text: v.string(),
  text_length: v.number(),
  truncated: v.boolean(),
  rn_source: v.string(),
  rn_source_note: v.string(),
  available_sections: v.array(v.string()),
  available_range: v.nullable(v.object({ rn_from: nullableInt, rn_to: nullableInt, rn_source: v.string() })),
  available_range_scope: v.string(),
  has_rn_anchors: v.boolean(),
  returned_range: v.object({ rn_from: nullableInt, rn_to: nullableInt, section: nullableString, chars: v.number() }),
});

// Search.

const confidence = v.picklist(['high', 'medium', 'low']);

const decisionItem = v.object({
  id: v.string(),
  artifact_type: v.optional(v.literal('DECISION')),
  aktenzeichen: nullableString,
  court: v.string(),
  date: nullableString,
  document_type: v.string(),
  title: nullableString,
  snippet: v.string(),
  snippets: v.array(v.object({ text: v.string(), rn: nullableInt })),
  chunk_title: nullableString,
  rn_range: nullableString,
  fundstelle: nullableString,
  ...fortgeltung,
  confidence,
});

const lawItem = v.object({
  id: v.string(),
  artifact_type: v.literal('LAW'),
  aktenzeichen: v.null(),
  court: v.null(),
  date: v.null(),
  document_type: v.null(),
  title: v.string(),
  snippet: v.string(),
  snippets: v.array(v.object({ text: v.string() })),
  chunk_title: nullableString,
  rn_range: v.null(),
  fundstelle: v.null(),
  breadcrumb: nullableString,
  abbreviation: v.string(),
  law_type: nullableString,
  jurisdiction: v.string(),
  confidence,
});

const citedByResults = v.array(v.object({
  id: v.string(), aktenzeichen: nullableString, court: v.string(), date: nullableString, cited_by_results: v.number(),
}));

const queryExpansion = v.object({
  status: v.string(), applied: v.boolean(), reason: nullableString, lay_terms: v.array(v.string()),
  added_terms: v.array(v.string()), added_norms: v.array(v.string()), note: v.string(),
});

const sectionTotals = {
  total_available: countAnswer, total_available_basis: v.string(), candidate_pool: v.number(), pool_exhaustive: v.boolean(),
  truncated: v.boolean(),
};

export const decisionSearchAnswer = v.object({
  results: v.array(decisionItem),
  payload_truncated: v.boolean(),
  ...sectionTotals,
  page: v.number(),
  limit: v.number(),
  mode: v.picklist(['keyword', 'semantic', 'hybrid']),
  frequently_cited_by_results: citedByResults,
  query_expansion: queryExpansion,
  top_confidence: v.string(),
});

export const combinedSearchAnswer = v.object({
  sections: v.object({ laws: v.array(lawItem), decisions: v.array(decisionItem) }),
  section_totals: v.object({ laws: v.object(sectionTotals), decisions: v.object(sectionTotals) }),
  limit: v.number(),
  total_available: countAnswer,
  total_available_basis: v.string(),
  pool_exhaustive: v.boolean(),
  truncated: v.boolean(),
  mode: v.picklist(['keyword', 'semantic', 'hybrid']),
  filters_applied_sections: described(v.record(v.string(), v.array(v.string())), 'filter → the sections it narrowed'),
  query_expansion: queryExpansion,
  frequently_cited_by_results: citedByResults,
  norms_cited_by_decision_results: v.array(v.object({ norm: v.string(), law: v.string(), unit: v.string(), cited_by_results: v.number() })),
  top_confidence: v.string(),
});

// The operations the pages at / brought (docs/web.md).

const dailyCap = v.object({ cap: v.number(), used: v.number() });

/** The calling token's organization, abilities, credits and caps (get_account). */
export const accountAnswer = v.object({
  organization: v.object({ id: v.string(), name: v.string(), plan: v.string(), require_two_factor: v.boolean() }),
  user: v.nullable(v.object({ id: v.string(), name: v.string(), two_factor_enabled: v.boolean() })),
  token: v.object({ id: v.string(), name: nullableString, abilities: v.array(v.string()), expires_at: nullableString }),
  balance: v.object({ monthly: v.number(), bonus: v.number(), total: v.number(), monthly_allotment: v.number() }),
  daily_caps: v.object({ rows: dailyCap, documents: dailyCap, resets_at: v.string() }),
});

const unitNeighbour = v.nullable(v.object({ kind: v.string(), number: v.string(), label: v.string(), heading: nullableString }));
const citingDecision = v.object({ id: v.string(), court: v.string(), date: nullableString, aktenzeichen: nullableString });

/** One § or article with its neighbours and the decisions citing it (get_law_unit). */
export const lawUnitAnswer = v.object({
  law: v.object({
    id: v.string(), abbreviation: v.string(), title: nullableString, jurisdiction: v.string(),
    law_type: nullableString, stand: nullableString, text_available: v.boolean(),
  }),
  unit: v.object({
    id: v.string(), kind: v.string(), number: v.string(), label: v.string(), citation: v.string(), heading: nullableString,
    text: nullableString, text_available: v.boolean(), breadcrumb: nullableString, repealed: v.boolean(),
  }),
  previous: unitNeighbour,
  next: unitNeighbour,
  cited_by_total: v.number(),
  cited_by: v.array(citingDecision),
});

const textSpan = {
  start_offset: described(v.number(), 'code-point offset into the decision\'s whole text'),
  end_offset: described(v.number(), 'code-point offset into the decision\'s whole text (exclusive)'),
};

/** A decision's citations, Randnummern and sections with their offsets (get_decision_text_citations). */
export const decisionTextCitationsAnswer = v.object({
  id: v.string(),
  text_length: v.number(),
  randnummern: v.array(v.object({ rn: v.number(), ...textSpan })),
  sections: v.array(v.object({ name: v.string(), ...textSpan })),
  citations: v.array(v.object({
    ...textSpan,
    raw_text: v.string(),
    type: v.picklist(['case', 'statute']),
    canonical: v.string(),
    law: nullableString,
    unit: nullableString,
    law_text_held: v.nullable(v.boolean()),
    decision: v.nullable(citingDecision),
  })),
  ...fortgeltung,
});
