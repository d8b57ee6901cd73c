/**
 * `juralite sync` as a process: against a served corpus (the server answers every search while the sync writes, and
 * sees the new decisions without a restart; SIGHUP swaps in another file), killed with SIGKILL mid-run and resumed to
 * the same corpus as an uninterrupted run, and its exit code and summary when an item fails.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus, type CorpusDb } from '../../src/corpus/open.ts';
import { syncCorpus } from '../../src/sync/run.ts';
import { Mirror, decisionPath, fixtureSources } from './mirror.ts';
import { startServeProcess } from '../helpers/serve-process.ts';
import { openState } from '../../src/accounts/state-db.ts';
import { ABILITIES, createToken } from '../../src/accounts/tokens.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'juralite-sync-live-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const LOCAL = { pauseMs: 0, backoffMs: 10, retries: 2, timeoutMs: 2_000 };

/** Runs the command line to its end: exit code and output. */
function juralite(args: string[], onStart?: (child: ChildProcess) => void): Promise<{ code: number | null; signal: string | null; out: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  onStart?.(child);
  let out = '';
  child.stdout!.on('data', (chunk) => { out += chunk; });
  child.stderr!.on('data', (chunk) => { out += chunk; });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, out })));
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  await closed;
}

/** Tokens of the served organization, written into its state file beside the running server (as `juralite token` does). */
function moreTokens(data: string, n: number): string[] {
  const state = openState(join(data, 'state.db'));
  try {
    const organizationId = state.prepare('SELECT id FROM organizations LIMIT 1').pluck().get() as string;
    return Array.from({ length: n }, () => createToken(state, { organizationId, abilities: [...ABILITIES] }, new Date()).token);
  } finally {
    state.close();
  }
}

/**
 * Keyword searches and coverage requests, about ten a second, until `until` settles; every status seen. Each token
 * is used at most once every two seconds (a token may make 60 calls a minute).
 */
async function keepAsking(url: string, tokens: string[], until: Promise<unknown>): Promise<number[]> {
  const statuses: number[] = [];
  let done = false;
  void until.finally(() => { done = true; });
  const paths = ['/api/v1/decisions/search?query=Eigenbedarf&mode=keyword', '/api/v1/corpus/coverage'];
  while (!done && statuses.length < 20 * tokens.length) {
    const token = tokens[statuses.length % tokens.length];
    const reply = await fetch(url + paths[statuses.length % 2], { headers: { authorization: `Bearer ${token}` } });
    await reply.arrayBuffer();
    statuses.push(reply.status);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return statuses;
}

const total = async (url: string, token: string) =>
  ((await (await fetch(`${url}/api/v1/corpus/coverage`, { headers: { authorization: `Bearer ${token}` } })).json()) as
    { total_decisions: { value: number } }).total_decisions.value;

test('sync writes a served corpus: every search is answered meanwhile, and the new decisions are seen without a restart', async () => {
  const mirror = await new Mirror(fixtureSources(20)).start();
  const data = join(dir, 'served');
  const corpus = join(data, 'corpus.db');
  const first = await juralite(['sync', '--db', corpus, '--base-url', mirror.url, '--pause', '0']);
  assert.equal(first.code, 0, first.out);
  const server = await startServeProcess(['--db', corpus, '--data', data]);
  try {
    assert.equal(await total(server.url, server.token()), 20);
    mirror.decisions.push(...fixtureSources().decisions.slice(20));
    // A pause of 100 ms between requests keeps the sync writing for 3 s or more, so the searches meet it however fast
    // the machine (with none, an idle machine finished it within nine searches).
    const syncing = juralite(['sync', '--db', corpus, '--base-url', mirror.url, '--pause', '100', '--source', 'rii']);
    const tokens = moreTokens(data, 20);
    const statuses = await keepAsking(server.url, tokens, syncing);
    const { code, out } = await syncing;
    assert.equal(code, 0, out);
    assert.match(out, /rii: 50 listed, 30 requested \(30 imported, 0 updated, 0 unchanged, 0 failed\), 20 passed over/);
    assert.ok(statuses.length >= 10, `asked ${statuses.length} times`);
    assert.deepEqual([...new Set(statuses)], [200], 'no error answer while the sync wrote');
    assert.equal(await total(server.url, server.token()), 50);

    // Another file swapped in by renaming a symlink, then SIGHUP: the server reopens and answers throughout.
    const other = join(data, 'corpus-other.db');
    const small = openCorpus(other);
    await syncCorpus(small, { sources: ['rii'], baseUrl: mirror.url, fetcher: LOCAL, limit: 5 });
    small.close();
    symlinkSync(other, join(data, 'corpus.link'));
    renameSync(join(data, 'corpus.link'), join(data, 'corpus.db.swapped'));
    // The served path becomes the symlink (the old file keeps its own name and -wal).
    renameSync(corpus, join(data, 'corpus-old.db'));
    renameSync(join(data, 'corpus.db.swapped'), corpus);
    const reopened = new Promise<void>((resolve) => server.child.stdout!.on('data', () => {
      if (server.printed().includes('reopened the corpus')) resolve();
    }));
    const swapped = new Promise((resolve) => setTimeout(resolve, 1_500));
    const asking = keepAsking(server.url, tokens.slice(0, 10), reopened.then(() => swapped));
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.child.kill('SIGHUP');
    await reopened;
    const during = await asking;
    assert.ok(during.length >= 10, `asked ${during.length} times`);
    assert.deepEqual([...new Set(during)], [200]);
    assert.match(server.printed(), /juralite: reopened the corpus .*corpus\.db \(5 decisions\)/);
    assert.equal(await total(server.url, server.token()), 5);
  } finally {
    await stop(server.child);
    await mirror.close();
  }
});

/** What a corpus holds, compared between runs (import times differ, nothing else may). */
function contents(db: CorpusDb) {
  const all = (query: string) => db.prepare(query).all();
  return {
    decisions: all('SELECT id, content_hash FROM decisions ORDER BY id'),
    laws: all('SELECT id, content_hash FROM laws ORDER BY id'),
    edges: all(`SELECT from_decision_id, reference_canonical, to_decision_id, resolution_status FROM citation_edges
      ORDER BY from_decision_id, id`),
    manifest: all('SELECT url, etag, modified, content_hash, documents FROM sync_manifest ORDER BY url'),
    search: all('SELECT decision_id FROM search_docs ORDER BY decision_id'),
    integrity: db.pragma('integrity_check', { simple: true }),
  };
}

test('kill -9 mid-sync, then sync again: the same corpus as an uninterrupted run', async () => {
  const mirror = await new Mirror(fixtureSources()).start();
  try {
    const whole = openCorpus(join(dir, 'whole.db'));
    await syncCorpus(whole, { sources: ['gii', 'rii'], baseUrl: mirror.url, fetcher: LOCAL });
    const expected = contents(whole);
    whole.close();

    const corpus = join(dir, 'killed.db');
    let child: ChildProcess | undefined;
    let zips = 0;
    mirror.onServe = (path) => {
      if (path.endsWith('.zip') && ++zips === 40) child!.kill('SIGKILL');
    };
    const killed = await juralite(['sync', '--db', corpus, '--base-url', mirror.url, '--pause', '0'], (c) => { child = c; });
    mirror.onServe = undefined;
    assert.equal(killed.signal, 'SIGKILL');
    const half = openCorpus(corpus, { readonly: true });
    const held = half.prepare('SELECT count(*) FROM sync_manifest').pluck().get() as number;
    half.close();
    assert.ok(held > 0 && held < 74, `the killed run recorded ${held} of 74 items`);

    const resumed = await juralite(['sync', '--db', corpus, '--base-url', mirror.url, '--pause', '0']);
    assert.equal(resumed.code, 0, resumed.out);
    const db = openCorpus(corpus);
    try {
      assert.deepEqual(contents(db), expected);
    } finally {
      db.close();
    }
  } finally {
    await mirror.close();
  }
});

test('an item that fails: exit 1 and the summary names it; usage errors exit 2', async () => {
  const mirror = await new Mirror({ ...fixtureSources(3), laws: [] }).start();
  try {
    mirror.misbehaving.set(decisionPath('JURA000000002'), { kind: 'status', status: 404, times: 1 });
    const corpus = join(dir, 'failing.db');
    const run = await juralite(['sync', '--db', corpus, '--source', 'rii', '--base-url', mirror.url, '--pause', '0']);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /failed: http:\/\/www\.rechtsprechung-im-internet\.de\/jportal\/docs\/bsjrs\/jb-JURA000000002\.zip: .*HTTP 404/);
    const json = await juralite(['sync', '--db', corpus, '--source', 'rii', '--base-url', mirror.url, '--pause', '0', '--json']);
    assert.equal(json.code, 0, json.out);
    assert.equal(JSON.parse(json.out).sources.rii.imported, 1);
    const usage = await juralite(['sync', '--db', corpus, '--source', 'bgh']);
    assert.equal(usage.code, 2);
    assert.match(usage.out, /--source must be gii, rii, oldp or all, not "bgh"/);
  } finally {
    await mirror.close();
  }
});
