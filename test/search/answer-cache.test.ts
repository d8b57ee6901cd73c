// The answer cache (src/search/answer-cache.ts): the same arguments get the kept answer while the corpus file is
// unchanged; a decision imported into the served file (as juralite sync and import do, through a connection of their
// own, or through the serving connection itself) is found by the very next search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { ANSWER_CACHE_SIZE, cachedAnswers } from '../../src/search/answer-cache.ts';
import { searchCombined } from '../../src/search/combined-search.ts';
import { searchDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { riiXml } from '../ingest/helpers.ts';

/** A corpus file with `count` decisions about Schimmel, its writer connection, and a read-only one that serves it. */
async function servedCorpus(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-answer-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'corpus.db');
  const writer = openCorpus(path);
  t.after(() => writer.close());
  let next = 0;
  const add = async (db: Database.Database, text: string) => {
    const doknr = `CACH${String(++next).padStart(8, '0')}`;
    const file = join(dir, `${doknr}.xml`);
    writeFileSync(file, riiXml({ doknr, datum: '20240101', aktenzeichen: `VIII ZR ${next}/24`, gruende: [{ rn: 1, text }] }));
    await importPaths(db, [file]);
  };
  await add(writer, 'Schimmel in der Mietwohnung mindert die Miete.');
  await add(writer, 'Der Schimmel im Keller war dem Vermieter bekannt.');
  const served = openCorpus(path, { readonly: true });
  t.after(() => served.close());
  return { writer, served, add };
}

const akten = (answer: { results: { aktenzeichen: string | null }[] }) => answer.results.map((item) => item.aktenzeichen).sort();

for (const mode of ['keyword', 'hybrid'] as SearchMode[]) {
  test(`${mode}: the same arguments get the kept answer until a decision is imported into the served file`, async (t) => {
    const { writer, served, add } = await servedCorpus(t);
    const args = { query: 'Schimmel', mode, limit: 20, page: 1, bridge: false };
    const first = await searchDecisions(served, args);
    assert.deepEqual(akten(first), ['VIII ZR 1/24', 'VIII ZR 2/24']);
    assert.equal(await searchDecisions(served, { ...args }), first, 'kept');
    assert.notEqual(await searchDecisions(served, { ...args, limit: 1 }), first, 'other arguments, another answer');
    assert.equal(cachedAnswers(served), 2);

    // Through another connection (juralite sync writing the served corpus): SQLite's data_version.
    await add(writer, 'Schimmel im Bad nach dem Duschen.');
    const afterSync = await searchDecisions(served, args);
    assert.deepEqual(akten(afterSync), ['VIII ZR 1/24', 'VIII ZR 2/24', 'VIII ZR 3/24']);
    assert.equal(cachedAnswers(served), 1, 'the answers of the old state are gone');

    // Through the connection that searches (an import into the corpus it has open): its own changes.
    assert.deepEqual(akten(await searchDecisions(writer, args)), ['VIII ZR 1/24', 'VIII ZR 2/24', 'VIII ZR 3/24']);
    await add(writer, 'Schimmel an der Außenwand.');
    assert.equal((await searchDecisions(writer, args)).results.length, 4);
  });
}

test('a kept answer cannot be changed by whoever got it', async (t) => {
  const { served } = await servedCorpus(t);
  const answer = await searchDecisions(served, { query: 'Schimmel', mode: 'keyword', limit: 20, page: 1, bridge: false });
  assert.throws(() => { (answer.results as unknown[]).pop(); }, TypeError);
  assert.throws(() => { (answer.results[0] as { title: string | null }).title = 'x'; }, TypeError);
  assert.equal((await searchDecisions(served, { query: 'Schimmel', mode: 'keyword', limit: 20, page: 1, bridge: false })).results.length, 2);
});

test('the combined search keeps its answers apart from the decision search, and the cache stays bounded', async (t) => {
  const { served } = await servedCorpus(t);
  const combined = await searchCombined(served, { query: 'Schimmel', mode: 'keyword', limit: 5, bridge: false });
  const decisions = await searchDecisions(served, { query: 'Schimmel', mode: 'keyword', limit: 5, page: 1, bridge: false });
  assert.ok('sections' in combined && !('sections' in decisions));
  assert.equal(await searchCombined(served, { query: 'Schimmel', mode: 'keyword', limit: 5, bridge: false }), combined);
  for (let limit = 1; limit <= 20; limit++) {
    for (let page = 1; page <= 10; page++) {
      for (const query of ['Schimmel', 'Keller']) await searchDecisions(served, { query, mode: 'keyword', limit, page, bridge: false });
    }
  }
  assert.equal(cachedAnswers(served), ANSWER_CACHE_SIZE);
});
