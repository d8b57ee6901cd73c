// The chunks of a result page's decisions, read once: the passage choice and the snippets both work on them, and
// the query's words found in a chunk are found once for both.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import type { Token } from './analyze.ts';
import { termMatcher, type TermGroup, type TermMatcher } from './query.ts';
import { wordsMatching } from './snippets.ts';

/** A decision's chunk as passages are chosen among and snippets cut from. */
export interface Passage { id: number; section: string | null; rn_from: number | null; rn_to: number | null; start_offset: number; text: string }

export class PageChunks {
  /** Whether a word's stem answers the query (termMatcher of the page's query groups). */
  readonly #isMatch: TermMatcher;
  readonly #byDecision = new Map<string, Passage[]>();
  readonly #matches = new Map<number, Token[]>();

  /** Reads the chunks of the decisions `ids` in one statement. */
  constructor(db: Database.Database, ids: string[], groups: TermGroup[]) {
    this.#isMatch = termMatcher(groups);
    for (const id of ids) this.#byDecision.set(id, []);
    // The texts come as bytes and are decoded by Buffer (simdutf): better-sqlite3's strings go through V8's UTF-8
    // decoder, which took a third of this statement's time for a page's 150 KB of German text (0.71 against 1.02 ms a page).
    const rows = sql<[string], Omit<Passage, 'text'> & { decision_id: string; bytes: Buffer }>(db, `
      SELECT decision_id, id, section, rn_from, rn_to, start_offset, CAST(text AS BLOB) AS bytes FROM chunks
      WHERE decision_id IN (SELECT value FROM json_each(?)) ORDER BY decision_id, position`).all(JSON.stringify(ids));
    for (const row of rows) {
      this.#byDecision.get(row.decision_id)!.push({
        id: row.id, section: row.section, rn_from: row.rn_from, rn_to: row.rn_to, start_offset: row.start_offset,
        text: row.bytes.toString('utf8'),
      });
    }
  }

  /** A decision's chunks in position order (none for a decision not on the page). */
  of(decisionId: string): Passage[] {
    return this.#byDecision.get(decisionId) ?? [];
  }

  /** The words of a chunk that answer the query, in order. */
  matches(passage: Passage): Token[] {
    let found = this.#matches.get(passage.id);
    if (!found) this.#matches.set(passage.id, found = wordsMatching(passage.text, this.#isMatch));
    return found;
  }
}
