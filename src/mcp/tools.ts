/**
 * MCP tools generated from the operations registry: one tool per operation, same name, same arguments, and a call
 * runs the same metered path as REST (`execute`), so prices, free repeats, rate limits and caps are shared.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, unexpectedFailure } from '../errors.ts';
import { argumentSchema } from '../http/arguments.ts';
import { problemBody } from '../http/responses.ts';
import { execute } from '../operations/execute.ts';
import type { Operation, Services } from '../operations/operation.ts';
import type { CallOutcome } from '../observability/metrics.ts';

/** Told of every finished tool call (metrics and the access log); `args` as the client sent them. */
export type ToolCallObserver = (call: CallOutcome, args: unknown) => void;

/**
 * Whether an operation is offered as a tool. An operation with `files` (the document upload) takes a binary as
 * multipart/form-data, which MCP's JSON arguments cannot carry: it stays REST-only.
 */
export const isTool = (operation: Operation): boolean => !operation.files?.length;

/** The operations offered as tools. */
export function toolOperations(operations: readonly Operation[]): Operation[] {
  return operations.filter(isTool);
}

/**
 * OpenAPI 3.0 marks a nullable value with `nullable: true`; MCP tool schemas are plain JSON Schema, where the same
 * thing is a `null` member of `type`. Everything else in the argument schemas reads the same in both dialects.
 */
export function toJsonSchemaDialect(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchemaDialect);
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, toJsonSchemaDialect(value)]));
  if (nullable === true && typeof converted.type === 'string') converted.type = [converted.type, 'null'];
  return converted;
}

/** The tool's input schema: the operation's arguments (path, query and body in one object), as REST documents them. */
export function toolInputSchema(operation: Operation): Tool['inputSchema'] {
  const { properties, required } = argumentSchema(operation);
  return {
    type: 'object',
    properties: toJsonSchemaDialect(properties) as Record<string, object>,
    // Like the OpenAPI document, no empty `required` list (older JSON Schema drafts forbid one).
    ...(required.length ? { required } : {}),
  };
}

/** The tool declaration of one operation. */
export function toolDefinition(operation: Operation): Tool {
  const deprecated = operation.deprecation
    ? `\n\nDeprecated since ${operation.deprecation.deprecation}; sunset ${operation.deprecation.sunset}.`
    : '';
  return {
    name: operation.name,
    title: operation.summary,
    description: `${operation.summary}.\n\n${operation.description}\n\nPrice: ${operation.pricing}. Ability: ${operation.ability}.${deprecated}`,
    inputSchema: toolInputSchema(operation),
    annotations: {
      title: operation.summary,
      readOnlyHint: operation.method === 'GET',
      // The tools read the service's own corpus, never the open web.
      openWorldHint: false,
    },
  };
}

/** A JSON value as a tool result: structured, and the same JSON as text for clients that read only text. */
function result(body: Record<string, unknown>, isError: boolean, meta?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    ...(isError ? { isError: true } : {}),
    ...(meta ? { _meta: meta } : {}),
  };
}

/** Any error as a tool error carrying the REST problem; what is not an ApiError is logged and served as 503. */
export function problemResult(error: unknown, config: Services['config']): CallToolResult {
  const apiError = error instanceof ApiError
    ? error
    : (console.error('juralite: unexpected error at the MCP edge:', error),
      unexpectedFailure(error));
  return result(problemBody(apiError, config), true);
}

/**
 * Runs one tool call as the caller identified by `authorization` (`Bearer <token>`): the answer body (envelope
 * included) on success, the problem as a tool error otherwise. Never throws.
 */
export async function callTool(
  operation: Operation, args: unknown, authorization: string | null | undefined, services: Services,
  onCall?: ToolCallObserver,
): Promise<CallToolResult> {
  const started = performance.now();
  const observe = (status: number, cost: number, code?: string) => onCall?.({
    operation: operation.name, transport: 'mcp', status, cost, code, seconds: (performance.now() - started) / 1000,
  }, args);
  try {
    const answer = await execute(operation, { authorization, args: args ?? {} }, services);
    observe(answer.status, answer.body.credits.cost);
    return result(answer.body, false, operation.deprecation && { ...operation.deprecation });
  } catch (error) {
    const problem = problemResult(error, services.config);
    const { status, code } = problem.structuredContent as { status: number; code: string };
    observe(status, 0, code);
    return problem;
  }
}
