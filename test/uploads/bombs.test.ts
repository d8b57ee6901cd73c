/**
 * Stream bombs against the extraction pool: a small PDF whose content stream inflates a thousandfold.
 *
 * Guards: the whole extraction process is held within JURALITE_EXTRACTION_MEMORY_MB of resident memory, not only its
 * JavaScript heap (src/uploads/extract/watchdog.ts ends it above the cap); such a file fails as `resource_limit`
 * within seconds, its process never above the cap + 10%; the pool serves the next file.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { ExtractionPool } from '../../src/uploads/pool.ts';
import { pdf } from '../helpers/documents.ts';
import { pdfBomb } from './pdf-bomb.ts';

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

/** Child processes of this process (the pool's), read from /proc. */
function children(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((name) => {
    try {
      return readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1] === String(process.pid);
    } catch {
      return false;
    }
  }).map(Number);
}

/** The highest resident memory (VmHWM, in MiB) any child reached, read every 10 ms while `work` runs. */
async function peakResidentMb<T>(work: Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = 0;
  const timer = setInterval(() => {
    for (const pid of children()) {
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

test('a 1 MB PDF whose content stream inflates to 1 GiB fails as resource_limit within seconds, under the cap + 10%', async () => {
  const path = join(dir, 'bomb.pdf');
  writeFileSync(path, pdfBomb(1024));
  const started = performance.now();
  const { result, peakMb } = await peakResidentMb(pool.run(task(path), 'org'));
  const seconds = (performance.now() - started) / 1000;
  assert.equal(result.status, 'failed', JSON.stringify(result));
  assert.equal((result as { error_code: string }).error_code, 'resource_limit');
  assert.match((result as { error_detail: string }).error_detail, new RegExp(`${CAP_MB} MB`));
  assert.ok(seconds < 30, `ended after ${seconds.toFixed(1)} s`);
  assert.ok(peakMb <= CAP_MB * 1.1, `the extraction process reached ${peakMb.toFixed(0)} MiB (cap ${CAP_MB})`);
});

test('after a bomb, the pool extracts the next PDF', async () => {
  const path = join(dir, 'brief.pdf');
  writeFileSync(path, pdf([['Die Klage ist nach § 823 Abs. 1 BGB begründet.']]));
  const result = await pool.run(task(path), 'org');
  assert.equal(result.status, 'ready', JSON.stringify(result));
});
