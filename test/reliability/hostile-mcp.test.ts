/**
 * Hostile input on the MCP tools, over Streamable HTTP (/mcp of the real app) and over stdio (`juralite mcp` in a
 * child process): generated tool arguments, malformed tools/call requests, JSON-RPC garbage.
 *
 * Guards: tool calls run the same validated, metered path as REST (src/mcp/tools.ts → execute), so a hostile
 * argument is a tool error carrying a declared problem, never a crash or a 503; a malformed request is a JSON-RPC
 * error the client can act on (-32602 Invalid params, src/mcp/server.ts), never an internal error (-32603); garbage
 * on either transport leaves the server serving.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { startApi, type Api, type TestOrg } from '../helpers/api.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { argumentSchema } from '../../src/http/arguments.ts';
import { toolOperations } from '../../src/mcp/tools.ts';
import { argumentsFor, nearlyValidArguments, SEED } from './helpers/nasty.ts';
import { LEGAL_TEXT, PLAUSIBLE, VALID_BASE } from './helpers/plausible.ts';
import { assertProblemBody, assertServing, tokenPool, withLoggedErrors } from './helpers/problems.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
let api: Api;
let org: TestOrg;
let token: () => string;
let nextId = 1;

before(async () => {
  api = await startApi({ corpus: 'demo' });
  org = api.org({ plan: 'enterprise' });
  token = tokenPool(org);
});
after(() => api.close());

interface RpcReply { status: number; type: string; body: any }

/** One JSON-RPC POST to /mcp (the stateless endpoint needs no session), as any HTTP client could send it. */
async function rpc(body: string, bearer = token()): Promise<RpcReply> {
  const response = await fetch(`${api.url}/mcp`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* kept as text for the assertion message */ }
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: parsed };
}

const toolCall = (name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } });

for (const operation of toolOperations(OPERATIONS)) {
  test(`tool ${operation.name}: generated hostile arguments give a result or a tool error with a declared problem`, async () => {
    const names = Object.keys(argumentSchema(operation).properties);
    const { logged } = await withLoggedErrors(() => fc.assert(fc.asyncProperty(
      fc.oneof(
        { weight: 3, arbitrary: nearlyValidArguments(names, VALID_BASE[operation.name] ?? {}, PLAUSIBLE) },
        { weight: 2, arbitrary: argumentsFor(names, PLAUSIBLE) },
      ),
      async (args) => {
        const reply = await rpc(toolCall(operation.name, args));
        const label = `${operation.name} ${JSON.stringify(args).slice(0, 300)}`;
        assert.equal(reply.status, 200, `${label}: ${JSON.stringify(reply.body).slice(0, 300)}`);
        const result = reply.body.result;
        assert.ok(result, `${label}: no result: ${JSON.stringify(reply.body).slice(0, 300)}`);
        if (!result.isError) {
          assert.equal(typeof result.structuredContent?.credits?.cost, 'number', label);
          return;
        }
        const semantic = args.mode === 'semantic';
        const allowed = operation.errors.filter((status) => status !== 503 || semantic);
        assertProblemBody(result.structuredContent, result.structuredContent?.status, allowed, label);
      },
    ), { numRuns: 20, seed: SEED, endOnFailure: true }));
    assert.deepEqual(logged, []);
  });
}

test('malformed tools/call requests are Invalid params (-32602), never an internal error', async () => {
  const requests: [string, unknown][] = [
    ['arguments a string', { name: 'get_decision', arguments: 'x' }],
    ['arguments an array', { name: 'get_decision', arguments: [] }],
    ['arguments a number', { name: 'search', arguments: 5 }],
    ['arguments null', { name: 'search', arguments: null }],
    ['no name', { arguments: {} }],
    ['name a number', { name: 7, arguments: {} }],
    ['unknown tool', { name: 'drop_tables', arguments: {} }],
    ['prototype name', { name: '__proto__', arguments: {} }],
    ['the REST-only upload', { name: 'upload_citation_document', arguments: {} }],
  ];
  for (const [label, params] of requests) {
    const reply = await rpc(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }));
    assert.ok(reply.status < 500, `${label}: HTTP ${reply.status}`);
    assert.equal(reply.body?.error?.code, -32602, `${label}: ${JSON.stringify(reply.body).slice(0, 300)}`);
  }
  const missing = await rpc(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call' }));
  assert.equal(missing.body?.error?.code, -32602, JSON.stringify(missing.body).slice(0, 300));
  // params that are no object make no JSON-RPC request at all: the transport's parse error, before any handler.
  const stringParams = await rpc(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: 'get_decision' }));
  assert.equal(stringParams.status, 400);
  assert.equal(stringParams.body?.error?.code, -32700);
  await assertServing(api, org);
});

test('malformed params of initialize and tools/list are Invalid params (-32602) naming the param, never an internal error', async () => {
  const client = { capabilities: {}, clientInfo: { name: 'test', version: '1' } };
  const requests: [string, string, unknown, RegExp][] = [
    ['initialize without params', 'initialize', undefined, /params: /],
    ['initialize without protocolVersion', 'initialize', client, /params\.protocolVersion: /],
    ['initialize with a numeric protocolVersion', 'initialize', { ...client, protocolVersion: 20250618 }, /params\.protocolVersion: /],
    ['initialize without clientInfo', 'initialize', { protocolVersion: '2025-06-18', capabilities: {} }, /params\.clientInfo: /],
    ['tools/list with a numeric cursor', 'tools/list', { cursor: 5 }, /params\.cursor: /],
  ];
  for (const [label, method, params, names] of requests) {
    const reply = await rpc(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }));
    assert.equal(reply.body?.error?.code, -32602, `${label}: ${JSON.stringify(reply.body).slice(0, 300)}`);
    assert.match(reply.body.error.message, names, label);
  }
  const valid = await rpc(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'initialize', params: { ...client, protocolVersion: '2025-06-18' } }));
  assert.equal(valid.body?.result?.protocolVersion, '2025-06-18');
  const ping = await rpc(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'ping' }));
  assert.deepEqual(ping.body?.result, {});
});

test('JSON-RPC garbage on /mcp: a 4xx JSON answer, never a 5xx; the endpoint keeps serving', async () => {
  const bodies = [
    '', 'x', '{', '[]', '{}', 'null', '"x"', '{"jsonrpc":"2.0"}', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":{},"method":"tools/list"}', '{"jsonrpc":"2.0","id":1,"method":"\\u0000"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}',
    JSON.stringify(Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }))),
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
    'x'.repeat(1024 * 1024 + 1),
  ];
  for (const body of bodies) {
    const reply = await rpc(body);
    const label = `${body.slice(0, 80)}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`;
    assert.ok(reply.status < 500, label);
    if (reply.status !== 202) assert.match(reply.type, /json/, label);
  }
  const list = await rpc(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/list' }));
  assert.equal(list.body.result.tools.length, toolOperations(OPERATIONS).length);
});

test('stdio: garbage lines are answered with JSON-RPC errors and do not end `juralite mcp`; valid requests after them are answered', async () => {
  const lines = [
    'not json', '{', '{}', '[]', '{"jsonrpc":"2.0","id":1}', '\u0000\u0001', 'x'.repeat(100_000),
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_decision', arguments: 'x' } }),
    JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_decision', arguments: { id: '../../etc/passwd\u0000' } } }),
    JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search', arguments: { query: 'NEAR("a" *' } } }),
    JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'check_citations', arguments: { text: `${LEGAL_TEXT}\ud800\u202e` } } }),
    JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }),
  ];
  const child = spawn(process.execPath, [BIN, 'mcp', '--db', await demoCorpus(), '--state', join(api.dir, 'state.db')], {
    env: { PATH: process.env.PATH ?? '', JURALITE_TOKEN: org.token() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  // A hang guard only: the child ends once stdin is closed and every request is answered.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await exited;
  clearTimeout(timer);
  assert.equal(code, 0, stderr);
  const messages = stdout.trim().split('\n').map((line) => JSON.parse(line));
  // Each unreadable line is answered with the null id (JSON-RPC 2.0): not JSON -32700, not a JSON-RPC message -32600.
  assert.deepEqual(messages.filter((message) => message.id === null).map((message) => message.error?.code),
    [-32700, -32700, -32600, -32600, -32600, -32700, -32700]);
  const answers = new Map(messages.map((message) => [message.id, message]));
  assert.ok(answers.get(1)?.result?.serverInfo, 'initialize answered');
  assert.equal(answers.get(2)?.error?.code, -32602);
  assert.equal(answers.get(3)?.result?.structuredContent?.code, 'not_found');
  for (const id of [4, 5]) assert.equal(answers.get(id)?.result?.isError, undefined, JSON.stringify(answers.get(id)).slice(0, 300));
  assert.equal(answers.get(6)?.result?.tools?.length, toolOperations(OPERATIONS).length);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
});
