import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors.ts';
import type { Operation, Services } from '../operations/operation.ts';
import { PlainErrorsTransport } from './plain-errors.ts';
import { createMcpServer } from './server.ts';

/**
 * The token a stdio server acts with, from JURALITE_TOKEN; a missing one is an error that says what to set.
 *
 * @example await runStdioServer(services, mcpTokenFromEnv());
 */
export function mcpTokenFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const token = env.JURALITE_TOKEN?.trim();
  if (!token) {
    throw new Error('JURALITE_TOKEN is not set: the MCP server acts with an API token '
      + '(create one with `juralite token create --org ID --abilities all`).');
  }
  return token;
}

/**
 * Serves the tools over stdio (stdin/stdout carry JSON-RPC; logs go to stderr) until the client closes stdin.
 * Every tool call is authenticated with `token` by the same path as REST. A token that is refused at start (unknown,
 * revoked, expired, no organization) is an error before anything is served, so a misconfigured client fails clearly.
 */
export async function runStdioServer(
  services: Services,
  token: string,
  options: { stdin?: Readable; stdout?: Writable; operations?: readonly Operation[] } = {},
): Promise<void> {
  const authorization = `Bearer ${token.trim()}`;
  try {
    await services.store.authenticate(authorization, services.clock());
  } catch (error) {
    if (error instanceof ApiError) throw new Error(`JURALITE_TOKEN was refused (${error.code}): ${error.message}`);
    throw error;
  }
  const stdin = options.stdin ?? process.stdin;
  const server = createMcpServer(services, authorization, options.operations);
  const transport = new AnsweringTransport(new PlainErrorsTransport(new StdioServerTransport(stdin, options.stdout ?? process.stdout)),
    () => void server.close());
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const end = () => transport.endOfInput();
  stdin.once('end', end);
  stdin.once('close', end);
  try {
    await server.connect(transport);
    await closed;
  } finally {
    stdin.off('end', end);
    stdin.off('close', end);
  }
}

/**
 * The stdio transport does not notice the end of its input. When the client closes stdin the session ends, but only
 * once every request already read has been answered (`echo '…' | juralite mcp` must still get its answers).
 */
class AnsweringTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly inner: Transport;
  private readonly finish: () => void;
  private readonly unanswered = new Set<string | number>();
  private ending = false;

  constructor(inner: Transport, finish: () => void) {
    this.inner = inner;
    this.finish = finish;
  }

  start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => {
      this.answerUnreadable(error);
      this.onerror?.(error);
    };
    this.inner.onmessage = (message, extra) => {
      if ('method' in message && 'id' in message) this.unanswered.add(message.id);
      // A cancelled request is never answered (the protocol says so); it no longer holds the session open.
      if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
        const cancelled = (message.params as { requestId?: string | number } | undefined)?.requestId;
        if (cancelled !== undefined) queueMicrotask(() => this.forget(cancelled));
      }
      this.onmessage?.(message, extra);
    };
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.inner.send(message, options);
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.forget(message.id);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * A line that is no JSON (-32700 Parse error) or no JSON-RPC message (-32600 Invalid Request) is answered, with the
   * null id JSON-RPC 2.0 prescribes when the request's id cannot be read; the SDK would drop it without a word.
   */
  private answerUnreadable(error: Error): void {
    const code = error.name === 'SyntaxError' ? -32700 : error.name === 'ZodError' ? -32600 : null;
    if (code === null) return;
    const message = code === -32700
      ? 'Parse error: the line is not JSON.'
      : 'Invalid Request: the line is not a JSON-RPC 2.0 message.';
    const answer = { jsonrpc: '2.0', id: null, error: { code, message } };
    void this.inner.send(answer as unknown as JSONRPCMessage).catch(() => {});
  }

  endOfInput(): void {
    this.ending = true;
    this.finishIfAnswered();
  }

  private forget(id: string | number): void {
    this.unanswered.delete(id);
    this.finishIfAnswered();
  }

  private finishIfAnswered(): void {
    if (this.ending && this.unanswered.size === 0) this.finish();
  }
}
