// The chunks of a result page's decisions, read once: the passage choice and the snippets both work on them, and
// the query's words found in a chunk are found once for both.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { withTexts } from '../corpus/stored-text.ts';
import { pageTexts } from './page-texts.ts';
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
    // A chunk's text is cut from its decision's text (held once, compressed: src/corpus/stored-text.ts).
    const rows = sql<[string], Omit<Passage, 'text'> & { decision_id: string; end_offset: number }>(db, `
      SELECT decision_id, id, section, rn_from, rn_to, start_offset, end_offset FROM chunks
      WHERE decision_id IN (SELECT value FROM json_each(?)) ORDER BY decision_id, position`).all(JSON.stringify(ids));
    // Each decision's text decompressed once, or kept from an earlier page (src/search/page-texts.ts).
    const texts = pageTexts(db, ids);
    const spans = new Map<string, typeof rows>();
    for (const row of rows) {
      let list = spans.get(row.decision_id);
      if (!list) spans.set(row.decision_id, list = []);
      list.push(row);
    }
    for (const [decisionId, list] of spans) {
      const cut = withTexts(texts.get(decisionId) ?? '', list);
      this.#byDecision.get(decisionId)!.push(...cut.map((row) => ({
        id: row.id, section: row.section, rn_from: row.rn_from, rn_to: row.rn_to, start_offset: row.start_offset, text: row.text,
      })));
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
