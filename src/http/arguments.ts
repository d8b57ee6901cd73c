import { toJsonSchema } from '@valibot/to-json-schema';
import { invalidArgument } from '../errors.ts';
import type { Operation } from '../operations/operation.ts';

/** JSON bodies are small (a check text is at most 20,000 characters); anything larger is refused unread. */
export const JSON_BODY_LIMIT = 1024 * 1024;

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** The JSON Schema of an operation's arguments (input side, so defaults show as defaults). */
export function argumentSchema(operation: Operation): { properties: Record<string, any>; required: string[] } {
  const schema = toJsonSchema(operation.args, { target: 'openapi-3.0', typeMode: 'input', errorMode: 'ignore' }) as any;
  return { properties: schema.properties ?? {}, required: schema.required ?? [] };
}

/** Names of `{placeholders}` in an operation path. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
}

const typesCache = new WeakMap<Operation, Record<string, JsonType | undefined>>();

function argumentTypes(operation: Operation): Record<string, JsonType | undefined> {
  let types = typesCache.get(operation);
  if (!types) {
    const { properties } = argumentSchema(operation);
    types = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema.type as JsonType]));
    typesCache.set(operation, types);
  }
  return types;
}

/** A query-string value as the JSON type its argument declares; what does not convert stays a string for validation to name. */
function coerce(value: string, type: JsonType | undefined): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * Refuses a query string whose percent-encoding is not UTF-8 ('%ZZ', a lone surrogate as '%ED%A0%80'), naming the
 * parameter: URLSearchParams would keep '%ZZ' as written and turn invalid UTF-8 into U+FFFD, and search for that.
 * A path segment gets the same refusal (app.ts).
 */
function assertPercentEncoded(search: string): void {
  // A percent-encoded UTF-8 sequence never holds '&' or '=': the whole decodes exactly when every name and value does,
  // so the pairs are only taken apart to name the one that does not (bench/README, Session 25).
  if (decoded(search) !== null) return;
  for (const pair of search.slice(1).split('&')) {
    const [name, value = ''] = pair.replace(/\+/gu, ' ').split(/=(.*)/su);
    const decodedName = decoded(name);
    if (decodedName !== null && decoded(value) !== null) continue;
    // A name that does not decode is named as written.
    throw invalidArgument(decodedName ?? name, 'is not valid percent-encoded UTF-8');
  }
}

/** The percent-decoded text, or null where its encoding is not UTF-8. */
const decoded = (text: string): string | null => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

/** Query parameters typed by the operation's schema; a repeated scalar parameter stays an array (and fails validation). */
export function queryArguments(operation: Operation, url: URL): Record<string, unknown> {
  assertPercentEncoded(url.search);
  const params = url.searchParams;
  const types = argumentTypes(operation);
  const args: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name).map((value) => coerce(value, types[name]));
    args[name] = values.length === 1 && types[name] !== 'array' ? values[0] : values;
  }
  return args;
}

/** Reads a JSON object body of at most JSON_BODY_LIMIT bytes; an empty body is `{}`. */
export async function jsonBodyArguments(request: Request): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > JSON_BODY_LIMIT) throw invalidArgument('body', `must be at most ${JSON_BODY_LIMIT} bytes`);
  const text = await readLimitedText(request, JSON_BODY_LIMIT);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidArgument('body', 'must be a JSON object (the request body is not valid JSON)');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidArgument('body', 'must be a JSON object');
  return body as Record<string, unknown>;
}

async function readLimitedText(request: Request, limit: number): Promise<string> {
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw invalidArgument('body', `must be at most ${limit} bytes`);
    chunks.push(chunk);
  }
  try {
    return STRICT_UTF8.decode(Buffer.concat(chunks));
  } catch {
    // Decoded leniently, the bad bytes would become U+FFFD and be checked, searched and charged as if sent.
    throw invalidArgument('body', 'is not valid UTF-8 (send JSON encoded as UTF-8)');
  }
}

/** Refuses invalid UTF-8 instead of replacing it; a byte-order mark is dropped. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
