// A result page's decisions read once, in one statement: their rows, their stored texts and their chunks and printed
// Randnummern packed in the row (decisions.page_parts, src/corpus/page-parts.ts; Session 19). A decision whose parts
// are not packed (a file older than the column, opened read-only, or a decision written again by an older juralite)
// has them read from row_chunks and row_randnummern by its integer row, as before. The passage choice and the snippets
// both work on the chunks, and the query's words found in a chunk are found once for both.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { decodePageParts, hasPageParts, type PartRandnummer } from '../corpus/page-parts.ts';
import { textCutter } from '../corpus/stored-text.ts';
import { codePointLength } from '../text/code-points.ts';
import { pageTextStore } from './page-texts.ts';
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

/** A printed paragraph (Randnummer) of a decision: its number and its span of the text (code points). */
export type Paragraph = PartRandnummer;

type ChunkRow = Omit<Passage, 'text'> & { end_offset: number };
/**
 * A page decision's row as its statement reads it: `stored` is its packed parts (`parts_bytes` of them; none where
 * NULL) followed by its stored text, the text left out where the connection keeps it decompressed (one blob a row,
 * none read for nothing: each is a Buffer of its own).
 */
type DecisionRow = PageDecision & { stored: Buffer; text_length: number; content_hash?: string; parts_bytes?: number | null };

const COLUMNS = 'd.id, r.row, d.aktenzeichen, d.court, d.date, d.document_kind, d.title, d.text_length';
/** The stored text of a decision whose text is not kept (@kept: the ids whose texts are kept), else an empty blob. */
const TEXT_UNLESS_KEPT = "iif(d.id IN (SELECT value FROM json_each(@kept)), x'', d.text_zstd)";
const FROM = 'FROM decisions d JOIN decision_rows r ON r.id = d.id WHERE d.id IN (SELECT value FROM json_each(@ids))';

export class PageChunks {
  /** Whether a word's stem answers the query (termMatcher of the page's query groups). */
  readonly #isMatch: TermMatcher;
  readonly #db: Database.Database;
  readonly #decisions = new Map<string, PageDecision>();
  readonly #byDecision = new Map<string, Passage[]>();
  readonly #paragraphs = new Map<number, Paragraph[]>();
  /** Decision rows whose parts were not packed: their Randnummern are read from the table when first asked for. */
  readonly #unpacked: number[] = [];
  readonly #matches = new Map<number, Token[]>();
  /** The chunks of texts holding surrogate pairs (their UTF-16 indexes are not their code point offsets). */
  readonly #paired = new Set<Passage>();

  /**
   * Reads the decisions `ids` (a UUID naming none is left out) with their stored texts and packed parts in one
   * statement; the chunks of a decision without packed parts in a second one (by row). A text kept from an earlier
   * page is neither read nor decompressed again (page-texts.ts).
   */
  constructor(db: Database.Database, ids: string[], groups: TermGroup[]) {
    this.#db = db;
    this.#isMatch = termMatcher(groups);
    const store = pageTextStore(db);
    const texts = store.kept(ids);
    const packed = hasPageParts(db);
    const decisions = sql<[{ ids: string; kept: string }], DecisionRow>(db, packed
      ? `SELECT ${COLUMNS}, d.content_hash, length(d.page_parts) AS parts_bytes,
          CAST(coalesce(d.page_parts, x'') || ${TEXT_UNLESS_KEPT} AS BLOB) AS stored ${FROM}`
      : `SELECT ${COLUMNS}, ${TEXT_UNLESS_KEPT} AS stored ${FROM}`).all({ ids: JSON.stringify(ids), kept: JSON.stringify([...texts.keys()]) });
    const chunksOf = new Map<string, ChunkRow[]>();
    const codePointsOf = new Map<string, number>();
    const idOfRow = new Map<number, string>();
    for (const row of decisions) {
      const { id, stored, content_hash: hash } = row;
      const partsBytes = row.parts_bytes ?? 0;
      this.#decisions.set(id, { id, row: row.row, aktenzeichen: row.aktenzeichen, court: row.court, date: row.date,
        document_kind: row.document_kind, title: row.title });
      if (!texts.has(id)) texts.set(id, store.read(id, stored.subarray(partsBytes)));
      codePointsOf.set(id, row.text_length);
      const unpacked = hash === undefined ? undefined
        : decodePageParts(row.parts_bytes == null ? null : stored.subarray(0, partsBytes), hash);
      if (unpacked) {
        chunksOf.set(id, unpacked.chunks);
        this.#paragraphs.set(row.row, unpacked.randnummern);
      } else {
        idOfRow.set(row.row, id);
        this.#unpacked.push(row.row);
      }
    }
    if (idOfRow.size > 0) {
      const rows = sql<[string], ChunkRow & { decision_row: number }>(db, `
        SELECT decision_row, id, section, rn_from, rn_to, start_offset, end_offset FROM row_chunks
        WHERE decision_row IN (SELECT value FROM json_each(?)) ORDER BY decision_row, position`)
        .all(JSON.stringify([...idOfRow.keys()]));
      for (const { decision_row: row, ...chunk } of rows) {
        const decisionId = idOfRow.get(row)!;
        let list = chunksOf.get(decisionId);
        if (!list) chunksOf.set(decisionId, list = []);
        list.push(chunk);
      }
    }
    for (const [decisionId, list] of chunksOf) {
      if (list.length === 0) continue;
      // A chunk's text is cut from its decision's text (held once, compressed: src/corpus/stored-text.ts); its length
      // in code points spares a search of the text for surrogate pairs (15-45 µs a real two-byte text, Session 25).
      const text = texts.get(decisionId) ?? '';
      const codePoints = codePointsOf.get(decisionId);
      const cut = textCutter(text, codePoints);
      const passages = list.map((row) => ({
        id: row.id, section: row.section, rn_from: row.rn_from, rn_to: row.rn_to, start_offset: row.start_offset,
        text: cut(row.start_offset, row.end_offset),
      }));
      this.#byDecision.set(decisionId, passages);
      if (codePoints !== text.length) for (const passage of passages) this.#paired.add(passage);
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

  /** The printed paragraphs of a page decision, by its row, in position order (none where it prints none). */
  paragraphs(decisionRow: number): Paragraph[] {
    if (this.#unpacked.length > 0) {
      // Those of every decision without packed parts, in one statement, the first time any is asked for.
      const rows = sql<[string], Paragraph & { decision_row: number }>(this.#db, `SELECT decision_row, rn, start_offset, end_offset
        FROM row_randnummern WHERE decision_row IN (SELECT value FROM json_each(?)) ORDER BY decision_row, position`)
        .all(JSON.stringify(this.#unpacked.splice(0)));
      for (const { decision_row: row, ...paragraph } of rows) {
        let list = this.#paragraphs.get(row);
        if (!list) this.#paragraphs.set(row, list = []);
        list.push(paragraph);
      }
    }
    return this.#paragraphs.get(decisionRow) ?? [];
  }

  /**
   * The code point offset of UTF-16 index `index` of a page chunk's text: the index itself where its decision's text
   * holds no surrogate pair (text_length), else counted.
   */
  codePointsTo(passage: Passage, index: number): number {
    return this.#paired.has(passage) ? codePointLength(passage.text.slice(0, index)) : index;
  }

  /** The words of a chunk that answer the query, in order. */
  matches(passage: Passage): Token[] {
    let found = this.#matches.get(passage.id);
    if (!found) this.#matches.set(passage.id, found = wordsMatching(passage.text, this.#isMatch));
    return found;
  }
}
