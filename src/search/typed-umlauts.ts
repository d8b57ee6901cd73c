// Umlauts typed as two letters ('Kuendigung', 'gefaelscht', 'Wettbuero', 'fuer'): a keyboard without umlauts, or a
// habit. The index folds ä to a, so 'kuendigung' and 'kündigung' are different terms and the typed form finds nothing,
// nor does the bridge's lexicon (it writes umlauts). A query word is read with umlauts where its typed form is no term
// of the index and its umlaut form is one (or a function word: 'fuer', 'ueber', 'muessen'), so 'Steuer', 'neue',
// 'Quelle' stay as they are wherever the corpus holds them.
import type Database from 'better-sqlite3';
import { isStopword, tokenize } from './analyze.ts';
import { matchCount, quote } from './query.ts';

const TWO_LETTER_UMLAUT = /ae|oe|ue/iu;
const WORD = /[\p{L}\p{N}]+/gu;
const UMLAUTS: Record<string, string> = { ae: 'ä', oe: 'ö', ue: 'ü', Ae: 'Ä', Oe: 'Ö', Ue: 'Ü', AE: 'Ä', OE: 'Ö', UE: 'Ü' };

/** The word with ae/oe/ue written as umlauts; null where it has none of them or already holds an umlaut. */
export function umlautsOf(word: string): string | null {
  if (!TWO_LETTER_UMLAUT.test(word) || /[äöüÄÖÜ]/u.test(word)) return null;
  return word.replace(/ae|oe|ue/giu, (pair) => UMLAUTS[pair] ?? UMLAUTS[pair.toLowerCase()]!);
}

/** Whether some row of the FTS5 table holds the stem. */
const held = (db: Database.Database, table: string, stem: string) => matchCount(db, table, quote(stem), 1) > 0;

/**
 * The query with each word whose umlauts were typed as ae/oe/ue written with umlauts, where the index (the FTS5
 * `table`) holds the umlaut form and not the typed one; other words as typed.
 *
 * @example withTypedUmlauts(db, 'decisions_fts', 'Kuendigung wegen Eigenbedarf') // 'Kündigung wegen Eigenbedarf'
 */
export function withTypedUmlauts(db: Database.Database, table: string, query: string): string {
  if (!TWO_LETTER_UMLAUT.test(query)) return query;
  return query.replace(WORD, (word) => {
    const umlauted = umlautsOf(word);
    if (umlauted === null) return word;
    if (isStopword(umlauted.toLowerCase())) return umlauted;
    const typed = tokenize(word)[0];
    const read = tokenize(umlauted)[0];
    if (!typed || !read || held(db, table, typed.stem)) return word;
    return held(db, table, read.stem) ? umlauted : word;
  });
}
