// Uploads in the state database (schema/state.sql, table `uploads`). Every change of state is one statement or one
// IMMEDIATE transaction; files are deleted only after the row that named them no longer does.
import { rm } from 'node:fs/promises';
import type { StateDb } from '../accounts/state-db.ts';
import { inWriteTransaction } from '../accounts/state-db.ts';
import { sql } from '../db/statements.ts';
import { checkPrice } from '../operations/check-citations.ts';
import type { ExtractionErrorCode, ExtractionOutcome } from './extract/extract-document.ts';
import type { UploadFormat } from './formats.ts';
import { fileProblem } from './inspect.ts';

export type UploadStatus = 'uploaded' | 'ready' | 'failed' | 'consumed' | 'expired';

export interface UploadRow {
  id: string;
  organization_id: string;
  filename: string;
  format: UploadFormat;
  status: UploadStatus;
  stored_path: string | null;
  byte_size: number;
  char_count: number | null;
  page_count: number | null;
  pages_without_text_layer: number | null;
  quoted_credits: number | null;
  error_code: ExtractionErrorCode | null;
  created_at: string;
  expires_at: string;
}

/** An upload lives 24 hours; then its file and text are deleted. */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const COLUMNS = 'id, organization_id, filename, format, status, stored_path, byte_size, char_count, page_count, '
  + 'pages_without_text_layer, quoted_credits, error_code, created_at, expires_at';

/** States that hold a place in the organization's quota (resolutions.md: not yet consumed or expired). */
export const HOLDS_QUOTA = "status IN ('uploaded', 'ready', 'failed')";

/** A new upload's row, state `uploaded`. */
export function newUploadRow(file: { id: string; path: string; filename: string; format: UploadFormat; bytes: number },
  organizationId: string, now: Date): UploadRow {
  return {
    id: file.id, organization_id: organizationId, filename: file.filename, format: file.format, status: 'uploaded',
    stored_path: file.path, byte_size: file.bytes, char_count: null, page_count: null, pages_without_text_layer: null,
    quoted_credits: null, error_code: null, created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + UPLOAD_LIFETIME_MS).toISOString(),
  };
}

/**
 * Records an upload if the organization has a place left in its quota; 422 on `file` otherwise. Runs inside the
 * caller's transaction, so that two concurrent uploads cannot both take the last place.
 */
export function insertWithinQuota(state: StateDb, row: UploadRow, quota: number, now: Date): void {
  const held = sql<[string, string], { n: number; next: string | null }>(state,
    `SELECT count(*) AS n, min(expires_at) AS next FROM uploads WHERE organization_id = ? AND ${HOLDS_QUOTA} AND expires_at > ?`,
  ).get(row.organization_id, now.toISOString())!;
  assertQuotaLeft(held, quota);
  sql(state, `INSERT INTO uploads (${COLUMNS}) VALUES (${COLUMNS.split(', ').map(() => '?').join(', ')})`)
    .run(...COLUMNS.split(', ').map((column) => row[column as keyof UploadRow]));
}

/** 422 on `file` when the organization holds its whole upload quota (`next`: when the first of them expires). */
export function assertQuotaLeft(held: { n: number; next: string | null }, quota: number): void {
  if (held.n >= quota) {
    throw fileProblem(`exceeds the upload quota: the organization has ${held.n} uploads that are neither consumed `
      + `nor expired (at most ${quota}); check or wait for one to expire (the next at ${held.next})`);
  }
}

/** The upload if it belongs to the organization. */
export function findUpload(state: StateDb, organizationId: string, id: string): UploadRow | undefined {
  return sql<[string, string], UploadRow>(state, `SELECT ${COLUMNS} FROM uploads WHERE id = ? AND organization_id = ?`)
    .get(id, organizationId);
}

/** An upload still waiting for its text, wherever it came from. */
export function waitingUpload(state: StateDb, id: string): UploadRow | undefined {
  return sql<[string], UploadRow>(state, `SELECT ${COLUMNS} FROM uploads WHERE id = ? AND status = 'uploaded'`).get(id);
}

/** Every upload still waiting for its text, oldest first (to extract again after a restart). */
export function waitingUploads(state: StateDb): UploadRow[] {
  return sql<[], UploadRow>(state, `SELECT ${COLUMNS} FROM uploads WHERE status = 'uploaded' ORDER BY created_at, id`).all();
}

/**
 * Stores an extraction's outcome, if the upload still waits for it (it may have expired meanwhile). The stored file
 * is no longer needed either way: true when the row changed, and the caller deletes the file.
 */
export function recordExtraction(state: StateDb, id: string, outcome: ExtractionOutcome): boolean {
  const measures = [outcome.char_count, outcome.page_count, outcome.pages_without_text_layer];
  const { changes } = outcome.status === 'ready'
    ? sql(state, `UPDATE uploads SET status = 'ready', text = ?, char_count = ?, page_count = ?, pages_without_text_layer = ?,
        quoted_credits = ?, stored_path = NULL WHERE id = ? AND status = 'uploaded'`)
      .run(outcome.text, ...measures, checkPrice(outcome.char_count!), id)
    : sql(state, `UPDATE uploads SET status = 'failed', error_code = ?, char_count = ?, page_count = ?, pages_without_text_layer = ?,
        stored_path = NULL WHERE id = ? AND status = 'uploaded'`)
      .run(outcome.error_code, ...measures, id);
  return changes > 0;
}

/** Stored paths of the uploads waiting for extraction: every other file in the uploads directory is an orphan. */
export function waitingPaths(state: StateDb): Set<string> {
  return new Set(sql<[], { stored_path: string }>(state,
    "SELECT stored_path FROM uploads WHERE status = 'uploaded' AND stored_path IS NOT NULL").all().map((row) => row.stored_path));
}

/**
 * Expires every upload past its `expires_at` (or only `id`): status `expired`, text and file deleted. Housekeeping
 * that any reader may run; returns how many uploads expired.
 */
export async function expireDue(state: StateDb, now: Date, id?: string): Promise<number> {
  const filter = id === undefined ? '' : 'AND id = ?';
  const params = id === undefined ? [now.toISOString()] : [now.toISOString(), id];
  const due = sql<unknown[], { stored_path: string | null }>(state,
    `SELECT stored_path FROM uploads WHERE status <> 'expired' AND expires_at <= ? ${filter}`).all(...params);
  if (!due.length) return 0;
  inWriteTransaction(state, () => sql(state, `UPDATE uploads SET status = 'expired', text = NULL, stored_path = NULL
    WHERE status <> 'expired' AND expires_at <= ? ${filter}`).run(...params));
  await Promise.all(due.map((row) => row.stored_path && rm(row.stored_path, { force: true })));
  return due.length;
}
