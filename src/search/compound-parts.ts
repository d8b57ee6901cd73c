// A query word that is a compound the statutes do not use ('Pflichtteilsanspruch', 'Widerspruchsfrist',
// 'Amtspflichtverletzung', 'Sozialauswahl') also stands for its two parts together: lawyers compound freely, the law
// says 'Anspruch auf den Pflichtteil', 'Frist ... des Widerspruchs'. A word is split where both parts are words the
// index holds (the front without its linking s/es/n), the front four letters at least, the back the longest such.
import type Database from 'better-sqlite3';
import { tokenize } from './analyze.ts';
import { matchCount, quote, type Alternative, type QueryTerm, type TermGroup } from './query.ts';
import { withTypedUmlauts } from './typed-umlauts.ts';

const SPLIT_MIN = 9;
const PART_MIN = 4;
/** A compound the index holds at least this often is searched as it is (its own matches say enough). */
const RARE_BELOW = 20;

/** Number of rows of an FTS5 table matching one stem (at most `cap`). */
const matches = (db: Database.Database, table: string, stem: string, cap: number) => matchCount(db, table, quote(stem), cap);

/**
 * The stems of a word's two parts as the index holds them, or null where it is no rare compound of held words (rare:
 * fewer than `rareBelow` rows hold it; decisions split only a compound none holds). The word is split, not its stem:
 * the stem of 'Vermieterkündigung' is 'vermieterkund', of 'Kündigung' 'kundig'.
 */
export function compoundParts(db: Database.Database, table: string, word: string, rareBelow = RARE_BELOW): [string, string] | null {
  const token = tokenize(word)[0];
  if (!token || [...token.word].length < SPLIT_MIN || /\d/u.test(token.word) || matches(db, table, token.stem, rareBelow) >= rareBelow) return null;
  const letters = [...token.word];
  for (let at = PART_MIN; at <= letters.length - PART_MIN; at++) {
    const back = tokenize(letters.slice(at).join(''))[0]?.stem;
    if (!back || back.length < PART_MIN) continue;
    for (const front of new Set([letters.slice(0, at).join(''), letters.slice(0, at).join('').replace(/(?:es|s|n)$/u, '')])) {
      const frontStem = tokenize(front)[0]?.stem;
      if (!frontStem || [...front].length < PART_MIN) continue;
      if (matches(db, table, frontStem, 1) > 0 && matches(db, table, back, 1) > 0) return [frontStem, back];
    }
  }
  return null;
}

/**
 * The groups with each rare compound word also matched by its parts together (an alternative of its group): anywhere
 * in the unit, or with `near` within six words of each other ('Anspruch auf den Pflichtteil', 'Kündigung durch den
 * Vermieter'; as an FTS5 NEAR group, the form a norm alternative takes), and with `head` also by its last part alone.
 * Words typed with ae/oe/ue for umlauts are read as the plan read them (typed-umlauts.ts).
 *
 * @example splitCompounds(db, 'law_units_fts', wordGroups(db, 'Pflichtteilsanspruch'), 'Pflichtteilsanspruch', false)
 */
export function splitCompounds(db: Database.Database, table: string, groups: TermGroup[], query: string, near: boolean, rareBelow = RARE_BELOW, head = false): TermGroup[] {
  const words = new Map(tokenize(withTypedUmlauts(db, table, query)).map((token) => [token.stem, token.word]));
  return groups.map((group) => {
    const single = group.alternatives.length === 1 && group.alternatives[0]!.kind === 'words' && group.alternatives[0]!.terms.length === 1
      ? group.alternatives[0]!.terms[0]! : null;
    const word = single ? words.get(single.stem) : undefined;
    const parts = word ? compoundParts(db, table, word, rareBelow) : null;
    if (!parts) return group;
    const terms: QueryTerm[] = parts.map((stem) => ({ stem, prefix: false, compounds: [] }));
    const split: Alternative = near ? { kind: 'norm', stems: parts } : { kind: 'words', terms };
    // With `head`, also its head alone: a compound names a kind of its last part (a 'Schnelltest' is a 'Test'); hybrid
    // scores a group by its best alternative (group-scores.ts), so the head adds no more than one word.
    const last: Alternative[] = head ? [{ kind: 'words', terms: [terms[1]!] }] : [];
    return { alternatives: [...group.alternatives, split, ...last] };
  });
}
