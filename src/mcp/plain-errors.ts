import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK's McpError puts before its message; a client puts it there again when it reads the error. */
const MCP_ERROR_PREFIX = /^(?:MCP error -?\d+: )+/u;

/**
 * A transport that sends JSON-RPC error messages without the SDK's "MCP error -32602: " prefix. The SDK's McpError
 * (thrown by our handlers and the SDK's own checks) carries the prefix in its message, the server sends that message,
 * and the client's McpError prefixes it once more: "MCP error -32602: MCP error -32602: Unknown tool". The code is
 * in the error's `code`; the message says only what went wrong.
 *
 * @example await server.connect(new PlainErrorsTransport(new StdioServerTransport()));
 */
export class PlainErrorsTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly inner: Transport;

  constructor(inner: Transport) {
    this.inner = inner;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('error' in message && MCP_ERROR_PREFIX.test(message.error.message)) {
      message = { ...message, error: { ...message.error, message: message.error.message.replace(MCP_ERROR_PREFIX, '') } };
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
