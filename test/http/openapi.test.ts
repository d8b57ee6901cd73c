import { test } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startApi } from '../helpers/api.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { STATUS_OF } from '../../src/errors.ts';
import { loadConfig } from '../../src/config.ts';

test('GET /api/v1/openapi.json is a valid OpenAPI 3.0 document listing all operations (the contract\'s eleven and those v1 grew)', async () => {
  const api = await startApi({ corpus: 'none' });
  try {
    const reply = await api.call('GET', '/api/v1/openapi.json');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('x-service-api-release'), api.services.config.release);
    const document = reply.body;
    assert.match(document.openapi, /^3\.0\./);
    await SwaggerParser.validate(structuredClone(document));
    assert.deepEqual(document.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer' });
    const operations = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
    assert.equal(operations.length, 14);
    assert.deepEqual(operations.sort(), OPERATIONS.map((operation) => operation.name).sort());
    assert.deepEqual(Object.keys(document.paths).sort(), [
      '/citation-check-documents', '/citation-check-documents/{document}', '/citation-checks', '/citation-checks/{run}',
      '/corpus/coverage', '/corpus/facets/{field}', '/datapackages', '/decisions/search', '/decisions/{id}',
      '/decisions/{id}/citations', '/search',
      // Grown in v1 (docs/status.md).
      '/account', '/decisions/{id}/text-citations', '/laws/{law}/units/{unit}',
    ].sort());
    // Parameters come from the same schemas that validate: get_decision's query parameters and defaults.
    const getDecision = document.paths['/decisions/{id}'].get;
    const names = getDecision.parameters.map((parameter: { name: string }) => parameter.name);
    assert.deepEqual(names, ['id', 'max_chars', 'rn_from', 'rn_to', 'section', 'court', 'date']);
    const maxChars = getDecision.parameters.find((parameter: { name: string }) => parameter.name === 'max_chars');
    assert.equal(maxChars.schema.default, 40000);
    assert.equal(maxChars.schema.minimum, 500);
    assert.deepEqual(Object.keys(getDecision.responses).sort(), ['200', '401', '402', '403', '404', '409', '422', '429', '503']);
    const upload = document.paths['/citation-check-documents'].post;
    assert.ok(upload.requestBody.content['multipart/form-data']);
    assert.ok(upload.responses['202']);
    // Lengths the checks count in code points are stated as JSON Schema counts them (code points too).
    const query = document.paths['/decisions/search'].get.parameters.find((parameter: { name: string }) => parameter.name === 'query');
    assert.deepEqual([query.schema.minLength, query.schema.maxLength], [2, 500]);
    const text = document.paths['/citation-checks'].post.requestBody.content['application/json'].schema.properties.text;
    assert.deepEqual([text.minLength, text.maxLength], [50, 20000]);
    // Each description names the operation's MCP tool; the upload, which has none, says so.
    assert.match(upload.description, /Not an MCP tool/);
    assert.match(getDecision.description, /MCP tool: `get_decision`/);
    assert.match(getDecision.description, /Price: 1 credit; the same call again in the same month costs nothing\./);
    assert.equal(getDecision.responses['429'].headers['Retry-After'].schema.type, 'integer');
    assert.ok(getDecision.responses['401'].headers['WWW-Authenticate']);
  } finally {
    await api.close();
  }
});

test('the pages answers link to are served by the service: every problem type and the changelog', async () => {
  const api = await startApi({ corpus: 'none' });
  try {
    const problem = await api.call('GET', '/api/v1/corpus/coverage');
    assert.equal(problem.status, 401);
    const type = new URL(problem.body.type);
    assert.equal(type.hash, '#unauthenticated');
    const errors = await api.call('GET', type.pathname);
    assert.equal(errors.status, 200);
    assert.match(errors.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(errors.headers.get('x-service-api-release'), api.services.config.release);
    for (const code of Object.keys(STATUS_OF)) assert.ok(errors.body.includes(`id="${code}"`), code);
    const changelog = await api.call('GET', new URL(api.services.config.changelogUrl).pathname);
    assert.equal(changelog.status, 200);
    assert.ok(changelog.body.includes(`id="${api.services.config.release}"`), 'the serving release has its entry');
  } finally {
    await api.close();
  }
});

test('without JURALITE_PUBLIC_URL, links point at the address the server listens on', () => {
  assert.equal(loadConfig({}).publicUrl, 'http://127.0.0.1:8080');
  assert.equal(loadConfig({}, { host: '0.0.0.0', port: 9000 }).changelogUrl, 'http://127.0.0.1:9000/docs/changelog');
  assert.equal(loadConfig({}, { host: '::', port: 9000 }).docsUrl, 'http://[::1]:9000/docs');
  assert.equal(loadConfig({ JURALITE_PUBLIC_URL: 'https://recht.example/' }, { host: '0.0.0.0', port: 9000 }).publicUrl, 'https://recht.example');
});
