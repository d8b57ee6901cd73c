/**
 * The MCP server over Streamable HTTP at /mcp, driven by the SDK's own client: the tools are the REST operations
 * (same names, same argument schemas as the OpenAPI document), answers equal the REST answers, money and limits are
 * shared with REST, and refusals arrive as tool errors carrying the REST problem.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcpApi, connectHttp, structured, withoutCredits, type McpApi } from './helpers.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { OPERATIONS } from '../../src/operations/index.ts';

let mcp: McpApi;

before(async () => {
  mcp = await startMcpApi();
});
after(() => mcp.close());

const client = (token: string) => mcp.connect(token);

/** OpenAPI 3.0 `nullable: true` as JSON Schema's `null` type member (the dialect MCP tool schemas use). */
function jsonSchemaDialect(schema: any): any {
  if (Array.isArray(schema)) return schema.map(jsonSchemaDialect);
  if (!schema || typeof schema !== 'object') return schema;
  const out: any = {};
  for (const [key, value] of Object.entries(schema)) if (key !== 'nullable') out[key] = jsonSchemaDialect(value);
  if (schema.nullable === true) out.type = [schema.type, 'null'];
  return out;
}

/** The arguments of an OpenAPI operation as one object schema: path and query parameters, or the JSON body. */
function argumentsOf(operation: any): { type: 'object'; properties: any; required?: string[] } {
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body) return jsonSchemaDialect({ type: 'object', properties: body.properties, ...(body.required ? { required: body.required } : {}) });
  const parameters: any[] = operation.parameters ?? [];
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return jsonSchemaDialect({
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name,
      { ...parameter.schema, ...(parameter.description !== undefined ? { description: parameter.description } : {}) }])),
    ...(required.length ? { required } : {}),
  });
}

test('tools/list: one tool per operation (the upload stays REST-only), arguments as in the OpenAPI document', async () => {
  const openapi = (await mcp.api.call('GET', '/api/v1/openapi.json')).body;
  const byName = new Map<string, { method: string; operation: any }>();
  for (const item of Object.values<any>(openapi.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) byName.set(operation.operationId, { method, operation });
  }
  // A token with no ability to call anything may still list the tools.
  const { tools } = await (await client(mcp.api.org().token(['graph']))).listTools();
  const expected = OPERATIONS.filter((operation) => !operation.files).map((operation) => operation.name);
  assert.deepEqual(tools.map((tool) => tool.name), expected);
  assert.equal(tools.length, 13);
  assert.ok(!tools.some((tool) => tool.name === 'upload_citation_document'));
  for (const tool of tools) {
    const rest = byName.get(tool.name);
    assert.ok(rest, `${tool.name} is an OpenAPI operation`);
    assert.deepEqual(tool.inputSchema, argumentsOf(rest.operation), tool.name);
    assert.equal(tool.annotations?.readOnlyHint, rest.method === 'get', tool.name);
    assert.ok(tool.description?.startsWith(`${rest.operation.summary}.`), tool.name);
    assert.ok(tool.description?.includes(rest.operation.description.split('\n\n')[0]), tool.name);
    const { pricing } = OPERATIONS.find((operation) => operation.name === tool.name)!;
    assert.ok(tool.description?.includes(`Price: ${pricing}.`) && rest.operation.description.includes(`Price: ${pricing}.`), `${tool.name} states its price`);
  }
  const check = tools.find((tool) => tool.name === 'check_citations')!;
  assert.deepEqual((check.inputSchema.properties as any).reference_date.type, ['string', 'null']);
});

test('/mcp without a valid token: 401 problem before any MCP processing; GET is 405', async () => {
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  for (const authorization of [undefined, 'Bearer nonsense', `Bearer jl_0123456789abcdef_${'A'.repeat(43)}`]) {
    const response = await fetch(mcp.mcpUrl, { method: 'POST', body: initialize,
      headers: authorization ? { ...headers, authorization } : headers });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(response.headers.get('x-service-api-release'), mcp.api.services.config.release);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
    const body: any = await response.json();
    assert.equal(body.status, 401);
    assert.equal(body.code, 'unauthenticated');
    assert.equal(body.type, `${mcp.api.services.config.docsUrl}/api/errors#unauthenticated`);
    assert.equal(typeof body.title, 'string');
    assert.equal(typeof body.detail, 'string');
  }
  await assert.rejects(connectHttp(mcp.mcpUrl, 'nonsense'));
  const get = await fetch(mcp.mcpUrl, { headers: { accept: 'text/event-stream', authorization: `Bearer ${mcp.api.org().token(['read'])}` } });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  assert.equal(((await get.json()) as any).code, 'method_not_allowed');
});

test('get_decision, get_corpus_coverage and list_facets answer exactly as REST does, apart from credits', async () => {
  const org = mcp.api.org();
  const token = org.token(['read']);
  const mcpClient = await client(token);
  const cases: [string, Record<string, unknown>, string][] = [
    ['get_decision', { id: SMALL.bgh.id, max_chars: 900 }, `/api/v1/decisions/${SMALL.bgh.id}?max_chars=900`],
    ['get_decision', { id: SMALL.lgBerlin.az, court: 'LG Berlin' },
      `/api/v1/decisions/${encodeURIComponent(SMALL.lgBerlin.az)}?court=LG%20Berlin`],
    ['get_decision', { id: SMALL.bgh.az, rn_from: 2, rn_to: 3 }, `/api/v1/decisions/${encodeURIComponent(SMALL.bgh.az)}?rn_from=2&rn_to=3`],
    ['get_corpus_coverage', {}, '/api/v1/corpus/coverage'],
    ['get_corpus_coverage', { top: 1, branch: 'ordentlich' }, '/api/v1/corpus/coverage?top=1&branch=ordentlich'],
    ['list_facets', { field: 'court_name' }, '/api/v1/corpus/facets/court_name'],
    ['list_facets', { field: 'document_type', type: 'decision' }, '/api/v1/corpus/facets/document_type?type=decision'],
  ];
  for (const [name, args, path] of cases) {
    const rest = await mcp.api.call('GET', path, { token });
    assert.equal(rest.status, 200, `${path}: ${JSON.stringify(rest.body)}`);
    const result = await mcpClient.callTool({ name, arguments: args });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    const body = structured(result);
    assert.deepEqual(withoutCredits(body), withoutCredits(rest.body), name);
    assert.deepEqual(JSON.parse((result.content as any)[0].text), body);
    assert.equal(body.credits.metered, true);
  }
});

test('a result paid over REST is free over MCP in the same month, and the other way round', async () => {
  const org = mcp.api.org();
  const token = org.token(['read']);
  const mcpClient = await client(token);
  const start = org.balance();
  const rest = await mcp.api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=1000`, { token });
  assert.deepEqual(rest.body.credits, { metered: true, cost: 1, credits_remaining: start - 1 });
  const free = structured(await mcpClient.callTool({ name: 'get_decision', arguments: { id: SMALL.bgh.id, max_chars: 1000 } }));
  assert.deepEqual(free.credits, { metered: true, cost: 0, credits_remaining: start - 1 });
  const paid = structured(await mcpClient.callTool({ name: 'get_decision', arguments: { max_chars: 1001, id: SMALL.bgh.id } }));
  assert.deepEqual(paid.credits, { metered: true, cost: 1, credits_remaining: start - 2 });
  const again = await mcp.api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=1001`, { token: org.token(['read']) });
  assert.deepEqual(again.body.credits, { metered: true, cost: 0, credits_remaining: start - 2 });
  assert.equal(org.balance(), start - 2);
});

test('token_ability_missing arrives as a tool error with required_ability; nothing charged', async () => {
  const org = mcp.api.org();
  const before = org.balance();
  const result = await (await client(org.token(['search', 'graph']))).callTool({ name: 'get_decision', arguments: { id: SMALL.bgh.id } });
  assert.equal(result.isError, true);
  const problem = structured(result);
  assert.equal(problem.status, 403);
  assert.equal(problem.code, 'token_ability_missing');
  assert.equal(problem.required_ability, 'read');
  assert.equal(problem.type, `${mcp.api.services.config.docsUrl}/api/errors#token_ability_missing`);
  assert.match(problem.detail, /nothing was charged/i);
  assert.deepEqual(JSON.parse((result.content as any)[0].text), problem);
  // The same problem as REST gives, field for field.
  const rest = await mcp.api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}`, { token: org.token(['search', 'graph']) });
  assert.deepEqual(problem, rest.body);
  assert.equal(org.balance(), before);
});

test('insufficient_credits arrives as a tool error with cost and balance', async () => {
  const org = mcp.api.org();
  org.spendAll();
  const result = await (await client(org.token(['read']))).callTool({ name: 'get_decision', arguments: { id: SMALL.bgh.id } });
  assert.equal(result.isError, true);
  const problem = structured(result);
  assert.equal(problem.status, 402);
  assert.equal(problem.code, 'insufficient_credits');
  assert.equal(problem.cost, 1);
  assert.equal(problem.balance, 0);
});

test('rate_limited: REST and MCP calls of one token share the 60-a-minute window', async () => {
  const real = mcp.api.now();
  mcp.api.setNow(new Date(Math.floor(real.getTime() / 60_000) * 60_000 + 1_000));
  try {
    const org = mcp.api.org();
    const token = org.token(['read']);
    const mcpClient = await client(token);
    const before = org.balance();
    // Refusals at 422 count: 30 over REST and 30 over MCP use the minute up without charge.
    const rest = await Promise.all(Array.from({ length: 30 }, () =>
      mcp.api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=1`, { token })));
    assert.ok(rest.every((reply) => reply.status === 422));
    for (let call = 0; call < 30; call++) {
      const result = await mcpClient.callTool({ name: 'get_decision', arguments: { id: SMALL.bgh.id, max_chars: 1 } });
      assert.equal(structured(result).code, 'validation_failed');
    }
    const limited = await mcpClient.callTool({ name: 'get_decision', arguments: { id: SMALL.bgh.id } });
    assert.equal(limited.isError, true);
    const problem = structured(limited);
    assert.equal(problem.status, 429);
    assert.equal(problem.code, 'rate_limited');
    assert.ok(Number.isInteger(problem.retry_after_seconds) && problem.retry_after_seconds >= 1);
    assert.equal((await mcp.api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}`, { token })).status, 429);
    assert.equal(org.balance(), before);
  } finally {
    mcp.api.setNow(real);
  }
});

test('validation_failed arrives as a tool error with messages keyed by argument', async () => {
  const result = await (await client(mcp.api.org().token(['read']))).callTool({
    name: 'get_decision', arguments: { id: SMALL.bgh.id, max_chars: 'abc', rn_from: 0, date: '2020-13-45' },
  });
  assert.equal(result.isError, true);
  const problem = structured(result);
  assert.equal(problem.status, 422);
  assert.equal(problem.code, 'validation_failed');
  assert.deepEqual(Object.keys(problem.errors).sort(), ['date', 'max_chars', 'rn_from']);
  assert.doesNotMatch(problem.detail, /nothing was charged/i);
});

test('unknown tools and the REST-only upload are protocol errors', async () => {
  const mcpClient = await client(mcp.api.org().token());
  // The client prefixes "MCP error -32602: " once; the server's message carries no prefix of its own (issue 31).
  await assert.rejects(mcpClient.callTool({ name: 'no_such_tool', arguments: {} }),
    (error: Error) => error.message === 'MCP error -32602: Unknown tool: no_such_tool.');
  await assert.rejects(mcpClient.callTool({ name: 'search', arguments: 'x' as never }),
    (error: Error) => /^MCP error -32602: Invalid tools\/call request/.test(error.message) && !/MCP error.*MCP error/.test(error.message));
  await assert.rejects(mcpClient.callTool({ name: 'upload_citation_document', arguments: {} }),
    /not offered over MCP.*POST \/api\/v1\/citation-check-documents/);
});

test('backend_unavailable (no corpus) arrives as a 503 tool error; nothing charged', async () => {
  const bare = await startMcpApi({ corpus: 'none' });
  try {
    const org = bare.api.org();
    const before = org.balance();
    const mcpClient = await bare.connect(org.token(['read']));
    const result = await mcpClient.callTool({ name: 'get_corpus_coverage', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(structured(result).status, 503);
    assert.equal(structured(result).code, 'backend_unavailable');
    assert.match(structured(result).detail, /nothing was charged/i);
    assert.equal(org.balance(), before);
  } finally {
    await bare.close();
  }
});

test('check_citations and get_citation_check answer as REST does; a check paid over REST is free over MCP', async () => {
  const org = mcp.api.org({ plan: 'starter' });
  const token = org.token(['citation-check']);
  const mcpClient = await client(token);
  const text = `Der Kläger stützt den Anspruch auf § 535 Abs. 1 BGB; vgl. BGH, Urteil vom 15. Januar 2020 - ${SMALL.bgh.az}, Rn. 3.`;
  const start = org.balance();
  const rest = await mcp.api.call('POST', '/api/v1/citation-checks', { token, body: { text } });
  assert.equal(rest.status, 200, JSON.stringify(rest.body));
  assert.deepEqual(rest.body.credits, { metered: true, cost: 2, credits_remaining: start - 2 });

  const checked = structured(await mcpClient.callTool({ name: 'check_citations', arguments: { text } }));
  assert.deepEqual(checked.credits, { metered: true, cost: 0, credits_remaining: start - 2 });
  // A new run (own id and timestamps), the same findings.
  const stable = ({ id: _id, submitted_at: _s, completed_at: _c, created_at: _a, credits: _cr, ...rest }: any) => rest;
  assert.notEqual(checked.id, rest.body.id);
  assert.deepEqual(stable(checked), stable(rest.body));
  assert.equal(checked.findings.find((f: any) => f.type === 'case').matched_decision.artifact_id, SMALL.bgh.id);

  const readBack = structured(await mcpClient.callTool({ name: 'get_citation_check', arguments: { run: rest.body.id } }));
  assert.deepEqual(withoutCredits(readBack), withoutCredits(rest.body));
  assert.deepEqual(readBack.credits, { metered: true, cost: 0, credits_remaining: start - 2 });

  const other = await client(mcp.api.org({ plan: 'starter' }).token(['citation-check']));
  const hidden = await other.callTool({ name: 'get_citation_check', arguments: { run: rest.body.id } });
  assert.equal(hidden.isError, true);
  assert.equal(structured(hidden).code, 'not_found');
});

test('get_citation_graph, create_datapackage, search_decisions and search answer as REST does on the demo corpus; paid over one, free over the other', async () => {
  const demo = await startMcpApi({ corpus: 'demo' });
  try {
    const org = demo.api.org({ plan: 'starter' });
    const token = org.token(['graph', 'datapackage', 'search']);
    const mcpClient = await demo.connect(token);
    const hub = '129e88d7-bf10-599d-810e-7f273f5b6839';
    const cases: [string, Record<string, unknown>, string, string, unknown?][] = [
      ['get_citation_graph', { id: hub, direction: 'incoming' }, 'GET', `/api/v1/decisions/${hub}/citations?direction=incoming`],
      ['get_citation_graph', { id: 'VIII ZR 44/21', depth: 2 }, 'GET', `/api/v1/decisions/${encodeURIComponent('VIII ZR 44/21')}/citations?depth=2`],
      ['create_datapackage', { ids: [hub, 'VIII ZR 44/21'], full_text: true, max_chars: 800 }, 'POST', '/api/v1/datapackages',
        { ids: [hub, 'VIII ZR 44/21'], full_text: true, max_chars: 800 }],
      ['search_decisions', { query: 'Eigenbedarf Härtefall', limit: 5 }, 'GET',
        `/api/v1/decisions/search?query=${encodeURIComponent('Eigenbedarf Härtefall')}&limit=5`],
      ['search_decisions', { query: 'Vermieter will mich rauswerfen', mode: 'hybrid', branch: 'ordentlich' }, 'GET',
        `/api/v1/decisions/search?query=${encodeURIComponent('Vermieter will mich rauswerfen')}&mode=hybrid&branch=ordentlich`],
      ['search', { query: '§ 573 BGB', jurisdiction: 'DE' }, 'GET', `/api/v1/search?query=${encodeURIComponent('§ 573 BGB')}&jurisdiction=DE`],
    ];
    for (const [name, args, method, path, body] of cases) {
      const start = org.balance();
      const rest = await demo.api.call(method, path, { token, body });
      assert.equal(rest.status, 200, `${path}: ${JSON.stringify(rest.body)}`);
      assert.ok(rest.body.credits.cost > 0);
      const result = await mcpClient.callTool({ name, arguments: args });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const answer = structured(result);
      // Apart from the envelope's credits and the moment it was assembled, the same answer.
      const comparable = ({ assembled_at: _at, ...rest }: any) => withoutCredits(rest);
      assert.deepEqual(comparable(answer), comparable(rest.body), name);
      assert.deepEqual(answer.credits, { metered: true, cost: 0, credits_remaining: start - rest.body.credits.cost }, name);
    }
  } finally {
    await demo.close();
  }
});

test('a /mcp body that is not valid UTF-8 is a JSON-RPC parse error naming the body; nothing run, nothing charged', async () => {
  const org = mcp.api.org({ plan: 'starter' });
  const token = org.token(['citation-check']);
  const text = `Der Kläger stützt den Anspruch auf § 535 Abs. 1 BGB; vgl. BGH, Urteil vom 15. Januar 2020 - ${SMALL.bgh.az}, Rn. 3.`;
  const call = (middle: Buffer) => Buffer.concat([
    Buffer.from(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"check_citations","arguments":{"text":${JSON.stringify(text).slice(0, -1)} `),
    middle, Buffer.from('"}}}')]);
  const post = async (body: Buffer) => {
    const response = await fetch(mcp.mcpUrl, { method: 'POST', body, headers: { authorization: `Bearer ${token}`,
      'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
    return { status: response.status, body: await response.json() as any };
  };
  const before = org.balance();
  // A stray byte, a truncated sequence, an encoded surrogate (CESU-8), an overlong '/': the SDK read them as U+FFFD.
  for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
    const reply = await post(call(Buffer.from(bad)));
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { jsonrpc: '2.0', id: null,
      error: { code: -32700, message: 'Parse error: the request body is not valid UTF-8 (send JSON encoded as UTF-8)' } });
  }
  assert.equal(org.balance(), before, 'nothing charged');
  const runs = () => (mcp.api.services.state.prepare('SELECT count(*) AS n FROM runs WHERE organization_id = ?').get(org.id) as { n: number }).n;
  assert.equal(runs(), 0, 'nothing run');
  // The same call in UTF-8 is run and charged.
  const good = await post(call(Buffer.from('ü', 'utf8')));
  assert.equal(good.status, 200, JSON.stringify(good.body));
  assert.equal(good.body.result.structuredContent.credits.cost, 2, JSON.stringify(good.body).slice(0, 300));
  assert.equal(runs(), 1);
  // Past the size limit the body is not read to its end: the transport's 413, bad bytes or not.
  const large = await post(call(Buffer.alloc(1024 * 1024, 0xff)));
  assert.equal(large.status, 413, JSON.stringify(large.body));
});
