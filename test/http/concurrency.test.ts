/** Money under concurrency: charges are decided inside one write transaction each, so nothing overdraws. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from '../helpers/api.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { chargeInTransaction } from '../../src/accounts/ledger.ts';
import { inWriteTransaction } from '../../src/accounts/state-db.ts';
import { getOrganization } from '../../src/accounts/organizations.ts';

test('50 concurrent charging calls against a balance of 10: exactly 10 succeed, 40 get 402, balance 0', async () => {
  const api = await startApi();
  try {
    const org = api.org();
    const organization = getOrganization(api.services.state, org.id)!;
    inWriteTransaction(api.services.state, () => chargeInTransaction(api.services.state, organization,
      api.services.config.plans, { operation: 'test', resultKey: 'spend-20', cost: 20 }, api.now()));
    assert.equal(org.balance(), 10);
    // Fifty different results (different max_chars), each costing 1, over five tokens so no rate limit interferes.
    const tokens = Array.from({ length: 5 }, () => org.token(['read']));
    const replies = await Promise.all(Array.from({ length: 50 }, (_, index) =>
      api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=${1000 + index}&rn_from=1`, { token: tokens[index % 5] })));
    const statuses = replies.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 200).length, 10, statuses.join(','));
    assert.equal(statuses.filter((status) => status === 402).length, 40);
    assert.equal(org.balance(), 0);
    const charges = api.services.state.prepare("SELECT count(*) AS n, sum(monthly_delta + bonus_delta) AS total FROM ledger WHERE organization_id = ? AND kind = 'charge' AND operation = 'get_decision'")
      .get(org.id) as { n: number; total: number };
    assert.deepEqual(charges, { n: 10, total: -10 });
  } finally {
    await api.close();
  }
});
