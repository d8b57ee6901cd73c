import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { backendUnavailable, notFound, validationFailed } from '../errors.ts';
import { azKey } from './ids.ts';
import { decompressText } from './stored-text.ts';

/** A decision's row without its text: what finding it and a graph need (findDecisionHead). */
export interface DecisionHead {
  id: string;
  court: string;
  date: string | null;
  aktenzeichen: string | null;
  text_length: number;
  /** The decision's integer row (decision_rows), on which its sections, Randnummern, chunks and file numbers key. */
  decision_row: number;
}

export interface DecisionRow extends DecisionHead {
  ecli: string | null;
  document_type: string | null;
  title: string | null;
  chamber: string | null;
  norms: string | null;
  full_text: string;
  has_rn_anchors: number;
  rn_from: number | null;
  rn_to: number | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ECLI = /^ECLI:/i;

/** Whether `filter` names the court: equal, or a whole-word prefix of it ("OLG" matches "OLG München"). */
export function courtMatches(court: string, filter: string): boolean {
  const wanted = filter.replace(/\s+/g, ' ').trim().toLowerCase();
  const name = court.toLowerCase();
  return name === wanted || name.startsWith(`${wanted} `);
}

// The decision's row is read with it: its parts are then read by primary key, not through the views' UUID lookups.
const HEAD_COLUMNS = 'd.id, d.court, d.date, d.aktenzeichen, d.text_length, (SELECT row FROM decision_rows WHERE id = d.id) AS decision_row';
const COLUMNS = `${HEAD_COLUMNS}, d.ecli, d.document_type, d.title, d.chamber, d.norms, d.text_zstd, d.has_rn_anchors, d.rn_from, d.rn_to`;

type StoredRow = Omit<DecisionRow, 'full_text'> & { text_zstd: Buffer };

/** The row as readers take it: the text decompressed (only the one decision found pays for it). */
function withText({ text_zstd, ...row }: StoredRow): DecisionRow {
  return { ...row, full_text: decompressText(text_zstd) };
}

/**
 * Finds the one decision a caller names by UUID, ECLI or Aktenzeichen. `court` and `date` narrow an Aktenzeichen
 * and are ignored for UUIDs and ECLIs. None: 404. Several: 422 on `id`, naming the candidates.
 *
 * @example findDecision(corpus, 'VI ZR 496/18', { court: 'BGH' })
 */
export function findDecision(corpus: Database.Database, id: string, narrow: { court?: string; date?: string } = {}): DecisionRow {
  return withText(lookUp<StoredRow>(corpus, id, narrow, COLUMNS));
}

/** The one decision a caller names, as findDecision finds it, without its text (none is decompressed). */
export function findDecisionHead(corpus: Database.Database, id: string, narrow: { court?: string; date?: string } = {}): DecisionHead {
  return lookUp<DecisionHead>(corpus, id, narrow, HEAD_COLUMNS);
}

/** The UUID of the one decision a caller names, as findDecision finds it, without reading the decision's text. */
export function findDecisionId(corpus: Database.Database, id: string, narrow: { court?: string; date?: string } = {}): string {
  return lookUp<{ id: string; court: string; date: string | null }>(corpus, id, narrow, 'd.id, d.court, d.date').id;
}

function lookUp<Row extends { id: string; court: string; date: string | null }>(
  corpus: Database.Database, id: string, narrow: { court?: string; date?: string }, columns: string,
): Row {
  const ref = id.trim();
  if (UUID.test(ref)) {
    const row = sql<[string], Row>(corpus, `SELECT ${columns} FROM decisions d WHERE d.id = ?`).get(ref.toLowerCase());
    if (!row) throw notFound(`No decision with id ${ref}.`);
    return row;
  }
  if (ECLI.test(ref)) {
    const row = sql<[string], Row>(corpus, `SELECT ${columns} FROM decisions d WHERE d.ecli = ?`).get(ref.toUpperCase());
    if (!row) throw notFound(`No decision with ECLI ${ref}.`);
    return row;
  }
  // `+?`: the same plan, without SQLite preparing the join anew for each Aktenzeichen bound (40 -> 22 µs at 100k).
  const candidates = sql<[string], Row>(corpus,
    `SELECT DISTINCT ${columns} FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id
     WHERE f.az_key = +? ORDER BY d.date DESC, d.court`,
  ).all(azKey(ref)).filter((row) =>
    (!narrow.court || courtMatches(row.court, narrow.court)) && (!narrow.date || row.date === narrow.date));
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) {
    const narrowed = [narrow.court && `court ${narrow.court}`, narrow.date && `date ${narrow.date}`].filter(Boolean).join(', ');
    throw notFound(`No decision with Aktenzeichen ${ref}${narrowed ? ` (${narrowed})` : ''}.`);
  }
  const named = candidates.slice(0, 10).map((row) => `${row.court}, ${row.date ?? 'undated'} (id ${row.id})`);
  throw validationFailed({
    id: [`Aktenzeichen ${ref} is held by ${candidates.length} decisions; pass court and/or date: ${named.join('; ')}`],
  });
}

/**
 * Arguments naming one decision (`id`, narrowed by `court` and `date`) in their canonical form: the decision's UUID,
 * however it was named, and no court or date (they only served to find it).
 */
export function namedByUuid<T extends { id: string; court?: string; date?: string }>(corpus: Database.Database | null, args: T): T {
  return { ...args, id: findDecisionId(requireCorpus(corpus), args.id, args), court: undefined, date: undefined };
}

/** The open corpus, or 503 when the server has none (operations that read the corpus call this first). */
export function requireCorpus(corpus: Database.Database | null): Database.Database {
  if (!corpus) throw backendUnavailable('No corpus file is open on this server.');
  return corpus;
}
