// A synchronous HTTP POST for the import's vector step: it also serves syncSearchIndex, which is synchronous (the
// rebuild of an older corpus on open runs it), so the request runs in a worker thread while this thread waits on a
// shared flag (Atomics.wait) and then takes the answer off the message port (receiveMessageOnPort). Blocking is what
// the import wants here: it holds the write transaction anyway. The worker is started once and unref'd, so it never
// keeps a process alive.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flag } = workerData;
port.on('message', async ({ url, headers, body, timeoutMs }) => {
  let answer;
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    answer = { status: response.status, text: await response.text() };
  } catch (error) {
    answer = { error: String(error && error.message || error) };
  }
  port.postMessage(answer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

let channel: { worker: Worker; port: MessagePort; flag: Int32Array } | null = null;

function open() {
  if (channel) return channel;
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, flag }, transferList: [port2] });
  worker.unref();
  port1.unref();
  worker.on('error', () => { channel = null; });
  channel = { worker, port: port1, flag };
  return channel;
}

/**
 * POSTs `body` and blocks until the answer (or the time limit, plus a second for the worker itself).
 *
 * @example postJsonSync('http://127.0.0.1:8000/v1/embeddings', { 'content-type': 'application/json' }, '{}', 30000)
 */
export function postJsonSync(url: string, headers: Record<string, string>, body: string, timeoutMs: number): { status: number; text: string } {
  const { port, flag } = open();
  Atomics.store(flag, 0, 0);
  port.postMessage({ url, headers, body, timeoutMs });
  const waited = Atomics.wait(flag, 0, 0, timeoutMs + 1_000);
  const message = receiveMessageOnPort(port)?.message as { status: number; text: string } | { error: string } | undefined;
  if (waited === 'timed-out' || !message) {
    closeSyncPost();
    throw new Error(`no answer within ${timeoutMs} ms`);
  }
  if ('error' in message) throw new Error(message.error);
  return message;
}

/** Ends the worker (tests; a timed-out request's worker is ended so its late answer cannot be taken for the next). */
export function closeSyncPost(): void {
  if (!channel) return;
  void channel.worker.terminate();
  channel.port.close();
  channel = null;
}
