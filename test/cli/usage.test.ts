/**
 * The command line is checked before anything is opened or created: unknown commands, actions and flags, missing
 * words and bad --port/--host values are usage errors (exit 2, the command's usage line); errors of the work itself
 * (exit 1) print one line without the usage. bin/juralite under an old Node says which Node it needs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { tempDir } from '../ingest/helpers.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;

/** bin/juralite in a child process, in `cwd` (default: here), with no $JURALITE_DATA; a hang guard of 30 s. */
function juralite(args: string[], options: { cwd?: string; node?: string } = {}) {
  const { JURALITE_DATA: _ignored, ...env } = process.env;
  return spawnSync(options.node ?? process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: options.cwd, env, timeout: 30_000 });
}

test('a group without its action, or with an unknown one, is a usage error that leaves no data directory behind', (t) => {
  const dir = tempDir(t);
  for (const [args, message] of [
    [['token'], /^juralite: token needs an action: create, list or revoke$/m],
    [['user'], /^juralite: user needs an action: create, list, verify or enable-2fa$/m],
    [['org', 'delete'], /^juralite: unknown action "delete" for org; choose create or list$/m],
    [['frobnicate'], /^juralite: unknown command "frobnicate"$/m],
  ] as [string[], RegExp][]) {
    const result = juralite(args, { cwd: dir });
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, message);
  }
  assert.deepEqual(readdirSync(dir), [], 'nothing created in the working directory');
});

test('an unknown flag is a usage error naming it, and nothing is created or served', (t) => {
  const dir = tempDir(t);
  const created = juralite(['org', 'create', '--name', 'Typo', '--plna', 'starter', '--json', '--data', dir]);
  assert.equal(created.status, 2);
  assert.match(created.stderr, /^juralite: unknown flag --plna for "org create"\nusage: juralite org create --name N/);
  // At the end of the line, a mistyped switch is unknown, not "needs a value".
  assert.match(juralite(['org', 'create', '--name', 'Typo', '--data', dir, '--dry-run']).stderr, /unknown flag --dry-run for "org create"/);
  const served = juralite(['serve', '--prot', '18531', '--data', join(dir, 'fresh')]);
  assert.equal(served.status, 2, served.stderr);
  assert.match(served.stderr, /unknown flag --prot for "serve"/);
  assert.match(juralite(['org', 'create', '--name', 'Typo', 'extra', '--data', dir]).stderr, /unexpected argument "extra" for "org create"/);
  assert.deepEqual(readdirSync(dir), [], 'no state database, no data directory');
});

test('serve checks --port and --host before it builds a corpus or creates an account', (t) => {
  const dir = tempDir(t);
  const fresh = join(dir, 'fresh');
  for (const [flags, status, message] of [
    [['--port', 'abc'], 2, /--port must be a whole number from 0 to 65535, not "abc"/],
    [['--port', '99999'], 2, /--port must be a whole number from 0 to 65535, not "99999"/],
    [['--port', '-1'], 2, /--port must be a whole number/],
    [['--host', ' '], 2, /--host must not be empty/],
    // Not a usage error (whether a name resolves depends on the machine), but found before any work as well.
    [['--host', 'nowhere.invalid'], 1, /--host nowhere\.invalid is no address/],
  ] as [string[], number, RegExp][]) {
    const result = juralite(['serve', '--data', fresh, ...flags]);
    assert.equal(result.status, status, `${flags.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.ok(!existsSync(fresh), `${flags.join(' ')}: the data directory was created`);
  }
});

test('errors of the work itself print one line, not the usage', (t) => {
  const dir = tempDir(t);
  assert.equal(juralite(['org', 'create', '--name', 'Kanzlei', '--data', dir]).status, 0);
  for (const args of [['credits', 'show', '--org', 'x'], ['token', 'revoke', 'nope'], ['backup', dir]]) {
    const result = juralite([...args, '--data', dir]);
    assert.equal(result.status, 1, args.join(' '));
    assert.equal(result.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${result.stderr}`);
    assert.doesNotMatch(result.stderr, /Usage:|usage:/);
  }
});

/** A Node on PATH (or /usr/bin/node) older than 22.18, if this machine has one. */
function oldNode(): string | undefined {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')), '/usr/bin/node'];
  return candidates.find((node) => {
    if (!existsSync(node)) return false;
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
    return major < 22 || (major === 22 && minor < 18);
  });
}

test('bin/juralite under an old Node runs itself with the checkout\'s .node24; where there is no newer Node it says which it needs', (t) => {
  const node = oldNode();
  if (!node) {
    t.skip('no Node older than 22.18 on this machine');
    return;
  }
  const oldOnly = { PATH: dirname(node) };
  const runs = spawnSync(node, [BIN, 'help', 'token'], { encoding: 'utf8', env: oldOnly, timeout: 30_000 });
  assert.equal(runs.status, 0, runs.stderr);
  assert.match(runs.stdout, /^usage: juralite token create/);
  assert.equal(spawnSync(node, [BIN, 'frobnicate'], { encoding: 'utf8', env: oldOnly, timeout: 30_000 }).status, 2, 'the exit code passes through');

  // The script alone, without the checkout's .node24 beside it and no newer node on PATH.
  const dir = tempDir(t);
  mkdirSync(join(dir, 'bin'));
  copyFileSync(BIN, join(dir, 'bin', 'juralite'));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
  const result = spawnSync(node, [join(dir, 'bin', 'juralite'), '--version'], { encoding: 'utf8', env: oldOnly, timeout: 30_000 });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /^juralite needs Node >= 22\.18 \(this is v\d+\.\d+\.\d+\); run: source scripts\/node24\.sh\n$/);

  // A .node24 whose binary does not answer is named with what it said (a refusal seen once in CI had no cause).
  const broken = join(dir, '.node24', 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`, 'bin');
  mkdirSync(broken, { recursive: true });
  writeFileSync(join(broken, 'node'), '#!/bin/sh\necho broken >&2\nexit 3\n', { mode: 0o755 });
  const refused = spawnSync(node, [join(dir, 'bin', 'juralite'), '--version'], { encoding: 'utf8', env: oldOnly, timeout: 30_000 });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /\n  passed over \S+\.node24\S+\/bin\/node: exit 3: broken\n$/);
});

test('the usage shows `token revoke ID`, as the spec writes it (--id ID as well)', () => {
  const help = juralite(['token', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /juralite token revoke \(ID \| --id ID\)/);
});
