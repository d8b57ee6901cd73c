import { test } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startApi } from '../helpers/api.ts';
import { OPERATIONS } from '../../src/operations/index.ts';

test('GET /api/v1/openapi.json is a valid OpenAPI 3.0 document listing all eleven operations', async () => {
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
    assert.equal(operations.length, 11);
    assert.deepEqual(operations.sort(), OPERATIONS.map((operation) => operation.name).sort());
    assert.deepEqual(Object.keys(document.paths).sort(), [
      '/citation-check-documents', '/citation-check-documents/{document}', '/citation-checks', '/citation-checks/{run}',
      '/corpus/coverage', '/corpus/facets/{field}', '/datapackages', '/decisions/search', '/decisions/{id}',
      '/decisions/{id}/citations', '/search',
    ]);
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
  } finally {
    await api.close();
  }
});
