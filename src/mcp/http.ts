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
 * The Streamable HTTP endpoint (stateless, JSON responses) on web-standard Request/Response, to mount at /mcp.
 *
 * - The bearer token is checked before any MCP processing: without a valid one the answer is the REST problem
 *   (401 unauthenticated, 409 token_org_missing) with `WWW-Authenticate: Bearer`.
 * - Only POST carries messages: there is no session and nothing to stream, so GET and DELETE are 405.
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
    const server = createMcpServer(services, authorization!, operations,
      (call, args) => observeCall(observability, record, call, args));
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: JSON_BODY_LIMIT,
    });
    try {
      await server.connect(new PlainErrorsTransport(transport));
      const response = await transport.handleRequest(request);
      response.headers.set('x-service-api-release', config.release);
      return response;
    } catch (error) {
      return problemResponse(error, config);
    } finally {
      await server.close();
    }
  };
}
