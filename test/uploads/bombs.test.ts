/**
 * Bombs against the extraction pool: a small PDF whose content stream inflates a thousandfold, and one whose million
 * operators ask pdf.js for minutes of work in little memory.
 *
 * Guards: the whole extraction process is held within JURALITE_EXTRACTION_MEMORY_MB of resident memory, not only its
 * JavaScript heap (src/uploads/extract/watchdog.ts ends it above the cap); such a file fails as `resource_limit`
 * within seconds, its process never above the cap + 10%; the operators are held to a CPU budget proportional to the
 * file (src/uploads/extract/cpu-budget.ts, held by the watchdog): such a file fails as `too_complex` within seconds (it
 * held the process for the whole time limit) and leaves nothing working; the pool extracts the next file, to the same
 * text.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { ExtractionPool } from '../../src/uploads/pool.ts';
import { pdf } from '../helpers/documents.ts';
import { pdfBomb, pdfOperatorBomb } from './pdf-bomb.ts';
import { CPU_BUDGET_BASE_MS } from '../../src/uploads/extract/cpu-budget.ts';
import { childrenOf } from '../reliability/helpers/processes.ts';
import { startApi } from '../helpers/api.ts';
import { pollUntilExtracted, upload } from './client.ts';

const CAP_MB = 320;
let dir: string;
let pool: ExtractionPool;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'juralite-bombs-'));
  pool = new ExtractionPool({ ...loadConfig({}).uploads, workers: 1, timeoutMs: 60_000, workerMemoryMb: CAP_MB });
});
after(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The highest resident memory (VmHWM, in MiB) any child reached, read every 10 ms while `work` runs. */
async function peakResidentMb<T>(work: Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = 0;
  const timer = setInterval(() => {
    for (const pid of childrenOf(process.pid)) {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        peakMb = Math.max(peakMb, kb / 1024);
      } catch { /* ended meanwhile */ }
    }
  }, 10);
  try {
    return { result: await work, peakMb };
  } finally {
    clearInterval(timer);
  }
}

const task = (path: string) => ({ path, format: 'pdf' as const, maxChars: 20_000, maxUncompressedBytes: 100e6 });

test('a 1 MB PDF whose content stream inflates to 1 GiB fails as resource_limit, the process never above the cap + 10%', async () => {
  const path = join(dir, 'bomb.pdf');
  writeFileSync(path, pdfBomb(1024));
  // The time limit (60 s) would fail it as unreadable: resource_limit shows the memory cap ended it first.
  const { result, peakMb } = await peakResidentMb(pool.run(task(path), 'org'));
  assert.equal(result.status, 'failed', JSON.stringify(result));
  assert.equal((result as { error_code: string }).error_code, 'resource_limit');
  assert.match((result as { error_detail: string }).error_detail, new RegExp(`${CAP_MB} MB`));
  assert.ok(peakMb <= CAP_MB * 1.1, `the extraction process reached ${peakMb.toFixed(0)} MiB (cap ${CAP_MB})`);
});

/** CPU time (user + system, in ms) a process has spent, from /proc. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

test('a PDF of a million nested operators fails as too_complex within seconds, and its process stops working', async () => {
  const path = join(dir, 'operators.pdf');
  const bomb = pdfOperatorBomb(1_000_000);
  assert.ok(bomb.length < 20_000, `${bomb.length} bytes`);
  writeFileSync(path, bomb);
  const started = Date.now();
  // Before the CPU budget it ran into the time limit (60 s here) and failed as unreadable.
  const result = await pool.run(task(path), 'org');
  const seconds = (Date.now() - started) / 1000;
  assert.equal(result.status, 'failed', JSON.stringify(result));
  assert.equal((result as { error_code: string }).error_code, 'too_complex', JSON.stringify(result));
  assert.ok(seconds < 30, `${seconds} s (budget ${CPU_BUDGET_BASE_MS / 1000} s of CPU)`);
  // pdf.js was stopped with its process, not left working beside the process that takes the next file.
  const before = childrenOf(process.pid).map((pid) => [pid, cpuMsOf(pid)] as const);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (const [pid, ms] of before) {
    const spent = (() => { try { return cpuMsOf(pid) - ms; } catch { return 0; } })();
    assert.ok(spent < 200, `process ${pid} spent ${spent} ms of CPU in the second after`);
  }
});

test('after the bombs, the pool extracts the next PDF to the same text', async () => {
  const path = join(dir, 'brief.pdf');
  writeFileSync(path, pdf([['Die Klage ist nach § 823 Abs. 1 BGB begründet.', 'Vgl. BGH, Urteil vom 14. Mai 2019 - VI ZR 496/18.'],
    ['Seite zwei: § 280 BGB.']]));
  const result = await pool.run(task(path), 'org');
  assert.equal(result.status, 'ready', JSON.stringify(result));
  assert.equal((result as { text: string }).text,
    'Die Klage ist nach § 823 Abs. 1 BGB begründet. Vgl. BGH, Urteil vom 14. Mai 2019 - VI ZR 496/18.\n\nSeite zwei: § 280 BGB.');
});

test('over HTTP, the operator bomb is an upload failed as too_complex, whose detail says what to do', async () => {
  const api = await startApi({ corpus: 'none', config: { uploads: { ...loadConfig({}).uploads, workers: 1 } } });
  try {
    const token = api.org().token(['citation-check']);
    const accepted = await upload(api, token, pdfOperatorBomb(1_000_000), 'schriftsatz.pdf');
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const ended = await pollUntilExtracted(api, token, accepted.body.id);
    assert.equal(ended.status, 'failed', JSON.stringify(ended));
    assert.equal(ended.error_code, 'too_complex');
    assert.match(ended.error_detail, /more computing than a file of its size may take/);
  } finally {
    await api.close();
  }
});
