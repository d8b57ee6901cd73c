import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { invalidArgument } from '../errors.ts';
import { corpusAsOf } from './coverage.ts';
import { familyCondition, parseProvision } from './norm-family.ts';

export const FACET_VALUE_LIMIT = 500;

type Count = { value: number; is_floor: boolean };
type FacetType = 'decision' | 'law' | undefined;

interface FacetSource {
  appliesTo(type: FacetType): 'DECISION' | 'LAW' | 'DECISION_AND_LAW';
  /** value -> count rows for the requested type. */
  rows(corpus: Database.Database, type: FacetType): { value: string; count: number }[];
}

const all = (corpus: Database.Database, query: string) => sql<[], { value: string; count: number }>(corpus, query).all();

/** Merges two row lists, adding counts of equal values (a facet over decisions and laws together). */
function merged(...lists: { value: string; count: number }[][]) {
  const counts = new Map<string, number>();
  for (const row of lists.flat()) counts.set(row.value, (counts.get(row.value) ?? 0) + row.count);
  return [...counts].map(([value, count]) => ({ value, count }));
}

const DECISION_FACETS: Record<string, string> = {
  court_name: 'SELECT court AS value, count(*) AS count FROM decisions GROUP BY court',
  document_type: `SELECT coalesce(document_kind, 'Sonstige') AS value, count(*) AS count FROM decisions GROUP BY 1`,
  branch: `SELECT coalesce(c.branch, 'unbekannt') AS value, count(*) AS count FROM decisions d LEFT JOIN courts c ON c.code = d.court GROUP BY 1`,
  law_abbreviation: `SELECT target_law AS value, count(DISTINCT from_decision_id) AS count FROM citation_edges
                     WHERE reference_type = 'statute' GROUP BY target_law`,
  // Holdings per year (the coverage charts of the pages at /bestand).
  decision_year: `SELECT substr(date, 1, 4) AS value, count(*) AS count FROM decisions WHERE date IS NOT NULL GROUP BY 1`,
};

const LAW_FACETS: Record<string, string> = {
  document_type: `SELECT coalesce(law_type, 'Gesetz') AS value, count(*) AS count FROM laws GROUP BY 1`,
  law_abbreviation: 'SELECT l.abbreviation AS value, count(u.id) AS count FROM laws l LEFT JOIN law_units u ON u.law_id = l.id GROUP BY l.id',
};

/** What a law facet counts, per field; laws for a field no law has (court_name, branch: asked for laws, no values). */
const LAW_COUNT_BASIS: Record<string, string> = { document_type: 'laws', law_abbreviation: 'law_units' };

/** What the counts of a facet are counts of: decisions, laws or law units, or decisions and those added. */
function countBasis(field: string, appliesTo: string): string {
  if (appliesTo === 'DECISION') return 'decisions';
  const law = LAW_COUNT_BASIS[field] ?? 'laws';
  return appliesTo === 'LAW' ? law : `decisions_and_${law}`;
}

function typedFacet(field: string): FacetSource {
  return {
    appliesTo: (type) => (type === 'law' || !DECISION_FACETS[field] ? 'LAW' : type === 'decision' || !LAW_FACETS[field] ? 'DECISION' : 'DECISION_AND_LAW'),
    rows: (corpus, type) => merged(
      type !== 'law' && DECISION_FACETS[field] ? all(corpus, DECISION_FACETS[field]) : [],
      type !== 'decision' && LAW_FACETS[field] ? all(corpus, LAW_FACETS[field]) : [],
    ),
  };
}

/**
 * Decisions citing the norm or any subdivision of it ("subdivisions nest", src/corpus/norm-family.ts), per exact norm:
 * in the text or in the Normenkette (both are statute edges).
 */
function citedNorms(corpus: Database.Database, norm: string) {
  const provision = parseProvision(norm, 'norm');
  const family = familyCondition(provision);
  // On citation_links itself, decisions counted by their row (one row a decision): the view citation_edges joined
  // every edge to its decision and its target, some 0.6x of the time for '§ 573 BGB' at 100k (100,000 edges).
  const rows = sql<unknown[], { value: string; count: number }>(corpus,
    `SELECT reference_canonical AS value, count(DISTINCT from_row) AS count FROM citation_links
     WHERE ${family.sql} GROUP BY reference_canonical`).all(...family.params);
  return { canonical: provision.canonical, rows };
}

/** GET /corpus/facets/{field}: values with counts, at most 500, optionally filtered by a case-insensitive prefix. */
export function listFacet(corpus: Database.Database, args: { field: string; type?: 'decision' | 'law'; norm?: string; prefix?: string }) {
  let rows: { value: string; count: number }[];
  let appliesTo: string;
  let echo: { norm?: string } = {};
  if (args.field === 'cited_norms') {
    const family = citedNorms(corpus, args.norm!);
    rows = family.rows;
    appliesTo = 'DECISION';
    echo = { norm: family.canonical };
  } else {
    const source = typedFacet(args.field);
    rows = source.rows(corpus, args.type);
    appliesTo = source.appliesTo(args.type);
  }
  const prefix = args.prefix?.toLocaleLowerCase('de');
  const matching = rows
    .filter((row) => !prefix || row.value.toLocaleLowerCase('de').startsWith(prefix))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value, 'de'));
  const shown = matching.slice(0, FACET_VALUE_LIMIT);
  return {
    field: args.field,
    ...echo,
    applies_to: appliesTo,
    values: Object.fromEntries(shown.map((row): [string, Count] => [row.value, { value: row.count, is_floor: false }])),
    total_values: matching.length,
    truncated: matching.length > shown.length,
    value_limit: FACET_VALUE_LIMIT,
    count_basis: countBasis(args.field, appliesTo),
    as_of: corpusAsOf(corpus),
  };
}
