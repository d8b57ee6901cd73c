import { API_BASE, type Config } from '../config.ts';
import type { Operation } from '../operations/operation.ts';
import { STATUS_CODES } from 'node:http';
import { toJsonSchema } from '@valibot/to-json-schema';
import { argumentSchema, pathParameters } from './arguments.ts';
import { isTool } from '../mcp/tools.ts';

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

/** Headers some problems carry besides the body. */
const PROBLEM_HEADERS: Partial<Record<number, Record<string, unknown>>> = {
  401: { 'WWW-Authenticate': { description: 'The scheme that would succeed: Bearer', schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'Seconds until a call may succeed (as retry_after_seconds)', schema: { type: 'integer' } } },
};

const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    cost: { type: 'integer', description: '402 only' },
    balance: { type: 'integer', description: '402 only' },
    required_ability: { type: 'string', description: '403 token_ability_missing only' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: '422 only' },
    retry_after_seconds: { type: 'integer', description: '429' },
    unit: { type: 'string', enum: ['rows', 'documents'], description: '429 volume_cap' },
    cap: { type: 'integer', description: '429 volume_cap' },
    resets_at: { type: 'string', format: 'date-time', description: '429 volume_cap' },
  },
};

const envelopeSchema = {
  type: 'object',
  required: ['api_version', 'changelog_url', 'credits'],
  properties: {
    api_version: { type: 'string' },
    changelog_url: { type: 'string', format: 'uri' },
    credits: {
      type: 'object',
      required: ['metered', 'cost', 'credits_remaining'],
      properties: { metered: { type: 'boolean' }, cost: { type: 'integer' }, credits_remaining: { type: 'integer' } },
    },
  },
  additionalProperties: true,
};

/** The component naming an operation's success answer: `search_decisions` → `SearchDecisionsAnswer`. */
export const answerComponent = (operation: Operation) =>
  `${operation.name.replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase())}Answer`;

/**
 * An operation's success answer: its declared fields (`operation.answer`, the same valibot schema a test holds real
 * answers to) with the envelope's; without a declaration, the envelope alone.
 */
function answerSchema(operation: Operation): Record<string, unknown> {
  if (!operation.answer) return envelopeSchema;
  const fields = toJsonSchema(operation.answer, { target: 'openapi-3.0', typeMode: 'output', errorMode: 'ignore' }) as {
    properties: Record<string, unknown>; required?: string[];
  };
  return {
    type: 'object',
    description: `${operation.summary}: the answer of ${operation.name}, with the envelope (api_version, changelog_url, credits).`,
    required: [...new Set([...(fields.required ?? []), ...envelopeSchema.required])],
    properties: { ...fields.properties, ...envelopeSchema.properties },
  };
}

function operationObject(operation: Operation) {
  const { properties, required } = argumentSchema(operation);
  const inPath = pathParameters(operation.path);
  const parameter = (name: string, location: 'path' | 'query') => {
    const { description, ...schema } = properties[name] ?? { type: 'string' };
    return { name, in: location, required: location === 'path' || required.includes(name), description, schema };
  };
  const bodyNames = Object.keys(properties).filter((name) => !inPath.includes(name));
  const parameters = [
    ...inPath.map((name) => parameter(name, 'path')),
    ...(operation.method === 'GET' ? bodyNames.map((name) => parameter(name, 'query')) : []),
  ];
  const bodyRequired = required.filter((name) => bodyNames.includes(name));
  const bodySchema = {
    type: 'object',
    properties: Object.fromEntries(bodyNames.map((name) => [name, operation.files?.includes(name)
      ? { type: 'string', format: 'binary', description: properties[name]?.description }
      : properties[name]])),
    // OpenAPI 3.0 forbids an empty `required` list.
    ...(bodyRequired.length ? { required: bodyRequired } : {}),
  };
  const requestBody = operation.method === 'POST'
    ? { required: true, content: { [operation.files ? 'multipart/form-data' : 'application/json']: { schema: bodySchema } } }
    : undefined;
  const success = String(operation.status ?? 200);
  return {
    operationId: operation.name,
    summary: operation.summary,
    description: `${operation.description}\n\nPrice: ${operation.pricing}. Ability: \`${operation.ability}\`. ${isTool(operation)
      ? `MCP tool: \`${operation.name}\`.`
      : 'Not an MCP tool (MCP\'s JSON arguments cannot carry the file): upload here, then read and check the document over MCP.'}`,
    'x-ability': operation.ability,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    ...(operation.deprecation ? { deprecated: true } : {}),
    responses: {
      [success]: {
        description: STATUS_CODES[Number(success)],
        headers: { 'X-Service-Api-Release': { schema: { type: 'string' } } },
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${answerComponent(operation)}` } } },
      },
      ...Object.fromEntries(operation.errors.map((status) => [String(status), {
        description: STATUS_CODES[status],
        ...(PROBLEM_HEADERS[status] ? { headers: PROBLEM_HEADERS[status] } : {}),
        content: { 'application/problem+json': { schema: PROBLEM_REF } },
      }])),
    },
  };
}

/**
 * The OpenAPI 3.0 document, generated from the operations registry: one path per operation, argument schemas from
 * the same valibot schemas that validate requests, bearer security everywhere.
 */
export function openApiDocument(operations: readonly Operation[], config: Config): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = operationObject(operation);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'juralite API',
      version: config.release,
      description: 'Legal research over German court decisions and German, EU and international statutes.',
    },
    servers: [{ url: API_BASE }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Problem: problemSchema,
        Envelope: envelopeSchema,
        ...Object.fromEntries(operations.map((operation) => [answerComponent(operation), answerSchema(operation)])),
      },
    },
  };
}
