// A result page's decisions read once: their rows, their chunks and their texts, by the decisions' integer rows
// (schema 4) after one lookup of the page's UUIDs (the views chunks and decision_randnummern would look each UUID up
// again per statement). The passage choice and the snippets both work on the chunks, and the query's words found in
// a chunk are found once for both.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { withTexts } from '../corpus/stored-text.ts';
import { pageTexts } from './page-texts.ts';
import type { Token } from './analyze.ts';
import { termMatcher, type TermGroup, type TermMatcher } from './query.ts';
import { wordsMatching } from './snippets.ts';

/** A decision's chunk as passages are chosen among and snippets cut from. */
export interface Passage { id: number; section: string | null; rn_from: number | null; rn_to: number | null; start_offset: number; text: string }

/** A page decision's columns as its result item shows them, and its integer row. */
export interface PageDecision {
  id: string;
  row: number;
  aktenzeichen: string | null;
  court: string;
  date: string | null;
  document_kind: string | null;
  title: string | null;
}

export class PageChunks {
  /** Whether a word's stem answers the query (termMatcher of the page's query groups). */
  readonly #isMatch: TermMatcher;
  readonly #decisions = new Map<string, PageDecision>();
  readonly #byDecision = new Map<string, Passage[]>();
  readonly #matches = new Map<number, Token[]>();

  /** Reads the decisions `ids` (a UUID naming none is left out), then their chunks by row, in one statement each. */
  constructor(db: Database.Database, ids: string[], groups: TermGroup[]) {
    this.#isMatch = termMatcher(groups);
    const decisions = sql<[string], PageDecision>(db, `SELECT d.id, r.row, d.aktenzeichen, d.court, d.date, d.document_kind, d.title
      FROM decisions d JOIN decision_rows r ON r.id = d.id WHERE d.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids));
    const idOfRow = new Map<number, string>();
    for (const decision of decisions) {
      this.#decisions.set(decision.id, decision);
      idOfRow.set(decision.row, decision.id);
    }
    // A chunk's text is cut from its decision's text (held once, compressed: src/corpus/stored-text.ts).
    const rows = sql<[string], Omit<Passage, 'text'> & { decision_row: number; end_offset: number }>(db, `
      SELECT decision_row, id, section, rn_from, rn_to, start_offset, end_offset FROM row_chunks
      WHERE decision_row IN (SELECT value FROM json_each(?)) ORDER BY decision_row, position`)
      .all(JSON.stringify([...idOfRow.keys()]));
    // Each decision's text decompressed once, or kept from an earlier page (src/search/page-texts.ts).
    const texts = pageTexts(db, ids.filter((id) => this.#decisions.has(id)));
    const spans = new Map<string, typeof rows>();
    for (const row of rows) {
      const decisionId = idOfRow.get(row.decision_row)!;
      let list = spans.get(decisionId);
      if (!list) spans.set(decisionId, list = []);
      list.push(row);
    }
    for (const [decisionId, list] of spans) {
      this.#byDecision.set(decisionId, withTexts(texts.get(decisionId) ?? '', list).map((row) => ({
        id: row.id, section: row.section, rn_from: row.rn_from, rn_to: row.rn_to, start_offset: row.start_offset, text: row.text,
      })));
    }
  }

  /** A page decision's columns and row (undefined for a decision not on the page or not in the corpus). */
  decision(decisionId: string): PageDecision | undefined {
    return this.#decisions.get(decisionId);
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
