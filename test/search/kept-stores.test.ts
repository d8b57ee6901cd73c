/**
 * Reads kept per connection (src/search/kept-reads.ts): each store within its own bound, the oldest entries going
 * first, neither store evicting the other's, and all of them read again once the file changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { keptStore } from '../../src/search/kept-reads.ts';

test('kept stores: each within its bound, oldest first, apart from each other, emptied by a change', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (x)');
  const [lists, norms] = [keptStore(10_000), keptStore(10_000)];
  const reads: string[] = [];
  const read = (store: ReturnType<typeof keptStore>, key: string) => store(db, key, () => {
    reads.push(key);
    return key;
  }, () => 3_000);
  read(norms, 'norm');
  for (const key of ['a', 'b', 'c']) read(lists, key);
  assert.deepEqual(reads, ['norm', 'a', 'b', 'c'], 'each read once');
  read(lists, 'a');
  assert.deepEqual(reads.slice(4), ['a'], 'the oldest went first past the bound (3 x 3,512 bytes > 10,000)');
  read(lists, 'c');
  read(norms, 'norm');
  assert.deepEqual(reads.slice(5), [], 'the other store kept its own');
  db.prepare('INSERT INTO t VALUES (1)').run();
  read(norms, 'norm');
  read(lists, 'c');
  assert.deepEqual(reads.slice(5), ['norm', 'c'], 'read again after the connection changed the file');
  db.close();
});
