// Citation check runs in the state database: stored whole as answered (without the per-call envelope), read back by
// the organization that made them. Uploads consumed by a check are marked in the same transaction.
import { randomUUID } from 'node:crypto';
import type { StateDb } from '../accounts/state-db.ts';
import { sql } from '../db/statements.ts';
import { invalidArgument, notFound } from '../errors.ts';
import type { CheckRun } from '../citations/check.ts';

export function newRunId(): string {
  return `run_${randomUUID()}`;
}

export function saveRun(state: StateDb, organizationId: string, run: CheckRun): void {
  sql(state, 'INSERT INTO runs (id, organization_id, source, created_at, body) VALUES (?, ?, ?, ?, ?)')
    .run(run.id, organizationId, run.source, run.created_at, JSON.stringify(run));
}

/** The run, if it belongs to the organization; 404 otherwise (never 403: another organization's run does not exist). */
export function readRun(state: StateDb, organizationId: string, id: string): CheckRun {
  return runFrom(sql<[string, string], { body: string }>(state, 'SELECT body FROM runs WHERE id = ? AND organization_id = ?')
    .get(id, organizationId), id);
}

/** A stored run's row (or none) as the run; 404 for none. */
export function runFrom(row: { body: string } | undefined, id: string): CheckRun {
  if (!row) throw notFound(`No citation check run ${id} for this organization.`);
  return JSON.parse(row.body) as CheckRun;
}

export interface ReadyUpload { id: string; text: string; quoted_credits: number }

/** The extracted text of an upload that a check may consume; 422 on `document_id` saying why not. */
export function readyUpload(state: StateDb, organizationId: string, id: string, now: Date): ReadyUpload {
  return readyFrom(sql<[string, string], UploadReadiness>(state, READINESS).get(id, organizationId), now);
}

/** What readyUpload reads of an upload. */
export interface UploadReadiness {
  id: string; status: string; text: string | null; quoted_credits: number | null; expires_at: string; error_code: string | null;
}

/** The query of readyUpload (parameters: the upload's id, the organization's). */
export const READINESS = 'SELECT id, status, text, quoted_credits, expires_at, error_code FROM uploads WHERE id = ? AND organization_id = ?';

/** An upload row (or none) as a check may consume it; 422 on `document_id` saying why not. */
export function readyFrom(row: UploadReadiness | undefined, now: Date): ReadyUpload {
  if (!row) throw invalidArgument('document_id', 'no upload with this id exists for your organization');
  // Past expires_at an upload is expired whether or not the sweep has got to it yet.
  if (row.status !== 'consumed' && row.expires_at <= now.toISOString()) throw invalidArgument('document_id', 'the upload has expired');
  if (row.status !== 'ready' || row.text === null || row.quoted_credits === null) {
    const why: Record<string, string> = {
      uploaded: 'the upload is still being extracted; poll GET /citation-check-documents/{document} until status is ready',
      failed: row.error_code === 'too_long'
        ? 'the extracted text is longer than a check takes; send the part to check as text'
        : `text extraction failed (${row.error_code ?? 'unknown'}); upload the document again or send the text`,
      consumed: 'the upload was already consumed by a citation check',
      expired: 'the upload has expired',
    };
    throw invalidArgument('document_id', why[row.status] ?? `the upload is ${row.status}, not ready`);
  }
  return { id: row.id, text: row.text, quoted_credits: row.quoted_credits };
}

/** Marks an upload consumed (inside the charge's transaction) and deletes its text. */
export function consumeUpload(state: StateDb, id: string): void {
  consumed(sql(state, CONSUME).run(id).changes);
}

/** The statement of consumeUpload (parameter: the upload's id). */
export const CONSUME = "UPDATE uploads SET status = 'consumed', text = NULL WHERE id = ? AND status = 'ready'";

/** 422 on `document_id` unless the consuming statement changed the upload. */
export function consumed(changes: number): void {
  // A concurrent check consumed it first: this one rolls back with nothing charged.
  if (changes === 0) throw invalidArgument('document_id', 'the upload was already consumed by a citation check');
}
