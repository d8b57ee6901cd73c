/** A handler's unexpected error (a defect, not an ApiError): 503 backend_unavailable, saying once that nothing was charged. */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../helpers/api.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import type { Operation } from '../../src/operations/operation.ts';

let api: Api;
before(async () => {
  const operations = OPERATIONS.map((operation): Operation => (operation.name !== 'get_decision' ? operation : {
    ...operation, handler: () => { throw new TypeError('a defect on this input'); },
  }));
  api = await startApi({ operations });
});
after(() => api.close());

test('a defect in a handler is a 503 whose detail says once that nothing was charged; the balance is unchanged', async () => {
  const org = api.org({ plan: 'enterprise' });
  const start = org.balance();
  const errors: unknown[] = [];
  const logged = console.error;
  console.error = (...args: unknown[]) => { errors.push(args); };
  try {
    const reply = await api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}`, { token: org.token(['read']) });
    assert.equal(reply.status, 503);
    assert.equal(reply.body.code, 'backend_unavailable');
    assert.match(reply.body.detail, /retrying it unchanged does not help/u);
    assert.equal(reply.body.detail.match(/Nothing was charged/gu)?.length, 1, `said once: ${reply.body.detail}`);
  } finally {
    console.error = logged;
  }
  assert.ok(errors.length > 0, 'the defect is logged for the operator');
  assert.equal(org.balance(), start);
});
