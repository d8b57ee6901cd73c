/**
 * A local OpenAI-compatible embeddings endpoint for tests (POST /v1/embeddings on 127.0.0.1). Its vectors are
 * deterministic: each word of four or more letters adds +-1 at a hashed position of 64 dimensions, so texts sharing
 * words are near. It runs in a worker thread because the import embeds synchronously (src/search/sync-post.ts) and
 * blocks the main thread while it waits: a server on the main thread could never answer.
 */
import { Worker } from 'node:worker_threads';

export type EmbeddingsMode = 'ok' | 'fail' | 'short' | 'dims32';

export interface EmbeddingsRequest { model: string; inputs: number; authorization: string | null; firstInput: string }

export interface EmbeddingsServer {
  /** Base URL, `http://127.0.0.1:PORT/v1`. */
  url: string;
  setMode(mode: EmbeddingsMode): Promise<void>;
  /** Requests received so far. */
  requests(): Promise<EmbeddingsRequest[]>;
  close(): Promise<void>;
}

const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createServer } = require('node:http');
let mode = 'ok';
const log = [];
function vectorOf(text, dims) {
  const v = new Array(dims).fill(0);
  for (const word of (text.toLowerCase().match(/\\p{L}{4,}/gu) || [])) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % dims] += (h & 0x100) ? 1 : -1;
  }
  return v;
}
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') { res.writeHead(404); res.end('not found'); return; }
    const request = JSON.parse(body);
    const inputs = Array.isArray(request.input) ? request.input : [request.input];
    log.push({ model: request.model, inputs: inputs.length, authorization: req.headers.authorization || null, firstInput: String(inputs[0]) });
    if (mode === 'fail') { res.writeHead(500, { 'content-type': 'text/plain' }); res.end('model overloaded'); return; }
    const dims = mode === 'dims32' ? 32 : 64;
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(String(text), dims) }));
    if (mode === 'short') data.pop();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', model: request.model, data }));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message.mode) { mode = message.mode; parentPort.postMessage({ done: true }); }
  if (message.requests) parentPort.postMessage({ requests: log.slice() });
  if (message.close) server.close(() => parentPort.postMessage({ closed: true }));
});
`;

/** Starts the endpoint; close it when done. */
export async function startEmbeddingsServer(): Promise<EmbeddingsServer> {
  const worker = new Worker(SOURCE, { eval: true });
  const next = <T>(key: string) => new Promise<T>((resolve) => {
    const listen = (message: Record<string, unknown>) => {
      if (key in message) {
        worker.off('message', listen);
        resolve(message[key] as T);
      }
    };
    worker.on('message', listen);
  });
  const port = await next<number>('port');
  return {
    url: `http://127.0.0.1:${port}/v1`,
    async setMode(mode) {
      const done = next('done');
      worker.postMessage({ mode });
      await done;
    },
    async requests() {
      const answer = next<EmbeddingsRequest[]>('requests');
      worker.postMessage({ requests: true });
      return answer;
    },
    async close() {
      const closed = next('closed');
      worker.postMessage({ close: true });
      await closed;
      await worker.terminate();
    },
  };
}
