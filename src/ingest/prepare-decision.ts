// Everything about writing a decision that needs no corpus: the court, the text with its sections, Randnummern and
// chunks, the Normenkette, the content hash and the citation edges the text states. Pure, so the importer runs it in
// worker threads (src/ingest/prepare-pool.ts) while the main thread writes.
import { createHash } from 'node:crypto';
import { azKey } from '../corpus/ids.ts';
import { courtFromEcli, resolveCourt, type ResolvedCourt } from '../corpus/courts.ts';
import { parseNormenkette, type ParsedNorm } from '../corpus/norms.ts';
import { compressText } from '../corpus/stored-text.ts';
import { findEdgeCandidates, type EdgeCandidate } from '../graph/edges.ts';
import { buildDecisionText, type BuiltDecisionText } from './decision-text.ts';
import { documentKind, type DecisionRecord } from './decision-record.ts';

/**
 * The `decisions` columns as written (find-decision.ts reads its own projection), less the id (kept from an earlier
 * import) and the import's time.
 */
export interface DecisionColumns {
  doknr: string | null;
  ecli: string | null;
  court: string;
  court_raw: string | null;
  chamber: string | null;
  date: string | null;
  aktenzeichen: string | null;
  document_type: string | null;
  document_kind: string | null;
  title: string | null;
  leitsatz: string | null;
  norms: string | null;
  /** The text as written (hashed, searched for citations); stored only compressed, as text_zstd. */
  full_text: string;
  text_zstd: Buffer;
  text_length: number;
  has_rn_anchors: number;
  rn_from: number | null;
  rn_to: number | null;
  source_format: string;
  source_name: string;
  content_hash: string;
}

export interface PreparedDecision {
  row: DecisionColumns;
  court: ResolvedCourt;
  fileNumbers: string[];
  azKeys: string[];
  text: BuiltDecisionText;
  norms: ParsedNorm[];
  edges: EdgeCandidate[];
}

/** Prepares a parsed decision for writing; throws when it holds no text. */
export function prepareDecision(input: DecisionRecord): PreparedDecision {
  // ECLIs are case-insensitive; juralite holds and compares them in upper case.
  const ecli = input.ecli?.trim().toUpperCase() || null;
  const doknr = input.doknr?.trim() || null;
  let court = resolveCourt(input.courtRaw);
  if (court.branch === 'unbekannt' && ecli) {
    const fromEcli = courtFromEcli(ecli);
    if (fromEcli) court = { ...fromEcli, chamber: court.chamber };
  }
  const chamber = input.chamber?.replace(/[\s\u00a0]+/gu, ' ').trim() || court.chamber;
  const fileNumbers = input.fileNumbers.map((f) => f.replace(/[\s\u00a0\u202f]+/gu, ' ').trim()).filter(Boolean);
  const azKeys = fileNumbers.map(azKey);
  const text = buildDecisionText(input.sections);
  if (text.textLength === 0) throw new Error('no decision text');
  const norms = parseNormenkette(input.norms);
  const leitsatz = input.sections
    .filter((s) => s.name === 'Leitsatz')
    .flatMap((s) => s.blocks.map((b) => b.text))
    .join('\n') || null;
  const hashed = {
    doknr, ecli, court: court.code, court_raw: input.courtRaw || null, chamber: chamber || null, date: input.date,
    aktenzeichen: fileNumbers[0] ?? null, document_type: input.documentType, document_kind: documentKind(input.documentType),
    title: input.title, leitsatz, norms: input.norms, full_text: text.fullText, text_length: text.textLength,
    has_rn_anchors: text.hasRnAnchors ? 1 : 0, rn_from: text.rnFrom, rn_to: text.rnTo, source_format: input.sourceFormat,
  };
  // The hash covers what is written (not where it came from): an unchanged decision re-imported is skipped.
  const contentHash = createHash('sha256').update(JSON.stringify([hashed, fileNumbers, court])).digest('hex');
  const edges = findEdgeCandidates({
    court: court.code, ecli, azKeys, fullText: text.fullText, randnummern: text.randnummern, norms,
  });
  return {
    row: { ...hashed, text_zstd: compressText(text.fullText), source_name: input.sourceName, content_hash: contentHash },
    court, fileNumbers, azKeys, text, norms, edges,
  };
}
