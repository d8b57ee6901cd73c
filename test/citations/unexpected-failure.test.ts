// A failure that is no ApiError is 503 backend_unavailable; only one that may pass by itself tells the caller to
// retry (issue 26: a stack overflow on one text was answered "retry in a few seconds", which never helps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unexpectedFailure } from '../../src/errors.ts';

test('a defect (the same input fails again) is 503 without "retry"', () => {
  for (const error of [new RangeError('Maximum call stack size exceeded'), new TypeError('x is undefined'), 'thrown string', null]) {
    const problem = unexpectedFailure(error);
    assert.equal(problem.status, 503);
    assert.equal(problem.code, 'backend_unavailable');
    assert.doesNotMatch(problem.message, /retry in/u);
    assert.match(problem.message, /does not help/u);
  }
});

test('a transient failure (busy database, full disk) is 503 with "retry"', () => {
  for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'ENOSPC', 'EMFILE']) {
    const problem = unexpectedFailure(Object.assign(new Error('failed'), { code }));
    assert.equal(problem.code, 'backend_unavailable');
    assert.match(problem.message, /retry in a few seconds/u);
  }
});
