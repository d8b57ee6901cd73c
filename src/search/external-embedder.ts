// The optional external embedder: an OpenAI-compatible POST /v1/embeddings that a firm runs itself
// ({ model, input: string[] } -> { data: [{ index, embedding: number[] }] }). Queries call it asynchronously; the
// import calls it synchronously (src/search/sync-post.ts), since syncSearchIndex is synchronous.
import type { EmbeddingsConfig } from '../config.ts';
import { postJsonSync } from './sync-post.ts';

export class EmbedderError extends Error {}

/** The endpoint URL: a base ending in /v1 gets /embeddings appended. */
export function endpointOf(config: EmbeddingsConfig): string {
  return /\/embeddings$/u.test(config.url) ? config.url : `${config.url}/embeddings`;
}

/** Where the endpoint is, for messages and the corpus record: scheme, host and path, never credentials or a query. */
export function describeEndpoint(config: EmbeddingsConfig): string {
  const url = new URL(endpointOf(config));
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function requestOf(config: EmbeddingsConfig, texts: string[]) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return { url: endpointOf(config), headers, body: JSON.stringify({ model: config.model, input: texts, encoding_format: 'float' }) };
}

/** The vectors of an answer, in input order; anything but the expected shape is an EmbedderError. */
export function parseEmbeddings(status: number, text: string, expected: number, config: EmbeddingsConfig): Float32Array[] {
  const where = describeEndpoint(config);
  if (status !== 200) throw new EmbedderError(`the embeddings endpoint ${where} answered HTTP ${status}: ${text.slice(0, 200)}`);
  let body: { data?: { index?: number; embedding?: unknown }[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new EmbedderError(`the embeddings endpoint ${where} answered no JSON`);
  }
  const data = Array.isArray(body?.data) ? body.data : null;
  if (!data || data.length !== expected) {
    throw new EmbedderError(`the embeddings endpoint ${where} answered ${data ? data.length : 'no'} vectors for ${expected} texts`);
  }
  const vectors: Float32Array[] = new Array(expected);
  data.forEach((item, position) => {
    const at = typeof item.index === 'number' ? item.index : position;
    const embedding = item.embedding;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))
      || at < 0 || at >= expected || vectors[at]) {
      throw new EmbedderError(`the embeddings endpoint ${where} answered a malformed vector (item ${position})`);
    }
    vectors[at] = Float32Array.from(embedding as number[]);
  });
  const dims = vectors[0].length;
  if (vectors.some((v) => v.length !== dims)) throw new EmbedderError(`the embeddings endpoint ${where} answered vectors of different lengths`);
  return vectors;
}

/**
 * Embeds texts (a query) with a time limit.
 *
 * @example const [vector] = await embedRemote(config, ['Eigenbedarf Härtefall']);
 */
export async function embedRemote(config: EmbeddingsConfig, texts: string[]): Promise<Float32Array[]> {
  const request = requestOf(config, texts);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    throw new EmbedderError(`the embeddings endpoint ${describeEndpoint(config)} could not be reached: ${(error as Error).message}`);
  }
  return parseEmbeddings(response.status, await response.text(), texts.length, config);
}

/** Embeds texts synchronously (the import's vector step), batch by batch. */
export function embedRemoteSync(config: EmbeddingsConfig, texts: string[]): Float32Array[] {
  const request = requestOf(config, texts);
  let answer: { status: number; text: string };
  try {
    answer = postJsonSync(request.url, request.headers, request.body, config.timeoutMs);
  } catch (error) {
    throw new EmbedderError(`the embeddings endpoint ${describeEndpoint(config)} could not be reached: ${(error as Error).message}`);
  }
  return parseEmbeddings(answer.status, answer.text, texts.length, config);
}
