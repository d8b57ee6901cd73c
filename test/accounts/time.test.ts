import { test } from 'node:test';
import assert from 'node:assert/strict';
import { berlinDay, nextBerlinMidnight, utcMonth } from '../../src/accounts/time.ts';

test('daily caps count per Berlin calendar day and reset at Berlin midnight, summer and winter', () => {
  assert.equal(berlinDay(new Date('2026-07-01T21:59:59Z')), '2026-07-01');
  assert.equal(berlinDay(new Date('2026-07-01T22:00:00Z')), '2026-07-02');
  assert.equal(nextBerlinMidnight(new Date('2026-07-01T12:00:00Z')), '2026-07-02T00:00:00+02:00');
  assert.equal(nextBerlinMidnight(new Date('2026-01-15T23:30:00Z')), '2026-01-17T00:00:00+01:00');
  // The night the clocks go forward (29 March 2026) and back (25 October 2026).
  assert.equal(nextBerlinMidnight(new Date('2026-03-28T12:00:00Z')), '2026-03-29T00:00:00+01:00');
  assert.equal(nextBerlinMidnight(new Date('2026-03-29T12:00:00Z')), '2026-03-30T00:00:00+02:00');
  assert.equal(nextBerlinMidnight(new Date('2026-10-25T12:00:00Z')), '2026-10-26T00:00:00+01:00');
  assert.equal(nextBerlinMidnight(new Date('2026-12-31T23:00:00Z')), '2027-01-02T00:00:00+01:00');
});

test('credits renew per UTC month', () => {
  assert.equal(utcMonth(new Date('2026-03-31T23:59:59Z')), '2026-03');
  assert.equal(utcMonth(new Date('2026-04-01T00:00:00Z')), '2026-04');
});

test('the Berlin day follows the instant asked about, also when calls go back and forth across midnight', () => {
  // berlinDay keeps the last hour's answer; each of these instants lies in another UTC hour than the one before.
  const expected: [string, string][] = [
    ['2026-01-15T22:59:59Z', '2026-01-15'], ['2026-01-15T23:00:00Z', '2026-01-16'], ['2026-01-15T22:30:00Z', '2026-01-15'],
    ['2026-07-01T21:59:59Z', '2026-07-01'], ['2026-07-01T22:00:01Z', '2026-07-02'], ['2026-07-01T21:00:00Z', '2026-07-01'],
  ];
  for (const [instant, day] of expected) assert.equal(berlinDay(new Date(instant)), day, instant);
});
