/**
 * kill -9 of a serving process (helpers/server-child.ts) during a citation check and during the extraction of
 * uploads, then a new process on the same files.
 *
 * Guards:
 * - the charge, the paid result and the run commit in one transaction (src/operations/execute.ts): killed before the
 *   commit, nothing of the call is in the ledger (the same check costs its price again); killed after the commit
 *   but before the answer left, the call is recorded whole and asking again is a free repeat, not a second charge;
 * - the ledger's running sums never drift from the ledger, and the state file passes an integrity check;
 * - uploads left `uploaded` by a killed process are extracted by the next one (src/uploads/service.ts resumes them),
 *   and the files of uploads the killed process was still receiving are removed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildSmallCorpus } from '../helpers/small-corpus.ts';
import { openState, type StateDb } from '../../src/accounts/state-db.ts';
import { createOrganization } from '../../src/accounts/organizations.ts';
import { createToken } from '../../src/accounts/tokens.ts';
import { balanceOf } from '../../src/accounts/ledger.ts';
import { DEFAULT_PLAN_TERMS } from '../../src/accounts/plans.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';
import { childrenOf } from './helpers/processes.ts';
import { filesLeftIn } from '../helpers/uploads-dir.ts';

const CHILD = new URL('./helpers/server-child.ts', import.meta.url).pathname;
const HOSTILE_WORKER = new URL('../uploads/hostile-worker.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'juralite-kill-server-'));
const corpus = join(dir, 'corpus.db');
const statePath = join(dir, 'state.db');
let organizationId: string;
let token: string;
const started: ChildProcess[] = [];

before(() => {
  buildSmallCorpus(corpus);
  const state = openState(statePath);
  const { organization } = createOrganization(state, { name: 'Kanzlei', plan: 'starter' }, new Date());
  organizationId = organization.id;
  token = createToken(state, { organizationId, abilities: ['citation-check', 'read'] }, new Date()).token;
  state.close();
});
after(() => {
  // Whatever is still running (a test that failed half-way) is ended; then the files go.
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Server { url: string; child: ChildProcess; exited: Promise<NodeJS.Signals | null> }

async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, [CHILD], {
    env: { PATH: process.env.PATH ?? '', JURALITE_TEST_CORPUS: corpus, JURALITE_TEST_STATE: statePath, JURALITE_EXTRACTION_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('close', () => reject(new Error('the server process ended before listening')));
  });
  return { url: JSON.parse(line).url, child, exited };
}

async function check(server: Server, text: string): Promise<{ status: number; body: any } | 'connection lost'> {
  try {
    const response = await fetch(`${server.url}/api/v1/citation-checks`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text }),
    });
    return { status: response.status, body: await response.json() };
  } catch {
    return 'connection lost';
  }
}

function withState<T>(read: (state: StateDb) => T): T {
  const state = openState(statePath);
  try {
    return read(state);
  } finally {
    state.close();
  }
}

function ledgerConsistent(): void {
  withState((state) => {
    assert.equal(state.pragma('integrity_check', { simple: true }), 'ok');
    const drift = state.prepare(`SELECT l.organization_id FROM (SELECT organization_id, sum(monthly_delta) AS monthly, sum(bonus_delta) AS bonus
      FROM ledger GROUP BY 1) l JOIN (SELECT organization_id, sum(monthly) AS monthly, sum(bonus) AS bonus FROM ledger_sums GROUP BY 1) s
      USING (organization_id) WHERE l.monthly <> s.monthly OR l.bonus <> s.bonus`).all();
    assert.deepEqual(drift, [], 'running sums equal the ledger');
    const orphans = state.prepare(`SELECT count(*) AS n FROM ledger l LEFT JOIN paid_results p ON p.ledger_id = l.id
      WHERE l.kind = 'charge' AND p.ledger_id IS NULL`).get() as { n: number };
    assert.equal(orphans.n, 0, 'every charge has its paid result');
  });
}

const balance = () => withState((state) => balanceOf(state, { id: organizationId, plan: 'starter' } as any, DEFAULT_PLAN_TERMS, new Date()).total);
const runs = () => withState((state) => (state.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n);

test('killed inside the charge transaction of a check: nothing of it is recorded; the same check costs its price again', async () => {
  const text = `${LEGAL_TEXT} Erster Fall.`;
  const [before, runsBefore] = [balance(), runs()];
  const dying = await startServer({ DIE_SQL: 'CREATE TEMP TRIGGER die_at_run AFTER INSERT ON main.runs BEGIN SELECT die(); END' });
  assert.equal(await check(dying, text), 'connection lost');
  assert.equal(await dying.exited, 'SIGKILL');
  assert.equal(balance(), before, 'no charge survived');
  assert.equal(runs(), runsBefore, 'no run survived');
  ledgerConsistent();
  const next = await startServer();
  try {
    const again = await check(next, text);
    assert.ok(again !== 'connection lost' && again.status === 200, JSON.stringify(again));
    assert.equal(again.body.credits.cost, 2, 'charged now, once');
    assert.equal(balance(), before - 2);
  } finally {
    next.child.kill('SIGKILL');
    await next.exited;
  }
});

test('killed after the commit, before the answer left: the call is recorded whole; asking again is free', async () => {
  const text = `${LEGAL_TEXT} Zweiter Fall.`;
  const [before, runsBefore] = [balance(), runs()];
  const dying = await startServer({ DIE_ON_BODY: '"source":"api_v1"' });
  assert.equal(await check(dying, text), 'connection lost');
  assert.equal(await dying.exited, 'SIGKILL');
  assert.equal(balance(), before - 2, 'the committed charge stays');
  assert.equal(runs(), runsBefore + 1, 'with its run');
  ledgerConsistent();
  const next = await startServer();
  try {
    const again = await check(next, text);
    assert.ok(again !== 'connection lost' && again.status === 200, JSON.stringify(again));
    assert.equal(again.body.credits.cost, 0, 'a retry after a lost answer is a free repeat');
    assert.equal(balance(), before - 2);
  } finally {
    next.child.kill('SIGKILL');
    await next.exited;
  }
});

test('killed while extracting (and with one upload waiting): the next process extracts both; no stray files', async () => {
  // The test worker hangs on this marker, as a worker stuck on a hostile file does; one worker, so the second waits.
  const hanging = await startServer({ JURALITE_EXTRACTION_WORKER: HOSTILE_WORKER });
  const post = async (text: string) => {
    const form = new FormData();
    form.append('file', new Blob([text]), 'schriftsatz.txt');
    const response = await fetch(`${hanging.url}/api/v1/citation-check-documents`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 202);
    return ((await response.json()) as { id: string }).id;
  };
  const stuck = await post(`${LEGAL_TEXT} WORKER-HANG`);
  const waiting = await post(LEGAL_TEXT);
  // The extraction process is running (stuck) before the kill.
  let workers: number[] = [];
  for (let attempt = 0; attempt < 2400 && workers.length === 0; attempt++) {
    workers = childrenOf(hanging.child.pid!);
    if (!workers.length) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.ok(workers.length > 0, 'an extraction process was running');
  // A file left by an upload the process was still receiving when it died.
  const uploads = join(dir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  writeFileSync(join(uploads, 'upl_cut-off.part'), 'half a brief');
  hanging.child.kill('SIGKILL');
  assert.equal(await hanging.exited, 'SIGKILL');
  // The orphaned worker would spin forever: it was started by this test (through the server), so it is ended here.
  for (const pid of workers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch { /* already gone */ }
  }
  const statuses = () => withState((state) => state.prepare('SELECT id, status FROM uploads WHERE id IN (?, ?) ORDER BY id').all(stuck, waiting));
  assert.ok((statuses() as { status: string }[]).every((row) => row.status === 'uploaded'));
  const next = await startServer();
  try {
    const read = async (id: string) => {
      // Hang guard only: a loaded machine starts extraction processes slowly.
      for (let attempt = 0; attempt < 2400; attempt++) {
        const response = await fetch(`${next.url}/api/v1/citation-check-documents/${id}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await response.json()) as { status: string; char_count: number };
        if (body.status !== 'uploaded') return body;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.fail(`upload ${id} stayed uploaded`);
    };
    for (const id of [stuck, waiting]) assert.equal((await read(id)).status, 'ready', id);
    assert.deepEqual(await filesLeftIn(uploads), [], 'extracted files and the cut-off one are gone');
    ledgerConsistent();
  } finally {
    next.child.kill('SIGKILL');
    await next.exited;
  }
});
