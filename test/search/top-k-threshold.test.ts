// Keyword rankings proven by the threshold algorithm (top-k-threshold.ts): each row scored the moment it is first read,
// its terms for the other phrases looked up by row id in their lists, over a real SQLite corpus. The rows, their
// order, their scores (bit for bit) and the count are FTS5's own; and they read fewer list entries than the passes
// beneath them (top-k-lists.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { sql } from '../../src/db/statements.ts';
import { generatedCorpus } from './generated-corpus.ts';
import { filterSql } from '../../src/search/filters.ts';
import { buildImpactLists, sealImpactLists } from '../../src/search/impact-lists.ts';
import { ALL_ROWS, rankRange } from '../../src/search/rank-range.ts';
import { listsServed, parseExpression, rankFromLists } from '../../src/search/top-k-lists.ts';
import { withoutThreshold } from '../../src/search/top-k-threshold.ts';

/** 200 generated decisions, imported. */
const corpus = (t: { after(fn: () => void): void }) => generatedCorpus(t, 200, 3);

/** The listed phrases (no NEAR group, none floored: an empty list). */
const listedPhrases = (db: Database.Database) => sql<[], { phrase: string }>(db,
  `SELECT phrase FROM search_impacts WHERE length(listed) > 0 AND phrase NOT LIKE 'NEAR(%' ORDER BY phrase`).all().map((row) => row.phrase);

/** ANDs of one to five of `phrases`, one part of them an OR of two where drawn so. */
const expressions = (phrases: string[]) => fc.record({
  anded: fc.uniqueArray(fc.constantFrom(...phrases), { minLength: 1, maxLength: 5 }),
  or: fc.option(fc.tuple(fc.constantFrom(...phrases), fc.constantFrom(...phrases), fc.nat()), { freq: 3 }),
}).map(({ anded, or }) => {
  const parts = [...anded];
  if (or) parts.splice(or[2] % (parts.length + 1), 0, `(${or[0]} OR ${or[1]})`);
  return parts.join(' AND ');
});

/** A ranking from the lists (null: not proven) and the list entries it read. */
function fromLists(db: Database.Database, expression: string, pool: number) {
  const read = listsServed(db).entries;
  const ranking = db.transaction(() => rankFromLists(db, expression, filterSql({}), pool))();
  return { ranking, entries: listsServed(db).entries - read };
}

test('rankings proven by the threshold algorithm are FTS5\'s, scores bit for bit, from fewer entries than the passes', async (t) => {
  const db = await corpus(t);
  // Short lists (most rankings read past their listed rows, many rows hold a phrase past the stored ones), and longer.
  for (const [length, depth, fewer] of [[12, 36, 1], [40, 160, 0.6]]) {
    db.transaction(() => buildImpactLists(db, { length, depth, minRows: 6 }))();
    sealImpactLists(db);
    const phrases = listedPhrases(db);
    const counts = { proven: 0, long: 0, ors: 0, partly: 0 };
    const threshold = listsServed(db).threshold;
    const samples: { expression: string; pool: number }[] = [];
    // Entries in a phrase's list and its deeper rows.
    const stored = sql<[string], { n: number }>(db, 'SELECT length(listed) / 8 + coalesce(length(deeper), 0) / 12 AS n FROM search_impacts WHERE phrase = ?');
    fc.assert(fc.property(expressions(phrases), fc.constantFrom(1, 2, 5, 20), (expression, pool) => {
      const before = listsServed(db).threshold;
      const fast = fromLists(db, expression, pool);
      if (listsServed(db).threshold === before) return;
      counts.proven++;
      const full = db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, pool))();
      assert.deepEqual(fast.ranking, full, expression);
      const listed = parseExpression(expression)!.phrases;
      if (listed.length >= 3) counts.long++;
      if (expression.includes(' OR ')) counts.ors++;
      if (fast.entries < listed.reduce((sum, phrase) => sum + stored.get(phrase)!.n, 0)) counts.partly++;
      samples.push({ expression, pool });
    }), { numRuns: 300, seed: 25 });
    assert.equal(listsServed(db).threshold - threshold, counts.proven);
    assert.ok(counts.proven >= 200 && counts.long >= 100 && counts.ors >= 60 && counts.partly >= 100, JSON.stringify(counts));
    // The same rankings by the passes alone read more entries.
    const entries = { threshold: 0, passes: 0 };
    for (const { expression, pool } of samples) entries.threshold += fromLists(db, expression, pool).entries;
    await withoutThreshold(db, async () => {
      for (const { expression, pool } of samples) entries.passes += fromLists(db, expression, pool).entries;
    });
    assert.ok(entries.threshold < entries.passes * fewer, JSON.stringify({ length, depth, ...entries }));
  }
});

test('an OR of phrases (every list read best first) is FTS5\'s ranking, scores bit for bit, with its count', async (t) => {
  const db = await corpus(t);
  db.transaction(() => buildImpactLists(db, { length: 40, depth: 160, minRows: 6 }))();
  sealImpactLists(db);
  const phrases = listedPhrases(db);
  const ors = fc.uniqueArray(fc.constantFrom(...phrases), { minLength: 2, maxLength: 4 }).map((any) => any.join(' OR '));
  const counts = { proven: 0, partly: 0 };
  const stored = sql<[string], { n: number }>(db, 'SELECT length(listed) / 8 + coalesce(length(deeper), 0) / 12 AS n FROM search_impacts WHERE phrase = ?');
  fc.assert(fc.property(ors, fc.constantFrom(1, 2, 5, 20), (expression, pool) => {
    const before = listsServed(db).threshold;
    const fast = fromLists(db, expression, pool);
    if (listsServed(db).threshold === before) return;
    counts.proven++;
    assert.deepEqual(fast.ranking, db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, pool))(), expression);
    if (fast.entries < parseExpression(expression)!.phrases.reduce((sum, phrase) => sum + stored.get(phrase)!.n, 0)) counts.partly++;
  }), { numRuns: 200, seed: 26 });
  assert.ok(counts.proven >= 150 && counts.partly >= 100, JSON.stringify(counts));
});
