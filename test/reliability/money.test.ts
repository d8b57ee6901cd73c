/**
 * Money under concurrency: 100 requests at once, over REST and MCP together, against balances, free repeats, rate
 * limits and daily caps set so that only an exact count of them may pass. The ledger is then compared with what the
 * answers said. (test/http/concurrency.test.ts shows the basic overdraw case; this goes further.)
 *
 * Guards:
 * - the charge is decided inside one IMMEDIATE transaction that re-reads the balance (src/operations/execute.ts,
 *   src/accounts/ledger.ts chargeInTransaction): no negative balance, no double and no lost charge, and every
 *   answer's credits_remaining is the balance its own charge left;
 * - free repeats are re-checked inside that transaction (paid_results): the same result asked 100 times at once is
 *   charged once, even when the balance covers only one;
 * - the per-token rate windows (src/accounts/limits.ts RateWindows) let exactly 60 (heavy: 10) of 100 through;
 * - the daily document cap lets exactly its number of full texts through (assertVolumeLeft before the work,
 *   addVolume in the charge's transaction), and the counter equals what was served.
 * Each test runs on both state engines: SQLite, and PostgreSQL (PostgresStore.commitCall under the organization's
 * row lock, PostgresRateLimits), which skips, saying why, without PostgreSQL binaries.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply } from '../helpers/api.ts';
import { fixtureId } from '../helpers/demo-corpus.ts';
import { ENGINES, startOn, type EngineApi, type EngineOrg } from './helpers/engines.ts';
import { DEFAULT_PLAN_TERMS } from '../../src/accounts/plans.ts';
import * as v from 'valibot';
import { defineOperation } from '../../src/operations/operation.ts';
import { OPERATIONS } from '../../src/operations/index.ts';

/**
 * Calls of the test operation below wait in their handler until `gate.expected` of them are there: all of them have
 * passed the checks before the work (balance, free repeat, daily cap) before any of them charges. A handler that
 * reads a file or asks another process opens the same window; the eleven real handlers happen to be synchronous, so
 * without this the checks inside the charge's transaction would never be tested.
 */
const gate = { expected: 0, arrived: 0, open: () => {}, opened: Promise.resolve() };

function expectAtGate(count: number): void {
  gate.expected = count;
  gate.arrived = 0;
  gate.opened = new Promise<void>((resolve) => { gate.open = resolve; });
  // A hang guard only: should fewer arrive, the gate opens anyway and the counts below tell.
  setTimeout(() => gate.open(), 20_000).unref();
}

const waitingLookup = defineOperation({
  name: 'test_waiting_lookup',
  summary: 'A paid lookup whose handler waits',
  description: 'Test only.',
  pricing: '3 credits',
  method: 'GET',
  path: '/test/waiting/{n}',
  ability: 'read',
  errors: [401, 402, 403, 409, 422, 429, 503],
  args: v.object({ n: v.string(), full: v.optional(v.boolean(), false) }),
  price: () => 3,
  volume: { unit: 'documents', ahead: (args) => args.full, amount: (_result, args) => (args.full ? 1 : 0) },
  handler: async (args) => {
    if (++gate.arrived >= gate.expected) gate.open();
    await gate.opened;
    return { n: args.n };
  },
});

const DAILY_DOCUMENTS = 7;
const DAILY_ROWS = 45;
let api: EngineApi;

for (const engine of ENGINES) describe(`on ${engine.name}`, { skip: engine.skip }, () => {
  before(async () => {
    // The professional plan gets tiny daily caps here, so that 100 requests cross them.
    api = await startOn(engine, {
      corpus: 'demo',
      operations: [...OPERATIONS, waitingLookup],
      config: { plans: { ...DEFAULT_PLAN_TERMS, professional: { ...DEFAULT_PLAN_TERMS.professional, dailyDocuments: DAILY_DOCUMENTS, dailyRows: DAILY_ROWS } } },
    });
    // Second 1 of a minute, so that no rate window rolls over during a test.
    api.setNow(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1_000));
  });
  after(() => api.close());

  interface Call { method: string; path: string; body?: unknown; tool: string; args: Record<string, unknown> }

  /** One call over REST or over /mcp, answered as { status, body } alike (a tool error's problem carries its status). */
  async function send(call: Call, token: string, overMcp: boolean): Promise<{ status: number; body: any }> {
    if (!overMcp) {
      const reply: Reply = await api.call(call.method, call.path, { token, body: call.body });
      return { status: reply.status, body: reply.body };
    }
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: call.tool, arguments: call.args } }),
    });
    const { result } = (await response.json()) as { result: { isError?: boolean; structuredContent: any } };
    return { status: result.isError ? result.structuredContent.status : 200, body: result.structuredContent };
  }

  const decision = (maxChars: number): Call => ({
    method: 'GET', path: `/api/v1/decisions/${fixtureId(1)}?max_chars=${maxChars}`, tool: 'get_decision', args: { id: fixtureId(1), max_chars: maxChars },
  });
  /** A datapackage of two of the 50 demo decisions, a distinct pair (so a distinct result) for every n up to 2,500. */
  const datapackage = (n: number): Call => {
    const ids = [fixtureId(1 + (n % 50)), fixtureId(1 + (Math.floor(n / 50) % 50))];
    return { method: 'POST', path: '/api/v1/datapackages', body: { ids }, tool: 'create_datapackage', args: { ids } };
  };
  const waiting = (n: number, full = false): Call => ({
    method: 'GET', path: `/api/v1/test/waiting/${n}?full=${full}`, tool: 'test_waiting_lookup', args: { n: String(n), full },
  });
  const graph = (page: number, direction: string): Call => ({
    method: 'GET', path: `/api/v1/decisions/${fixtureId(3)}/citations?page=${page}&direction=${direction}`, tool: 'get_citation_graph', args: { id: fixtureId(3), page, direction },
  });

  interface Ledger { charges: number; charged: number; paid: number; sumsMatch: boolean }

  async function ledgerOf(org: EngineOrg): Promise<Ledger> {
    const [[charges], [paid], [fromLedger], [sums]] = await Promise.all([
      api.rows<{ n: number; total: number }>(`SELECT count(*) AS n, coalesce(-sum(monthly_delta + bonus_delta), 0) AS total FROM ledger
        WHERE organization_id = ? AND kind = 'charge'`, [org.id]),
      api.rows<{ n: number }>(`SELECT count(*) AS n FROM paid_results p JOIN ledger l ON l.id = p.ledger_id AND l.kind = 'charge'
        WHERE p.organization_id = ?`, [org.id]),
      // The running sums kept by the trigger must equal the ledger they summarize.
      api.rows<{ monthly: number; bonus: number }>(`SELECT coalesce(sum(monthly_delta), 0) AS monthly, coalesce(sum(bonus_delta), 0) AS bonus
        FROM ledger WHERE organization_id = ?`, [org.id]),
      api.rows<{ monthly: number; bonus: number }>(`SELECT coalesce(sum(monthly), 0) AS monthly, coalesce(sum(bonus), 0) AS bonus
        FROM ledger_sums WHERE organization_id = ?`, [org.id]),
    ]);
    return { charges: charges.n, charged: charges.total, paid: paid.n, sumsMatch: fromLedger.monthly === sums.monthly && fromLedger.bonus === sums.bonus };
  }

  test('100 concurrent calls of mixed prices over REST and MCP against 57 credits: no overdraw, no double or lost charge', async () => {
    const org = await api.org({ plan: 'free' }); // 30 starter credits
    await org.grant(27);
    const start = await org.balance();
    assert.equal(start, 57);
    // Distinct results (so none is a free repeat): prices 1 (decision), 2 (graph) and 5 (datapackage).
    const calls = Array.from({ length: 100 }, (_, i) => [datapackage(500 + i), graph(1 + (i % 20), ['outgoing', 'incoming', 'both'][i % 3]),
      decision(1000 + i)][i % 3]);
    // A token per call keeps the rate limits out of the picture; every third call goes over MCP.
    const replies = await Promise.all(calls.map(async (call, i) => send(call, await org.token(), i % 3 === 0)));
    const statuses = replies.map((reply) => reply.status);
    assert.ok(statuses.every((status) => status === 200 || status === 402), statuses.join(','));
    const served = replies.filter((reply) => reply.status === 200).map((reply) => reply.body.credits);
    const spent = served.reduce((sum, credits) => sum + credits.cost, 0);
    const end = await org.balance();
    assert.ok(end >= 0, `negative balance ${end}`);
    assert.equal(end, start - spent, 'the balance moved by exactly what the answers say they cost');
    const ledger = await ledgerOf(org);
    assert.equal(ledger.charged, spent, 'the ledger holds exactly the charges the answers report');
    assert.equal(ledger.charges, served.filter((credits) => credits.cost > 0).length);
    assert.equal(ledger.paid, ledger.charges, 'one paid result per charge');
    assert.ok(ledger.sumsMatch, 'running sums equal the ledger');
    // Each charged answer reports the balance its own charge left: in commit order they form one chain from 57.
    const chain = served.filter((credits) => credits.cost > 0).sort((x, y) => y.credits_remaining - x.credits_remaining);
    let balance = start;
    for (const credits of chain) {
      balance -= credits.cost;
      assert.equal(credits.credits_remaining, balance, JSON.stringify(chain));
    }
    // A refusal names a cost above the balance it saw; the end balance is below the cheapest refused price.
    for (const refused of replies.filter((reply) => reply.status === 402)) {
      assert.equal(refused.body.code, 'insufficient_credits');
      assert.ok(refused.body.balance >= 0 && refused.body.balance < refused.body.cost, JSON.stringify(refused.body));
    }
    assert.ok(statuses.includes(402), 'the balance was meant to run out');
  });

  test('handlers that wait: all 40 pass the checks before the work, yet 10 credits buy exactly 3 results, and a result asked 20 times is charged once', async () => {
    const org = await api.org({ plan: 'enterprise' });
    await org.spendAll();
    await org.grant(10);
    const tokens = await Promise.all(Array.from({ length: 40 }, () => org.token()));
    expectAtGate(40);
    const distinct = Array.from({ length: 20 }, (_, i) => send(waiting(i), tokens[i], i % 2 === 0));
    const same = Array.from({ length: 20 }, (_, i) => send(waiting(999), tokens[20 + i], i % 2 === 0));
    const replies = await Promise.all([...distinct, ...same]);
    assert.equal(gate.arrived, 40, 'every call passed the checks before the work');
    const served = replies.filter((reply) => reply.status === 200);
    assert.ok(replies.every((reply) => reply.status === 200 || reply.body.code === 'insufficient_credits'));
    const costs = served.map((reply) => reply.body.credits.cost);
    assert.equal(costs.filter((cost) => cost === 3).length, 3, `10 credits buy 3 results: ${costs.join(',')}`);
    assert.equal(await org.balance(), 1);
    // The repeated result: charged at most once, and every other ask of it served free (or refused when unpaid).
    const repeats = replies.slice(20).filter((reply) => reply.status === 200).map((reply) => reply.body.credits.cost);
    assert.ok(repeats.filter((cost) => cost === 3).length <= 1, repeats.join(','));
    const ledger = await ledgerOf(org);
    assert.equal(ledger.charged, 9 + 10_030);
    assert.equal(ledger.paid, ledger.charges);
  });

  // Guards the daily cap's re-check inside the charge's transaction (src/operations/execute.ts): all 20 pass the check
  // before the work together, so only the re-check can hold the count at the cap.
  test(`handlers that wait: 20 full texts pass the cap's first check together, exactly ${DAILY_DOCUMENTS} are served`, async () => {
    const org = await api.org({ plan: 'professional' });
    const tokens = await Promise.all(Array.from({ length: 20 }, () => org.token()));
    expectAtGate(20);
    const replies = await Promise.all(tokens.map((token, i) => send(waiting(7000 + i, true), token, i % 2 === 0)));
    assert.equal(gate.arrived, 20, 'every call passed the checks before the work');
    assert.equal(replies.filter((reply) => reply.status === 200).length, DAILY_DOCUMENTS);
    assert.ok(replies.every((reply) => reply.status === 200 || reply.body.code === 'volume_cap'));
    const [counted] = await api.rows(`SELECT amount FROM daily_counters WHERE organization_id = ? AND unit = 'documents'`, [org.id]);
    assert.equal(counted.amount, DAILY_DOCUMENTS);
    assert.equal((await ledgerOf(org)).charges, DAILY_DOCUMENTS, 'a call refused by the cap is not charged');
  });

  test('the same result asked 100 times at once, REST and MCP mixed, with 1 credit left: charged once, all 100 served', async () => {
    // Enterprise: the 100 full texts stay under its daily cap (a free repeat still serves a text, which counts).
    const org = await api.org({ plan: 'enterprise' });
    await org.spendAll();
    await org.grant(1);
    assert.equal(await org.balance(), 1);
    const replies = await Promise.all(Array.from({ length: 100 }, async (_, i) => send(decision(4321), await org.token(), i % 2 === 0)));
    assert.deepEqual([...new Set(replies.map((reply) => reply.status))], [200]);
    const costs = replies.map((reply) => reply.body.credits.cost);
    assert.equal(costs.filter((cost) => cost === 1).length, 1, costs.join(','));
    assert.equal(costs.filter((cost) => cost === 0).length, 99);
    assert.ok(replies.every((reply) => reply.body.credits.credits_remaining === 0));
    assert.equal(await org.balance(), 0);
    const ledger = await ledgerOf(org);
    assert.equal(ledger.charged, 1 + 10_030, 'one charge for the result (and the one spending the month and starter credits)');
    assert.equal(ledger.paid, ledger.charges);
  });

  test('one token, 100 calls at once: exactly 60 pass the minute (heavy: 10), the rest are 429 and cost nothing', async () => {
    const org = await api.org({ plan: 'enterprise' });
    const token = await org.token();
    const light = await Promise.all(Array.from({ length: 100 }, (_, i) => send(decision(2000 + i), token, i % 2 === 0)));
    assert.equal(light.filter((reply) => reply.status === 200).length, 60);
    assert.ok(light.filter((reply) => reply.status !== 200).every((reply) => reply.status === 429 && reply.body.code === 'rate_limited'));
    const heavyToken = await org.token();
    const heavy = await Promise.all(Array.from({ length: 100 }, (_, i) => send(datapackage(3000 + i), heavyToken, i % 2 === 0)));
    assert.equal(heavy.filter((reply) => reply.status === 200).length, 10);
    assert.ok(heavy.filter((reply) => reply.status !== 200).every((reply) => reply.body.code === 'rate_limited'));
    const ledger = await ledgerOf(org);
    assert.equal(ledger.charges, 70);
    assert.equal(ledger.charged, 60 * 1 + 10 * 5);
  });

  test(`daily caps under 100 concurrent calls: exactly ${DAILY_DOCUMENTS} full texts; rows counted as served`, async () => {
    const org = await api.org({ plan: 'professional' });
    const day = () => api.rows<{ unit: string; amount: number }>('SELECT unit, amount FROM daily_counters WHERE organization_id = ? ORDER BY unit', [org.id]);
    const texts = await Promise.all(Array.from({ length: 100 }, async (_, i) => send(decision(5000 + i), await org.token(), i % 2 === 0)));
    assert.equal(texts.filter((reply) => reply.status === 200).length, DAILY_DOCUMENTS);
    const capped = texts.filter((reply) => reply.status !== 200);
    assert.ok(capped.every((reply) => reply.status === 429 && reply.body.code === 'volume_cap' && reply.body.unit === 'documents'));
    assert.deepEqual(await day(), [{ unit: 'documents', amount: DAILY_DOCUMENTS }]);
    assert.equal((await ledgerOf(org)).charges, DAILY_DOCUMENTS, 'a call refused by the cap is not charged');
    // Rows: a search that starts below the cap is served whole; the counter holds exactly the rows served.
    const searches = await Promise.all(Array.from({ length: 100 }, async (_, i) => send({
      method: 'GET', path: `/api/v1/decisions/search?query=Urteil&mode=keyword&page=${1 + (i % 10)}&limit=${1 + (i % 20)}`,
      tool: 'search_decisions', args: { query: 'Urteil', mode: 'keyword', page: 1 + (i % 10), limit: 1 + (i % 20) },
    }, await org.token(), i % 2 === 0)));
    const rows = searches.filter((reply) => reply.status === 200).reduce((sum, reply) => sum + reply.body.results.length, 0);
    assert.ok(searches.some((reply) => reply.body.code === 'volume_cap'), 'the rows cap was meant to be reached');
    assert.equal((await day()).find((entry) => entry.unit === 'rows')?.amount, rows);
    const next = await send(decision(6000), await org.token(), false);
    assert.equal(next.body.code, 'volume_cap');
  });
});
