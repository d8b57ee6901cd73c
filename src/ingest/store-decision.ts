// Writes one decision (row, file numbers, sections, Randnummern, chunks, norms, citation edges) into the corpus, keeping the id a
// document was first given.
import { createHash } from 'node:crypto';
import type { CorpusDb } from '../corpus/open.ts';
import { azKey, decisionId } from '../corpus/ids.ts';
import { courtFromEcli, resolveCourt } from '../corpus/courts.ts';
import { upsertCourt } from '../corpus/seed.ts';
import { parseNormenkette } from '../corpus/norms.ts';
import type { WriteOutcome } from '../corpus/law-store.ts';
import { buildDecisionText } from './decision-text.ts';
import { documentKind, type DecisionRecord } from './decision-record.ts';
import { sql } from '../db/statements.ts';
import { writeCitationEdges } from '../graph/edges.ts';

export interface WriteDecisionResult {
  outcome: WriteOutcome;
  id: string;
}

interface Existing { id: string; doknr: string | null; ecli: string | null; content_hash: string }

function findExisting(db: CorpusDb, rec: DecisionRecord, court: string, azKeys: string[]): Existing | undefined {
  const cols = 'id, doknr, ecli, content_hash';
  if (rec.doknr) {
    const row = sql(db, `SELECT ${cols} FROM decisions WHERE doknr = ?`).get(rec.doknr) as Existing | undefined;
    if (row) return row;
  }
  if (rec.ecli) {
    const row = sql(db, `SELECT ${cols} FROM decisions WHERE ecli = ?`).get(rec.ecli) as Existing | undefined;
    if (row && (!rec.doknr || !row.doknr)) return row;
  }
  if (azKeys.length > 0 && rec.date) {
    const row = sql(db, `
      SELECT d.id, d.doknr, d.ecli, d.content_hash FROM decisions d
      JOIN decision_file_numbers f ON f.decision_id = d.id AND f.position = 0
      WHERE d.court = ? AND d.date = ? AND f.az_key = ?`).get(court, rec.date, azKeys[0]) as Existing | undefined;
    // Another document of the same court, day and Aktenzeichen only when no identifier tells them apart.
    if (row && (!row.doknr || !rec.doknr) && (!row.ecli || !rec.ecli || row.ecli === rec.ecli)) return row;
  }
  return undefined;
}

/**
 * Inserts or updates a decision; unchanged content is skipped. Must run inside a transaction (the caller batches);
 * throws when the record holds no text or collides with another document's identifiers.
 */
export function writeDecision(db: CorpusDb, input: DecisionRecord, importedAt: string): WriteDecisionResult {
  // ECLIs are case-insensitive; juralite holds and compares them in upper case.
  const rec = { ...input, ecli: input.ecli?.trim().toUpperCase() || null, doknr: input.doknr?.trim() || null };
  let court = resolveCourt(rec.courtRaw);
  if (court.branch === 'unbekannt' && rec.ecli) {
    const fromEcli = courtFromEcli(rec.ecli);
    if (fromEcli) court = { ...fromEcli, chamber: court.chamber };
  }
  const chamber = rec.chamber?.replace(/[\s\u00a0]+/gu, ' ').trim() || court.chamber;
  const fileNumbers = rec.fileNumbers.map((f) => f.replace(/[\s\u00a0\u202f]+/gu, ' ').trim()).filter(Boolean);
  const azKeys = fileNumbers.map(azKey);
  const text = buildDecisionText(rec.sections);
  if (text.textLength === 0) throw new Error('no decision text');
  const norms = parseNormenkette(rec.norms);
  const leitsatz = rec.sections
    .filter((s) => s.name === 'Leitsatz')
    .flatMap((s) => s.blocks.map((b) => b.text))
    .join('\n') || null;

  const row = {
    doknr: rec.doknr,
    ecli: rec.ecli,
    court: court.code,
    court_raw: rec.courtRaw || null,
    chamber: chamber || null,
    date: rec.date,
    aktenzeichen: fileNumbers[0] ?? null,
    document_type: rec.documentType,
    document_kind: documentKind(rec.documentType),
    title: rec.title,
    leitsatz,
    norms: rec.norms,
    full_text: text.fullText,
    text_length: text.textLength,
    has_rn_anchors: text.hasRnAnchors ? 1 : 0,
    rn_from: text.rnFrom,
    rn_to: text.rnTo,
    source_format: rec.sourceFormat,
  };
  const contentHash = createHash('sha256').update(JSON.stringify([row, fileNumbers, court])).digest('hex');

  const existing = findExisting(db, rec, court.code, azKeys);
  if (existing && existing.content_hash === contentHash) return { outcome: 'skipped', id: existing.id };
  const id = existing?.id ?? decisionId({
    doknr: rec.doknr, ecli: rec.ecli, court: court.code, date: rec.date, aktenzeichen: fileNumbers[0] ?? null,
  });
  for (const [column, value] of [['doknr', rec.doknr], ['ecli', rec.ecli]] as const) {
    if (!value) continue;
    const holder = sql(db, `SELECT id FROM decisions WHERE ${column} = ?`).get(value) as { id: string } | undefined;
    if (holder && holder.id !== id) throw new Error(`${column} ${value} is already held by decision ${holder.id}`);
  }

  upsertCourt(db, court);
  sql(db, `
    INSERT INTO decisions (id, doknr, ecli, court, court_raw, chamber, date, aktenzeichen, document_type, document_kind,
      title, leitsatz, norms, full_text, text_length, has_rn_anchors, rn_from, rn_to, source_format, source_name,
      content_hash, imported_at)
    VALUES (@id, @doknr, @ecli, @court, @court_raw, @chamber, @date, @aktenzeichen, @document_type, @document_kind,
      @title, @leitsatz, @norms, @full_text, @text_length, @has_rn_anchors, @rn_from, @rn_to, @source_format,
      @source_name, @content_hash, @imported_at)
    ON CONFLICT(id) DO UPDATE SET doknr = excluded.doknr, ecli = excluded.ecli, court = excluded.court,
      court_raw = excluded.court_raw, chamber = excluded.chamber, date = excluded.date,
      aktenzeichen = excluded.aktenzeichen, document_type = excluded.document_type,
      document_kind = excluded.document_kind, title = excluded.title, leitsatz = excluded.leitsatz,
      norms = excluded.norms, full_text = excluded.full_text, text_length = excluded.text_length,
      has_rn_anchors = excluded.has_rn_anchors, rn_from = excluded.rn_from, rn_to = excluded.rn_to,
      source_format = excluded.source_format, source_name = excluded.source_name,
      content_hash = excluded.content_hash, imported_at = excluded.imported_at
  `).run({ ...row, id, source_name: rec.sourceName, content_hash: contentHash, imported_at: importedAt });

  for (const table of ['decision_file_numbers', 'decision_sections', 'decision_randnummern', 'chunks', 'decision_norms']) {
    sql(db, `DELETE FROM ${table} WHERE decision_id = ?`).run(id);
  }
  // Edges found in the old text point at old Randnummern: written anew below.
  sql(db, 'DELETE FROM citation_edges WHERE from_decision_id = ?').run(id);

  const insFile = sql(db, 'INSERT INTO decision_file_numbers (decision_id, position, aktenzeichen, az_key) VALUES (?, ?, ?, ?)');
  fileNumbers.forEach((f, i) => insFile.run(id, i, f, azKeys[i]));
  const insSection = sql(db, 'INSERT INTO decision_sections (decision_id, position, name, start_offset, end_offset) VALUES (?, ?, ?, ?, ?)');
  text.sections.forEach((s, i) => insSection.run(id, i, s.name, s.start, s.end));
  const insRn = sql(db, 'INSERT INTO decision_randnummern (decision_id, position, rn, start_offset, end_offset) VALUES (?, ?, ?, ?, ?)');
  text.randnummern.forEach((r, i) => insRn.run(id, i, r.rn, r.start, r.end));
  const insChunk = sql(db, `INSERT INTO chunks (decision_id, position, section, rn_from, rn_to, start_offset, end_offset, text)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const c of text.chunks) insChunk.run(id, c.position, c.section, c.rn_from, c.rn_to, c.start, c.end, c.text);
  const insNorm = sql(db, 'INSERT INTO decision_norms (decision_id, position, norm, law, unit) VALUES (?, ?, ?, ?, ?)');
  norms.forEach((n, i) => insNorm.run(id, i, n.norm, n.law, n.unit));
  writeCitationEdges(db, {
    id, court: court.code, ecli: rec.ecli, azKeys, fullText: text.fullText, randnummern: text.randnummern, norms,
  });

  return { outcome: existing ? 'updated' : 'imported', id };
}
