// The rank helper (src/search/rank-helper.ts) ranks the upper half of decisions_fts in a worker thread: the rankings
// and answers are those of one thread in every case, whether the helper ranked its half, refused it (another state
// of the index) or is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type Database from 'better-sqlite3';
import { openCorpus } from '../../src/corpus/open.ts';
import { searchDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { filterSql, type DecisionFilters } from '../../src/search/filters.ts';
import { planQuery } from '../../src/search/plan.ts';
import { matchExpression } from '../../src/search/query.ts';
import {
  attachRankHelper, detachRankHelper, HELPER_MEMORY_BYTES, helperMemory, rankDecisionRows, rankHelperServed, readJob, withoutRankHelper, writeJob,
} from '../../src/search/rank-helper.ts';
import { ALL_ROWS, mergeRankings, rankRange } from '../../src/search/rank-range.ts';
import { withoutTopK } from '../../src/search/top-k.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const QUERIES = ['Klage', 'Kündigung', 'Revision', 'Schadensersatz', 'Urteil Berufung', 'Mietverhältnis', 'Gericht', 'Anspruch'];
const FILTERS: DecisionFilters[] = [
  {}, { court: 'BGH' }, { branch: 'ordentlich' }, { date_from: '2015-01-01', date_to: '2022-12-31' }, { document_type: 'Urteil' },
  { cited_norm: '§ 91 ZPO' },
];
const expressionOf = (db: Database.Database, query: string) => matchExpression(planQuery(db, query, true).groups, true);

/** The demo corpus, read by one connection alone and by one whose helper splits even this small index. */
async function twoConnections(t: { after(fn: () => unknown): void }, helperPath?: string) {
  const path = await demoCorpus();
  const alone = openCorpus(path, { readonly: true });
  const helped = openCorpus(path, { readonly: true });
  attachRankHelper(helped, helperPath ?? path, 0);
  t.after(async () => {
    await detachRankHelper(helped);
    helped.close();
    alone.close();
  });
  return { alone, helped };
}

/** Ranks until the helper has answered (it starts with the first ranking and serves once its thread is ready). */
async function helperAnswered(db: Database.Database): Promise<void> {
  const started = Date.now();
  while (rankHelperServed(db)!.ranked + rankHelperServed(db)!.refused === 0) {
    assert.ok(Date.now() - started < 20_000, 'the rank helper never answered');
    rankDecisionRows(db, expressionOf(db, 'Klage'), filterSql({}), 20);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('two halves merge into the ranking of one: best first, equal scores by row id, matches summed', () => {
  const lower = { docIds: [3, 8, 9], scores: [-5, -2, -1], matches: 3 };
  const upper = { docIds: [20, 25, 30], scores: [-4, -2, -0.5], matches: 7 };
  assert.deepEqual(mergeRankings(lower, upper, 4), { docIds: [3, 20, 8, 25], scores: [-5, -4, -2, -2], matches: 10 });
  assert.deepEqual(mergeRankings(upper, lower, 4).docIds, [3, 20, 8, 25]);
  assert.deepEqual(mergeRankings(lower, { docIds: [], scores: [], matches: 0 }, 5), { ...lower });
});

test('a job passes through shared memory whole, or not at all when it does not fit', () => {
  const memory = helperMemory(new SharedArrayBuffer(HELPER_MEMORY_BYTES));
  const job = { expression: '"kundigung"* AND "mietverhaltnis"*', whereOnDocs: ' AND s.court = ?', params: ['BGH', 3], from: 512, pool: 20, fingerprint: 'AQID' };
  assert.equal(writeJob(memory, job), true);
  assert.deepEqual(readJob(memory), job);
  // Two bytes a character: the JSON's length in characters would fit, its UTF-8 does not.
  assert.equal(writeJob(memory, { ...job, expression: 'ä'.repeat(40_000) }), false);
  assert.equal(writeJob(memory, { ...job, expression: 'a'.repeat(70_000) }), false);
});

test('a ranking whose job does not fit the shared memory is ranked by the caller alone, the same', async (t) => {
  const { alone, helped } = await twoConnections(t);
  await helperAnswered(helped);
  const before = { ...rankHelperServed(helped)! };
  // An expression longer than the job memory: the query's words, then thousands of alternatives that match nothing.
  const expression = `${expressionOf(helped, 'Kündigung')} OR ${Array.from({ length: 9_000 }, (_, i) => `"zzq${i}"`).join(' OR ')}`;
  assert.ok(expression.length > 64 * 1024);
  const helpedRanking = rankDecisionRows(helped, expression, filterSql({}), 20);
  assert.deepEqual(helpedRanking, alone.transaction(() => rankRange(alone, expression, filterSql({}), ALL_ROWS, 20))());
  assert.ok(helpedRanking.docIds.length > 0);
  assert.deepEqual(rankHelperServed(helped), before);
});

test('a ranking split with the helper is the ranking of one thread, with every filter and pool depth', async (t) => {
  const { alone, helped } = await twoConnections(t);
  await helperAnswered(helped);
  const before = rankHelperServed(helped)!.ranked;
  let compared = 0;
  for (const query of QUERIES) {
    for (const filters of FILTERS) {
      for (const pool of [1, 5, 20, 200]) {
        const expression = expressionOf(alone, query);
        const one = rankRange(alone, expression, filterSql(filters), ALL_ROWS, pool);
        assert.deepEqual(rankDecisionRows(helped, expression, filterSql(filters), pool), one, `${query} ${JSON.stringify(filters)} pool ${pool}`);
        compared++;
      }
    }
  }
  assert.equal(rankHelperServed(helped)!.ranked - before, compared, 'the helper ranked the upper half of every ranking');
  assert.equal(rankHelperServed(helped)!.refused, 0);
});

test('keyword and hybrid answers are the same with the helper as without, pages and counts included', async (t) => {
  const { alone, helped } = await twoConnections(t);
  await helperAnswered(helped);
  const before = rankHelperServed(helped)!.ranked;
  // The helped connection ranks in full (the top-k path answers every query of so small an index); the other by the
  // top-k path.
  await withoutTopK(helped, async () => {
    for (const mode of ['keyword', 'hybrid'] as SearchMode[]) {
      for (const query of QUERIES) {
        for (const page of [1, 2]) {
          const args = { query, mode, limit: 5, page, bridge: true, court: query === 'Klage' ? 'BGH' : undefined };
          assert.deepEqual(await searchDecisions(helped, args), await searchDecisions(alone, args), `${mode} ${query} page ${page}`);
        }
      }
    }
  });
  assert.ok(rankHelperServed(helped)!.ranked - before >= QUERIES.length * 4);
});

test('a helper set aside ranks nothing meanwhile and serves again afterwards', async (t) => {
  const { helped } = await twoConnections(t);
  await helperAnswered(helped);
  const expression = expressionOf(helped, 'Revision');
  const before = rankHelperServed(helped)!.ranked;
  const alone = await withoutRankHelper(helped, async () => rankDecisionRows(helped, expression, filterSql({}), 20));
  assert.equal(rankHelperServed(helped)!.ranked, before);
  assert.deepEqual(rankDecisionRows(helped, expression, filterSql({}), 20), alone);
  assert.equal(rankHelperServed(helped)!.ranked, before + 1);
});

test('a helper reading another state of the index refuses, and the caller ranks the upper half itself', async (t) => {
  // The helper's file is a copy whose index holds one more row: other averages, another structure record.
  const dir = mkdtempSync(join(tmpdir(), 'juralite-helper-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const other = join(dir, 'corpus.db');
  copyFileSync(await demoCorpus(), other);
  const writer = openCorpus(other);
  writer.exec(`INSERT INTO decisions_fts (rowid, title, lead, body) VALUES (1000000, 'klag', '', 'klag')`);
  writer.close();
  const { alone, helped } = await twoConnections(t, other);
  await helperAnswered(helped);
  for (const query of QUERIES) {
    const expression = expressionOf(alone, query);
    assert.deepEqual(rankDecisionRows(helped, expression, filterSql({}), 20), rankRange(alone, expression, filterSql({}), ALL_ROWS, 20), query);
  }
  assert.equal(rankHelperServed(helped)!.ranked, 0);
  assert.ok(rankHelperServed(helped)!.refused >= QUERIES.length);
});

test('a helper that cannot start leaves every ranking to the caller', async (t) => {
  const errors: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  t.after(() => {
    console.error = original;
  });
  const { alone, helped } = await twoConnections(t, join(tmpdir(), 'juralite-no-such-corpus', 'corpus.db'));
  const started = Date.now();
  // The helper's thread fails to open its corpus and ends; until then and after, the caller ranks alone.
  while (errors.length === 0) {
    assert.ok(Date.now() - started < 20_000, 'the failed helper was never reported');
    rankDecisionRows(helped, expressionOf(helped, 'Klage'), filterSql({}), 20);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const query of QUERIES) {
    const expression = expressionOf(alone, query);
    assert.deepEqual(rankDecisionRows(helped, expression, filterSql({}), 20), rankRange(alone, expression, filterSql({}), ALL_ROWS, 20), query);
  }
  assert.deepEqual(rankHelperServed(helped), { ranked: 0, refused: 0 });
  assert.match(String(errors[0][0]), /rank helper failed/);
});

test('a process whose corpus has a rank helper ends when its work is done, helper running or not', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-helper-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'rank.ts');
  const module = (path: string) => JSON.stringify(pathToFileURL(fileURLToPath(new URL(path, import.meta.url))).href);
  writeFileSync(script, `
    import { openCorpus } from ${module('../../src/corpus/open.ts')};
    import { filterSql } from ${module('../../src/search/filters.ts')};
    import { attachRankHelper, rankDecisionRows, rankHelperServed } from ${module('../../src/search/rank-helper.ts')};
    const db = openCorpus(${JSON.stringify(await demoCorpus())}, { readonly: true });
    attachRankHelper(db, ${JSON.stringify(await demoCorpus())}, 0);
    while (rankHelperServed(db).ranked === 0) {
      rankDecisionRows(db, '"klag"', filterSql({}), 20);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log('ranked');
  `);
  // No detach, no close: the process must end by itself (it hung while the worker's port held the loop open).
  const { status, stdout } = spawnSync(process.execPath, [script], { timeout: 60_000, encoding: 'utf8' });
  assert.equal(stdout.trim(), 'ranked');
  assert.equal(status, 0, 'the process ended by itself');
});
