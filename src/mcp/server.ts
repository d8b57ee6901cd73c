import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { OPERATIONS } from '../operations/index.ts';
import type { Operation, Services } from '../operations/operation.ts';
import { callTool, toolDefinition, toolOperations, type ToolCallObserver } from './tools.ts';

/** What a request's params become when they fail the method's schema (see StrictParamsServer). */
const MALFORMED = Symbol('malformed params');

interface SchemaIssue { path: PropertyKey[]; message: string }

/** The part of a zod request schema used here (the SDK's schemas; zod itself is the SDK's dependency, not ours). */
interface RequestSchema {
  shape: {
    method: { value: unknown };
    params: { catch(fallback: (context: { error: { issues: SchemaIssue[] } }) => unknown): unknown };
  };
  extend(shape: Record<string, unknown>): unknown;
}

const readable = (issues: SchemaIssue[]) =>
  issues.map((issue) => `${['params', ...issue.path.map(String)].join('.')}: ${issue.message}`).join('; ');

/**
 * The SDK parses a request with the schema its handler was registered with and answers a failed parse (an initialize
 * without protocolVersion, a tools/list with a numeric cursor) with -32603 Internal error. Here params that fail their
 * schema are handed on marked, and the handler answers -32602 Invalid params naming what was wrong, as the protocol
 * asks: for every method, the SDK's own initialize included (it registers it through this method, while constructing).
 * A malformed tools/call gets the SDK's own -32602 (its check of the call runs first).
 */
class StrictParamsServer extends Server {
  override setRequestHandler(...[schema, handler]: Parameters<Server['setRequestHandler']>): void {
    // The SDK's request schemas are zod objects: a method literal and params.
    const object = schema as unknown as RequestSchema;
    const method = String(object.shape.method.value);
    const marked = object.extend({
      params: object.shape.params.catch((context) => ({ [MALFORMED]: context.error.issues })),
    });
    super.setRequestHandler(marked as typeof schema, (request, extra) => {
      const issues = (request.params as { [MALFORMED]?: SchemaIssue[] } | undefined)?.[MALFORMED];
      if (issues) throw new McpError(ErrorCode.InvalidParams, `Invalid ${method} request: ${readable(issues)}`);
      return handler(request, extra);
    });
  }
}

const INSTRUCTIONS = 'juralite: research in German court decisions and German, EU and international statutes. '
  + 'Every tool is the twin of a REST endpoint under /api/v1 with the same arguments, answer and price in credits; '
  + 'a result already paid this month (over REST or MCP) is free. Errors are tool errors carrying the REST problem '
  + '(type, title, status, detail, code and the code\'s extra fields). Decisions are served without any check '
  + 'whether they are still good law.';

/**
 * An MCP server whose tools act for one caller: every tool call is authenticated with `authorization`
 * (`Bearer <token>`) by the same `execute` path as REST. Connect it to one transport.
 *
 * @example await createMcpServer(services, `Bearer ${token}`).connect(new StdioServerTransport());
 */
export function createMcpServer(
  services: Services, authorization: string, operations: readonly Operation[] = OPERATIONS, onCall?: ToolCallObserver,
): Server {
  const offered = toolOperations(operations);
  const tools = offered.map(toolDefinition);
  const byName = new Map(offered.map((operation) => [operation.name, operation]));
  const server = new StrictParamsServer(
    { name: 'juralite', version: services.config.release },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const operation = byName.get(request.params.name);
    if (!operation) {
      const restOnly = operations.find((candidate) => candidate.name === request.params.name);
      throw new McpError(ErrorCode.InvalidParams, restOnly
        ? `Tool ${request.params.name} is not offered over MCP: it takes a file upload; use ${restOnly.method} /api/v1${restOnly.path}.`
        : `Unknown tool: ${request.params.name}.`);
    }
    return callTool(operation, request.params.arguments, authorization, services, onCall);
  });
  return server;
}
