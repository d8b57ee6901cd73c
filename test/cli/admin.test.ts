/** The administration commands, run as a user runs them: bin/juralite in a child process. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ABILITIES } from '../../src/accounts/tokens.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
const juralite = (args: string[]) => JSON.parse(execFileSync(process.execPath, [BIN, ...args, '--json'], { encoding: 'utf8' }));

test('org, user, token and credits commands print one JSON object each', () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-cli-'));
  try {
    const state = ['--state', join(data, 'state.db')];
    const created = juralite(['org', 'create', '--name', 'Kanzlei Muster', '--plan', 'starter', '--require-2fa', ...state]);
    assert.equal(created.organization.plan, 'starter');
    assert.equal(created.organization.require_two_factor, true);
    assert.equal(created.user.verified, true);
    const org = created.organization.id;
    assert.deepEqual(juralite(['credits', 'show', '--org', org, ...state]), { organization_id: org, monthly: 500, bonus: 30, total: 530 });
    const user = juralite(['user', 'create', '--org', org, '--name', 'Referendar', ...state]).user;
    assert.equal(juralite(['user', 'verify', '--user', user.id, ...state]).user.verified, true);
    assert.equal(juralite(['user', 'enable-2fa', '--user', user.id, ...state]).user.two_factor_enabled, true);
    assert.equal(juralite(['credits', 'grant', '--org', org, '--amount', '70', ...state]).total, 630);
    // Whole numbers within bounds only: 1e308 passed Number.isInteger and was stored (reliability finding).
    for (const [args, message] of [
      [['credits', 'grant', '--amount', '1e308'], /--amount must be a whole number/],
      [['credits', 'grant', '--amount', '2.5'], /--amount must be a whole number/],
      [['credits', 'grant', '--amount', '2000000000'], /positive whole number up to 1000000000/],
      [['token', 'create', '--abilities', 'all', '--days', '0x10'], /--days must be a whole number/],
    ] as [string[], RegExp][]) {
      const refused = spawnSync(process.execPath, [BIN, ...args, '--org', org, ...state], { encoding: 'utf8' });
      assert.notEqual(refused.status, 0, args.join(' '));
      assert.match(refused.stderr, message);
    }
    assert.equal(juralite(['credits', 'show', '--org', org, ...state]).total, 630, 'nothing refused was granted');
    const token = juralite(['token', 'create', '--org', org, '--user', user.id, '--abilities', 'read,search', '--days', '30', ...state]);
    assert.match(token.token, /^jl_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(token.abilities, ['read', 'search']);
    assert.deepEqual(juralite(['token', 'revoke', '--id', token.id, ...state]), { revoked: token.id });
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('token revoke takes the id as the spec writes it, `token revoke ID`, and --abilities takes `all` in any case and among others', () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-cli-'));
  try {
    const state = ['--state', join(data, 'state.db')];
    const org = juralite(['org', 'create', '--name', 'Kanzlei', ...state]).organization.id;
    for (const abilities of ['ALL', 'All', 'all,search', 'read, ALL']) {
      const token = juralite(['token', 'create', '--org', org, '--abilities', abilities, ...state]);
      assert.deepEqual(token.abilities, [...ABILITIES], abilities);
      assert.deepEqual(juralite(['token', 'revoke', token.id, ...state]), { revoked: token.id });
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('bad command lines exit non-zero with a message, never a stack trace', () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-cli-'));
  try {
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--data', data], { encoding: 'utf8' });
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['org', 'create'], /--name is required/],
      [['org', 'create', '--name', 'X', '--plan', 'gold'], /--plan must be one of/],
      [['token', 'create', '--org', 'nope', '--abilities', 'all'], /No organization nope/],
      [['credits', 'show', '--org'], /--org needs a value/],
    ];
    for (const [args, message] of cases) {
      const result = run(args);
      assert.notEqual(result.status, 0, args.join(' '));
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
    const version = run(['--version']);
    assert.equal(version.status, 0);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});
