/**
 * The MCP server over stdio, as `juralite mcp` runs it: a child process on the same database files as a REST server,
 * acting with JURALITE_TOKEN, driven by the SDK's own client.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startApi, type Api } from '../helpers/api.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { connectStdio, STDIO_SERVER, stdioEnv, structured, withoutCredits } from './helpers.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { toolDefinition } from '../../src/mcp/tools.ts';
import { mcpTokenFromEnv, runStdioServer } from '../../src/mcp/stdio.ts';
import { defineOperation } from '../../src/operations/operation.ts';
import { revokeToken } from '../../src/accounts/tokens.ts';

let api: Api;
let org: ReturnType<Api['org']>;
let token: string;
let client: Client;

before(async () => {
  api = await startApi();
  org = api.org();
  token = org.token(['read']);
  client = await connectStdio(api, token);
});
after(async () => {
  await client?.close();
  await api.close();
});

test('tools/list over stdio: the tools generated from the registry, the upload left out', async () => {
  const { tools } = await client.listTools();
  const expected = OPERATIONS.filter((operation) => !operation.files).map(toolDefinition);
  assert.deepEqual(tools, JSON.parse(JSON.stringify(expected)));
  assert.equal(tools.length, 13);
});

test('get_decision, get_corpus_coverage and list_facets over stdio answer as REST does, apart from credits', async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['get_decision', { id: SMALL.bgh.ecli, section: 'Tenor' }, `/api/v1/decisions/${encodeURIComponent(SMALL.bgh.ecli)}?section=Tenor`],
    ['get_corpus_coverage', { top: 2 }, '/api/v1/corpus/coverage?top=2'],
    ['list_facets', { field: 'branch' }, '/api/v1/corpus/facets/branch'],
  ];
  for (const [name, args, path] of cases) {
    const rest = await api.call('GET', path, { token });
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(withoutCredits(structured(result)), withoutCredits(rest.body), name);
  }
});

test('over stdio too, a result paid over REST is free over MCP and the other way round', async () => {
  const start = org.balance();
  const rest = await api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=700`, { token });
  assert.equal(rest.body.credits.cost, 1);
  const free = structured(await client.callTool({ name: 'get_decision', arguments: { id: SMALL.bgh.id, max_chars: 700 } }));
  assert.deepEqual(free.credits, { metered: true, cost: 0, credits_remaining: start - 1 });
  const paid = structured(await client.callTool({ name: 'get_decision', arguments: { id: SMALL.bgh.id, max_chars: 701 } }));
  assert.deepEqual(paid.credits, { metered: true, cost: 1, credits_remaining: start - 2 });
  const again = await api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=701`, { token });
  assert.deepEqual(again.body.credits, { metered: true, cost: 0, credits_remaining: start - 2 });
  assert.equal(org.balance(), start - 2);
});

test('over stdio, a missing ability is a tool error carrying token_ability_missing', async () => {
  const result = await client.callTool({ name: 'search', arguments: { query: 'Mietminderung' } });
  assert.equal(result.isError, true);
  const problem = structured(result);
  assert.equal(problem.status, 403);
  assert.equal(problem.code, 'token_ability_missing');
  assert.equal(problem.required_ability, 'search');
});

test('a missing or refused JURALITE_TOKEN stops the stdio server before it serves anything', () => {
  assert.throws(() => mcpTokenFromEnv({}), /JURALITE_TOKEN is not set/);
  assert.throws(() => mcpTokenFromEnv({ JURALITE_TOKEN: '  ' }), /JURALITE_TOKEN is not set/);
  const revoked = org.token(['read']);
  revokeToken(api.services.state, revoked.slice(3, 19), api.now());
  const cases = [['', /JURALITE_TOKEN is not set/], ['nonsense', /JURALITE_TOKEN was refused \(unauthenticated\)/], [revoked, /revoked/]] as const;
  for (const [value, message] of cases) {
    const child = spawnSync(process.execPath, [STDIO_SERVER], { env: stdioEnv(api, value), input: '', encoding: 'utf8', timeout: 10_000 });
    assert.equal(child.status, 1, child.stderr);
    assert.match(child.stderr, message);
    assert.equal(child.stdout, '');
  }
});

test('when the client closes stdin, requests already read are still answered before the server stops', async () => {
  const slow = defineOperation({
    name: 'slow_echo', summary: 'Echo slowly', description: 'Waits, then echoes.', pricing: 'free', method: 'GET', path: '/slow-echo',
    ability: 'read', errors: [], args: v.object({ text: v.string() }), price: () => 0,
    handler: async (args) => {
      await sleep(100);
      return { echo: args.text };
    },
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk) => { written += chunk; });
  const running = runStdioServer(api.services, token, { stdin, stdout, operations: [slow] });
  stdin.end([
    { jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_echo', arguments: { text: 'Rn. 12' } } },
  ].map((message) => JSON.stringify(message)).join('\n') + '\n');
  await running;
  const answers = written.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(answers.map((answer) => answer.id), [1, 2]);
  assert.equal(answers[1].result.structuredContent.echo, 'Rn. 12');
  assert.equal(answers[1].result.structuredContent.credits.cost, 0);
});
