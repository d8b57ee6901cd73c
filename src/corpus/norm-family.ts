// One provision as a caller names it (the cited_norm filter, the cited_norms facet, an exact § query) and the statute
// edges citing it or a subdivision of it: "subdivisions nest", so '§ 573 BGB' takes in '§ 573 Abs. 2 Nr. 2 BGB' and
// '§ 573 Abs. 3 BGB' leaves out '§ 573 Abs. 2 BGB'. A first Unterabsatz is implied where a citation leaves it out:
// 'Art. 6 Abs. 1 lit. f DSGVO' is the 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO' an edge may store.
import { extractCitations } from '../citations/extract.ts';
import { invalidArgument } from '../errors.ts';
import { parseNormenkette } from './norms.ts';

export interface Provision {
  /** Canonical form: '§ 573 Abs. 2 BGB'. */
  canonical: string;
  /** Cited abbreviation of the law: 'BGB'. */
  law: string;
  /** The unit: '§ 573', 'Art. 229 § 5'. */
  unit: string;
}

/**
 * Reads one provision with its law as the citation check reads texts ('§ 626 I BGB' is '§ 626 Abs. 1 BGB', 'DS-GVO'
 * is 'DSGVO'), else as a Normenkette; anything else is 422 on `argument`.
 *
 * @example parseProvision('§ 535 I 2 BGB', 'cited_norm').canonical // '§ 535 Abs. 1 Satz 2 BGB'
 */
export function parseProvision(text: string, argument: string): Provision {
  const statutes = extractCitations(text).citations.filter((citation) => citation.type === 'statute');
  if (statutes.length === 1 && statutes[0].law) {
    const [{ canonical, law, kind, number }] = statutes;
    return { canonical, law: law!, unit: `${kind} ${number}` };
  }
  const parsed = parseNormenkette(text);
  if (statutes.length > 1 || parsed.length !== 1) {
    throw invalidArgument(argument, 'must name one provision with its law, e.g. § 573 BGB or Art. 6 DSGVO');
  }
  const [{ norm, law, unit }] = parsed;
  return { canonical: norm, law, unit };
}

/** The provision without its law and with a space after it: what the canonical form of a member begins with. */
const stem = (provision: Provision) => `${provision.canonical.slice(0, -provision.law.length - 1)} `;
const FIRST_UABS = ' UAbs. 1 ';

/**
 * SQL over citation_edges or citation_links (columns prefixed with `edge`, e.g. 'e.') for the statute edges citing
 * the provision or a subdivision of it: the canonical form begins with the provision's, with or without a first
 * 'UAbs. 1'. A whole unit ('§ 573 BGB') is every edge to its law and unit (each such edge's canonical form begins with
 * the unit: src/graph/edges.ts): the index citation_links_statutes answers that alone, where testing the canonical
 * form read every edge's row (8.6 s for the 102,000 edges to § 573 BGB of a generated 100k corpus, cold; 0.1 s now).
 */
export function familyCondition(provision: Provision, edge = ''): { sql: string; params: unknown[] } {
  const edges = `${edge}reference_type = 'statute' AND ${edge}target_law = +? AND ${edge}target_unit = +?`;
  if (provision.canonical === `${provision.unit} ${provision.law}`) return { sql: edges, params: [provision.law, provision.unit] };
  const begins = stem(provision);
  const written = `(${edge}reference_canonical || ' ')`;
  return {
    sql: `${edges} AND (substr(${written}, 1, ?) = ? OR substr(replace(${written}, '${FIRST_UABS}', ' '), 1, ?) = ?)`,
    params: [provision.law, provision.unit, begins.length, begins, begins.length, begins],
  };
}
