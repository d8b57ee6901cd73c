// A serving connection's page cache filled between requests (src/corpus/warm-cache.ts): what it reads, that the pages
// stay in the cache (the process reads no file bytes for them afterwards), that it yields to other work, stops at its
// budget and when the connection closes, and that searches answer the same while it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { openCorpus, type CorpusDb } from '../../src/corpus/open.ts';
import { warmPageCache } from '../../src/corpus/warm-cache.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { clearAnswers } from '../../src/search/answer-cache.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { startApi } from '../helpers/api.ts';

/** Bytes of the tables the warming reads, summed independently of it. */
function warmedTables(db: CorpusDb): number {
  const value = (sql: string) => db.prepare(sql).pluck().get() as number;
  return value('SELECT sum(length(text_zstd) + coalesce(length(page_parts), 0)) FROM decisions')
    + value('SELECT coalesce(sum(length(listed) + coalesce(length(terms), 0)), 0) FROM search_impacts')
    + value('SELECT sum(length(block)) FROM decisions_fts_data');
}

/** Bytes this process has read from files so far (Linux). */
const bytesRead = () => Number(/^rchar: (\d+)$/mu.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
const readIndex = (db: CorpusDb) => db.prepare('SELECT sum(length(substr(block, -1))) FROM decisions_fts_data').pluck().get();

test('warming reads the decision rows, the impact lists and the keyword index whole when the cache holds them', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  try {
    const report = await warmPageCache(db);
    assert.equal(report.stopped, false);
    assert.equal(report.bytes, warmedTables(db));
    assert.ok(report.slices >= 3, `a slice at least per table, not ${report.slices}`);
  } finally {
    db.close();
  }
});

test('after warming, the keyword index is read from the page cache, not the file', { skip: !existsSync('/proc/self/io') && 'no /proc/self/io' }, async () => {
  const path = await demoCorpus();
  const cold = openCorpus(path, { readonly: true });
  const warm = openCorpus(path, { readonly: true });
  try {
    await warmPageCache(warm);
    let before = bytesRead();
    readIndex(cold);
    const coldBytes = bytesRead() - before;
    before = bytesRead();
    readIndex(warm);
    const warmBytes = bytesRead() - before;
    assert.ok(coldBytes > 100_000, `a cold connection reads the index from the file (${coldBytes} bytes)`);
    assert.ok(warmBytes < coldBytes / 20, `a warmed one reads (almost) nothing: ${warmBytes} against ${coldBytes} bytes`);
  } finally {
    cold.close();
    warm.close();
  }
});

test('warming stops at its budget, yields between slices and stops when the connection closes', async () => {
  const path = await demoCorpus();
  const db = openCorpus(path, { readonly: true });
  const total = warmedTables(db);
  let turns = 0;
  let counting = true;
  const count = () => {
    turns += 1;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  const budgeted = await warmPageCache(db, 40_000);
  counting = false;
  assert.ok(budgeted.bytes >= 40_000 && budgeted.bytes < total, `${budgeted.bytes} bytes of ${total}, budget 40,000`);
  assert.ok(turns >= budgeted.slices - 1, `other work ran between the ${budgeted.slices} slices (${turns} turns)`);

  const closing = warmPageCache(db);
  setImmediate(() => db.close());
  const closed = await closing;
  assert.equal(closed.stopped, true);
  assert.ok(closed.bytes < total);
});

test('a search while the cache warms answers as one on a connection that never warms', async () => {
  const path = await demoCorpus();
  const warming = openCorpus(path, { readonly: true });
  const plain = openCorpus(path, { readonly: true });
  try {
    const args = { query: 'Kündigung Mietverhältnis', mode: 'keyword' as const, limit: 20, page: 1, bridge: true };
    const running = warmPageCache(warming);
    const during = await searchDecisions(warming, args);
    await running;
    clearAnswers(warming);
    const after = await searchDecisions(warming, args);
    const reference = await searchDecisions(plain, args);
    assert.ok(reference.results.length > 0);
    for (const answer of [during, after]) assert.deepEqual(answer.results, reference.results);
  } finally {
    warming.close();
    plain.close();
  }
});

test('a server has its corpus page cache filled when it starts listening', { skip: !existsSync('/proc/self/io') && 'no /proc/self/io' }, async () => {
  const api = await startApi({ corpus: 'demo' });
  const cold = openCorpus(await demoCorpus(), { readonly: true });
  try {
    let before = bytesRead();
    readIndex(cold);
    const coldBytes = bytesRead() - before;
    before = bytesRead();
    readIndex(api.services.corpus!);
    const servedBytes = bytesRead() - before;
    assert.ok(servedBytes < coldBytes / 20, `the server's connection reads (almost) nothing: ${servedBytes} against ${coldBytes} bytes`);
  } finally {
    cold.close();
    await api.close();
  }
});
