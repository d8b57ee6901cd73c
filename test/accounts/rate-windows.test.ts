import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.ts';
import { RATE_LIMITS, RateWindows } from '../../src/accounts/limits.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 21, 12, 0, 0) + seconds * 1000);
const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  return undefined;
};

test('a token gets its limit of slots per window; the next window starts afresh', () => {
  const rates = new RateWindows();
  for (let call = 0; call < RATE_LIMITS.all; call++) rates.take('t1', ['all'], at(call % 60));
  const refused = refusal(() => rates.take('t1', ['all'], at(59)));
  assert.equal(refused?.code, 'rate_limited');
  assert.equal(refused?.extras.retry_after_seconds, 1);
  assert.equal(refusal(() => rates.take('t2', ['all'], at(59))), undefined, 'another token has its own window');
  assert.equal(refusal(() => rates.take('t1', ['all'], at(60))), undefined, 'a new minute');
});

test('all or none: a request refused by the heavy bucket takes no slot from the other', () => {
  const rates = new RateWindows();
  for (let call = 0; call < RATE_LIMITS.heavy; call++) rates.take('t', ['all', 'heavy'], at(1));
  assert.equal(refusal(() => rates.take('t', ['all', 'heavy'], at(2)))?.code, 'rate_limited');
  // 10 heavy calls took 10 of 60 `all` slots; the refused one took none, so 50 light calls still fit.
  for (let call = 0; call < RATE_LIMITS.all - RATE_LIMITS.heavy; call++) rates.take('t', ['all'], at(3));
  assert.equal(refusal(() => rates.take('t', ['all'], at(4)))?.code, 'rate_limited');
});

test('windows of many tokens are swept once they have ended, and current ones are kept', () => {
  const rates = new RateWindows();
  for (let token = 0; token < 9_990; token++) rates.take(`old${token}`, ['all'], at(0));
  for (let call = 0; call < RATE_LIMITS.all / 2; call++) rates.take('busy', ['all'], at(61));
  // Ten more tokens fill the map to the sweep mark: the sweep drops the ended windows, not the busy token's.
  for (let token = 0; token < 10; token++) rates.take(`new${token}`, ['all'], at(61));
  for (let call = 0; call < RATE_LIMITS.all / 2; call++) rates.take('busy', ['all'], at(62));
  assert.equal(refusal(() => rates.take('busy', ['all'], at(62)))?.code, 'rate_limited');
  assert.equal(refusal(() => rates.take('old1', ['all'], at(62))), undefined);
});

test('a sliding minute: a full minute of calls just before a clock minute ends leaves none just after it', () => {
  const rates = new RateWindows();
  for (let call = 0; call < RATE_LIMITS.all; call++) rates.take('t', ['all'], at(59.5));
  // Fixed windows let another 60 through here: 120 calls within one second.
  const refused = refusal(() => rates.take('t', ['all'], at(60.2)));
  assert.equal(refused?.code, 'rate_limited');
  assert.equal(refused?.extras.retry_after_seconds, 60, 'until the first call is a minute old (119.5 s)');
  assert.equal(refusal(() => rates.take('t', ['all'], at(119.4)))?.code, 'rate_limited');
  for (let call = 0; call < RATE_LIMITS.all; call++) rates.take('t', ['all'], at(119.5));
});

test('in any 60 seconds at most the limit passes, whatever the spacing of the calls', () => {
  const rates = new RateWindows();
  const passed: number[] = [];
  // A call every 0.25 s for three minutes: 720 attempts.
  for (let quarter = 0; quarter < 720; quarter++) {
    if (!refusal(() => rates.take('t', ['all'], at(quarter / 4)))) passed.push(quarter / 4);
  }
  for (const start of passed) {
    const within = passed.filter((time) => time >= start && time < start + 60).length;
    assert.ok(within <= RATE_LIMITS.all, `${within} calls passed in the minute from ${start} s`);
  }
  assert.equal(passed.length, 3 * RATE_LIMITS.all, 'a steady caller still gets the limit every minute');
});
