/**
 * The rate limits, on both limiters: in memory (RateWindows, one process on SQLite) and shared in PostgreSQL
 * (PostgresRateLimits, every node of a cluster; a real PostgreSQL from test/helpers/postgres.ts, one database for the
 * suite, skipped saying why without its binaries). Both count a sliding minute: one token never gets 120 calls
 * through in one second across a minute's boundary.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../src/errors.ts';
import { RATE_LIMITS, RateWindows, type RateBucket } from '../../src/accounts/limits.ts';
import { PostgresRateLimits } from '../../src/accounts/postgres-rate-limits.ts';
import { openPostgresStore, type PostgresStore } from '../../src/state/postgres-store.ts';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 21, 12, 0, 0) + seconds * 1000);
const refusal = async (run: () => void | Promise<void>) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  return undefined;
};

interface Limiter { take(tokenId: string, buckets: readonly RateBucket[], now: Date): void | Promise<void> }

let postgres: TestPostgres | undefined;
let stores: PostgresStore[] = [];
after(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await postgres?.close();
});

const LIMITERS: { name: string; skip: string | false; start(): Promise<void>; fresh(): Limiter }[] = [
  { name: 'in memory (RateWindows)', skip: false, start: async () => {}, fresh: () => new RateWindows() },
  {
    name: 'in PostgreSQL (PostgresRateLimits)',
    skip: POSTGRES_MISSING,
    start: async () => {
      postgres = await startPostgres();
      const url = await postgres.newDatabase();
      // Two stores: two nodes, each with its own connections.
      stores = [await openPostgresStore(url), await openPostgresStore(url)];
    },
    // A fresh limiter: the same table, tokens of its own.
    fresh: () => {
      const prefix = randomUUID();
      const nodes = stores.map((store) => new PostgresRateLimits(store.query));
      let next = 0;
      // Each take on the next node, turn by turn: one token's calls spread over both.
      return { take: (token, buckets, now) => nodes[next++ % nodes.length].take(`${prefix}${token}`, buckets, now) };
    },
  },
];

for (const limiter of LIMITERS) describe(limiter.name, { skip: limiter.skip }, () => {
  before(() => limiter.start());

  test('a token gets its limit of slots per window; the next window starts afresh', async () => {
    const rates = limiter.fresh();
    for (let call = 0; call < RATE_LIMITS.all; call++) await rates.take('t1', ['all'], at(call % 60));
    const refused = await refusal(() => rates.take('t1', ['all'], at(59)));
    assert.equal(refused?.code, 'rate_limited');
    assert.equal(refused?.extras.retry_after_seconds, 1);
    assert.equal(await refusal(() => rates.take('t2', ['all'], at(59))), undefined, 'another token has its own window');
    assert.equal(await refusal(() => rates.take('t1', ['all'], at(60))), undefined, 'a new minute');
  });

  test('all or none: a request refused by the heavy bucket takes no slot from the other', async () => {
    const rates = limiter.fresh();
    for (let call = 0; call < RATE_LIMITS.heavy; call++) await rates.take('t', ['all', 'heavy'], at(1));
    assert.equal((await refusal(() => rates.take('t', ['all', 'heavy'], at(2))))?.code, 'rate_limited');
    // 10 heavy calls took 10 of 60 `all` slots; the refused one took none, so 50 light calls still fit.
    for (let call = 0; call < RATE_LIMITS.all - RATE_LIMITS.heavy; call++) await rates.take('t', ['all'], at(3));
    assert.equal((await refusal(() => rates.take('t', ['all'], at(4))))?.code, 'rate_limited');
  });

  test('a sliding minute: a full minute of calls just before a clock minute ends leaves none just after it', async () => {
    const rates = limiter.fresh();
    for (let call = 0; call < RATE_LIMITS.all; call++) await rates.take('t', ['all'], at(59.5));
    // Fixed windows let another 60 through here: 120 calls within one second.
    const refused = await refusal(() => rates.take('t', ['all'], at(60.2)));
    assert.equal(refused?.code, 'rate_limited');
    assert.equal(refused?.extras.retry_after_seconds, 60, 'until the first call is a minute old (119.5 s)');
    assert.equal((await refusal(() => rates.take('t', ['all'], at(119.4))))?.code, 'rate_limited');
    for (let call = 0; call < RATE_LIMITS.all; call++) await rates.take('t', ['all'], at(119.5));
  });

  test('100 calls of one token at once, across a minute boundary: exactly the limit passes', async () => {
    const rates = limiter.fresh();
    // Half just before the clock minute ends, half just after, all in flight together (on PostgreSQL: over two nodes).
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => refusal(() => rates.take('t', ['all'], at(i % 2 ? 59.9 : 60.1)))));
    assert.equal(outcomes.filter((outcome) => outcome === undefined).length, RATE_LIMITS.all);
    assert.ok(outcomes.every((outcome) => outcome === undefined || outcome.code === 'rate_limited'));
  });

  test('in any 60 seconds at most the limit passes, whatever the spacing of the calls', async () => {
    const rates = limiter.fresh();
    const passed: number[] = [];
    // A call every 0.25 s for three minutes: 720 attempts.
    for (let quarter = 0; quarter < 720; quarter++) {
      if (!await refusal(() => rates.take('t', ['all'], at(quarter / 4)))) passed.push(quarter / 4);
    }
    for (const start of passed) {
      const within = passed.filter((time) => time >= start && time < start + 60).length;
      assert.ok(within <= RATE_LIMITS.all, `${within} calls passed in the minute from ${start} s`);
    }
    assert.equal(passed.length, 3 * RATE_LIMITS.all, 'a steady caller still gets the limit every minute');
  });
});

test('windows of many tokens are swept once they have ended, and current ones are kept (in memory)', () => {
  const rates = new RateWindows();
  for (let token = 0; token < 9_990; token++) rates.take(`old${token}`, ['all'], at(0));
  for (let call = 0; call < RATE_LIMITS.all / 2; call++) rates.take('busy', ['all'], at(61));
  // Ten more tokens fill the map to the sweep mark: the sweep drops the ended windows, not the busy token's.
  for (let token = 0; token < 10; token++) rates.take(`new${token}`, ['all'], at(61));
  for (let call = 0; call < RATE_LIMITS.all / 2; call++) rates.take('busy', ['all'], at(62));
  assert.throws(() => rates.take('busy', ['all'], at(62)), { code: 'rate_limited' });
  assert.doesNotThrow(() => rates.take('old1', ['all'], at(62)));
});
