/**
 * Isolation between organizations, and the tokens that separate them.
 *
 * Guards:
 * - runs and uploads are looked up by id AND organization (src/checks/runs.ts readRun, src/uploads/store.ts
 *   findUpload, readyUpload): another organization's run or upload answers exactly like one that does not exist
 *   (404, never 403), over REST and MCP;
 * - money is per organization (src/accounts/ledger.ts): another organization's spending moves no figure of ours, and
 *   its paid results make nothing free for us (a free repeat would reveal what it asked);
 * - every call authenticates anew (src/operations/execute.ts → authenticate): a token revoked or expired while a
 *   client holds it is refused at once, on REST, /mcp and a running stdio server;
 * - tokens are stored as hashes only (src/accounts/tokens.ts createToken): the secret printed by `juralite token
 *   create` is nowhere in the state files, yet works;
 * - the secret is compared with crypto.timingSafeEqual, also for an unknown token id (a decoy hash), so that a
 *   wrong secret and an unknown id take the same path and get the same answer.
 * Each test runs on both state engines: SQLite, and PostgreSQL (skipped, saying why, without its binaries).
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncBuiltinESMExports } from 'node:module';
import { SMALL } from '../helpers/small-corpus.ts';
import type { PostgresStore } from '../../src/state/postgres-store.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';
import { startStdioMcp } from './helpers/stdio-mcp.ts';
import { ENGINES, startOn, type EngineApi, type EngineOrg } from './helpers/engines.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
let api: EngineApi;
let a: EngineOrg;
let b: EngineOrg;
let tokenOfA: string;
let tokenOfB: string;
let runOfA: string;
let uploadOfA: string;

/** A problem with the id it names replaced, so that two answers about different ids can be compared whole. */
const withoutId = (body: any, id: string) => JSON.parse(JSON.stringify(body).replaceAll(id, '<id>'));

async function mcpCall(token: string, name: string, args: Record<string, unknown>): Promise<any> {
  const response = await fetch(`${api.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: response.status, body: await response.json() };
}

/** Every text the state holds, whatever table or column: files on SQLite, the tables' rows as text on PostgreSQL. */
async function stateBytes(): Promise<{ name: string; bytes: Buffer }[]> {
  if (api.engine === 'sqlite') {
    return readdirSync(api.dir).filter((name) => name.startsWith('state.db')).map((name) => ({ name, bytes: readFileSync(join(api.dir, name)) }));
  }
  const store = api.services.store as PostgresStore;
  const { rows: tables } = await store.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'");
  return Promise.all(tables.map(async ({ name }) => {
    // bytea shows as \x and hex: the secret's bytes are searched as hex below.
    const { rows } = await store.query<{ text: string | null }>(`SELECT string_agg(t::text, ' ') AS text FROM ${name} t`);
    return { name, bytes: Buffer.from(rows[0].text ?? '') };
  }));
}

for (const engine of ENGINES) describe(`on ${engine.name}`, { skip: engine.skip }, () => {
  before(async () => {
    api = await startOn(engine);
    a = await api.org({ plan: 'starter' });
    b = await api.org({ plan: 'starter' });
    [tokenOfA, tokenOfB] = await Promise.all([a.token(), b.token()]);
    const run = await api.call('POST', '/api/v1/citation-checks', { token: tokenOfA, body: { text: LEGAL_TEXT } });
    assert.equal(run.status, 200, JSON.stringify(run.body));
    runOfA = run.body.id;
    const form = new FormData();
    form.append('file', new Blob([LEGAL_TEXT]), 'mandant-vertraulich.txt');
    const upload = await fetch(`${api.url}/api/v1/citation-check-documents`, { method: 'POST', body: form, headers: { authorization: `Bearer ${tokenOfA}` } });
    assert.equal(upload.status, 202);
    uploadOfA = ((await upload.json()) as { id: string }).id;
  });
  after(() => api.close());

  test("another organization's run and upload are 404 exactly like ones that do not exist, over REST and MCP", async () => {
    const cases = [
      { path: '/api/v1/citation-checks/', own: runOfA, none: 'run_00000000-0000-4000-8000-000000000000', tool: 'get_citation_check', arg: 'run' },
      { path: '/api/v1/citation-check-documents/', own: uploadOfA, none: 'upl_00000000-0000-4000-8000-000000000000', tool: 'get_citation_document', arg: 'document' },
    ];
    for (const { path, own, none, tool, arg } of cases) {
      // The owner sees it (so the 404 below is about ownership, not a broken id).
      assert.equal((await api.call('GET', path + own, { token: tokenOfA })).status, 200);
      const foreign = await api.call('GET', path + own, { token: tokenOfB });
      const missing = await api.call('GET', path + none, { token: tokenOfB });
      assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
      assert.deepEqual(withoutId(foreign.body, own), withoutId(missing.body, none));
      const overMcp = await mcpCall(tokenOfB, tool, { [arg]: own });
      const missingOverMcp = await mcpCall(tokenOfB, tool, { [arg]: none });
      assert.equal(overMcp.body.result.structuredContent.status, 404);
      assert.deepEqual(withoutId(overMcp.body.result.structuredContent, own), withoutId(missingOverMcp.body.result.structuredContent, none));
    }
    // Checking another organization's upload: the same refusal as an unknown id, and A's upload stays ready.
    const foreignCheck = await api.call('POST', '/api/v1/citation-checks', { token: tokenOfB, body: { document_id: uploadOfA } });
    const unknownCheck = await api.call('POST', '/api/v1/citation-checks', { token: tokenOfB, body: { document_id: 'upl_00000000-0000-4000-8000-000000000000' } });
    assert.equal(foreignCheck.status, 422);
    assert.deepEqual(withoutId(foreignCheck.body, uploadOfA), withoutId(unknownCheck.body, 'upl_00000000-0000-4000-8000-000000000000'));
    const [stored] = await api.rows<{ status: string }>('SELECT status FROM uploads WHERE id = ?', [uploadOfA]);
    assert.notEqual(stored.status, 'consumed');
  });

  test("another organization's spending moves none of our figures, and its paid results are not free for us", async () => {
    const before = await b.balance();
    const decision = `/api/v1/decisions/${SMALL.bgh.id}?max_chars=777`;
    const paidByA = await api.call('GET', decision, { token: tokenOfA });
    assert.equal(paidByA.body.credits.cost, 1);
    assert.equal(await b.balance(), before, "A's charge moved B's balance");
    // The same result for B costs B its price: A's payment reveals nothing and gives nothing.
    const forB = await api.call('GET', decision, { token: tokenOfB });
    assert.deepEqual(forB.body.credits, { metered: true, cost: 1, credits_remaining: before - 1 });
    const checkForB = await api.call('POST', '/api/v1/citation-checks', { token: tokenOfB, body: { text: LEGAL_TEXT } });
    assert.equal(checkForB.body.credits.cost, 2, 'the text A checked is not free for B');
    assert.notEqual(checkForB.body.id, runOfA);
  });

  test('a token revoked or expired while in use is refused at the next call: REST, /mcp and a running stdio server', async () => {
    const org = await api.org();
    const revoked = await org.token(['read']);
    const decision = `/api/v1/decisions/${SMALL.bgh.id}`;
    assert.equal((await api.call('GET', '/api/v1/corpus/coverage', { token: revoked })).status, 200);
    // A stdio server started while the token was good.
    const mcp = startStdioMcp(['--db', join(api.dir, 'corpus.db'), '--state', api.stateLocation], revoked);
    assert.equal((await mcp.call(2, 'get_corpus_coverage')).result.isError, undefined);

    await api.admin.revokeToken(revoked.slice(3, 19), api.now());
    assert.equal((await api.call('GET', decision, { token: revoked })).body.code, 'unauthenticated');
    assert.equal((await mcpCall(revoked, 'get_corpus_coverage', {})).status, 401);
    assert.equal((await mcp.call(3, 'get_corpus_coverage')).result.structuredContent.code, 'unauthenticated');
    await mcp.close();

    const expiring = await org.token(['read'], 1);
    assert.equal((await api.call('GET', '/api/v1/corpus/coverage', { token: expiring })).status, 200);
    const real = api.now();
    api.setNow(new Date(real.getTime() + 86_400_000));
    try {
      assert.equal((await api.call('GET', '/api/v1/corpus/coverage', { token: expiring })).body.code, 'unauthenticated');
      assert.equal((await mcpCall(expiring, 'get_corpus_coverage', {})).status, 401);
    } finally {
      api.setNow(real);
    }
  });

  test('a token made by `juralite token create` works, yet its secret is nowhere in the state files', async () => {
    const org = await api.org();
    const created = JSON.parse(execFileSync(process.execPath, [BIN, 'token', 'create', '--org', org.id, '--abilities', 'read', '--state', api.stateLocation, '--json'], { encoding: 'utf8' }));
    const secret = created.token.slice(20);
    assert.equal((await api.call('GET', '/api/v1/corpus/coverage', { token: created.token })).status, 200);
    const files = await stateBytes();
    assert.ok(files.some(({ bytes }) => bytes.includes(created.id)), 'the token is stored (by its id)');
    for (const { name, bytes } of files) {
      for (const needle of [secret, created.token, Buffer.from(secret, 'base64url').toString('hex')]) {
        assert.equal(bytes.indexOf(needle), -1, `${name} holds the token in clear`);
      }
      assert.equal(bytes.indexOf(Buffer.from(secret, 'base64url')), -1, `${name} holds the secret's bytes`);
    }
  });

  test('the secret is compared with crypto.timingSafeEqual, for a wrong secret and for an unknown id alike', async () => {
    const org = await api.org();
    const token = await org.token(['read']);
    const { store } = api.services;
    const now = api.now();
    const original = crypto.timingSafeEqual;
    const compared: number[] = [];
    crypto.timingSafeEqual = ((x: NodeJS.ArrayBufferView, y: NodeJS.ArrayBufferView) => {
      compared.push(x.byteLength);
      return original(x, y);
    }) as typeof crypto.timingSafeEqual;
    // Named imports of a builtin (tokens.ts imports { timingSafeEqual }) follow the patched export after a sync.
    syncBuiltinESMExports();
    const refusal = async (authorization: string) => {
      try {
        await store.authenticate(authorization, now);
        return 'accepted';
      } catch (error) {
        return JSON.stringify(error);
      }
    };
    try {
      assert.equal((await store.authenticate(`Bearer ${token}`, now)).organization.id, org.id);
      const wrongSecret = await refusal(`Bearer ${token.slice(0, 20)}${'A'.repeat(43)}`);
      const unknownId = await refusal(`Bearer jl_0123456789abcdef_${'A'.repeat(43)}`);
      assert.deepEqual(compared, [32, 32, 32], 'each of the three secrets went through timingSafeEqual on a 32-byte hash');
      assert.equal(wrongSecret, unknownId, 'a wrong secret and an unknown id are refused alike');
    } finally {
      crypto.timingSafeEqual = original;
      syncBuiltinESMExports();
    }
  });
});
