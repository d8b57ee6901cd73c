// Receiving an upload: the multipart body is streamed into a file under the uploads directory, never held in
// memory whole; the size limit is enforced while streaming. Whatever fails, the partial file is deleted.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import { ApiError, backendUnavailable } from '../errors.ts';
import type { UploadFormat } from './formats.ts';
import { fileProblem, inspectUpload } from './inspect.ts';

/** An accepted file, stored and recognized, not yet recorded. */
export interface ReceivedFile {
  id: string;
  path: string;
  filename: string;
  format: UploadFormat;
  bytes: number;
}

/** Multipart boundaries and part headers around the file; a body larger than file + this is cut off unread. */
const ENVELOPE_ALLOWANCE = 64 * 1024;
const FILENAME_MAX = 255;

export const newUploadId = () => `upl_${randomUUID()}`;

const tooLarge = (maxBytes: number) =>
  fileProblem(`must be at most ${maxBytes / 1e6} MB (${maxBytes.toLocaleString('en')} bytes)`);

/**
 * Control characters (C0, DEL, C1) and the bidirectional controls (embeddings, overrides, isolates, marks): shown
 * back, U+202E makes 'rechnung\u202Efdp.exe' read as 'rechnungexe.pdf'.
 */
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A name to show back, never used as a path: no directories, no control characters, at most 255 characters. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...base.replace(UNSHOWABLE, '').trim()].slice(0, FILENAME_MAX).join('');
  return clean || 'upload';
}

/**
 * Reads what is left of a body and drops it, in the background. A refused body is never cancelled: the Node stream
 * behind a Request would then fail after the fact (Readable.toWeb raises on its closed controller), and the client
 * could not finish sending to read its 422.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    try {
      while (!(await reader.read()).done) { /* dropped */ }
    } catch { /* the client went away */ }
  })();
}

/** The request body, counted: past `limit` bytes the stream fails instead of being passed on (the rest is dropped). */
async function* bounded(body: ReadableStream<Uint8Array>, limit: number, maxBytes: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  // True once the body is read to its end or can no longer be read (the client went away).
  let over = false;
  try {
    let total = 0;
    for (;;) {
      const chunk = await reader.read().catch((error) => { over = true; throw error; });
      if (chunk.done) return void (over = true);
      total += chunk.value.byteLength;
      if (total > limit) throw tooLarge(maxBytes);
      yield chunk.value;
    }
  } finally {
    // Stopped early (the size limit, a malformed part): the rest of the body is read and dropped.
    if (!over) discardRest(reader);
  }
}

/** The file system refused the file (full, over quota, failing): 503, nothing stored or charged. */
function storageProblem(error: Error): ApiError {
  console.error('juralite: storing an upload failed:', error);
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOSPC' || code === 'EDQUOT' ? 'the storage for uploads is full' : `writing to the storage for uploads failed (${code ?? error.message})`;
  return backendUnavailable(`The upload could not be stored: ${why}. Nothing was kept; retry later.`);
}

/** Streams the part named `file` into `path`; every other part is read and dropped. */
async function streamFilePart(request: Request, contentType: string, path: string, maxBytes: number): Promise<{ filename: string; bytes: number }> {
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: maxBytes, files: 5, fields: 20, parts: 25, fieldSize: 64 * 1024, headerPairs: 20 },
    });
  } catch (error) {
    throw fileProblem(`could not be read: ${(error as Error).message} (send multipart/form-data with a boundary)`);
  }
  // Set from the parser's events; an object, so that the checks after the stream see what the events wrote.
  const seen: {
    problem?: ApiError; file?: BusboyFileStream; written?: Promise<{ filename: string; bytes: number }>; otherParts: string[];
    /** Why the file could not be written (the storage's fault, not the client's). */
    storage?: Error;
  } = { otherParts: [] };
  const fail = (error: ApiError) => { seen.problem ??= error; };
  parser.on('file', (name: string, stream: BusboyFileStream, filename: string) => {
    if (name !== 'file' || seen.written) {
      if (name === 'file') fail(fileProblem('must be sent once; the request carries several "file" parts'));
      else seen.otherParts.push(name);
      stream.resume();
      return;
    }
    stream.on('limit', () => fail(tooLarge(maxBytes)));
    seen.file = stream;
    const target = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    // A write that fails (a full disk) stops the parser at once: its file stream is gone and would never drain again.
    // Only the file system's own errors (they name their syscall): a cut-off body ends the write stream too.
    target.once('error', (error: NodeJS.ErrnoException) => {
      if (!error.syscall) return;
      seen.storage ??= error;
      parser.destroy(error);
    });
    seen.written = pipeline(stream, target).then(() => ({ filename: cleanFilename(filename), bytes: target.bytesWritten }));
    // Awaited only after the body: a failure before then, unheard, would end the process.
    seen.written.catch(() => undefined);
  });
  parser.on('field', (name: string) => {
    if (name === 'file') fail(fileProblem('must be a file part (with a filename), not a text field'));
    else seen.otherParts.push(name);
  });
  parser.on('filesLimit', () => fail(fileProblem('must be the only file of the request')));
  parser.on('partsLimit', () => fail(fileProblem('must be sent in a request of at most 25 parts')));
  try {
    await pipeline(bounded(request.body!, maxBytes + ENVELOPE_ALLOWANCE, maxBytes), parser);
  } catch (error) {
    // The parser is gone mid-file (a cut-off body, the size limit): end the file's stream too, or its write never ends.
    seen.file?.destroy();
    await seen.written?.catch(() => undefined);
    if (error instanceof ApiError) throw error;
    if (seen.storage) throw storageProblem(seen.storage);
    throw fileProblem(`could not be read: the multipart body is malformed or was cut off (${(error as Error).message})`);
  }
  const result = await seen.written?.catch((error) => { throw seen.storage ? storageProblem(seen.storage) : error; });
  if (seen.problem) throw seen.problem;
  if (!result) {
    const others = seen.otherParts.length
      ? ` (the request has ${seen.otherParts.map((name) => (name ? `"${name}"` : 'a part without a name')).join(', ')})` : '';
    throw fileProblem(`is required: send the document in the multipart/form-data field "file"${others}`);
  }
  return result;
}

/**
 * Receives the `file` part of a multipart/form-data request into `dir`, checks it and names its format; 422 on
 * `file` for anything refused (nothing stays on disk then).
 *
 * @example const file = await receiveUpload(event.req, { dir: 'data/uploads', maxBytes: 25e6 });
 */
export async function receiveUpload(request: Request, options: { dir: string; maxBytes: number }): Promise<ReceivedFile> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) {
    throw fileProblem('is required: send the document as multipart/form-data in the field "file"');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > options.maxBytes + ENVELOPE_ALLOWANCE) throw tooLarge(options.maxBytes);
  const id = newUploadId();
  const partial = join(options.dir, `${id}.part`);
  try {
    const { filename, bytes } = await streamFilePart(request, contentType, partial, options.maxBytes);
    const format = await inspectUpload(partial, filename, bytes);
    const path = join(options.dir, `${id}.${format}`);
    await rename(partial, path);
    return { id, path, filename, format, bytes };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
