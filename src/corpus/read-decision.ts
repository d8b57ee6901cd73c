import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { invalidArgument } from '../errors.ts';
import { sliceCodePoints } from '../text/code-points.ts';
import type { DecisionHead, DecisionRow } from './find-decision.ts';

export const FORTGELTUNG_NOTE = 'Not checked for continued validity: this decision may have been quashed or superseded, '
  + 'and the absence of a note is no evidence that it stands.';

/** The Fortgeltung fields every served decision carries (the contract's general rule 8). */
export const FORTGELTUNG = { fortgeltung_checked: false, fortgeltung_note: FORTGELTUNG_NOTE } as const;

interface Span { start: number; end: number; rn_from: number | null; rn_to: number | null; section: string | null }

export interface ReadRequest {
  max_chars: number;
  rn_from?: number;
  rn_to?: number;
  section?: string;
}

/** Names of the same section: a caller's 'Gründe' or 'Entscheidungsgründe' finds whichever the decision has. */
const REASONS = ['gründe', 'entscheidungsgründe'];

// The reader takes a decision's parts by its integer row (findDecision reads it with the decision): the views of
// schema 4 would look the UUID up again for each of them. `+?`: the same plan, without SQLite preparing the statement
// anew at every call (src/db/statements.ts; sections 18 -> 10 µs, file numbers 14 -> 8.5, a Randnummer range's
// chunks 28 -> 17 at 100k; bench/README "Session 22: `+?` in GET's statements").
function sectionsOf(corpus: Database.Database, decisionRow: number) {
  return sql<[number], { name: string; start_offset: number; end_offset: number }>(corpus,
    'SELECT name, start_offset, end_offset FROM row_sections WHERE decision_row = +? ORDER BY position',
  ).all(decisionRow);
}

type Section = ReturnType<typeof sectionsOf>[number];

function sectionSpan(sections: Section[], wanted: string): Span {
  const name = wanted.toLowerCase();
  // The name as asked first, then its synonym.
  const names = REASONS.includes(name) ? [name, ...REASONS.filter((other) => other !== name)] : [name];
  const section = names.map((name) => sections.find((candidate) => candidate.name.toLowerCase() === name)).find(Boolean);
  if (!section) {
    throw invalidArgument('section', `this decision has no section ${wanted}; available_sections: ${sections.map((s) => s.name).join(', ') || 'none'}`);
  }
  return { start: section.start_offset, end: section.end_offset, rn_from: null, rn_to: null, section: section.name };
}

/**
 * A read request of `decision` in its canonical form, so that two requests serving the same text are one paid
 * result: the section as the decision names it ("Gründe" may be its Entscheidungsgründe; a section it lacks is 422
 * here), max_chars no larger than the text.
 */
export function canonicalReadRequest<T extends ReadRequest>(corpus: Database.Database, decision: DecisionHead, request: T): T {
  if (request.section !== undefined && (request.rn_from !== undefined || request.rn_to !== undefined)) {
    // Which would win is a guess: a section and a Randnummer range name two different parts.
    throw invalidArgument('section', 'give a section or a Randnummer range (rn_from, rn_to), not both');
  }
  const section = request.section === undefined ? undefined
    : sectionSpan(sectionsOf(corpus, decision.decision_row), request.section).section!;
  return { ...request, section, max_chars: Math.min(request.max_chars, decision.text_length) };
}

/** Whole chunks overlapping [rn_from, rn_to]; an open end runs to the first or last Randnummer. */
function randnummerSpan(corpus: Database.Database, decision: DecisionRow, from?: number, to?: number): Span {
  if (!decision.has_rn_anchors) {
    throw invalidArgument(from !== undefined ? 'rn_from' : 'rn_to', 'this decision has no printed Randnummern (has_rn_anchors is false)');
  }
  const chunks = sql<[number, number, number], { start_offset: number; end_offset: number; rn_from: number; rn_to: number }>(corpus,
    `SELECT start_offset, end_offset, rn_from, rn_to FROM row_chunks
     WHERE decision_row = +? AND rn_from IS NOT NULL AND rn_to >= +? AND rn_from <= +? ORDER BY position`,
  ).all(decision.decision_row, from ?? 0, to ?? Number.MAX_SAFE_INTEGER);
  if (chunks.length === 0) {
    throw invalidArgument(from !== undefined ? 'rn_from' : 'rn_to',
      `no Randnummer in that range; this decision has Rn. ${decision.rn_from} to ${decision.rn_to}`);
  }
  const first = chunks[0];
  const last = chunks[chunks.length - 1];
  return { start: first.start_offset, end: last.end_offset, rn_from: first.rn_from, rn_to: last.rn_to, section: null };
}

/**
 * The Randnummern whose paragraphs the served text [start, end) reaches, the last one perhaps in part (truncated
 * says so); none when the cut falls before the first (in an unnumbered Leitsatz, say).
 */
function servedRandnummern(corpus: Database.Database, decisionRow: number, start: number, end: number) {
  return sql<[number, number, number], { rn_from: number | null; rn_to: number | null }>(corpus,
    `SELECT min(rn) AS rn_from, max(rn) AS rn_to FROM row_randnummern
     WHERE decision_row = ? AND start_offset < ? AND end_offset > ?`).get(decisionRow, end, start)!;
}

/**
 * A decision as the reading endpoint serves it: whole, by Randnummer range (whole chunks) or by section, cut at
 * max_chars code points.
 */
export function readDecision(corpus: Database.Database, decision: DecisionRow, request: ReadRequest) {
  const ranged = request.rn_from !== undefined || request.rn_to !== undefined;
  const sections = sectionsOf(corpus, decision.decision_row);
  const span: Span = request.section
    ? sectionSpan(sections, request.section)
    : ranged
      ? randnummerSpan(corpus, decision, request.rn_from, request.rn_to)
      : { start: 0, end: decision.text_length, rn_from: decision.rn_from, rn_to: decision.rn_to, section: null };
  const spanLength = span.end - span.start;
  const served = Math.min(spanLength, request.max_chars);
  const returned = served < spanLength && !span.section ? servedRandnummern(corpus, decision.decision_row, span.start, span.start + served) : span;
  const fullText = sliceCodePoints(decision.full_text, span.start, span.start + served);
  const fileNumbers = sql<[number], { aktenzeichen: string }>(corpus,
    'SELECT aktenzeichen FROM row_file_numbers WHERE decision_row = +? ORDER BY position',
  ).all(decision.decision_row).map((row) => row.aktenzeichen);
  const printed = decision.has_rn_anchors === 1;
  return {
    id: decision.id,
    aktenzeichen: decision.aktenzeichen ?? fileNumbers[0] ?? '',
    court: decision.court,
    date: decision.date,
    jurisdiction: 'DE',
    metadata: {
      document_type: decision.document_type ?? 'Sonstige',
      ecli: decision.ecli,
      file_numbers: fileNumbers,
      chamber: decision.chamber,
      title: decision.title,
      norms: decision.norms,
    },
    ...FORTGELTUNG,
    full_text: fullText,
    text_length: decision.text_length,
    truncated: served < spanLength,
    rn_source: printed ? 'printed' : 'none',
    rn_source_note: printed
      ? 'Randnummern as printed by the court.'
      : 'The source prints no Randnummern; juralite never invents them.',
    available_sections: sections.map((section) => section.name),
    available_range: { rn_from: decision.rn_from, rn_to: decision.rn_to, rn_source: printed ? 'printed' : 'none' },
    available_range_scope: 'decision',
    has_rn_anchors: printed,
    returned_range: { rn_from: returned.rn_from, rn_to: returned.rn_to, section: span.section, chars: served },
  };
}
