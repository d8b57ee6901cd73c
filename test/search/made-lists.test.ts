// Lists made for phrases the build did not list (src/search/impact-lists.ts madeList): a typed word that is no word of
// the corpus, only the start of its compounds, and one matching nothing. Over a real SQLite corpus: a made list is
// exactly what the build would have stored for the phrase, keyword rankings over it are FTS5's (rows, scores, count),
// and the phrase is no longer declined by the lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { sql } from '../../src/db/statements.ts';
import { generatedCorpus } from './generated-corpus.ts';
import { filterSql } from '../../src/search/filters.ts';
import { buildImpactLists, readDeeper, readList, readRowSet, sealImpactLists } from '../../src/search/impact-lists.ts';
import { ALL_ROWS, rankRange } from '../../src/search/rank-range.ts';
import { rankFromLists } from '../../src/search/top-k-lists.ts';
import { orderFromLists } from '../../src/search/hybrid-arm.ts';

/** 200 generated decisions, imported, lists built for phrases of 6 rows or more. */
async function corpus(t: { after(fn: () => void): void }): Promise<Database.Database> {
  const db = await generatedCorpus(t, 200, 3);
  db.transaction(() => buildImpactLists(db, { length: 12, depth: 36, minRows: 6 }))();
  sealImpactLists(db);
  return db;
}

/** Prefixes of listed words that are no word of the corpus and that no list holds, matching `min` rows or more, under half. */
function unlistedPrefixes(db: Database.Database, min: number): string[] {
  const half = sql<[], { n: number }>(db, 'SELECT count(*) AS n FROM search_docs').get()!.n / 2;
  const listed = new Set(sql<[], { phrase: string }>(db, 'SELECT phrase FROM search_impacts').all().map((row) => row.phrase));
  const count = sql<[string], { n: number }>(db, 'SELECT count(*) AS n FROM decisions_fts WHERE decisions_fts MATCH ?');
  const found = new Set<string>();
  for (const phrase of listed) {
    const word = /^"([a-z]{9,})"$/u.exec(phrase)?.[1];
    if (!word) continue;
    const prefix = `"${word.slice(0, word.length - 2)}"*`;
    if (listed.has(prefix)) continue;
    const rows = count.get(prefix)!.n;
    if (rows >= min && rows < half) found.add(prefix);
  }
  return [...found];
}

const stored = (db: Database.Database, phrase: string) => {
  const list = db.transaction(() => readList(db, phrase, true, undefined, true))();
  const deeper = db.transaction(() => readDeeper(db, phrase))();
  return { list, deeper, set: db.transaction(() => readRowSet(db, phrase))() };
};

test('a list made for an unlisted prefix is the one the build would store, and rankings over it are FTS5\'s', async (t) => {
  const db = await corpus(t);
  const prefixes = unlistedPrefixes(db, 20).slice(0, 8);
  assert.ok(prefixes.length >= 3, `unlisted prefixes of 20 rows or more: ${prefixes.join(', ')}`);
  const made = new Map(prefixes.map((phrase) => [phrase, stored(db, phrase)]));
  for (const [phrase, lists] of made) assert.ok(lists.list && lists.list.list.ids.length > 0, `${phrase} has a made list`);
  const words = sql<[], { phrase: string }>(db, `SELECT phrase FROM search_impacts WHERE phrase LIKE '"%"' AND length(listed) > 0 LIMIT 40`).all().map((row) => row.phrase);
  let proven = 0;
  for (const [i, phrase] of prefixes.entries()) {
    for (const expression of [phrase, `${phrase} OR ${words[i]}`, `${phrase} AND ${words[i + 1]}`, `${phrase} OR "keinwortdavon"*`]) {
      for (const pool of [1, 5, 20]) {
        const fast = db.transaction(() => rankFromLists(db, expression, filterSql({}), pool))();
        const full = db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, pool))();
        if (fast) assert.deepEqual(fast, full, `${expression}, pool ${pool}`);
        // One phrase, or with one matching nothing, is ranked from its list alone; the others where the lists prove it.
        if (expression === phrase || expression.includes('keinwortdavon')) assert.ok(fast, `${expression} ranked from the lists`);
        if (fast) proven++;
      }
    }
  }
  assert.ok(proven >= prefixes.length * 3 * 2 + 6, `rankings proven from the lists: ${proven}`);
  // Hybrid's arm (an OR of units) ordered from made lists where they hold every row: FTS5's rows, order and count.
  let ordered = 0;
  for (const [i, phrase] of prefixes.entries()) {
    for (const expression of [phrase, `${phrase} OR "keinwortdavon"*`, `${phrase} OR ${words[i]}`]) {
      for (const pool of [5, 40]) {
        const arm = db.transaction(() => orderFromLists(db, expression, pool))();
        const full = db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, pool))();
        if (arm) assert.deepEqual(arm, { docIds: full.docIds, matches: full.matches }, `hybrid's arm ${expression}, pool ${pool}`);
        if (arm) ordered++;
      }
    }
  }
  assert.ok(ordered >= 4, `hybrid's arms ordered from made lists: ${ordered}`);
  // Phrases the build listed, their rows taken out of search_impacts: the lists made for them are the ones stored.
  const listed = sql<[], { phrase: string }>(db, `SELECT phrase FROM search_impacts WHERE phrase LIKE '"%"*' AND length(listed) > 0
    ORDER BY rows DESC LIMIT 6`).all().map((row) => row.phrase);
  assert.equal(listed.length, 6);
  const built = new Map(listed.map((phrase) => [phrase, stored(db, phrase)]));
  assert.ok([...built.values()].some((lists) => lists.deeper && lists.set), 'some with deeper rows and a row set');
  const remove = db.prepare('DELETE FROM search_impacts WHERE phrase = ?');
  for (const phrase of listed) remove.run(phrase);
  for (const [phrase, lists] of built) {
    const made = stored(db, phrase);
    assert.equal(made.list?.made, true, `${phrase}: made`);
    assert.deepEqual({ ...made, list: { ...made.list!, made: false } }, lists, `${phrase}: made as built`);
  }
});

test('a phrase matching nothing has an empty made list; the file changing makes lists anew', async (t) => {
  const db = await corpus(t);
  const none = db.transaction(() => readList(db, '"keinwortdavon"*', true, undefined, true))();
  assert.equal(none?.rows, 0);
  assert.equal(none?.list.ids.length, 0);
  const [phrase] = unlistedPrefixes(db, 20);
  const first = stored(db, phrase!).list!;
  const ranked = db.transaction(() => rankRange(db, phrase!, filterSql({}), ALL_ROWS, 5))();
  assert.equal(first.rows, ranked.matches, 'its rows as FTS5 counts them');
  assert.deepEqual([...first.list.ids.subarray(0, 5)], ranked.docIds, 'its best rows as FTS5 ranks them');
  // A build after a change: the lists hold again, and the made list is made from the index as it is then.
  db.prepare('DELETE FROM decisions WHERE id = (SELECT decision_id FROM search_docs WHERE doc_id = ?)').run(first.list.ids[0]);
  db.transaction(() => buildImpactLists(db, { length: 12, depth: 36, minRows: 6 }))();
  sealImpactLists(db);
  const again = stored(db, phrase!).list!;
  assert.ok(!again.list.ids.includes(first.list.ids[0]!), 'the deleted row is in no list made after the change');
  assert.equal(again.rows, db.transaction(() => rankRange(db, phrase!, filterSql({}), ALL_ROWS, 5))().matches);
});
