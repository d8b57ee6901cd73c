/**
 * Command-line conventions (issue 31): -h, --help, help [COMMAND], COMMAND --help for every command; -v, --version,
 * version; the list commands; host, port, corpus, data and state from the environment (a flag wins); and import's
 * progress lines in a log and a summary whose words mean what they say. Real processes of bin/juralite throughout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli/commands.ts';
import { tempDir } from '../ingest/helpers.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
const RELEASE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;

/** bin/juralite with none of the JURALITE_ settings of this process, plus `env`. */
function juralite(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JURALITE_')));
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...clean, ...env }, cwd, timeout: 30_000 });
}

test('-h, --help and help print the whole usage (exit 0); no command at all prints it with exit 2', () => {
  for (const args of [['-h'], ['--help'], ['help']]) {
    const result = juralite(args);
    assert.equal(result.status, 0, args.join(' '));
    assert.match(result.stdout, new RegExp(`^juralite ${RELEASE.replaceAll('.', '\\.')}: `));
    for (const { usage } of Object.values(COMMANDS)) assert.ok(result.stdout.includes(`juralite ${usage}`), usage);
    assert.match(result.stdout, /Exit status: 0 done; 1 the command failed .*; 2 usage error\./);
    assert.match(result.stdout, /JURALITE_PORT/);
  }
  assert.equal(juralite([]).status, 2);
});

test('-v, --version and version print the release', () => {
  for (const args of [['-v'], ['--version'], ['version']]) {
    const result = juralite(args);
    assert.equal(result.status, 0, args.join(' '));
    assert.equal(result.stdout, `${RELEASE}\n`);
  }
});

test('COMMAND --help, -h and help COMMAND print that command\'s usage only, for every command and group', () => {
  for (const [name, spec] of Object.entries(COMMANDS)) {
    for (const args of [[...name.split(' '), '--help'], [...name.split(' '), '-h'], ['help', ...name.split(' ')]]) {
      const result = juralite(args);
      assert.equal(result.status, 0, args.join(' '));
      assert.ok(result.stdout.startsWith(`usage: juralite ${spec.usage}\n  ${spec.summary}\n`), `${args.join(' ')}: ${result.stdout}`);
      assert.equal(result.stdout.match(/^usage: /gm)?.length, 1, `${args.join(' ')}: one command's usage`);
    }
  }
  const group = juralite(['token', '--help']);
  assert.deepEqual(group.stdout.match(/^usage: juralite token \S+/gm), ['usage: juralite token create', 'usage: juralite token list', 'usage: juralite token revoke']);
  const unknown = juralite(['help', 'frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
});

test('org list, user list and token list show what exists; token list never shows a secret and marks revoked tokens', (t) => {
  const dir = tempDir(t);
  const json = (args: string[]) => {
    const result = juralite([...args, '--data', dir, '--json']);
    assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  const first = json(['org', 'create', '--name', 'Kanzlei A']).organization;
  const second = json(['org', 'create', '--name', 'Kanzlei B', '--plan', 'starter']).organization;
  assert.deepEqual(json(['org', 'list']).organizations.map((org: { name: string }) => org.name), ['Kanzlei A', 'Kanzlei B']);
  json(['user', 'create', '--org', second.id, '--name', 'Referendarin']);
  const users = json(['user', 'list', '--org', second.id]);
  assert.equal(users.organization_id, second.id);
  assert.equal(users.users.length, 2, 'the first user and the new one');
  assert.ok(users.users.some((user: { name: string }) => user.name === 'Referendarin'));
  const kept = json(['token', 'create', '--org', first.id, '--abilities', 'all', '--name', 'kept']);
  const revoked = json(['token', 'create', '--org', second.id, '--abilities', 'read', '--name', 'gone']);
  json(['token', 'revoke', revoked.id]);
  const all = juralite(['token', 'list', '--data', dir, '--json']);
  assert.ok(!all.stdout.includes(kept.token.slice('jl_0123456789abcdef_'.length)), 'no secret'); // a secret may hold '_'
  assert.deepEqual(JSON.parse(all.stdout).tokens.map((token: { name: string; active: boolean }) => [token.name, token.active]), [['kept', true], ['gone', false]]);
  assert.deepEqual(json(['token', 'list', '--org', first.id]).tokens.map((token: { id: string }) => token.id), [kept.id]);
  const unknown = juralite(['user', 'list', '--org', 'nope', '--data', dir]);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /^juralite: no organization nope$/m);
});

test('JURALITE_DATA, _DB and _STATE name the files; a flag wins over its variable', (t) => {
  const dir = tempDir(t);
  for (const sub of ['env-data', 'flag-data', 'state-dir']) mkdirSync(join(dir, sub));
  assert.equal(juralite(['org', 'create', '--name', 'E'], { JURALITE_DATA: join(dir, 'env-data') }).status, 0);
  assert.ok(existsSync(join(dir, 'env-data', 'state.db')));
  assert.equal(juralite(['org', 'create', '--name', 'F', '--data', join(dir, 'flag-data')], { JURALITE_DATA: join(dir, 'env-data') }).status, 0);
  assert.ok(existsSync(join(dir, 'flag-data', 'state.db')), 'the flag wins');
  assert.equal(juralite(['org', 'create', '--name', 'S'], { JURALITE_DATA: join(dir, 'env-data'), JURALITE_STATE: join(dir, 'state-dir', 's.db') }).status, 0);
  assert.ok(existsSync(join(dir, 'state-dir', 's.db')), 'JURALITE_STATE names the state file');
  const check = juralite(['check', '--text', 'Der Kläger stützt die Räumungsklage auf § 573 Abs. 2 Nr. 2 BGB und mehr.'], { JURALITE_DB: join(dir, 'none.db') });
  assert.match(JSON.parse(check.stdout).detail, new RegExp(`No corpus file at ${join(dir, 'none.db').replaceAll('.', '\\.')}`));
});

test('JURALITE_HOST and JURALITE_PORT: serve listens there; a bad value is a usage error naming the variable; flags win', async (t) => {
  const dir = tempDir(t);
  const refused = juralite(['serve', '--data', join(dir, 'x')], { JURALITE_PORT: 'eighty' });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /JURALITE_PORT must be a whole number from 0 to 65535, not "eighty"/);
  assert.match(juralite(['serve', '--data', join(dir, 'x')], { JURALITE_HOST: ' ' }).stderr, /JURALITE_HOST must not be empty/);
  assert.match(juralite(['serve', '--data', join(dir, 'x'), '--port', 'x'], { JURALITE_PORT: '0' }).stderr, /--port must be a whole number/);
  assert.ok(!existsSync(join(dir, 'x')));

  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JURALITE_')));
  const server = spawn(process.execPath, [BIN, 'serve', '--data', dir, '--db', join(dir, 'none.db')], {
    env: { ...clean, JURALITE_HOST: '127.0.0.1', JURALITE_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => server.kill('SIGTERM'));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    server.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(output);
      if (match) resolve(match[1]);
    });
    server.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  assert.notEqual(new URL(url).port, '8080', 'port 0 from the environment: a free port');
  assert.equal((await fetch(`${url}/api/v1/openapi.json`)).status, 200);
});

test('import: progress lines in a log (stderr not a terminal) and a summary that tells new, unchanged and non-documents apart', (t) => {
  const dir = tempDir(t);
  const sources = join(dir, 'sources');
  mkdirSync(sources);
  const law = readFileSync(new URL('../../fixtures/laws/BJNR000010949.xml', import.meta.url), 'utf8');
  writeFileSync(join(sources, 'BJNR000010949.xml'), law);
  writeFileSync(join(sources, 'meta.json'), '{"note": "no document"}');
  const corpus = join(dir, 'corpus.db');
  const first = juralite(['import', '--db', corpus, sources], { JURALITE_PROGRESS_SECONDS: '0.001' });
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /^documents: 1 new, 0 updated, 0 unchanged, 0 failed in [\d.]+ s$/m);
  assert.match(first.stdout, /^passed over 1 files that hold no document/m);
  assert.match(first.stderr, /^juralite import: \d+ documents handled in \d+ s \(\d+\/s\), now /m);
  const again = juralite(['import', '--db', corpus, sources, '--json']);
  const summary = JSON.parse(again.stdout);
  assert.deepEqual([summary.imported, summary.unchanged, summary.not_documents, summary.skipped], [0, 1, 1, 2]);
  assert.equal(juralite(['import', '--db', corpus, sources]).stderr, '', 'no progress line within the default 10 s');
});
