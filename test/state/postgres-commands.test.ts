/**
 * The operator's commands on a PostgreSQL state (`--state postgres://...`), run as an operator runs them (the command
 * line's dispatcher; bin/juralite in a child process where its exit and stderr matter), against a throwaway PostgreSQL (test/helpers/postgres.ts). `org`, `user`, `token` and `credits`
 * work with the rules they have on SQLite; `backup` runs pg_dump (a custom-format dump, 0600, that pg_restore reads
 * back); `juralite mcp` serves on the shared state. Skips, saying why, without PostgreSQL binaries.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import pg from 'pg';
import { main } from '../../src/cli/main.ts';
import { findPgDump } from '../../src/cli/backup.ts';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { POSTGRES_MISSING, postgresTool, startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { openPostgresStore } from '../../src/state/postgres-store.ts';
import { PostgresAdmin } from '../../src/state/postgres-admin.ts';
import { startStdioMcp } from '../reliability/helpers/stdio-mcp.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;

/** A command's JSON, run by the command line's own dispatcher in this process (a process each would cost seconds). */
async function juralite(args: string[]): Promise<any> {
  const printed: string[] = [];
  const log = console.log;
  console.log = (line: string) => { printed.push(line); };
  try {
    assert.equal(await main([...args, '--json']), 0);
  } finally {
    console.log = log;
  }
  return JSON.parse(printed.join('\n'));
}

let postgres: TestPostgres;
let url: string;
let state: string[];
const dir = mkdtempSync(join(tmpdir(), 'juralite-pg-commands-'));

before(async () => {
  if (POSTGRES_MISSING) return;
  postgres = await startPostgres();
  url = await postgres.newDatabase();
  state = ['--state', url];
});
after(async () => {
  await postgres?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('org, user, token and credits on PostgreSQL: the same answers as on SQLite, refusals named', { skip: POSTGRES_MISSING }, async () => {
  // The first command on an empty database creates the schema, as serve does.
  const created = await juralite(['org', 'create', '--name', 'Verlag', '--plan', 'starter', '--require-2fa', ...state]);
  assert.equal(created.organization.plan, 'starter');
  assert.equal(created.organization.require_two_factor, true);
  assert.equal(created.user.verified, true);
  const org = created.organization.id;
  assert.deepEqual((await juralite(['org', 'list', ...state])).organizations.map((o: { id: string }) => o.id), [org]);
  assert.deepEqual(await juralite(['credits', 'show', '--org', org, ...state]), { organization_id: org, monthly: 500, bonus: 30, total: 530 });
  const user = (await juralite(['user', 'create', '--org', org, '--name', 'Lektorin', '--email', 'l@example.org', ...state])).user;
  assert.equal(user.verified, false);
  assert.equal((await juralite(['user', 'verify', '--user', user.id, ...state])).user.verified, true);
  assert.equal((await juralite(['user', 'verify', '--user', user.id, ...state])).user.verified, true);
  assert.equal((await juralite(['credits', 'show', '--org', org, ...state])).bonus, 60, 'starter credits once per user verified, not per verify');
  assert.equal((await juralite(['user', 'enable-2fa', '--user', user.id, ...state])).user.two_factor_enabled, true);
  assert.equal((await juralite(['user', 'list', '--org', org, ...state])).users.length, 2);
  assert.equal((await juralite(['credits', 'grant', '--org', org, '--amount', '70', ...state])).total, 500 + 30 + 30 + 70);
  const token = await juralite(['token', 'create', '--org', org, '--user', user.id, '--abilities', 'read,search', '--days', '30', ...state]);
  assert.match(token.token, /^jl_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(token.abilities, ['read', 'search']);
  const listed = (await juralite(['token', 'list', '--org', org, ...state])).tokens;
  assert.deepEqual(listed.map((t: { id: string; active: boolean }) => [t.id, t.active]), [[token.id, true]]);
  assert.ok(!JSON.stringify(listed).includes(token.token.slice(20)), 'never a secret');
  assert.deepEqual(await juralite(['token', 'revoke', token.id, ...state]), { revoked: token.id });
  assert.equal((await juralite(['token', 'list', ...state])).tokens[0].active, false);
  for (const [args, message] of [
    [['credits', 'show', '--org', 'nope'], /no organization nope/],
    [['credits', 'grant', '--org', org, '--amount', '2000000000'], /positive whole number up to 1000000000/],
    [['token', 'revoke', token.id], /no active token/],
    [['token', 'create', '--org', org, '--user', 'nobody', '--abilities', 'all'], /No user nobody in organization/],
  ] as [string[], RegExp][]) {
    await assert.rejects(main([...args, ...state]), message, args.join(' '));
  }
  assert.equal((await juralite(['credits', 'show', '--org', org, ...state])).total, 630, 'nothing refused was granted');
});

test('a PostgreSQL that is not there: the command fails in one line naming the URL without its password', { skip: POSTGRES_MISSING }, () => {
  const refused = spawnSync(process.execPath, [BIN, 'org', 'list', '--state', 'postgres://juralite:geheim@127.0.0.1:1/juralite'], { encoding: 'utf8' });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /cannot open the state at postgres:\/\/juralite:\*\*\*@127\.0\.0\.1:1\/juralite/);
  assert.ok(!refused.stderr.includes('geheim'));
});

test('backup of a PostgreSQL state: pg_dump writes a 0600 custom-format dump that pg_restore restores whole', { skip: POSTGRES_MISSING }, async () => {
  const org = (await juralite(['org', 'create', '--name', 'Gesichert', ...state])).organization.id;
  await juralite(['credits', 'grant', '--org', org, '--amount', '5', ...state]);
  const target = join(dir, 'state.dump');
  const backup = await juralite(['backup', target, ...state]);
  assert.equal(backup.backup, target);
  assert.ok(backup.bytes > 0);
  assert.equal((statSync(target).mode & 0o777).toString(8), '600');
  await assert.rejects(main(['backup', target, ...state]), /exists; a backup never overwrites a file/);
  // Restored into an empty database, it is the same state: the organization and its balance.
  const restored = await postgres.newDatabase();
  execFileSync(postgresTool('pg_restore'), ['--no-owner', '--dbname', restored, target]);
  assert.equal((await juralite(['credits', 'show', '--org', org, '--state', restored])).bonus, 35);
});

test('juralite mcp on a PostgreSQL state: a tool call is served and charged there, a token revoked meanwhile is refused', { skip: POSTGRES_MISSING }, async () => {
  const org = (await juralite(['org', 'create', '--name', 'Kammer', '--plan', 'starter', ...state])).organization.id;
  const { token, id } = await juralite(['token', 'create', '--org', org, '--abilities', 'all', ...state]);
  const mcp = startStdioMcp(['--db', await demoCorpus(), ...state], token);
  try {
    const search = await mcp.call(2, 'search_decisions', { query: 'Urteil', mode: 'keyword' });
    assert.equal(search.result.isError, undefined, JSON.stringify(search.result.structuredContent));
    assert.equal(search.result.structuredContent.credits.cost, 1);
    const store = await openPostgresStore(url);
    try {
      const { rows } = await store.query("SELECT count(*) AS n FROM ledger WHERE organization_id = ? AND kind = 'charge'", [org]);
      assert.equal(rows[0].n, 1, 'charged in PostgreSQL');
    } finally {
      await store.close();
    }
    await juralite(['token', 'revoke', id, ...state]);
    assert.equal((await mcp.call(3, 'get_corpus_coverage')).result.structuredContent.code, 'unauthenticated');
  } finally {
    await mcp.close();
  }
});

test('backup of a PostgreSQL state where pg_dump is not installed: a refusal naming pg_dump and its package', () => {
  assert.throws(() => findPgDump('/nonexistent/bin', join(dir, 'no-postgresql')),
    /the state is on PostgreSQL, and a backup of it is made by pg_dump, which is not installed here \(apt-get install postgresql-client/);
  if (!POSTGRES_MISSING) assert.match(findPgDump('', dirname(dirname(dirname(postgresTool('pg_dump'))))), /\/bin\/pg_dump$/, 'found beside the server');
});

test('a user verified five times at once, on PostgreSQL: the starter credits are given once', { skip: POSTGRES_MISSING }, async () => {
  const store = await openPostgresStore(url);
  try {
    const admin = new PostgresAdmin(store);
    const now = new Date();
    const { organization } = await admin.createOrganization({ name: 'Doppelt' }, now);
    const user = await admin.createUser({ organizationId: organization.id, name: 'Neu' }, now);
    // The user's row held by another transaction until all five wait for it: they then run as close together as can be.
    const holder = new pg.Client(url);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [user.id]);
    const verifications = Promise.all(Array.from({ length: 5 }, () => admin.verifyUser(user.id, now)));
    // Asked outside the holder's transaction: pg_stat_activity stays as first read within one.
    const waiting = async () => (await store.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")).rows[0].n;
    for (let tries = 0; tries < 500 && await waiting() < 5; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    await holder.query('COMMIT');
    await holder.end();
    await verifications;
    const { rows } = await store.query("SELECT count(*) AS n FROM ledger WHERE organization_id = ? AND kind = 'starter'", [organization.id]);
    assert.equal(rows[0].n, 2, "the owner's and the new user's, once each");
  } finally {
    await store.close();
  }
});
