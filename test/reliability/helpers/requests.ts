/**
 * Turns generated arguments into the HTTP request an operation's route takes: path parameters percent-encoded into
 * the path (or a raw segment no string encodes to), the rest into the query (GET) or a JSON body (POST).
 */
import fc from 'fast-check';
import { pathParameters } from '../../../src/http/arguments.ts';
import type { Operation } from '../../../src/operations/operation.ts';
import { encodeSegment, queryString, RAW_SEGMENTS, sometimes } from './nasty.ts';

export interface HostileRequest {
  method: string;
  path: string;
  body?: string;
}

const MAX_URL = 12_000;

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/**
 * The request for `args`; `raw` replaces the first path parameter by an undecodable segment, `rawBody` replaces the
 * JSON body by arbitrary text.
 */
export function buildRequest(operation: Operation, args: Record<string, unknown>, options: { raw?: string; rawBody?: string } = {}): HostileRequest {
  const rest = { ...args };
  let path = `/api/v1${operation.path}`;
  pathParameters(operation.path).forEach((name, index) => {
    const segment = index === 0 && options.raw !== undefined ? options.raw : encodeSegment(asText(rest[name] ?? ''));
    path = path.replace(`{${name}}`, segment);
    delete rest[name];
  });
  if (operation.method === 'GET') {
    // Node refuses request heads over 16 KB before the application sees them (431, no body): stay below.
    const entries = Object.entries(rest);
    while (entries.length && (path + queryString(Object.fromEntries(entries))).length > MAX_URL) entries.pop();
    return { method: 'GET', path: path + queryString(Object.fromEntries(entries)) };
  }
  return { method: operation.method, path, body: options.rawBody ?? JSON.stringify(rest) };
}

/** Optional extras of a request: an undecodable path segment (for routes with one), a raw body (for POST routes). */
export function requestOptions(operation: Operation): fc.Arbitrary<{ raw?: string; rawBody?: string }> {
  const raw = pathParameters(operation.path).length
    ? sometimes(fc.constantFrom(...RAW_SEGMENTS), 5)
    : fc.constant(undefined);
  const rawBody = operation.method === 'POST'
    ? sometimes(fc.oneof(
      fc.constantFrom('', 'null', '[]', '"x"', '{', '{"ids":', '\ufeff{}', '{}garbage', '['.repeat(10_000), '{"a":'.repeat(5_000)),
      fc.string({ unit: 'binary', maxLength: 80 }),
    ), 6)
    : fc.constant(undefined);
  return fc.record({ raw, rawBody });
}
