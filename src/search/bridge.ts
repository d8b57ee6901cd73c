// The lay-to-legal bridge: curated lay words and phrases (src/search/bridge-lexicon.json) mapped to the terms courts
// use and, where certain, to norms. Matching follows the lexicon's note: a lay term matches when its words occur as
// a contiguous run of the case-folded query tokens (a hyphenated compound stays one token).
import { readFileSync } from 'node:fs';

interface BridgeEntry { domain: string; lay: string[]; legal: string[]; norms: string[] }

export interface LayMatch {
  /** The lay term as the lexicon writes it. */
  lay: string;
  /** UTF-16 span of the matched words in the query. */
  start: number;
  end: number;
  legal: string[];
  norms: string[];
}

/** The query_expansion object of the search answers (api-v1.md: status, applied, reason, note; juralite adds the terms). */
export interface QueryExpansion {
  status: 'applied' | 'abstained' | 'disabled';
  applied: boolean;
  reason: 'lay_term' | 'no_lay_term' | 'bridge_off' | 'exact_citation';
  note: string;
  lay_terms: string[];
  added_terms: string[];
  added_norms: string[];
}

const LEXICON = JSON.parse(readFileSync(new URL('./bridge-lexicon.json', import.meta.url), 'utf8')) as { entries: BridgeEntry[] };
const TOKEN = /[0-9a-zäöüß]+(?:-[0-9a-zäöüß]+)*/gu;

interface LayTerm { lay: string; words: string[]; entry: BridgeEntry }
const LAY_TERMS: LayTerm[] = LEXICON.entries
  .flatMap((entry) => entry.lay.map((lay) => ({ lay, words: lay.toLowerCase().match(TOKEN) ?? [], entry })))
  .filter((term) => term.words.length > 0)
  // Longest first, so "firma wird übernommen" wins over a shorter term inside it.
  .sort((a, b) => b.words.length - a.words.length);

/** Every legal-register term and every norm the lexicon names, each once (the impact lists' bridge units). */
export function bridgeTargets(): { legal: string[]; norms: string[] } {
  return {
    legal: [...new Set(LEXICON.entries.flatMap((entry) => entry.legal))],
    norms: [...new Set(LEXICON.entries.flatMap((entry) => entry.norms))],
  };
}

/** Number of lay terms the lexicon holds. */
export const LAY_TERM_COUNT = LAY_TERMS.length;

/** The lay terms (their places in LAY_TERMS, ascending) by their first word: a query looks up its own words only. */
const TERMS_BY_FIRST_WORD = new Map<string, number[]>();
LAY_TERMS.forEach((term, place) => {
  const places = TERMS_BY_FIRST_WORD.get(term.words[0]!);
  if (places) places.push(place);
  else TERMS_BY_FIRST_WORD.set(term.words[0]!, [place]);
});

/**
 * The lay terms of a query, longest first and never overlapping, in query order.
 *
 * Taken as if every lay term were tried at every position in LAY_TERMS' order: only the terms whose words occur at a
 * position are looked at (by their first word), in that same order, so the overlaps resolve alike (a query of five
 * words tried all 1,762 terms at each position before: some 0.3 ms and 300 KB of garbage a search).
 *
 * @example layTermsOf('Vermieter will mich rauswerfen')[0].legal // ['Kündigung', 'Räumungsklage', ...]
 */
export function layTermsOf(query: string): LayMatch[] {
  const tokens = [...query.toLowerCase().matchAll(TOKEN)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  const found: { place: number; at: number }[] = [];
  tokens.forEach((token, at) => {
    for (const place of TERMS_BY_FIRST_WORD.get(token.word) ?? []) {
      const { words } = LAY_TERMS[place]!;
      if (at + words.length <= tokens.length && words.every((word, k) => tokens[at + k]!.word === word)) found.push({ place, at });
    }
  });
  found.sort((a, b) => a.place - b.place || a.at - b.at);
  const taken = new Array<boolean>(tokens.length).fill(false);
  const matches: (LayMatch & { at: number })[] = [];
  for (const { place, at } of found) {
    const term = LAY_TERMS[place]!;
    const last = at + term.words.length - 1;
    if (taken.slice(at, last + 1).some(Boolean)) continue;
    taken.fill(true, at, last + 1);
    matches.push({ at, lay: term.lay, start: tokens[at]!.start, end: tokens[last]!.end, legal: term.entry.legal, norms: term.entry.norms });
  }
  return matches.sort((a, b) => a.at - b.at).map(({ at: _at, ...match }) => match);
}

/** The query_expansion object for what the bridge did. */
export function expansionReport(bridge: boolean, matches: LayMatch[], exactCitation = false): QueryExpansion {
  const empty = { lay_terms: [], added_terms: [], added_norms: [] };
  if (exactCitation) {
    return { status: 'abstained', applied: false, reason: 'exact_citation', ...empty,
      note: 'The query is a citation and is matched exactly; no terms were added.' };
  }
  if (!bridge) {
    return { status: 'disabled', applied: false, reason: 'bridge_off', ...empty,
      note: 'bridge=false: the literal query was searched; no terms were added.' };
  }
  if (matches.length === 0) {
    return { status: 'abstained', applied: false, reason: 'no_lay_term', ...empty,
      note: 'The query holds no lay term of the bridge lexicon; it was searched as written.' };
  }
  const unique = (values: string[]) => [...new Set(values)];
  return {
    status: 'applied', applied: true, reason: 'lay_term',
    lay_terms: matches.map((m) => m.lay),
    added_terms: unique(matches.flatMap((m) => m.legal)),
    added_norms: unique(matches.flatMap((m) => m.norms)),
    note: 'Lay terms were widened by curated legal-register terms (each lay term may match as written or by its legal terms).',
  };
}
