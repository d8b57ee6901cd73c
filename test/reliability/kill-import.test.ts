/**
 * kill -9 during an import. The corpus holds the demo decisions; a new edition of all fifty (each with a changed
 * paragraph) is imported by a child process that is killed at a chosen write (helpers/import-child.ts). Afterwards,
 * and after the import is run again, every decision is wholly the old or wholly the new edition (text, chunks,
 * sections, norms, file numbers: one fingerprint), the import's single batch is all old or all new, and the search
 * index agrees with the decisions.
 *
 * Guards: one transaction per batch and one savepoint per document (src/ingest/import-paths.ts Importer.flush), the
 * search index following the chunks (src/search/index-sync.ts), and an import run again finishing what a killed
 * one left (idempotent re-import).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { corpusNeedsUpgrade, upgradeCorpus } from '../../src/corpus/open.ts';
import { registerTextFunctions } from '../../src/corpus/stored-text.ts';
import { analyzedText } from '../../src/search/analyze.ts';
import { runImportChild } from './helpers/run-import.ts';

const FIXTURES = new URL('../../fixtures/decisions/', import.meta.url).pathname;
/** A word no demo decision holds, written into the new edition of each. */
const MARKER = 'Neufassungsvermerk';

const dir = mkdtempSync(join(tmpdir(), 'juralite-kill-import-'));
let oldCorpus: string;
let editionDir: string;
let oldPrints: Map<string, string>;
let newPrints: Map<string, string>;

type Prints = Map<string, string>;

/** One fingerprint per decision over everything written with it. */
function fingerprints(path: string): Prints {
  const db = new Database(path, { readonly: true });
  registerTextFunctions(db);
  try {
    const rows = db.prepare(`SELECT d.id, d.content_hash, decision_text(d.text_zstd) AS full_text,
      (SELECT group_concat(position || ':' || start_offset || '-' || end_offset, '|') FROM (SELECT * FROM chunks WHERE decision_id = d.id ORDER BY position)) AS chunks,
      (SELECT group_concat(name || start_offset || '-' || end_offset, '|') FROM (SELECT * FROM decision_sections WHERE decision_id = d.id ORDER BY position)) AS sections,
      (SELECT group_concat(norm, '|') FROM (SELECT norm FROM decision_norms WHERE decision_id = d.id ORDER BY position)) AS norms,
      (SELECT group_concat(aktenzeichen, '|') FROM decision_file_numbers WHERE decision_id = d.id) AS files
      FROM decisions d`).all() as Record<string, string>[];
    return new Map(rows.map((row) => [row.id, createHash('sha256').update(JSON.stringify(row)).digest('hex')]));
  } finally {
    db.close();
  }
}

/** Decisions whose chunks the search index finds by the marker word. */
function indexedWithMarker(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    const stem = analyzedText(MARKER);
    return (db.prepare(`SELECT count(*) AS n FROM decisions_fts f JOIN search_docs s ON s.doc_id = f.rowid
      WHERE decisions_fts MATCH ?`).get(`"${stem}"`) as { n: number }).n;
  } finally {
    db.close();
  }
}

const runImport = (corpus: string, killAt: string) => runImportChild(corpus, killAt, editionDir);

before(async () => {
  oldCorpus = join(dir, 'old.db');
  copyFileSync(await demoCorpus(), oldCorpus);
  // The new edition: every decision with a sentence added to its first paragraph after the title.
  editionDir = join(dir, 'edition');
  mkdirSync(editionDir);
  for (const name of readdirSync(FIXTURES).filter((file) => file.endsWith('.xml'))) {
    const xml = readFileSync(join(FIXTURES, name), 'utf8');
    const at = xml.indexOf('<p>', xml.indexOf('</titelzeile>'));
    assert.ok(at > 0, name);
    writeFileSync(join(editionDir, name), `${xml.slice(0, at + 3)}${MARKER} der Neufassung. ${xml.slice(at + 3)}`);
  }
  oldPrints = fingerprints(oldCorpus);
  const clean = join(dir, 'clean-new.db');
  copyFileSync(oldCorpus, clean);
  const { code, stderr } = await runImport(clean, 'never');
  assert.equal(code, 0, stderr);
  newPrints = fingerprints(clean);
  assert.equal(newPrints.size, oldPrints.size);
  assert.ok([...newPrints].every(([id, print]) => oldPrints.get(id) !== print), 'every decision changes in the new edition');
  assert.equal(indexedWithMarker(clean), newPrints.size);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Which edition each decision is in; fails on a decision that is neither (half written). */
function editions(path: string): { old: number; new: number } {
  const prints = fingerprints(path);
  assert.equal(prints.size, oldPrints.size, 'no decision lost or added');
  const count = { old: 0, new: 0 };
  for (const [id, print] of prints) {
    if (print === oldPrints.get(id)) count.old++;
    else if (print === newPrints.get(id)) count.new++;
    else assert.fail(`decision ${id} is neither the old nor the new edition`);
  }
  return count;
}

const cases: { killAt: string; when: string; expected: 'old' | 'new' }[] = [
  { killAt: 'row_chunks:90', when: 'in the middle of the batch', expected: 'old' },
  { killAt: 'end', when: 'once the import has returned, before the connection closed', expected: 'new' },
];

for (const { killAt, when, expected } of cases) {
  test(`kill -9 ${when}: the corpus is wholly the ${expected} edition; importing again completes the new one`, async () => {
    const corpus = join(dir, `killed-${killAt.replace(':', '-')}.db`);
    copyFileSync(oldCorpus, corpus);
    const killed = await runImport(corpus, killAt);
    assert.equal(killed.signal, 'SIGKILL', `the import was meant to be killed: ${killed.stderr}`);
    const count = editions(corpus);
    assert.deepEqual(count, expected === 'old' ? { old: oldPrints.size, new: 0 } : { old: 0, new: newPrints.size });
    assert.equal(indexedWithMarker(corpus), count.new, 'the search index agrees with the decisions');
    const again = await runImport(corpus, 'never');
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(editions(corpus), { old: 0, new: newPrints.size });
    assert.equal(indexedWithMarker(corpus), newPrints.size);
  });
}

// Guards the queue drain on open (src/corpus/open.ts: corpusNeedsUpgrade, completeSearchIndex): a kill between the
// batch's commit and the end of the index sync leaves the new decisions queued, not indexed; the server's start
// (upgradeCorpus) indexes them before it serves, without another import.
for (const killAt of ['meta', 'search_words']) {
  test(`kill -9 after the batch committed, before the index sync ended (${killAt}): the next start indexes the new edition`, async () => {
    const corpus = join(dir, `killed-${killAt}.db`);
    copyFileSync(oldCorpus, corpus);
    const killed = await runImport(corpus, killAt);
    assert.equal(killed.signal, 'SIGKILL', `the import was meant to be killed: ${killed.stderr}`);
    assert.deepEqual(editions(corpus), { old: 0, new: newPrints.size });
    assert.ok(indexedWithMarker(corpus) < newPrints.size, 'the kill left decisions out of the index');
    assert.equal(corpusNeedsUpgrade(corpus), true);
    upgradeCorpus(corpus);
    assert.equal(indexedWithMarker(corpus), newPrints.size);
    assert.equal(corpusNeedsUpgrade(corpus), false);
  });
}
