// From the query as typed to term groups: the words outside lay terms as they are, each lay term (bridge on) as one
// group whose alternatives are the lay words themselves, the legal-register terms and the norms the lexicon gives.
import type Database from 'better-sqlite3';
import { parseNormenkette } from '../corpus/norms.ts';
import { tokenize } from './analyze.ts';
import { expansionReport, layTermsOf, type QueryExpansion } from './bridge.ts';
import { termsOf, type Alternative, type TermGroup } from './query.ts';
import { withTypedUmlauts } from './typed-umlauts.ts';

export interface SearchPlan {
  groups: TermGroup[];
  expansion: QueryExpansion;
  /** Norms the bridge added (law and unit), for the norm arm of hybrid. */
  norms: { law: string; unit: string }[];
}

/** A legal-register term of the bridge as an alternative: its words, or the phrase of several. */
export function legalAlternative(db: Database.Database | null, term: string): Alternative | null {
  const tokens = tokenize(term);
  if (tokens.length === 0) return null;
  if (tokens.length === 1) return { kind: 'words', terms: termsOf(db, tokens) };
  return { kind: 'phrase', stems: tokens.map((token) => token.stem) };
}

/** A norm of the bridge as an alternative: its unit's number and its law near each other (null: not a norm). */
export function normAlternative(norm: string): Alternative | null {
  const parsed = parseNormenkette(norm)[0];
  if (!parsed) return null;
  const stems = tokenize(`${parsed.unit.replace(/^(?:§|Art\.)\s*/u, '')} ${parsed.law}`).map((token) => token.stem);
  return stems.length > 1 ? { kind: 'norm', stems } : null;
}

/**
 * Plans a query. Words whose umlauts were typed as ae/oe/ue are read with umlauts where the index holds only that
 * form (typed-umlauts.ts). With `bridge`, lay terms are widened by the lexicon; the report says what happened.
 *
 * @example planQuery(db, 'Vermieter will mich rauswerfen', true).expansion.status // 'applied'
 */
export function planQuery(db: Database.Database, typed: string, bridge: boolean): SearchPlan {
  const query = withTypedUmlauts(db, 'decisions_fts', typed);
  const matches = bridge ? layTermsOf(query) : [];
  const groups: TermGroup[] = [];
  const norms: { law: string; unit: string }[] = [];
  const plain = (text: string) => {
    for (const term of termsOf(db, tokenize(text))) groups.push({ alternatives: [{ kind: 'words', terms: [term] }] });
  };
  let at = 0;
  for (const match of matches) {
    plain(query.slice(at, match.start));
    at = match.end;
    const alternatives: Alternative[] = [];
    const layTerms = termsOf(db, tokenize(query.slice(match.start, match.end)));
    if (layTerms.length > 0) alternatives.push({ kind: 'words', terms: layTerms });
    for (const legal of match.legal) {
      const alternative = legalAlternative(db, legal);
      if (alternative) alternatives.push(alternative);
    }
    for (const norm of match.norms) {
      const alternative = normAlternative(norm);
      if (alternative) alternatives.push(alternative);
      const parsed = parseNormenkette(norm)[0];
      if (parsed) norms.push({ law: parsed.law, unit: parsed.unit });
    }
    if (alternatives.length > 0) groups.push({ alternatives });
  }
  plain(query.slice(at));
  return { groups: dedupeGroups(groups), expansion: expansionReport(bridge, matches), norms };
}

/** A word typed twice counts once ("Miete Miete" requires one group). */
function dedupeGroups(groups: TermGroup[]): TermGroup[] {
  const seen = new Set<string>();
  return groups.filter((group) => {
    const key = JSON.stringify(group.alternatives);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
