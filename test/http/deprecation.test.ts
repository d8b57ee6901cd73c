import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from '../helpers/api.ts';
import { OPERATIONS } from '../../src/operations/index.ts';

test('an operation announced for removal carries Deprecation and Sunset on answers and problems', async () => {
  const deprecation = { deprecation: '@1798761600', sunset: 'Fri, 01 Jan 2027 00:00:00 GMT' };
  const operations = OPERATIONS.map((operation) => operation.name === 'get_decision' ? { ...operation, deprecation } : operation);
  const api = await startApi({ operations });
  try {
    const token = api.org().token(['read']);
    const ok = await api.call('GET', '/api/v1/decisions/VIII%20ZR%20123%2F19', { token });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('deprecation'), deprecation.deprecation);
    assert.equal(ok.headers.get('sunset'), deprecation.sunset);
    const problem = await api.call('GET', '/api/v1/decisions/nothing', { token });
    assert.equal(problem.status, 404);
    assert.equal(problem.headers.get('sunset'), deprecation.sunset);
    const other = await api.call('GET', '/api/v1/corpus/coverage', { token });
    assert.equal(other.headers.get('sunset'), null);
    const openapi = await api.call('GET', '/api/v1/openapi.json');
    assert.equal(openapi.body.paths['/decisions/{id}'].get.deprecated, true);
  } finally {
    await api.close();
  }
});
