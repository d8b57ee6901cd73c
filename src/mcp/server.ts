import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { OPERATIONS } from '../operations/index.ts';
import type { Operation, Services } from '../operations/operation.ts';
import { callTool, toolDefinition, toolOperations } from './tools.ts';

/**
 * tools/call as registered: the SDK parses a request with the registered schema before the Server's own tools/call
 * validation runs, and answers a failed parse with -32603 Internal error. With params that always parse (a failure
 * hands the input on unchanged), that validation sees a malformed call (arguments not an object, no tool name) and
 * answers -32602 Invalid params, as the protocol asks.
 */
const LenientCallToolRequestSchema = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.catch((context) => context.input as never),
});

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
  services: Services, authorization: string, operations: readonly Operation[] = OPERATIONS,
): Server {
  const offered = toolOperations(operations);
  const tools = offered.map(toolDefinition);
  const byName = new Map(offered.map((operation) => [operation.name, operation]));
  const server = new Server(
    { name: 'juralite', version: services.config.release },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(LenientCallToolRequestSchema, (request) => {
    const operation = byName.get(request.params.name);
    if (!operation) {
      const restOnly = operations.find((candidate) => candidate.name === request.params.name);
      throw new McpError(ErrorCode.InvalidParams, restOnly
        ? `Tool ${request.params.name} is not offered over MCP: it takes a file upload; use ${restOnly.method} /api/v1${restOnly.path}.`
        : `Unknown tool: ${request.params.name}.`);
    }
    return callTool(operation, request.params.arguments, authorization, services);
  });
  return server;
}
