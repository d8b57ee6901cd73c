/**
 * Hostile input on all eleven REST endpoints: generated arguments (fast-check, fixed seed) mixing plausible values
 * with wrong types, empty and huge values, NUL, lone surrogates, RTL marks, combining characters, path traversal and
 * FTS5 syntax; undecodable path segments; broken JSON bodies. Every answer must be a success with the envelope or a
 * problem+json whose status the operation declares and whose code belongs to that status; a refusal charges
 * nothing; the server logs no unexpected error and keeps serving.
 *
 * Guards: argument validation before the handlers (src/operations/*, src/http/arguments.ts), the problem edge
 * (src/http/responses.ts, src/http/app.ts's onError), and that handlers raise ApiErrors rather than crash: an
 * unexpected exception in a handler becomes a 503 and a console.error, and both fail these tests.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startApi, type Api, type TestOrg } from '../helpers/api.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import type { Operation } from '../../src/operations/operation.ts';
import { argumentSchema, JSON_BODY_LIMIT, pathParameters } from '../../src/http/arguments.ts';
import { argumentsFor, nearlyValidArguments, NASTY_STRINGS, SEED } from './helpers/nasty.ts';
import { LEGAL_TEXT, PLAUSIBLE, VALID_BASE } from './helpers/plausible.ts';
import { buildRequest, requestOptions } from './helpers/requests.ts';
import { assertAnswer, assertServing, tokenPool, withLoggedErrors } from './helpers/problems.ts';

let api: Api;
let org: TestOrg;
let token: () => string;

before(async () => {
  api = await startApi({ corpus: 'demo' });
  org = api.org({ plan: 'enterprise' });
  token = tokenPool(org);
  // A run and an upload of this organization, so that generated reads of them can succeed too.
  const run = await api.call('POST', '/api/v1/citation-checks', { token: org.token(), body: { text: LEGAL_TEXT } });
  assert.equal(run.status, 200, JSON.stringify(run.body));
  const form = new FormData();
  form.append('file', new Blob([LEGAL_TEXT]), 'brief.txt');
  const upload = await fetch(`${api.url}/api/v1/citation-check-documents`, { method: 'POST', body: form, headers: { authorization: `Bearer ${org.token()}` } });
  assert.equal(upload.status, 202);
  VALID_BASE.get_citation_check = { run: run.body.id };
  VALID_BASE.get_citation_document = { document: ((await upload.json()) as { id: string }).id };
});
after(() => api.close());

const SEARCHES = new Set(['search', 'search_decisions']);

/** The statuses a request may be refused with: the operation's own, 404/405 where a path segment reroutes it. */
function allowedStatuses(operation: Operation, args: Record<string, unknown>): number[] {
  // `semantic` answers 503 by design until vectors exist (docs/status.md); any other 503 is a handler that crashed.
  const allowed = operation.errors.filter((status) => status !== 503 || (SEARCHES.has(operation.name) && args.mode === 'semantic'));
  // A segment like `..` or an empty id changes the route: then "no route" (404) or "wrong method" (405) is right.
  return pathParameters(operation.path).length ? [...allowed, 404, 405] : allowed;
}

for (const operation of OPERATIONS) {
  test(`${operation.method} ${operation.path} (${operation.name}): generated hostile arguments get a success or a declared problem, never a crash`, async () => {
    const names = Object.keys(argumentSchema(operation).properties);
    const { logged } = await withLoggedErrors(() => fc.assert(fc.asyncProperty(
      fc.oneof(
        { weight: 3, arbitrary: nearlyValidArguments(names, VALID_BASE[operation.name] ?? {}, PLAUSIBLE) },
        { weight: 2, arbitrary: argumentsFor(names, PLAUSIBLE) },
      ),
      requestOptions(operation),
      async (args, options) => {
        const request = buildRequest(operation, args, options);
        const balance = org.balance();
        const reply = await api.call(request.method, request.path, { token: token(), body: request.body });
        const label = `${request.method} ${request.path.slice(0, 160)} ${request.body?.slice(0, 160) ?? ''}`;
        assertAnswer(reply, allowedStatuses(operation, args), label);
        // A refusal charges nothing (the contract's "nothing was charged").
        if (reply.status >= 400) assert.equal(org.balance(), balance, `${label}: a refusal was charged`);
      },
    ), { numRuns: 60, seed: SEED, endOnFailure: true }));
    assert.deepEqual(logged, [], 'the server logged unexpected errors');
    await assertServing(api, org);
  });
}

test('FTS5 and query syntax in search queries: keyword and hybrid answer 200 or 422, never 503', async () => {
  const syntax = NASTY_STRINGS.filter((value) => /NEAR|["*:^(){}+\-\\']|AND|OR|NOT|§/.test(value));
  const { logged } = await withLoggedErrors(async () => {
    for (const path of ['/api/v1/decisions/search', '/api/v1/search']) {
      for (const mode of ['keyword', 'hybrid']) {
        for (const query of syntax) {
          for (const variant of [query, `Eigenbedarf ${query}`, `${query} Kündigung ${query}`]) {
            const url = `${path}?mode=${mode}&query=${encodeURIComponent(variant.replace(/[\ud800-\udfff]/g, '\ufffd'))}`;
            const reply = await api.call('GET', url, { token: token() });
            assertAnswer(reply, [422], url);
          }
        }
      }
    }
  });
  assert.deepEqual(logged, []);
});

test('every route refuses the other methods with 405 and an Allow header; unknown routes are 404 problems', async () => {
  for (const operation of OPERATIONS) {
    const path = `/api/v1${operation.path}`.replace(/\{\w+\}/g, 'x');
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      if (method === operation.method) continue;
      const reply = await api.call(method, path, { token: token() });
      assertAnswer(reply, [404, 405], `${method} ${path}`);
      if (reply.status === 405) assert.ok(reply.headers.get('allow')?.length, `${method} ${path}: no Allow`);
    }
  }
  // `/` and the pages' paths are the pages for people (test/web); everything else unknown is a 404 problem.
  for (const path of ['/api', '/api/v2/search', '/api/v1/', '/api/v1/decisions', '/api/v1/../../etc/passwd', '/api/v1/%2e%2e/%2e%2e/etc/passwd', '/mcp/x']) {
    assertAnswer(await api.call('GET', path, { token: token() }), [404], path);
  }
});

test('JSON bodies: over the size limit, declared too large, wrong content types, deeply nested: 422 on body or an argument', async () => {
  const cases: [string, { body: string; headers?: Record<string, string> }][] = [
    ['1 MB + 1', { body: `{"text": "${'x'.repeat(JSON_BODY_LIMIT)}"}` }],
    ['text/plain', { body: '{"ids": ["x"]}', headers: { 'content-type': 'text/plain' } }],
    ['form', { body: 'ids=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ['multipart', { body: '--b\r\n\r\n--b--', headers: { 'content-type': 'multipart/form-data; boundary=b' } }],
    ['nested arrays', { body: `${'['.repeat(200_000)}${']'.repeat(200_000)}` }],
    ['nested objects', { body: `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}` }],
    ['lone surrogate escapes', { body: '{"ids": ["\\ud800"], "text": "\\udc00"}' }],
  ];
  for (const path of ['/api/v1/citation-checks', '/api/v1/datapackages']) {
    for (const [name, request] of cases) {
      const reply = await api.call('POST', path, { token: token(), ...request });
      assertAnswer(reply, [404, 422], `${path} ${name}`);
    }
  }
  await assertServing(api, org);
});
