import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPaths } from '../../src/ingest/index.ts';
import { activeProfile, ImportProfile, timed } from '../../src/ingest/import-profile.ts';
import { riiXml, tempCorpus } from './helpers.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;

function decisions(dir: string, count: number, first = 1): string {
  const root = join(dir, 'in');
  mkdirSync(root, { recursive: true });
  for (let n = first; n < first + count; n++) {
    writeFileSync(join(root, `KORE7000${n}2021.xml`), riiXml({
      doknr: `KORE7000${n}2021`, ecli: `ECLI:DE:BGH:2021:0101${n}UVIIIZR${n}.21.0`, aktenzeichen: `VIII ZR ${n}/21`,
      gruende: [{ rn: 1, text: `Erwägung ${n} nach § 573 BGB (BGH, Urteil vom 1. Januar 2021 - VIII ZR ${n + 1}/21).` }],
    }));
  }
  return root;
}

test('a profiled import times its steps per batch and in all; an import without one times nothing', async (t) => {
  const { db, dir } = tempCorpus(t);
  const root = decisions(dir, 7);
  const profile = new ImportProfile();
  const summary = await importPaths(db, [root], { batchSize: 3, profile });
  assert.equal(summary.imported, 7);
  assert.deepEqual(profile.batches.map((b) => b.documents), [3, 3, 1]);
  for (const step of ['decision: find held', 'decision: row', 'decision: parts', 'decision: edge targets', 'decision: edge rows',
    'batch: commit', 'finish: pending edges', 'finish: counts']) {
    assert.ok(profile.totals.has(step), `${step} in ${[...profile.totals.keys()].join(', ')}`);
  }
  assert.equal(profile.totals.get('decision: row')!.calls, 7);
  for (const batch of profile.batches) {
    const steps = Object.values(batch.steps).reduce((sum, ms) => sum + ms, 0);
    assert.ok(Math.abs(steps - batch.ms) < 1, 'a batch is its steps and its commit');
  }
  assert.equal(activeProfile(), null, 'the profile ends with its import');
  assert.equal(timed('anything', () => 42), 42);
  const calls = profile.totals.get('decision: row')!.calls;
  assert.equal((await importPaths(db, [decisions(join(dir, 'more'), 2, 8)])).decisions, 9);
  assert.equal(profile.totals.get('decision: row')!.calls, calls, 'a later import without a profile adds nothing to it');
});

test('juralite import --profile prints where the time went on stderr, after the summary on stdout', (t) => {
  const { dir } = tempCorpus(t);
  const root = decisions(dir, 3);
  const run = spawnSync(process.execPath, [BIN, 'import', '--db', join(dir, 'cli.db'), '--profile', root], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^documents: 3 new/m);
  assert.match(run.stderr, /^juralite import: where [\d.]+ s went/m);
  assert.match(run.stderr, /^ {2}decision: row +[\d.]+ +3 +[\d.]+%$/m);
  assert.match(run.stderr, /^ {2}batch: commit +[\d.]+ +1 +/m);
});
