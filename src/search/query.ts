// Turns a user's query into term groups and FTS5 match expressions. Every term the expression names comes out of
// the analyzer (letters and digits only) and is quoted again, so FTS5 syntax in a query ("NEAR(", quotes, "*", "-")
// is read as words, never as syntax.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { isStopword, tokenize, type Token } from './analyze.ts';
import { keptRead } from './kept-reads.ts';

/** One word of the query and the index terms it stands for. */
export interface QueryTerm {
  stem: string;
  /** Also matches terms that begin with the stem (the query word as a compound's first part: Eigenbedarf -> Eigenbedarfskündigung). */
  prefix: boolean;
  /** Stems of indexed compounds that end in the word (Mieterhöhung -> Modernisierungsmieterhöhung). */
  compounds: string[];
}

/** An alternative of a group: words that must all occur, a phrase, or a norm (number and law near each other). */
export type Alternative =
  | { kind: 'words'; terms: QueryTerm[] }
  | { kind: 'phrase'; stems: string[] }
  | { kind: 'norm'; stems: string[] };

/** A unit of the query: in keyword mode every group must match, in the lexical arm of hybrid any may. */
export interface TermGroup {
  alternatives: Alternative[];
}

/** Query words of this many letters also match the words they begin (a prefix phrase). */
export const PREFIX_MIN = 5;
const COMPOUND_STEM_MIN = 4;
const COMPOUNDS_PER_TERM = 40;
// Endings a compound's last word may carry after the query word's stem (the stem of "Kündigung" is "kundig", the
// compound "Eigenbedarfskündigung" is indexed under "eigenbedarfskund" but its word ends in "kundigung").
const ENDINGS = ['', 'e', 'en', 'er', 'ern', 'es', 'n', 's', 'ung', 'ungen', 'ig', 'ige', 'igen'];

const reversed = (word: string) => [...word].reverse().join('');

// One range of reversed words per ending, all in one statement (thirteen statements cost about five times as much),
// in the order of ENDINGS and, within an ending, of the reversed words.
const COMPOUND_LOOKUP = `${ENDINGS.map((_, i) => `SELECT * FROM (SELECT ${i} AS ending, rev, stem FROM search_words
  WHERE rev >= ? AND rev < ? AND length(rev) >= ? LIMIT ${COMPOUNDS_PER_TERM})`).join(' UNION ALL ')} ORDER BY ending, rev`;

/**
 * Whether the part of a compound in front of the query word (reversed, as search_words holds it) can be a word of its
 * own: four letters at least, a linking s or n aside, and no function word ('gegen|stand', 'um|stand', 'ver|söhn').
 */
function frontIsWord(frontReversed: string): boolean {
  const front = reversed(frontReversed);
  const stripped = front.replace(/(?<=\p{L}{4})(?:es|s|en|n)$/u, '');
  return stripped.length >= 4 && !isStopword(front) && !isStopword(stripped);
}

/**
 * Stems of indexed compounds whose last part is the word of `stem` (longer by at least three letters). Kept per
 * connection while the file is unchanged (kept-reads.ts): the lookup's thirteen ranges in one statement cost some
 * 25-45 µs a word, most of a query's plan (bench/README, session 23).
 */
export function compoundsOf(db: Database.Database, stem: string): string[] {
  if (stem.length < COMPOUND_STEM_MIN || /\d/u.test(stem)) return [];
  return keptRead(db, `compounds ${stem}`, () => compoundLookup(db, stem),
    (compounds) => compounds.reduce((bytes, compound) => bytes + 2 * compound.length + 32, 0));
}

function compoundLookup(db: Database.Database, stem: string): string[] {
  const ranges = ENDINGS.flatMap((ending) => {
    const key = reversed(stem + ending);
    return [key, `${key}\uffff`, key.length + 3];
  });
  const found = new Set<string>();
  for (const row of sql<(string | number)[], { ending: number; rev: string; stem: string }>(db, COMPOUND_LOOKUP).all(...ranges)) {
    if (!frontIsWord(row.rev.slice(stem.length + ENDINGS[row.ending]!.length))) continue;
    if (row.stem !== stem && !row.stem.startsWith(stem)) found.add(row.stem);
    if (found.size >= COMPOUNDS_PER_TERM) break;
  }
  return [...found];
}

/** The query terms of a stretch of query text (stopwords dropped, duplicates merged). */
export function termsOf(db: Database.Database | null, tokens: Token[]): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  for (const token of tokens) {
    if (seen.has(token.stem)) continue;
    seen.add(token.stem);
    const numeric = /\d/u.test(token.stem);
    terms.push({
      stem: token.stem,
      prefix: !process.env.JL_NOPREFIX && !numeric && token.stem.length >= PREFIX_MIN,
      compounds: db && !process.env.JL_NOCOMP ? compoundsOf(db, token.stem) : [],
    });
  }
  return terms;
}

/** A term as an FTS5 phrase: quoted, its quotes doubled. */
export const quote = (term: string) => `"${term.replace(/"/gu, '""')}"`;

/**
 * Rows of an FTS5 table matching `expression`, counted up to `cap` (a walk that stops there: whether a word is held,
 * rare or common without counting every row of a common one).
 *
 * @example matchCount(db, 'decisions_fts', quote('kundig'), 2000) // 2000 where 2,000 rows or more hold it
 */
export function matchCount(db: Database.Database, table: string, expression: string, cap: number): number {
  return sql<[string, number], { n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT +?)`)
    .get(expression, cap)!.n;
}

function termExpression(term: QueryTerm): string {
  const forms = [term.prefix ? `${quote(term.stem)}*` : quote(term.stem), ...term.compounds.map(quote)];
  return forms.length === 1 ? forms[0] : `(${forms.join(' OR ')})`;
}

function alternativeExpression(alternative: Alternative): string {
  switch (alternative.kind) {
    case 'words': return alternative.terms.length === 1 ? termExpression(alternative.terms[0])
      : `(${alternative.terms.map(termExpression).join(' AND ')})`;
    case 'phrase': return quote(alternative.stems.join(' '));
    case 'norm': return `NEAR(${alternative.stems.map(quote).join(' ')}, 6)`;
  }
}

function groupExpression(group: TermGroup): string {
  const parts = group.alternatives.map(alternativeExpression);
  return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
}

/** The groups with each word as typed: no prefix matches, no compounds ending in it. */
export function asTyped(groups: TermGroup[]): TermGroup[] {
  return groups.map((group) => ({ alternatives: group.alternatives.map((alternative) => (alternative.kind === 'words'
    ? { ...alternative, terms: alternative.terms.map((term) => ({ ...term, prefix: false, compounds: [] })) } : alternative)) }));
}

/**
 * The FTS5 MATCH expression of the groups: all of them (`all`, keyword mode) or any of them (the lexical arm of
 * hybrid, ranked by BM25 so that more matched groups rank higher). Empty when the query holds no searchable word.
 */
export function matchExpression(groups: TermGroup[], all: boolean): string {
  const parts = groups.filter((group) => group.alternatives.length > 0).map(groupExpression);
  return parts.join(all ? ' AND ' : ' OR ');
}

/**
 * The phrases of the groups' FTS5 expression, each as the expression writes it ('"stem"*', '"stem"', '"a b"'), as
 * often as it occurs there (FTS5 scores each occurrence: two norms of one law name it twice); a norm's NEAR group as
 * its single words, each matching every row the group matches (the top-k path, top-k.ts).
 */
export function phrasesOf(groups: TermGroup[]): string[] {
  const phrases: string[] = [];
  for (const group of groups) {
    for (const alternative of group.alternatives) {
      if (alternative.kind === 'words') {
        for (const term of alternative.terms) phrases.push(term.prefix ? `${quote(term.stem)}*` : quote(term.stem), ...term.compounds.map(quote));
      } else if (alternative.kind === 'phrase') {
        phrases.push(quote(alternative.stems.join(' ')));
      } else {
        phrases.push(...alternative.stems.map(quote));
      }
    }
  }
  return phrases;
}

/** Groups for plain words: one group per word. */
export function wordGroups(db: Database.Database | null, text: string): TermGroup[] {
  return termsOf(db, tokenize(text)).map((term) => ({ alternatives: [{ kind: 'words', terms: [term] }] }));
}

/** Whether a word's stem answers the query, and the stems such a word begins with (every stem is a prefix of its word). */
export interface TermMatcher {
  (stem: string): boolean;
  starts: readonly string[];
}

/** Decides whether an indexed word answers a query term (for snippets: the same rule as the FTS expression). */
export function termMatcher(groups: TermGroup[]): TermMatcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const group of groups) {
    for (const alternative of group.alternatives) {
      if (alternative.kind === 'words') {
        for (const term of alternative.terms) {
          exact.add(term.stem);
          for (const compound of term.compounds) exact.add(compound);
          if (term.prefix) prefixes.push(term.stem);
        }
      } else {
        for (const stem of alternative.stems) exact.add(stem);
      }
    }
  }
  const isMatch = (stem: string) => exact.has(stem) || prefixes.some((prefix) => stem.startsWith(prefix));
  // Frozen: tokensStartingWith compiles its pattern once per list (by identity).
  return Object.assign(isMatch, { starts: Object.freeze([...exact, ...prefixes]) });
}
