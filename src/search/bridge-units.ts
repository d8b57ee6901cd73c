// The bridge's multi-word legal terms and norms as hybrid's lexical arm writes them ('"kost unterkunft"',
// 'NEAR("573" "bgb", 6)'): the impact lists hold a list for each that many decisions match (impact-lists.ts), so that
// a lay query's arm, whose bridged norms and phrases matched thousands of rows each, can be bounded without a walk of
// them (top-k-bounded.ts). Kept beside the plan so that both write them alike.
import { bridgeTargets } from './bridge.ts';
import { legalAlternative, normAlternative } from './plan.ts';
import { matchExpression, type Alternative, type TermGroup } from './query.ts';

/**
 * A norm alternative without the words `unweighted` names (FTS5 gives a word in half the rows or more no weight); a
 * group left with one word is that word. Where every word is unweighted the alternative stays as it is.
 */
export function withoutWords(alternative: Alternative, unweighted: (stem: string) => boolean): Alternative {
  if (alternative.kind !== 'norm') return alternative;
  const kept = alternative.stems.filter((stem) => !unweighted(stem));
  if (kept.length === alternative.stems.length || kept.length === 0) return alternative;
  return kept.length === 1 ? { kind: 'words', terms: [{ stem: kept[0]!, prefix: false, compounds: [] }] } : { kind: 'norm', stems: kept };
}

/**
 * The expressions of the bridge's multi-word legal terms (FTS5 phrases) and of its norms' NEAR groups, as written and
 * without the words `unweighted` names, each once; single words are left to the word lists.
 */
export function bridgeUnits(unweighted: (stem: string) => boolean): { phrases: string[]; groups: string[] } {
  const { legal, norms } = bridgeTargets();
  const expression = (alternative: Alternative) => matchExpression([{ alternatives: [alternative] } satisfies TermGroup], false);
  const phrases = new Set<string>();
  const groups = new Set<string>();
  for (const term of legal) {
    const alternative = legalAlternative(null, term);
    if (alternative?.kind === 'phrase') phrases.add(expression(alternative));
  }
  for (const norm of norms) {
    const alternative = normAlternative(norm);
    if (!alternative) continue;
    for (const form of [alternative, withoutWords(alternative, unweighted)]) if (form.kind === 'norm') groups.add(expression(form));
  }
  return { phrases: [...phrases], groups: [...groups] };
}
