// What the lexical arm of hybrid (endpoint 10) ranks: the plan's groups with a rare compound also as its two parts
// (compound-parts.ts), a norm's NEAR group without the words FTS5 gives no weight, and every alternative once. The
// last two only leave out work: in BM25 a word in half the rows or more scores nothing (FTS5 floors its IDF at 1e-6),
// yet FTS5 reads its position lists for every row it tests, and a phrase written twice is matched and scored twice.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { corpusVersion } from './answer-cache.ts';
import { splitCompounds } from './compound-parts.ts';
import { ftsTotals } from './impact-lists.ts';
import type { Alternative, TermGroup } from './query.ts';

/**
 * The groups hybrid's lexical arm ranks for `query` (bench/README "Session 19: hybrid's tail"): on the 100k generated
 * corpus the lay queries' arms ranked in full took 50-230 ms, most of it in NEAR groups of a number found in nearly
 * every decision ('NEAR("1" "kschg", 6)') and in norms two lay terms both name (§ 573 BGB for 'rauswerfen' and 'Sohn
 * einziehen'); every MRR, R@1 and R@10 of both judged sets stayed the same.
 */
export function hybridLexicalGroups(db: Database.Database, groups: TermGroup[], query: string): TermGroup[] {
  return distinctAlternatives(withoutUnweightedNormWords(db, splitCompounds(db, 'decisions_fts', groups, query, true, 1)));
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
  return groups.map((group) => ({
    alternatives: group.alternatives.map((alternative): Alternative => {
      if (alternative.kind !== 'norm') return alternative;
      const kept = alternative.stems.filter((stem) => !unweighted(stem));
      if (kept.length === alternative.stems.length || kept.length === 0) return alternative;
      return kept.length === 1 ? { kind: 'words', terms: [{ stem: kept[0]!, prefix: false, compounds: [] }] } : { kind: 'norm', stems: kept };
    }),
  }));
}

/**
 * Per connection, for the corpus state it was counted in: the rows of decisions_fts (FTS5's own count, as its IDF reads
 * it; counting search_docs took 146 ms on a cold cache at 100k), and which stems are in half of them or more.
 */
const counted = new WeakMap<Database.Database, { version: string; rows: number; stems: Map<string, boolean> }>();

/**
 * Whether a stem is in half of decisions_fts's rows or more (FTS5's IDF of it is floored), counted once per stem and
 * corpus state (counting up to half the rows: 2-6 ms for '"1"' at 100k decisions, 76 ms on a cold cache).
 */
function unweightedWords(db: Database.Database): (stem: string) => boolean {
  const version = corpusVersion(db);
  let held = counted.get(db);
  if (held?.version !== version) {
    counted.set(db, (held = { version, rows: ftsTotals(db).rows, stems: new Map() }));
  }
  const { rows, stems } = held;
  return (stem) => {
    let common = stems.get(stem);
    if (common === undefined) {
      const half = Math.ceil(rows / 2);
      const { n } = sql<[string, number], { n: number }>(db, 'SELECT count(*) AS n FROM (SELECT 1 FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT ?)')
        .get(`"${stem.replace(/"/gu, '""')}"`, half)!;
      stems.set(stem, (common = rows > 0 && n * 2 >= rows));
    }
    return common;
  };
}
