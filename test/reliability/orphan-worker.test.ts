/**
 * An extraction process whose server is gone, and one whose task outlives every limit.
 *
 * Guards (src/uploads/extract/watchdog.ts, a thread in each extraction process, outside its event loop):
 * - after kill -9 of the server, its extraction process, busy with a document that never ends, ends itself within a
 *   few seconds (it kept extracting at 60-85% CPU for minutes);
 * - a task bounds its own time: past the limit the process ends itself (SIGXCPU) even when nobody stops it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSmallCorpus } from '../helpers/small-corpus.ts';
import { openState } from '../../src/accounts/state-db.ts';
import { createOrganization } from '../../src/accounts/organizations.ts';
import { createToken } from '../../src/accounts/tokens.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';
import { childrenOf, cpuTicks, running } from './helpers/processes.ts';

/** x86-64 Linux: prctl is syscall 157, PR_SET_CHILD_SUBREAPER is 36. Then the command runs as a child; perl waits. */
const SUBREAPER = 'syscall(157, 36, 1, 0, 0, 0) == 0 or die "prctl: $!"; my $pid = fork(); if (!$pid) { exec @ARGV; } sleep 600;';
const CHILD = new URL('./helpers/server-child.ts', import.meta.url).pathname;
const HOSTILE_WORKER = new URL('../uploads/hostile-worker.ts', import.meta.url).pathname;
const WATCHDOG = new URL('../../src/uploads/extract/watchdog.ts', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'juralite-orphan-'));
const corpus = join(dir, 'corpus.db');
const statePath = join(dir, 'state.db');
let token: string;
const started: ChildProcess[] = [];
const strays: number[] = [];

before(() => {
  buildSmallCorpus(corpus);
  const state = openState(statePath);
  const { organization } = createOrganization(state, { name: 'Kanzlei', plan: 'starter' }, new Date());
  token = createToken(state, { organizationId: organization.id, abilities: ['citation-check'] }, new Date()).token;
  state.close();
});
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of strays) if (running(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string, ms: number): Promise<number> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > ms) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(50);
  }
  return performance.now() - start;
}

const subreaper = process.platform === 'linux' && process.arch === 'x64' ? false : 'needs x86-64 Linux (prctl by syscall number)';

test('kill -9 of the server: its extraction process, busy with a document that never ends, ends itself within seconds', { skip: subreaper }, async () => {
  // The server runs under a subreaper (perl calls prctl(PR_SET_CHILD_SUBREAPER) and waits): an orphan is adopted by
  // it, as by systemd, instead of by this sandbox's init, which ends orphans itself and would hide the defect.
  const server = spawn('perl', ['-e', SUBREAPER, process.execPath, CHILD], {
    env: {
      PATH: process.env.PATH ?? '', JURALITE_TEST_CORPUS: corpus, JURALITE_TEST_STATE: statePath, JURALITE_EXTRACTION_WORKERS: '1',
      JURALITE_EXTRACTION_WORKER: HOSTILE_WORKER, JURALITE_EXTRACTION_TIMEOUT_MS: '600000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(server);
  const { url, pid: serverPid } = JSON.parse(await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout! }).once('line', resolve);
    server.once('close', () => reject(new Error('the server process ended before listening')));
  })) as { url: string; pid: number };
  const form = new FormData();
  form.append('file', new Blob([`${LEGAL_TEXT} WORKER-HANG`]), 'endlos.txt');
  const accepted = await fetch(`${url}/api/v1/citation-check-documents`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  assert.equal(accepted.status, 202);
  let worker = 0;
  await until(() => { [worker = 0] = childrenOf(serverPid); return worker > 0; }, 'an extraction process starts', 20_000);
  strays.push(worker);
  // Spinning in the endless task: more CPU than starting a process takes (1.5 s at 100 ticks a second).
  await until(() => cpuTicks(worker) > 150, 'the extraction process works', 30_000);
  process.kill(serverPid, 'SIGKILL');
  const ms = await until(() => !running(worker), 'the orphaned extraction process ends', 5_000);
  assert.ok(ms < 5_000);
});

test('a task past its own time limit ends its process (SIGXCPU), with nobody to stop it', async () => {
  const script = join(dir, 'endless-task.mjs');
  writeFileSync(script, `import { watchTask } from ${JSON.stringify(WATCHDOG)};
watchTask({ maxResidentBytes: 2 ** 40, maxTaskMs: 500 });
for (;;);
`);
  const child = fork(script, { stdio: 'ignore' });
  started.push(child);
  const start = performance.now();
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (...args) => resolve(args)));
  assert.deepEqual([code, signal], [null, 'SIGXCPU']);
  assert.ok(performance.now() - start < 10_000);
});
