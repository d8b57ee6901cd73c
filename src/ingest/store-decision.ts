// Writes one prepared decision (row, file numbers, sections, Randnummern, chunks, norms, citation edges) into the
// corpus, keeping the id a document was first given.
import type { CorpusDb } from '../corpus/open.ts';
import { decisionId } from '../corpus/ids.ts';
import { upsertCourt } from '../corpus/seed.ts';
import type { WriteOutcome } from '../corpus/law-store.ts';
import { encodePageParts } from '../corpus/page-parts.ts';
import { sql } from '../db/statements.ts';
import { writeEdges } from '../graph/edges.ts';
import { timed } from './import-profile.ts';
import type { PreparedDecision } from './prepare-decision.ts';

export interface WriteDecisionResult {
  outcome: WriteOutcome;
  id: string;
}

interface Existing { id: string; doknr: string | null; ecli: string | null; content_hash: string }

/**
 * The decision (lowest row first) of a court and day whose first Aktenzeichen has the key (az_key, court, date). From
 * the Aktenzeichen's index, court and day tested on the covering decision index, so only a match reads its row: by
 * court and day first, the planner read every decision row of that court and day (text inline), which grew with the
 * corpus (0.7 ms a decision at 100k, 3.6 times the figure at 10k; bench/README.md, "Session 18").
 */
export const HELD_BY_AZ_SQL = `
  SELECT d.id, d.doknr, d.ecli, d.content_hash
  FROM row_file_numbers f JOIN decision_rows r ON r.row = f.decision_row
  JOIN decisions d INDEXED BY search_decision_filters ON d.id = r.id
  WHERE f.az_key = ? AND f.position = 0 AND d.court = ? AND d.date = ?
  ORDER BY d.rowid LIMIT 1`;

function findExisting(db: CorpusDb, row: PreparedDecision['row'], azKeys: string[]): Existing | undefined {
  const cols = 'id, doknr, ecli, content_hash';
  if (row.doknr) {
    const held = sql(db, `SELECT ${cols} FROM decisions WHERE doknr = ?`).get(row.doknr) as Existing | undefined;
    if (held) return held;
  }
  if (row.ecli) {
    const held = sql(db, `SELECT ${cols} FROM decisions WHERE ecli = ?`).get(row.ecli) as Existing | undefined;
    if (held && (!row.doknr || !held.doknr)) return held;
  }
  if (azKeys.length > 0 && row.date) {
    const held = sql(db, HELD_BY_AZ_SQL).get(azKeys[0], row.court, row.date) as Existing | undefined;
    // Another document of the same court, day and Aktenzeichen only when no identifier tells them apart.
    if (held && (!held.doknr || !row.doknr) && (!held.ecli || !row.ecli || held.ecli === row.ecli)) return held;
  }
  return undefined;
}

/**
 * Inserts or updates a decision; unchanged content is skipped. Must run inside a transaction (the caller batches);
 * throws when the decision collides with another document's identifiers.
 */
export function writeDecision(db: CorpusDb, prepared: PreparedDecision, importedAt: string): WriteDecisionResult {
  const { row, azKeys } = prepared;
  const existing = timed('decision: find held', () => findExisting(db, row, azKeys));
  if (existing && existing.content_hash === row.content_hash) return { outcome: 'skipped', id: existing.id };
  const id = existing?.id ?? decisionId({
    doknr: row.doknr, ecli: row.ecli, court: row.court, date: row.date, aktenzeichen: row.aktenzeichen,
  });
  timed('decision: find held', () => refuseHeldIdentifiers(db, row, id));
  // The chunks' ids are chosen here, as SQLite would choose them (after the largest), so that the row can hold its
  // chunks packed for result pages when it is written (src/corpus/page-parts.ts): no second write of the row.
  const chunkIds = nextChunkIds(db, prepared.text.chunks.length);
  const decisionRow = timed('decision: row', () => writeRow(db, prepared, id, importedAt, chunkIds));
  if (existing) timed('decision: parts', () => deleteParts(db, decisionRow));
  timed('decision: parts', () => writeParts(db, prepared, decisionRow, chunkIds));
  writeEdges(db, id, prepared.edges);
  return { outcome: existing ? 'updated' : 'imported', id };
}

/** Throws when the decision's doknr or ECLI is held by another decision. */
function refuseHeldIdentifiers(db: CorpusDb, row: PreparedDecision['row'], id: string): void {
  for (const [column, value] of [['doknr', row.doknr], ['ecli', row.ecli]] as const) {
    if (!value) continue;
    const holder = sql(db, `SELECT id FROM decisions WHERE ${column} = ?`).get(value) as { id: string } | undefined;
    if (holder && holder.id !== id) throw new Error(`${column} ${value} is already held by decision ${holder.id}`);
  }
}

/** Ids for `count` new chunks: after the largest held (the ids of a decision's chunks follow one another). */
function nextChunkIds(db: CorpusDb, count: number): number[] {
  const largest = sql<[], { id: number | null }>(db, 'SELECT max(id) AS id FROM row_chunks').get()!.id ?? 0;
  return Array.from({ length: count }, (_, i) => largest + 1 + i);
}

/** The decision's chunks and Randnummern as its row packs them, the chunks with the ids they are written with. */
function pageParts(prepared: PreparedDecision, chunkIds: number[]): Buffer {
  const { text, row } = prepared;
  return encodePageParts(row.content_hash, {
    chunks: text.chunks.map((c, i) => ({ id: chunkIds[i], section: c.section, rn_from: c.rn_from, rn_to: c.rn_to, start_offset: c.start, end_offset: c.end })),
    randnummern: text.randnummern.map((r) => ({ rn: r.rn, start_offset: r.start, end_offset: r.end })),
  });
}

/** Writes the decision's row (and its court); returns its integer row. */
function writeRow(db: CorpusDb, prepared: PreparedDecision, id: string, importedAt: string, chunkIds: number[]): number {
  const { row, court } = prepared;
  upsertCourt(db, court);
  sql(db, `
    INSERT INTO decisions (id, doknr, ecli, court, court_raw, chamber, date, aktenzeichen, document_type, document_kind,
      title, leitsatz, norms, text_zstd, text_length, has_rn_anchors, rn_from, rn_to, source_format, source_name,
      content_hash, imported_at, page_parts)
    VALUES (@id, @doknr, @ecli, @court, @court_raw, @chamber, @date, @aktenzeichen, @document_type, @document_kind,
      @title, @leitsatz, @norms, @text_zstd, @text_length, @has_rn_anchors, @rn_from, @rn_to, @source_format,
      @source_name, @content_hash, @imported_at, @page_parts)
    ON CONFLICT(id) DO UPDATE SET doknr = excluded.doknr, ecli = excluded.ecli, court = excluded.court,
      court_raw = excluded.court_raw, chamber = excluded.chamber, date = excluded.date,
      aktenzeichen = excluded.aktenzeichen, document_type = excluded.document_type,
      document_kind = excluded.document_kind, title = excluded.title, leitsatz = excluded.leitsatz,
      norms = excluded.norms, text_zstd = excluded.text_zstd, text_length = excluded.text_length,
      has_rn_anchors = excluded.has_rn_anchors, rn_from = excluded.rn_from, rn_to = excluded.rn_to,
      source_format = excluded.source_format, source_name = excluded.source_name,
      content_hash = excluded.content_hash, imported_at = excluded.imported_at, page_parts = excluded.page_parts
  `).run({ ...row, id, imported_at: importedAt, page_parts: pageParts(prepared, chunkIds) });

  // The decision's parts are written on its integer row (schema 4), which the insert above gave it.
  return sql<[string], { row: number }>(db, 'SELECT row FROM decision_rows WHERE id = ?').get(id)!.row;
}

/** Deletes the parts and edges of a decision written before (it is written anew). */
function deleteParts(db: CorpusDb, decisionRow: number): void {
  for (const table of ['row_file_numbers', 'row_sections', 'row_randnummern', 'row_chunks', 'row_norms']) {
    sql(db, `DELETE FROM ${table} WHERE decision_row = ?`).run(decisionRow);
  }
  // Edges found in the old text point at old Randnummern: written anew.
  sql(db, 'DELETE FROM citation_links WHERE from_row = ?').run(decisionRow);
}

/** Writes a decision's file numbers, sections, Randnummern, chunks (with the ids its row packs) and norms on its row. */
function writeParts(db: CorpusDb, prepared: PreparedDecision, decisionRow: number, chunkIds: number[]): void {
  const { fileNumbers, azKeys, text, norms } = prepared;
  const insFile = sql(db, 'INSERT INTO row_file_numbers (decision_row, position, aktenzeichen, az_key) VALUES (?, ?, ?, ?)');
  fileNumbers.forEach((f, i) => insFile.run(decisionRow, i, f, azKeys[i]));
  const insSection = sql(db, 'INSERT INTO row_sections (decision_row, position, name, start_offset, end_offset) VALUES (?, ?, ?, ?, ?)');
  text.sections.forEach((s, i) => insSection.run(decisionRow, i, s.name, s.start, s.end));
  const insRn = sql(db, 'INSERT INTO row_randnummern (decision_row, position, rn, start_offset, end_offset) VALUES (?, ?, ?, ?, ?)');
  text.randnummern.forEach((r, i) => insRn.run(decisionRow, i, r.rn, r.start, r.end));
  const insChunk = sql(db, `INSERT INTO row_chunks (id, decision_row, position, section, rn_from, rn_to, start_offset, end_offset)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  text.chunks.forEach((c, i) => insChunk.run(chunkIds[i], decisionRow, c.position, c.section, c.rn_from, c.rn_to, c.start, c.end));
  const insNorm = sql(db, 'INSERT INTO row_norms (decision_row, position, norm, law, unit) VALUES (?, ?, ?, ?, ?)');
  norms.forEach((n, i) => insNorm.run(decisionRow, i, n.norm, n.law, n.unit));
}
