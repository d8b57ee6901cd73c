/**
 * Uploading over HTTP in tests: a multipart/form-data POST built by fetch (or by hand, for malformed bodies), and
 * polling an upload until its extraction is over.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Reply } from '../helpers/api.ts';
import type { Services } from '../../src/operations/operation.ts';
import { uploadsOf } from '../../src/uploads/service.ts';

export const DOCUMENTS = '/api/v1/citation-check-documents';

/** The test worker that exits, hangs or runs out of memory on marked documents (hostile-worker.ts). */
export const HOSTILE_WORKER = fileURLToPath(new URL('./hostile-worker.ts', import.meta.url));

/** A running server: what test/helpers/api.ts's `startApi` gives, or any server on services. */
export interface Target { url: string; services: Services }

async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON: keep the text */ }
  return { status: response.status, headers: response.headers, body };
}

/** POSTs `data` as the multipart field `field` (default `file`) named `filename`. */
export async function upload(api: Target, token: string, data: Buffer | string, filename: string, field = 'file'): Promise<Reply> {
  const form = new FormData();
  form.append(field, new Blob([typeof data === 'string' ? Buffer.from(data) : new Uint8Array(data)]), filename);
  return reply(await fetch(api.url + DOCUMENTS, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }));
}

/** POSTs a body exactly as given, for multipart bodies no client library would write. */
export async function postRaw(api: Target, token: string, body: Buffer | string, contentType: string): Promise<Reply> {
  return reply(await fetch(api.url + DOCUMENTS, {
    method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  }));
}

export async function getUpload(api: Target, token: string, id: string): Promise<Reply> {
  return reply(await fetch(`${api.url}${DOCUMENTS}/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${token}` } }));
}

/** Reads the upload until it is no longer `uploaded` (extraction runs in the background); its last reading. */
export async function pollUntilExtracted(api: Target, token: string, id: string): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt++) {
    await uploadsOf(api.services).settled();
    const read = await getUpload(api, token, id);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    if (read.body.status !== 'uploaded') return read.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`upload ${id} stayed uploaded`);
}

/** Files in the uploads directory (waiting uploads; nothing else should be there). */
export function storedFiles(api: Target): string[] {
  return readdirSync(uploadsOf(api.services).dir);
}

/** The upload's row as stored, text included (the API never serves the text). */
export function storedUpload(api: Target, id: string): { status: string; text: string | null; stored_path: string | null } | undefined {
  return api.services.state.prepare('SELECT status, text, stored_path FROM uploads WHERE id = ?').get(id) as any;
}
