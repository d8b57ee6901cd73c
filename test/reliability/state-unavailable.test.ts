/**
 * A state database that cannot be written: read-only, or full. Simulated portably on the server's own connection
 * (the tests run as any user, root included, for whom chmod proves nothing): `PRAGMA query_only` refuses every write
 * as a read-only file does (SQLITE_READONLY); `PRAGMA max_page_count` at the current size refuses every write that
 * needs a new page, as a full disk does (SQLITE_FULL).
 *
 * Guards: the charge, the paid result, the volume and the handler's own writes (a check's run, an upload's row)
 * commit in one transaction or not at all, and a failed write is a 503 backend_unavailable with nothing charged
 * (src/operations/execute.ts recordedOrUnavailable); no answer names a run or upload that was not stored; an
 * upload refused so leaves no file; the service resumes once the database takes writes again.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { startApi, type Api, type TestOrg } from '../helpers/api.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { uploadsOf } from '../../src/uploads/service.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';
import { assertAnswer, withLoggedErrors } from './helpers/problems.ts';

let api: Api;
let org: TestOrg;
/** Tokens made while the database takes writes, one per call (a token is a write too). */
let tokens: string[];
const token = () => tokens.pop()!;

before(async () => {
  api = await startApi();
  org = api.org({ plan: 'starter' });
  tokens = Array.from({ length: 1500 }, () => org.token());
});
after(() => api.close());

interface Written { charges: number; charged: number; paid: number; runs: number; uploads: number; volume: number }

function written(): Written {
  const state = api.services.state;
  const one = (query: string) => state.prepare(query).get(org.id) as { n: number };
  return {
    charges: one("SELECT count(*) AS n FROM ledger WHERE organization_id = ? AND kind = 'charge'").n,
    charged: one("SELECT coalesce(-sum(monthly_delta + bonus_delta), 0) AS n FROM ledger WHERE organization_id = ? AND kind = 'charge'").n,
    paid: one('SELECT count(*) AS n FROM paid_results WHERE organization_id = ?').n,
    runs: one('SELECT count(*) AS n FROM runs WHERE organization_id = ?').n,
    uploads: one('SELECT count(*) AS n FROM uploads WHERE organization_id = ?').n,
    volume: one('SELECT coalesce(sum(amount), 0) AS n FROM daily_counters WHERE organization_id = ?').n,
  };
}

/** One call of each kind that writes: a paid read (with a daily-cap count), a check (a run), an upload (a row, a file). */
async function writingCalls(tag: number, withUpload = true) {
  const paid = [
    await api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=${1000 + tag}`, { token: token() }),
    await api.call('POST', '/api/v1/citation-checks', { token: token(), body: { text: `${LEGAL_TEXT} Tag ${tag}.` } }),
  ];
  if (!withUpload) return paid;
  const form = new FormData();
  form.append('file', new Blob([`${LEGAL_TEXT} ${tag}`]), 'brief.txt');
  const upload = await fetch(`${api.url}/api/v1/citation-check-documents`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token()}` } });
  const uploadBody = await upload.json();
  return [...paid, { status: upload.status, headers: upload.headers, body: uploadBody as any }];
}

test('a read-only state database: every metered call is 503 with nothing charged or stored; writable again, calls succeed', async () => {
  const paidBefore = await api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=900`, { token: token() });
  assert.equal(paidBefore.status, 200);
  const before = written();
  api.services.state.pragma('query_only = 1');
  const { logged } = await withLoggedErrors(async () => {
    try {
      for (const reply of await writingCalls(1)) {
        assertAnswer(reply, [503], 'read-only');
        assert.equal(reply.body.code, 'backend_unavailable');
        assert.match(reply.body.detail, /nothing was charged/i);
      }
      // Even a free repeat and a free read: the charge's transaction cannot be opened, so nothing is claimed done.
      assert.equal((await api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?max_chars=900`, { token: token() })).status, 503);
      assert.equal((await api.call('GET', '/api/v1/corpus/coverage', { token: token() })).status, 503);
    } finally {
      api.services.state.pragma('query_only = 0');
    }
  });
  assert.ok(logged.some((line) => /state database write failed/.test(line)), 'the cause is logged for the operator');
  assert.deepEqual(written(), before, 'nothing was written');
  assert.deepEqual(readdirSync(uploadsOf(api.services).dir), [], 'the refused upload left no file');
  const replies = await writingCalls(2);
  assert.deepEqual(replies.map((reply) => reply.status), [200, 200, 202]);
  assert.equal(written().runs, before.runs + 1);
});

test('a full state database: every answer either committed all its writes or is a 503 with none; then it resumes', async () => {
  await uploadsOf(api.services).settled();
  const state = api.services.state;
  const before = written();
  const pages = state.pragma('page_count', { simple: true }) as number;
  // Room for a few dozen calls, then none.
  state.pragma(`max_page_count = ${pages + 40}`);
  const answered: { status: number; body: any }[] = [];
  try {
    await withLoggedErrors(async () => {
      // Distinct results until the pages are full (each call adds ledger, paid-result, counter and run rows).
      for (let tag = 100; tag < 400 && !answered.some((reply) => reply.status === 503); tag++) {
        const [decision, check] = await writingCalls(tag, false);
        answered.push(decision, check);
      }
    });
  } finally {
    state.pragma('max_page_count = 1073741823');
  }
  const refused = answered.filter((reply) => reply.status === 503);
  const served = answered.filter((reply) => reply.status === 200);
  assert.ok(refused.length > 0, 'the database was meant to fill up');
  assert.ok(answered.every((reply) => reply.status === 200 || (reply.status === 503 && reply.body.code === 'backend_unavailable')));
  const after = written();
  // Exactly the served calls are in the ledger and paid results; every served check's run is stored, no refused one.
  const cost = served.reduce((sum, reply) => sum + reply.body.credits.cost, 0);
  assert.equal(after.charged - before.charged, cost);
  assert.equal(after.charges - before.charges, served.filter((reply) => reply.body.credits.cost > 0).length);
  assert.equal(after.paid - before.paid, after.charges - before.charges, 'no charge without its paid result, nor the reverse');
  const runIds = served.map((reply) => reply.body.id).filter((id) => String(id).startsWith('run_'));
  assert.equal(after.runs - before.runs, runIds.length);
  for (const id of runIds) assert.equal((await api.call('GET', `/api/v1/citation-checks/${id}`, { token: token() })).status, 200);
  // With room again, the same calls succeed.
  const replies = await writingCalls(999);
  assert.deepEqual(replies.map((reply) => reply.status), [200, 200, 202]);
});
