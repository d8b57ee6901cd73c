import { isUtf8 } from 'node:buffer';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ApiError } from '../errors.ts';
import { JSON_BODY_LIMIT } from '../http/arguments.ts';
import { problemResponse } from '../http/responses.ts';
import { OPERATIONS } from '../operations/index.ts';
import type { Operation, Services } from '../operations/operation.ts';
import { PlainErrorsTransport } from './plain-errors.ts';
import { createMcpServer } from './server.ts';
import type { RequestRecord } from '../observability/access-log.ts';
import { observeCall, quietObservability, type Observability } from '../observability/observability.ts';

/** Where the Streamable HTTP endpoint is mounted, beside /api/v1. */
export const MCP_PATH = '/mcp';

/**
 * The request with its body read, or a JSON-RPC parse error (400, -32700, as the transport answers JSON it cannot
 * parse) when the body is not valid UTF-8: the SDK decodes leniently, and the bad bytes became U+FFFD in a text that
 * was then checked and charged. Reading stops one chunk past the size limit; the transport refuses that body (413).
 */
async function strictlyDecodable(request: Request): Promise<Request | Response> {
  if (!request.body) return request;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > JSON_BODY_LIMIT) break;
  }
  const body = Buffer.concat(chunks);
  if (size <= JSON_BODY_LIMIT && !isUtf8(body)) {
    return Response.json({ jsonrpc: '2.0', id: null,
      error: { code: -32700, message: 'Parse error: the request body is not valid UTF-8 (send JSON encoded as UTF-8)' } },
    { status: 400 });
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body });
}

/**
 * The Streamable HTTP endpoint (stateless, JSON responses) on web-standard Request/Response, to mount at /mcp.
 *
 * - The bearer token is checked before any MCP processing: without a valid one the answer is the REST problem
 *   (401 unauthenticated, 409 token_org_missing) with `WWW-Authenticate: Bearer`.
 * - Only POST carries messages: there is no session and nothing to stream, so GET and DELETE are 405.
 * - A body that is not valid UTF-8 is a JSON-RPC parse error (400, -32700) before the SDK reads it.
 * - Each request gets its own server and transport acting for the request's token; abilities, prices and limits are
 *   checked per tool call by `execute`, as over REST.
 * - Tool calls are counted in the metrics and named in the request's access log line (`record`).
 *
 * @example app.all('/mcp', (event) => mcp(event.req)); // const mcp = mcpHttpHandler(services);
 */
export function mcpHttpHandler(
  services: Services, operations: readonly Operation[] = OPERATIONS, observability: Observability = quietObservability(),
): (request: Request, record?: RequestRecord) => Promise<Response> {
  const { config } = services;
  return async (request, record) => {
    const authorization = request.headers.get('authorization');
    try {
      const caller = await services.store.authenticate(authorization, services.clock());
      if (record) record.organization = caller.organization.id;
    } catch (error) {
      return problemResponse(error, config);
    }
    if (request.method !== 'POST') {
      return problemResponse(new ApiError('method_not_allowed',
        `${request.method} is not allowed here; MCP messages are sent with POST (this server keeps no sessions).`),
      config, { allow: 'POST' });
    }
    const read = await strictlyDecodable(request).catch((error) => problemResponse(error, config));
    if (read instanceof Response) {
      read.headers.set('x-service-api-release', config.release);
      return read;
    }
    const server = createMcpServer(services, authorization!, operations,
      (call, args) => observeCall(observability, record, call, args));
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: JSON_BODY_LIMIT,
    });
    try {
      await server.connect(new PlainErrorsTransport(transport));
      const response = await transport.handleRequest(read);
      response.headers.set('x-service-api-release', config.release);
      return response;
    } catch (error) {
      return problemResponse(error, config);
    } finally {
      await server.close();
    }
  };
}
