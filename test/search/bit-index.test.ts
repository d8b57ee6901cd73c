/**
 * The in-memory bit index (src/search/bit-index.ts) gives the list sqlite-vec's KNN query gives: the same neighbours in
 * the same order, ties included, for random query vectors, k and filters, on a real corpus file (the demo corpus,
 * with thousands of vec0 rows more over several chunks, many at equal distances, some deleted and put back); and an
 * import that adds or removes a vector is seen by the next search.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { BRANCHES } from '../../src/corpus/courts.ts';
import { DOCUMENT_TYPES } from '../../src/operations/schemas.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { syncSearchIndex } from '../../src/search/index-sync.ts';
import { heldBitIndex, loadBitIndex } from '../../src/search/bit-index.ts';
import { clearAnswers } from '../../src/search/answer-cache.ts';
import { knnFilter, vec0Nearest, VEC_TABLE } from '../../src/search/vector-store.ts';
import type { DecisionFilters } from '../../src/search/filters.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { riiXml } from '../ingest/helpers.ts';

function demoCopy(t: { after(fn: () => void): void }, path: string): Database.Database {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-bit-index-'));
  copyFileSync(path, join(dir, 'corpus.db'));
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

const bitsCount = (db: Database.Database) => (db.prepare(`SELECT count(*) AS n FROM ${VEC_TABLE}`).get() as { n: number }).n;

/**
 * Adds `count` vec0 rows to the copy: bits drawn near a few base vectors (so many share a distance to any query),
 * metadata from the corpus's own codes; then deletes every seventh and puts a few back (holes, slots reused).
 */
function addTiedRows(db: Database.Database, count: number): void {
  let seed = 17;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const bases = Array.from({ length: 4 }, () => Buffer.from(Array.from({ length: 32 }, () => Math.floor(random() * 256))));
  const courts = (db.prepare('SELECT id FROM search_courts').pluck().all() as number[]);
  const insert = db.prepare(`INSERT INTO ${VEC_TABLE} (rowid, embedding, court, branch, kind, day) VALUES (?, vec_bit(?), ?, ?, ?, ?)`);
  const row = (vecId: number) => {
    const bits = Buffer.from(bases[vecId % bases.length]);
    for (let flips = Math.floor(random() * 4); flips > 0; flips--) bits[Math.floor(random() * 32)] ^= 1 << Math.floor(random() * 8);
    const day = random() < 0.1 ? 0 : 20000101 + Math.floor(random() * 25) * 10000 + Math.floor(random() * 12) * 100;
    insert.run(BigInt(vecId), bits, BigInt(courts[vecId % courts.length]), BigInt(1 + (vecId % BRANCHES.length)),
      BigInt(1 + (vecId % DOCUMENT_TYPES.length)), BigInt(day));
  };
  db.transaction(() => {
    for (let vecId = 100_000; vecId < 100_000 + count; vecId++) row(vecId);
    const remove = db.prepare(`DELETE FROM ${VEC_TABLE} WHERE rowid = ?`);
    for (let vecId = 100_000; vecId < 100_000 + count; vecId += 7) remove.run(BigInt(vecId));
    for (let vecId = 100_000; vecId < 100_000 + count; vecId += 70) row(vecId);
  })();
}

test('the bit index gives vec0\'s list (same neighbours, same order, ties included) for random queries, k and filters', async (t) => {
  const db = demoCopy(t, await demoCorpus());
  addTiedRows(db, 3_000);
  const index = db.transaction(() => loadBitIndex(db, VEC_TABLE))();
  assert.ok(index, 'the demo corpus\'s vec0 tables are read');
  assert.equal(index.size, bitsCount(db));
  const courts = db.prepare('SELECT code FROM courts').pluck().all() as string[];
  const each = {
    court: fc.constantFrom(...courts),
    branch: fc.constantFrom(...BRANCHES),
    document_type: fc.constantFrom(...DOCUMENT_TYPES),
    date_from: fc.integer({ min: 1995, max: 2026 }).map((year) => `${year}-03-01`),
    date_to: fc.integer({ min: 2000, max: 2030 }).map((year) => `${year}-06-30`),
    cited_norm: fc.constantFrom('§ 573 BGB', '§ 626 BGB', 'Art. 6 DSGVO'),
  };
  // None, one, or any combination of the filters.
  const filters: fc.Arbitrary<DecisionFilters> = fc.oneof(fc.constant({}),
    ...Object.entries(each).map(([key, value]) => fc.record({ [key]: value })), fc.record(each, { requiredKeys: [] }));
  const embedding = db.prepare(`SELECT embedding FROM ${VEC_TABLE} WHERE rowid = ?`).pluck();
  const distance = (a: Buffer, vecId: number) => {
    const b = embedding.get(BigInt(vecId)) as Buffer;
    let bits = 0;
    for (let i = 0; i < a.length; i++) for (let x = a[i] ^ b[i]; x; x >>= 1) bits += x & 1;
    return bits;
  };
  const query = fc.uint8Array({ minLength: 32, maxLength: 32 });
  let ties = 0;
  fc.assert(fc.property(query, fc.integer({ min: 1, max: 220 }), filters, fc.boolean(), (bits, k, chosen, near) => {
    // Half the queries sit next to the tied rows, where equal distances cross the k-th place.
    const probe = near ? Buffer.from(db.prepare(`SELECT embedding FROM ${VEC_TABLE} WHERE rowid = 100001`).pluck().get() as Buffer) : Buffer.from(bits);
    const filter = knnFilter(db, chosen);
    if (!filter) return;
    const expected = vec0Nearest(db, probe, k + 1, filter);
    assert.deepEqual(index.nearest(db, probe, k, filter), expected.slice(0, k), JSON.stringify({ k, chosen }));
    // Equal distances across the k-th place: which of them make the list is the tie rule's to decide.
    if (expected.length > k && distance(probe, expected[k - 1]) === distance(probe, expected[k])) ties++;
  }), { numRuns: 150, seed: 4242 });
  assert.ok(ties > 25, `${ties} runs with equal distances across the k-th place`);
});

test('an import that adds or removes a vector is seen by the next search; the index follows the file', async (t) => {
  const db = demoCopy(t, await demoCorpus());
  const semantic = async (query: string) =>
    (await searchDecisions(db, { query, mode: 'semantic', limit: 20, page: 1, bridge: false })).results.map((r) => r.id);
  /** Searches until the index is rebuilt for the current state (a build is spaced after the last). */
  const settled = async (query: string) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      clearAnswers(db); // a kept answer would answer without scanning
      const ids = await semantic(query);
      if (heldBitIndex(db)?.size === bitsCount(db)) return ids;
      await sleep(20);
    }
    assert.fail('the bit index never followed the file');
  };
  const query = 'Betrug Strafzumessung Angeklagter Vermögensschaden Täuschung';
  await settled(query);
  const before = heldBitIndex(db)!.size;

  const dir = mkdtempSync(join(tmpdir(), 'juralite-bit-index-src-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a.xml');
  const text = 'Der Angeklagte wurde wegen Betruges verurteilt; Täuschung und Vermögensschaden sind festgestellt, die Strafzumessung hält stand.';
  writeFileSync(file, riiXml({ doknr: 'BITS00000001', datum: '20240115', aktenzeichen: '1 StR 7/24', gruende: [{ rn: 1, text }, { rn: 2, text }] }));
  await importPaths(db, [file]);
  const id = (db.prepare(`SELECT id FROM decisions WHERE doknr = 'BITS00000001'`).get() as { id: string }).id;
  assert.ok((await semantic(query)).includes(id), 'the next search finds the new decision');
  assert.ok((await settled(query)).slice(0, 5).includes(id), 'found through the rebuilt index');
  assert.equal(heldBitIndex(db)!.size, before + 1);

  db.prepare('DELETE FROM decisions WHERE id = ?').run(id);
  syncSearchIndex(db, { embeddings: null });
  assert.ok(!(await semantic(query)).includes(id), 'the next search no longer finds it');
  assert.ok(!(await settled(query)).includes(id));
  assert.equal(heldBitIndex(db)!.size, before);
});
