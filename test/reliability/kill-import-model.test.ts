/**
 * The search model an import leaves depends only on the corpus it leaves, not on where an earlier run was killed
 * (issue 26, 5).
 *
 * An import killed after its batches committed but before its index pass leaves part of the corpus written and its
 * search index queued. Run again, the import opened the corpus, and opening completes a queued index: that trained
 * the embedder on the partial corpus, and the finished import kept it (the retrain rule wants 4x growth).
 *
 * Guards: a model trained outside an import's own index pass (completing what a killed run left) is provisional, and
 * the next import's index pass trains anew (src/search/vector-sync.ts); the resumed import leaves the model of an
 * uninterrupted one (the same id, a digest of what was learnt, and the same baseline).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runImportChild } from './helpers/run-import.ts';

const FIXTURES = new URL('../../fixtures/decisions/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'juralite-kill-import-model-'));
const partial = join(dir, 'partial');

before(() => {
  // The part a killed run wrote: 45 of the 50 decisions (enough text to train on, above MIN_TRAIN_TOKENS; the whole is
  // under 4x it).
  mkdirSync(partial);
  for (const name of readdirSync(FIXTURES).filter((file) => file.endsWith('.xml')).sort().slice(0, 45)) {
    copyFileSync(join(FIXTURES, name), join(partial, name));
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

function model(path: string): { id: string; trained_passages: number; provisional?: boolean } {
  const db = new Database(path, { readonly: true });
  try {
    const value = db.prepare("SELECT value FROM meta WHERE key = 'search_embedder'").pluck().get() as string | undefined;
    assert.ok(value, 'a model was trained');
    return JSON.parse(value);
  } finally {
    db.close();
  }
}

test('an import resumed after a kill before its index pass leaves the model of an uninterrupted import', async () => {
  const clean = join(dir, 'clean.db');
  const whole = await runImportChild(clean, 'never', FIXTURES);
  assert.equal(whole.code, 0, whole.stderr);

  const resumed = join(dir, 'resumed.db');
  // Killed when it records its summary: its batches are committed, its index pass has not begun.
  const killed = await runImportChild(resumed, 'meta', partial);
  assert.equal(killed.signal, 'SIGKILL', killed.stderr);
  const again = await runImportChild(resumed, 'never', FIXTURES);
  assert.equal(again.code, 0, again.stderr);

  const expected = model(clean);
  const actual = model(resumed);
  assert.equal(actual.trained_passages, expected.trained_passages, 'trained on the whole corpus');
  assert.equal(actual.id, expected.id, 'the same model');
  assert.ok(!actual.provisional);
});
