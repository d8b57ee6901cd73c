// What the lexical arm of hybrid (endpoint 10) ranks: the plan's groups with a rare compound also as its two parts
// (compound-parts.ts), a norm's NEAR group without the words FTS5 gives no weight, and every alternative once. The
// last two leave out work that bought no answer: in BM25 a word in half the rows or more scores nothing (FTS5 floors
// its IDF at 1e-6), yet FTS5 reads its position lists for every row it tests (so the group now matches a decision
// naming the norm's law anywhere), and a phrase written twice is matched and scored twice.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { corpusVersion } from '../db/corpus-version.ts';
import { withoutWords } from './bridge-units.ts';
import { splitCompounds } from './compound-parts.ts';
import { ftsTotals, impactListsHold, impactState, LIST_MIN_ROWS } from './impact-lists.ts';
import { matchCount, matchExpression, quote, type Alternative, type QueryTerm, type TermGroup } from './query.ts';

/**
 * The groups hybrid's lexical arm ranks for `query` (bench/README "Session 19: hybrid's tail"): on the 100k generated
 * corpus the lay queries' arms ranked in full took 50-230 ms, most of it in NEAR groups of a number found in nearly
 * every decision ('NEAR("1" "kschg", 6)') and in norms two lay terms both name (§ 573 BGB for 'rauswerfen' and 'Sohn
 * einziehen'); every MRR, R@1 and R@10 of both judged sets stayed the same.
 */
export function hybridLexicalGroups(db: Database.Database, groups: TermGroup[], query: string): TermGroup[] {
  return distinctAlternatives(withoutUnweightedNormWords(db, splitCompounds(db, 'decisions_fts', groups, query, true, 1, true)));
}

/**
 * Without the alternatives of several words one of which no decision holds in any form (as typed, as a prefix, in a
 * compound): the lay term's own words ('Jobcenter zahlt Miete' where no decision says 'zahlt'; as typed, 'Urlaub
 * verfallen' where decisions say 'Urlaubsanspruch') match nothing, and FTS5 scores no phrase of an AND that does not
 * match; but the lists bound every row holding their other words as if they could, and no ranking of such an arm was
 * proven (bench/README "Session 20"). The arm ORs its groups: the same matches, the same scores.
 */
export function withoutUnmatchable(db: Database.Database, groups: TermGroup[]): TermGroup[] {
  const held = (term: QueryTerm) => matchCount(db, 'decisions_fts', quote(term.stem), 1) > 0
    || ((term.prefix || term.compounds.length > 0) && matchCount(db, 'decisions_fts', matchExpression([{ alternatives: [{ kind: 'words', terms: [term] }] }], false), 1) > 0);
  return groups.map((group) => ({
    alternatives: group.alternatives.filter((alternative) => alternative.kind !== 'words' || alternative.terms.length < 2 || alternative.terms.every(held)),
  })).filter((group) => group.alternatives.length > 0);
}

/**
 * Each alternative once, where it first occurs; a group left without any is dropped. The lexical arm ORs its groups,
 * so no decision leaves or joins the matches: only a phrase's second occurrence, which FTS5 walks and scores again
 * (the 'Vermieter will mich rauswerfen, weil sein Sohn einziehen soll' arm at 100k: 144 -> 45 ms ranked in full).
 */
export function distinctAlternatives(groups: TermGroup[]): TermGroup[] {
  const seen = new Set<string>();
  return groups.map((group) => ({
    alternatives: group.alternatives.filter((alternative) => {
      const key = alternativeKey(alternative);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  })).filter((group) => group.alternatives.length > 0);
}

/** An alternative as the expression writes it (a single word and a norm reduced to it are the same phrase). */
function alternativeKey(alternative: Alternative): string {
  if (alternative.kind === 'words' && alternative.terms.length === 1) {
    const [term] = alternative.terms;
    return JSON.stringify(['word', term!.stem, term!.prefix, term!.compounds]);
  }
  return JSON.stringify(alternative);
}

/**
 * A norm's NEAR group without its words in half the rows or more ('1', '4', '22', '34' at 100k generated decisions:
 * 'NEAR("1" "kschg", 6)' matched and counted in 28 and 8.5 ms, '"kschg"' in 8.4 and 0.7); a group left with one word
 * is that word. Where every word of it is that common the group stays as it is (it is all the norm has).
 */
export function withoutUnweightedNormWords(db: Database.Database, groups: TermGroup[]): TermGroup[] {
  if (!groups.some((group) => group.alternatives.some((alternative) => alternative.kind === 'norm'))) return groups;
  const unweighted = unweightedWords(db);
  return groups.map((group) => ({ alternatives: group.alternatives.map((alternative) => withoutWords(alternative, unweighted)) }));
}

/** What a connection knows for the corpus state it read: decisions_fts's rows, the impact lists, the stems counted. */
interface Counted {
  version: string;
  rows: number;
  /** Rows changed since the impact lists were built, or null where they do not hold. */
  changed: number | null;
  stems: Map<string, boolean>;
}
const counted = new WeakMap<Database.Database, Counted>();

/**
 * Whether a stem is in half of decisions_fts's rows or more (FTS5's IDF of it is floored; the row count is FTS5's own,
 * as its IDF reads it), decided once per stem and corpus state. Where the impact lists hold, from the rows they
 * recorded for the word (every word in 300 rows or more has its entry) unless the rows changed since could carry it
 * across half; else counted up to half the rows (at 500k decisions '"1"' took 24 ms, 400 ms on a cold cache).
 */
function unweightedWords(db: Database.Database): (stem: string) => boolean {
  const version = corpusVersion(db);
  let held = counted.get(db);
  if (held?.version !== version) {
    const changed = impactListsHold(db, impactState(db))
      ? sql<[], { n: number }>(db, 'SELECT count(*) AS n FROM search_impacts_changed').get()!.n : null;
    counted.set(db, (held = { version, rows: ftsTotals(db).rows, changed, stems: new Map() }));
  }
  const { rows, changed, stems } = held;
  const half = rows / 2;
  const listed = (stem: string): boolean | undefined => {
    if (changed === null) return undefined;
    const recorded = sql<[string], { rows: number }>(db, 'SELECT rows FROM search_impacts WHERE phrase = ?').get(quote(stem))?.rows;
    if (recorded === undefined) return LIST_MIN_ROWS + changed < half ? false : undefined;
    return Math.abs(recorded - half) > changed ? recorded >= half : undefined;
  };
  return (stem) => {
    let common = stems.get(stem);
    if (common === undefined) {
      common = listed(stem);
      if (common === undefined) {
        common = rows > 0 && matchCount(db, 'decisions_fts', quote(stem), Math.ceil(half)) >= half;
      }
      stems.set(stem, common);
    }
    return common;
  };
}
