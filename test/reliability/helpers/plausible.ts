/**
 * Per-argument arbitraries of values that may well be valid (so that generated requests get past validation and
 * reach the handlers), for the arguments the operations declare. Mixed with nasty values by `argumentsFor`.
 */
import fc from 'fast-check';
import { BRANCHES, DOCUMENT_TYPES, SEARCH_MODES } from '../../../src/operations/schemas.ts';
import { FACET_FIELDS } from '../../../src/operations/list-facets.ts';
import { DECISION_SECTIONS } from '../../../src/operations/get-decision.ts';
import { GRAPH_DIRECTIONS } from '../../../src/operations/get-citation-graph.ts';
import { JURISDICTIONS } from '../../../src/operations/search.ts';
import { fixtureId } from '../../helpers/demo-corpus.ts';
import { NASTY_STRINGS } from './nasty.ts';

/** A brief that passes the check's legal-signal rule. */
export const LEGAL_TEXT = 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB und § 573 Abs. 2 Nr. 2 BGB; '
  + 'vgl. BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10. Die Revision der Beklagten hat keinen Erfolg.';

const FTS_STRINGS = NASTY_STRINGS.filter((value) => /NEAR|["*:^()+-]|AND|OR|NOT/.test(value));

const decisionRefs = fc.constantFrom(fixtureId(1), fixtureId(7), 'VIII ZR 214/12', 'VIII ZR 44/21', 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0', '1 S 23/19');
const dates = fc.oneof(
  fc.date({ min: new Date('1900-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  fc.constantFrom('2020-02-30', '2020-13-01', '0000-00-00', '2020-1-1', '20200101'),
);
/** Mostly within [min, max], sometimes just outside or far off. */
const integers = (min: number, max: number) => fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min, max }) },
  { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 0, -1, 2 ** 31, 2 ** 53) },
);
const legalText = fc.tuple(fc.constantFrom(LEGAL_TEXT, LEGAL_TEXT.repeat(3)), fc.constantFrom(...NASTY_STRINGS))
  .map(([text, nasty]) => `${text} ${nasty}`);

/** Arguments that make a valid call of each operation; generated calls start from these and change some. */
export const VALID_BASE: Record<string, Record<string, unknown>> = {
  check_citations: { text: LEGAL_TEXT },
  get_citation_graph: { id: fixtureId(1) },
  list_facets: { field: 'court_name' },
  create_datapackage: { ids: [fixtureId(1)] },
  get_decision: { id: fixtureId(1) },
  search_decisions: { query: 'Eigenbedarf' },
  search: { query: 'Eigenbedarf' },
};

export const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  id: decisionRefs,
  ids: fc.array(fc.oneof(decisionRefs, fc.constantFrom(...NASTY_STRINGS)), { minLength: 0, maxLength: 12 }),
  query: fc.oneof(fc.constantFrom('Eigenbedarf', 'Kündigung des Mietvertrags', '§ 573 BGB', 'VIII ZR 214/12', 'Vermieter will mich rauswerfen'), fc.constantFrom(...FTS_STRINGS)),
  mode: fc.constantFrom(...SEARCH_MODES),
  branch: fc.constantFrom(...BRANCHES),
  document_type: fc.constantFrom(...DOCUMENT_TYPES),
  jurisdiction: fc.constantFrom(...JURISDICTIONS),
  direction: fc.constantFrom(...GRAPH_DIRECTIONS),
  field: fc.constantFrom(...FACET_FIELDS),
  type: fc.constantFrom('decision', 'law'),
  section: fc.constantFrom(...DECISION_SECTIONS, 'gründe', ' Tenor '),
  court: fc.constantFrom('BGH', 'LG Berlin', 'OLG München', 'bgh'),
  cited_norm: fc.constantFrom('§ 573 BGB', '§ 573 Abs. 2 BGB', 'Art. 6 DSGVO', '§ 823'),
  norm: fc.constantFrom('§ 573 BGB', '§ 823 BGB', 'Art. 6 DSGVO'),
  prefix: fc.constantFrom('', 'B', 'LG ', 'ö', '%', '_'),
  date: dates,
  date_from: dates,
  date_to: dates,
  reference_date: fc.oneof(dates, fc.constant(null)),
  limit: integers(1, 20),
  page: integers(1, 10),
  depth: integers(1, 2),
  top: integers(1, 100),
  max_chars: integers(500, 200_000),
  rn_from: integers(1, 8),
  rn_to: integers(1, 8),
  bridge: fc.boolean(),
  include_citations: fc.boolean(),
  full_text: fc.boolean(),
  text: legalText,
  document_id: fc.constantFrom('upl_00000000-0000-0000-0000-000000000000', 'upl_x'),
};
