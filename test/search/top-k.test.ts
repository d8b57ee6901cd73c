// The top-k path (src/search/top-k.ts) answers exactly as BM25 over every match (rank-range.ts): the same rows in the
// same order with the same count, for random queries, pools and filters over a real SQLite corpus, before and after an
// import adds and rewrites decisions (rows noted by the drain), and never from lists the index has left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { generate } from '../../bench/generate.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { filterSql, type DecisionFilters } from '../../src/search/filters.ts';
import { buildImpactLists, completeImpactLists, ftsTotals, impactListsHold, impactState, readDeeper, readList, readRowSet, sealImpactLists } from '../../src/search/impact-lists.ts';
import { sql } from '../../src/db/statements.ts';
import { planQuery } from '../../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf } from '../../src/search/query.ts';
import { rankDecisionRows } from '../../src/search/rank-helper.ts';
import { ALL_ROWS, rankRange } from '../../src/search/rank-range.ts';
import { topKRanking, topKServed } from '../../src/search/top-k.ts';
import { listsRanking, listsServed, matchesFromLists, parseExpression, rankFromLists } from '../../src/search/top-k-lists.ts';
import { boundedRanking } from '../../src/search/top-k-bounded.ts';
import { withoutThreshold } from '../../src/search/top-k-threshold.ts';
import { distinctAlternatives, hybridLexicalGroups } from '../../src/search/hybrid-groups.ts';
import { assertSameRanking } from '../helpers/rankings.ts';

const WORDS = ['Eigenbedarfskündigung', 'Mietverhältnis', 'Wohnraum', 'Sturz', 'Sachmangel', 'Rücktritt', 'Betrug',
  'Baugenehmigung', 'Verfolgung', 'Jobcenter', 'Gutachten', 'Abmahnung', 'Kündigung', 'Haftung', 'Eingriff', 'Revision',
  'Beschwerde', 'Verfahren', 'Kosten', 'Klage', 'Schadensersatz', 'Urlaubsanspruch', 'Werkvertrag', 'Glätte',
  // Lay words the bridge widens to legal terms and norms (NEAR groups; a phrase may occur in the expression twice).
  'Chef', 'rausgeschmissen', 'Vermieter', 'rauswerfen', 'Demo', 'Nachbar'];
const FILTERS: DecisionFilters[] = [{}, { court: 'BGH' }, { date_from: '2015-01-01' }, { document_type: 'Urteil' }];
const FIXTURES = fileURLToPath(new URL('../../fixtures/decisions/', import.meta.url));

const query = fc.record({
  words: fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  all: fc.boolean(),
  typed: fc.boolean(),
  bridge: fc.boolean(),
  filter: fc.constantFrom(...FILTERS),
  pool: fc.constantFrom(1, 3, 10, 20, 50, 200),
  // Candidates scored in the first round: the default, or so few that the bounds of those left out decide.
  round: fc.constantFrom(undefined, 1, 4, 12),
});

/** Asserts both rankings agree for random queries; returns how many the top-k path answered of `runs`. */
function agreeing(db: Database.Database, runs: number): number {
  const before = topKServed(db).proven;
  fc.assert(fc.property(query, ({ words, all, typed, bridge, filter, pool, round }) => {
    const plan = planQuery(db, words.join(' '), bridge);
    const groups = typed ? asTyped(plan.groups) : plan.groups;
    const expression = matchExpression(groups, all);
    // Every phrase of the expression, as often as it occurs there (FTS5 scores each occurrence).
    assert.deepEqual(phrasesOf(groups).map((phrase) => phrase.replace(/\*$/u, '')).sort(), (expression.match(/"(?:[^"]|"")*"/gu) ?? []).sort());
    const filters = filterSql(filter);
    const full = db.transaction(() => rankRange(db, expression, filters, ALL_ROWS, pool))();
    const fast = db.transaction(() => topKRanking(db, expression, phrasesOf(groups), filters, pool, round))();
    if (fast) assertSameRanking(db, fast, full, expression);
    assertSameRanking(db, rankDecisionRows(db, expression, filters, pool, phrasesOf(groups)), full, expression);
  }), { numRuns: runs, seed: 27 });
  return topKServed(db).proven - before;
}

/** A drawn query's groups, expression and filters, the full ranking's answer (rankRange over all rows) and the lists'. */
function fullRanking(db: Database.Database, { words, all, typed, bridge, filter, pool }: { words: string[]; all: boolean; typed: boolean; bridge: boolean; filter: DecisionFilters; pool: number }) {
  const plan = planQuery(db, words.join(' '), bridge);
  const groups = typed ? asTyped(plan.groups) : plan.groups;
  const expression = matchExpression(groups, all);
  const filters = filterSql(filter);
  const full = db.transaction(() => rankRange(db, expression, filters, ALL_ROWS, pool))();
  return { groups, expression, filters, full, fast: db.transaction(() => rankFromLists(db, expression, filters, pool))() };
}

let base: Promise<string> | undefined;

/**
 * 200 generated decisions with short impact lists (8 rows, phrases of 6 rows and more), so that bounds decide most
 * queries: imported once per process, each test on its own copy.
 */
async function corpus(t: { after(fn: () => void): void }) {
  base ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'juralite-topk-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    generate(200, join(dir, 'gen'), 1);
    const db = openCorpus(join(dir, 'corpus.db'));
    await importPaths(db, [join(dir, 'gen')]);
    db.transaction(() => buildImpactLists(db, { length: 8, minRows: 6 }))();
    sealImpactLists(db);
    db.close();
    return join(dir, 'corpus.db');
  })();
  const dir = mkdtempSync(join(tmpdir(), 'juralite-topk-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(await base, join(dir, 'corpus.db'));
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  return { db, dir };
}

test('the top-k path answers as the full ranking, and answers most queries', async (t) => {
  const { db } = await corpus(t);
  const proven = agreeing(db, 250);
  assert.ok(proven >= 80, `the top-k path answered only ${proven} of 250`);
  assert.ok(topKServed(db).declined > 0, 'no query fell back: the bounds were never tested');
});

test('after an import adds and rewrites decisions the top-k path still answers as the full ranking', async (t) => {
  const { db, dir } = await corpus(t);
  // 20 decisions written anew (the same documents with other texts), 50 real ones added, and one rewritten so that
  // it leads 'Kündigung': its old list entries are stale, its row is noted.
  generate(20, join(dir, 'again'), 2);
  const rewritten = readFileSync(join(FIXTURES, 'JURA000000001.xml'), 'utf8')
    .replace('</entscheidungsgruende>', `<p>${'Kündigung Mietverhältnis Eigenbedarfskündigung '.repeat(40)}</p></entscheidungsgruende>`);
  writeFileSync(join(dir, 'JURA000000001.xml'), rewritten);
  await importPaths(db, [join(dir, 'again'), FIXTURES]);
  await importPaths(db, [join(dir, 'JURA000000001.xml')]);
  const changed = db.prepare('SELECT count(*) AS n FROM search_impacts_changed').pluck().get() as number;
  assert.ok(changed >= 70, `only ${changed} rows noted`);
  assert.equal(db.prepare('SELECT count(*) FROM search_impacts').pluck().get() as number > 0, true, 'the lists were built anew');
  assert.ok(agreeing(db, 200) >= 50);
});

test('lists the index has left behind are not used: a write outside the drain, or a file without lists', async (t) => {
  const { db } = await corpus(t);
  const filters = filterSql({});
  const cases = WORDS.map((word) => {
    const { groups } = planQuery(db, word, false);
    return { expression: matchExpression(groups, true), phrases: phrasesOf(groups) };
  });
  const fast = () => cases.filter(({ expression, phrases }) => db.transaction(() => topKRanking(db, expression, phrases, filters, 10))() !== null);
  const answered = fast();
  assert.ok(answered.length > 0);
  // A row written as an older juralite would (not noted): the seal no longer holds.
  db.prepare('INSERT INTO decisions_fts (rowid, title, lead, body) VALUES (?, ?, ?, ?)').run(99_999, 'kundigung', '', 'kundigung kundigung');
  assert.deepEqual(fast(), []);
  for (const { expression, phrases } of answered) {
    assertSameRanking(db, rankDecisionRows(db, expression, filters, 10, phrases), db.transaction(() => rankRange(db, expression, filters, ALL_ROWS, 10))(), expression);
  }
  db.exec(`DROP TABLE search_impacts; DELETE FROM meta WHERE key = 'search_impacts'`);
  assert.equal(impactState(db), null);
  assert.deepEqual(fast(), []);
});

test('a ranking its bounds cannot prove is declined before FTS5 scores anything, and ranked in full', async (t) => {
  const { db } = await corpus(t);
  // Every word OR'd, widened by the bridge: no row holds all of its phrases, so no floor beats the bound of the rows
  // outside the lists (the shape of hybrid's lexical arm for lay queries: 9-19 phrases, never proven at 100k).
  const { groups } = planQuery(db, WORDS.join(' '), true);
  const expression = matchExpression(groups, false);
  const before = { ...topKServed(db) };
  assert.equal(db.transaction(() => topKRanking(db, expression, phrasesOf(groups), filterSql({}), 20))(), null);
  assert.deepEqual(topKServed(db), { ...before, declined: before.declined + 1 });
  assertSameRanking(db, rankDecisionRows(db, expression, filterSql({}), 20, phrasesOf(groups)),
    db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, 20))(), expression);
});

test('lists built in the transaction that wrote the index record the index as written (row count, average length)', async (t) => {
  const { db } = await corpus(t);
  // As the drain of a large import does: rows written, then the lists built before the commit. FTS5 keeps its totals
  // in memory until the transaction ends: the lists read the averages record as stored before (0 rows after a fresh
  // import), and a bound divided by that average declined every ranking of the file.
  const before = ftsTotals(db).rows;
  db.transaction(() => {
    db.prepare('INSERT INTO decisions_fts (rowid, title, lead, body) VALUES (?, ?, ?, ?)').run(99_999, 'kundigung', '', 'kundigung miete');
    buildImpactLists(db, { length: 8, minRows: 6 });
  })();
  sealImpactLists(db);
  const { rows, avgdl } = ftsTotals(db);
  assert.equal(rows, before + 1);
  assert.deepEqual({ rows: impactState(db)!.rows, avgdl: impactState(db)!.avgdl }, { rows, avgdl });
  // Lists sealed with totals of another index (as such a build left them) do not hold, and a writable open rebuilds them.
  db.prepare(`UPDATE meta SET value = json_set(value, '$.rows', 0, '$.avgdl', 0) WHERE key = 'search_impacts'`).run();
  assert.equal(impactListsHold(db, impactState(db)), false);
  completeImpactLists(db);
  assert.deepEqual({ rows: impactState(db)!.rows, avgdl: impactState(db)!.avgdl }, { rows, avgdl });
  assert.equal(impactListsHold(db, impactState(db)), true);
});

test('rankings proven from the lists\' terms alone are the full ranking\'s, scores bit for bit, and only while the index is the lists\'', async (t) => {
  const { db } = await corpus(t);
  // Longer lists than the other tests' (8 rows): more rows the terms score exactly, some handed to the statement path
  // (no deeper rows: those prove nearly every ranking of this small corpus, next test).
  db.transaction(() => buildImpactLists(db, { length: 20, depth: 20, minRows: 6 }))();
  sealImpactLists(db);
  let proven = 0;
  let declined = 0;
  let example: { expression: string; pool: number } | undefined;
  // Rankings the terms did not prove, whose exact rows the statement path took without FTS5 scoring them again.
  let helped = 0;
  fc.assert(fc.property(query, (drawn) => {
    const { pool } = drawn;
    const { groups, expression, filters, full, fast } = fullRanking(db, drawn);
    if (fast) {
      proven++;
      // The scores compared with Object.is: the same doubles as FTS5's bm25() (but where floored phrases' terms are
      // left out: helpers/rankings.ts).
      assertSameRanking(db, fast, full, expression);
      if (filters.whereOnDocs === '') example ??= { expression, pool };
    } else {
      declined++;
      const found = db.transaction(() => listsRanking(db, expression, filters, pool))();
      const ranked = db.transaction(() => topKRanking(db, expression, phrasesOf(groups), filters, pool))();
      if (ranked) assertSameRanking(db, ranked, full, expression);
      if (ranked && found && 'known' in found && ranked.docIds.some((id) => found.known.has(id))) helped++;
    }
  }), { numRuns: 200, seed: 19 });
  assert.ok(helped >= 1, `the statement path took the terms' exact rows in only ${helped} answers`);
  assert.ok(proven >= 50 && declined > 0, `proven ${proven}, declined ${declined}`);
  const provenNow = () => db.transaction(() => rankFromLists(db, example!.expression, filterSql({}), example!.pool))() !== null;
  assert.equal(provenNow(), true);
  // Lists built by a juralite that writes no terms: not used, and a writable open builds them anew with terms.
  db.exec(`UPDATE search_impacts SET terms = NULL; UPDATE meta SET value = json_remove(value, '$.terms') WHERE key = 'search_impacts'`);
  assert.equal(provenNow(), false);
  completeImpactLists(db);
  assert.equal(impactState(db)!.terms, true);
  assert.equal(provenNow(), true);
  // A row changed since the build (noted by the drain): the terms' IDF and averages may no longer be the index's.
  db.prepare('INSERT INTO search_impacts_changed (doc_id) VALUES (?)').run(1);
  assert.equal(provenNow(), false);
});

test('rankings proven once the lists\' deeper rows are read are the full ranking\'s', async (t) => {
  const { db } = await corpus(t);
  // Lists of 4 rows and 4 deeper ones: many rankings need the deeper rows.
  db.transaction(() => buildImpactLists(db, { length: 4, depth: 8, minRows: 6 }))();
  sealImpactLists(db);
  const before = { ...listsServed(db) };
  let proven = 0;
  fc.assert(fc.property(query, (drawn) => {
    const { groups, expression, filters, full, fast } = fullRanking(db, drawn);
    if (fast) proven++;
    for (const answer of [fast, db.transaction(() => topKRanking(db, expression, phrasesOf(groups), filters, drawn.pool))()]) {
      if (answer) assertSameRanking(db, answer, full, expression);
    }
  }), { numRuns: 200, seed: 20 });
  const deeper = listsServed(db).deeper - before.deeper;
  assert.ok(proven >= 60 && deeper >= 20, `proven ${proven}, after the deeper rows ${deeper}`);
  // Entries of rows lacking a phrase every match holds were skipped in those answers (requiredRows).
  assert.ok(listsServed(db).skipped > before.skipped, 'no list entry was skipped');
});

test('rankings proven from the lists\' first rows alone are the full ranking\'s, scores bit for bit', async (t) => {
  const { db } = await corpus(t);
  // Lists of 40 rows, so that the first pass's heads (4 rows a unit of the pool: 4 to 20) leave rows of the lists out.
  db.transaction(() => buildImpactLists(db, { length: 40, depth: 40, minRows: 6 }))();
  sealImpactLists(db);
  const before = listsServed(db).fromHead;
  let proven = 0;
  // The passes beneath the threshold algorithm (top-k-threshold.test.ts), which would prove most of these first.
  await withoutThreshold(db, async () => {
    fc.assert(fc.property(query, fc.constantFrom(1, 2, 5), (drawn, pool) => {
      const { expression, full, fast } = fullRanking(db, { ...drawn, pool });
      if (fast) {
        proven++;
        assertSameRanking(db, fast, full, expression);
      }
    }), { numRuns: 200, seed: 23 });
  });
  const fromHead = listsServed(db).fromHead - before;
  assert.ok(fromHead >= 25 && fromHead < proven, `proven ${proven}, from the heads ${fromHead}`);
  // One phrase of more rows than its list holds: its first pool rows are the answer, from the head.
  const [common] = sql<[], { phrase: string }>(db, 'SELECT phrase FROM search_impacts WHERE rows > 40 ORDER BY rows LIMIT 1').all();
  const head = listsServed(db).fromHead;
  const full = db.transaction(() => rankRange(db, common.phrase, filterSql({}), ALL_ROWS, 3))();
  await withoutThreshold(db, async () => {
    assertSameRanking(db, db.transaction(() => rankFromLists(db, common.phrase, filterSql({}), 3))()!, full, common.phrase);
  });
  assert.equal(listsServed(db).fromHead, head + 1);
});

test('rankings proven as the passes read deeper into the lists, each entry once, are the full ranking\'s, scores bit for bit', async (t) => {
  const { db } = await corpus(t);
  // Lists of 24 rows and 72 deeper ones: pools of 1 and 2 read 4 or 8 rows a list first, then 16 or 32, then all 24,
  // then the deeper rows; expressions of three phrases and more sum each exact row's terms read in different passes.
  db.transaction(() => buildImpactLists(db, { length: 24, depth: 96, minRows: 6 }))();
  sealImpactLists(db);
  // Entries in a phrase's lists (listed and deeper rows), or its rows where it has no list (read whole).
  const entries = sql<[string, string], { n: number }>(db, `SELECT coalesce(
    (SELECT length(listed) / 8 + coalesce(length(deeper), 0) / 12 FROM search_impacts WHERE phrase = ?),
    (SELECT count(*) FROM decisions_fts WHERE decisions_fts MATCH ?)) AS n`);
  let proven = 0;
  let long = 0;
  const before = { ...listsServed(db) };
  // Besides the drawn queries, ANDs of three to five listed phrases that leave rows out (none floored).
  const listed = sql<[], { phrase: string }>(db, 'SELECT phrase FROM search_impacts WHERE rows > 24 AND length(listed) > 0 AND phrase NOT LIKE \'NEAR(%\' ORDER BY phrase').all().map((row) => row.phrase);
  const anded = fc.uniqueArray(fc.constantFrom(...listed), { minLength: 3, maxLength: 5 }).map((phrases) => phrases.join(' AND '));
  // The passes beneath the threshold algorithm (top-k-threshold.test.ts), which would prove most of these first.
  await withoutThreshold(db, async () => fc.assert(fc.property(fc.option(anded, { freq: 2 }), query, fc.constantFrom(1, 2), (joined, drawn, pool) => {
    const expression = joined ?? fullRanking(db, { ...drawn, all: true, filter: {}, pool }).expression;
    const full = db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, pool))();
    const read = listsServed(db).entries;
    const fast = db.transaction(() => rankFromLists(db, expression, filterSql({}), pool))();
    if (!fast) return;
    proven++;
    assertSameRanking(db, fast, full, expression);
    const phrases = parseExpression(expression)!.phrases;
    if (phrases.length >= 3) long++;
    // No entry read twice in a ranking, however many passes it took.
    const most = db.transaction(() => phrases.reduce((sum, phrase) => sum + entries.get(phrase, phrase)!.n, 0))();
    assert.ok(listsServed(db).entries - read <= most, `${expression}: ${listsServed(db).entries - read} entries read of ${most}`);
  }), { numRuns: 300, seed: 24 }));
  const deeper = listsServed(db).deeper - before.deeper;
  const fromHead = listsServed(db).fromHead - before.fromHead;
  assert.ok(proven >= 100 && long >= 30 && deeper >= 5 && fromHead >= 20, `proven ${proven}, of three phrases or more ${long}, after the deeper rows ${deeper}, from the heads ${fromHead}`);
});

test('a list read once is kept by its connection, and read anew once any connection has written the file', async (t) => {
  const { db, dir } = await corpus(t);
  db.transaction(() => buildImpactLists(db, { length: 4, depth: 8, minRows: 6 }))();
  sealImpactLists(db);
  const [first, second] = sql<[], { phrase: string }>(db,
    'SELECT phrase FROM search_impacts WHERE length(deeper) > 0 AND matched IS NOT NULL ORDER BY rows LIMIT 2').all().map((row) => row.phrase);
  const read = () => db.transaction(() => ({ list: readList(db, first, true), deeper: readDeeper(db, first), set: readRowSet(db, first) }))();
  const kept = read();
  const again = read();
  assert.ok(kept.list && kept.deeper && kept.set);
  // The same objects: nothing read or copied again.
  assert.equal(again.list, kept.list);
  assert.equal(again.deeper, kept.deeper);
  assert.equal(again.set, kept.set);
  // Another connection gives the phrase the second phrase's rows: read anew, as stored now.
  const other = openCorpus(join(dir, 'corpus.db'));
  other.prepare(`UPDATE search_impacts SET (rows, beyond, listed, terms, deeper, matched) =
    (SELECT rows, beyond, listed, terms, deeper, matched FROM search_impacts WHERE phrase = ?) WHERE phrase = ?`).run(second, first);
  other.close();
  const written = read();
  const expected = db.transaction(() => ({ list: readList(db, second, true), deeper: readDeeper(db, second), set: readRowSet(db, second) }))();
  assert.notDeepEqual(written.deeper!.ids, kept.deeper!.ids);
  assert.deepEqual(written, expected);
  // And where this connection writes.
  db.prepare('UPDATE search_impacts SET deeper = NULL WHERE phrase = ?').run(first);
  assert.equal(read().deeper, null);
});

test('counts from the lists\' row sets are FTS5\'s, up to any cap', async (t) => {
  const { db } = await corpus(t);
  // Lists of 2 rows in phrases of 3 or more: nearly every phrase's count comes from its row set.
  db.transaction(() => buildImpactLists(db, { length: 2, depth: 4, minRows: 3 }))();
  sealImpactLists(db);
  let counted = 0;
  fc.assert(fc.property(query, fc.constantFrom(1, 7, 40, 10_001), ({ words, all, typed, bridge }, cap) => {
    const plan = planQuery(db, words.join(' '), bridge);
    const groups = typed ? asTyped(plan.groups) : plan.groups;
    const expression = matchExpression(groups, all);
    const fromSets = db.transaction(() => matchesFromLists(db, expression, cap))();
    if (fromSets === null) return;
    counted++;
    const fts = db.prepare('SELECT count(*) FROM (SELECT 1 FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT ?)').pluck().get(expression, cap);
    assert.equal(fromSets, fts, expression);
  }), { numRuns: 200, seed: 32 });
  assert.ok(counted >= 100, `counted from the sets ${counted} of 200`);
});

test('lists of session 19 (no deeper rows, no row sets) rank read-only as before, the same answers; a writable open builds them anew', async (t) => {
  const { db, dir } = await corpus(t);
  db.transaction(() => buildImpactLists(db, { length: 4, depth: 16, minRows: 6 }))();
  sealImpactLists(db);
  // As session 19's code left a file: its table (WITHOUT ROWID, neither column), the state without `deeper`.
  db.exec(`CREATE TABLE s19 (phrase TEXT PRIMARY KEY, rows INTEGER NOT NULL, beyond REAL NOT NULL, listed BLOB NOT NULL, terms BLOB) WITHOUT ROWID;
    INSERT INTO s19 SELECT phrase, rows, beyond, listed, terms FROM search_impacts;
    DROP TABLE search_impacts; ALTER TABLE s19 RENAME TO search_impacts;
    UPDATE meta SET value = json_remove(value, '$.deeper') WHERE key = 'search_impacts'`);
  const reader = openCorpus(join(dir, 'corpus.db'), { readonly: true });
  t.after(() => reader.close());
  const before = { ...listsServed(reader) };
  let proven = 0;
  for (const first of WORDS) {
    for (const second of ['', ' Kündigung', ' Verfahren']) {
      const { groups } = planQuery(reader, first + second, false);
      const expression = matchExpression(groups, true);
      const full = reader.transaction(() => rankRange(reader, expression, filterSql({}), ALL_ROWS, 3))();
      const fast = reader.transaction(() => rankFromLists(reader, expression, filterSql({}), 3))();
      if (fast) {
        proven++;
        assertSameRanking(reader, fast, full, expression);
      }
    }
  }
  assert.ok(proven > 0);
  // Neither deeper rows nor row sets read (entries may be skipped: a complete list says which rows match; rankings may
  // be proven from the lists' first rows, or by the threshold algorithm from the listed rows alone).
  const passed = { skipped: 0, floored: 0, fromHead: 0, entries: 0, threshold: 0 };
  assert.deepEqual({ ...listsServed(reader), ...passed }, { ...before, ...passed });
  completeImpactLists(db);
  assert.equal(impactState(db)!.deeper, true);
  assert.equal(db.prepare(`SELECT count(*) FROM pragma_table_info('search_impacts') WHERE name IN ('deeper', 'matched')`).pluck().get(), 2);
  // A rowid table now (the key lookup no longer reads whole records).
  assert.equal(db.prepare(`SELECT wr FROM pragma_table_list('search_impacts') WHERE schema = 'main'`).pluck().get(), 0);
});

test('the expressions the lists can score: phrases, AND, OR and parentheses, in FTS5\'s precedence', () => {
  assert.deepEqual(parseExpression('"kundig"* AND ("miet"* OR "wohnraum")'),
    { phrases: ['"kundig"*', '"miet"*', '"wohnraum"'], tree: { all: [{ phrase: 0 }, { any: [{ phrase: 1 }, { phrase: 2 }] }] } });
  assert.deepEqual(parseExpression('"a" OR "b" AND "c"'), { phrases: ['"a"', '"b"', '"c"'], tree: { any: [{ phrase: 0 }, { all: [{ phrase: 1 }, { phrase: 2 }] }] } });
  assert.deepEqual(parseExpression('("a" OR "b") OR "c ""d"""'), { phrases: ['"a"', '"b"', '"c ""d"""'], tree: { any: [{ phrase: 0 }, { phrase: 1 }, { phrase: 2 }] } });
  for (const other of ['NEAR("1" "kschg", 6)', 'title : ("a")', '"a" "b"', '"a" NOT "b"', '("a"', '"a" AND', '']) assert.equal(parseExpression(other), null, other);
  // With groups (top-k-bounded.ts): a NEAR group is one leaf, its text as written.
  assert.deepEqual(parseExpression('"a" OR (NEAR("573" "bgb", 6) OR "b c")', true),
    { phrases: ['"a"', 'NEAR("573" "bgb", 6)', '"b c"'], tree: { any: [{ phrase: 0 }, { phrase: 1 }, { phrase: 2 }] } });
  assert.equal(parseExpression('NEAR("a" "b")', true), null);
});

test('a file whose lists predate their terms (no such column) ranks through FTS5 read-only, the same answers; a writable open adds them', async (t) => {
  const { db, dir } = await corpus(t);
  // As session 18's code left a file: the column absent, the state without `terms`, the seal as it was.
  db.exec(`ALTER TABLE search_impacts DROP COLUMN terms; UPDATE meta SET value = json_remove(value, '$.terms') WHERE key = 'search_impacts'`);
  const reader = openCorpus(join(dir, 'corpus.db'), { readonly: true });
  t.after(() => reader.close());
  const before = { ...topKServed(reader) };
  const filters = filterSql({});
  for (const word of WORDS) {
    const { groups } = planQuery(reader, word, false);
    const expression = matchExpression(groups, true);
    assert.equal(reader.transaction(() => rankFromLists(reader, expression, filters, 5))(), null);
    assertSameRanking(reader, rankDecisionRows(reader, expression, filters, 5, phrasesOf(groups)),
      reader.transaction(() => rankRange(reader, expression, filters, ALL_ROWS, 5))(), expression);
  }
  assert.ok(topKServed(reader).proven > before.proven, 'the lists without terms proved nothing through FTS5');
  assert.equal(topKServed(reader).fromLists, before.fromLists);
  completeImpactLists(db);
  assert.equal(impactState(db)!.terms, true);
  assert.equal(db.prepare(`SELECT count(*) FROM pragma_table_info('search_impacts') WHERE name = 'terms'`).pluck().get(), 1);
});

/** Hybrid's lexical arm for random queries, lay and legal, as typed or widened (hybrid-groups.ts), bridge on. */
const LAY_QUERIES = ['Vermieter will mich rauswerfen, weil sein Sohn einziehen soll', 'der Chef hat mich rausgeschmissen',
  'Demo wurde verboten', 'gebrauchtes Auto gekauft und es ist kaputt', 'Jobcenter zahlt die Miete nicht', 'abgeschoben ins Herkunftsland'];
const hybridArm = fc.record({
  words: fc.tuple(fc.constantFrom(...LAY_QUERIES), fc.uniqueArray(fc.constantFrom(...WORDS), { maxLength: 2 })).map(([lay, more]) => [lay, ...more]),
  typed: fc.boolean(),
  pool: fc.constantFrom(1, 3, 10, 20, 40, 200),
});

test('hybrid\'s arm (an OR of phrases and the bridge\'s NEAR groups) proven from the lists\' bounds answers as the full ranking, scores bit for bit', async (t) => {
  const { db } = await corpus(t);
  // The bridge's norms have lists of their own: a NEAR group's rows by its bm25() alone (the sum of its words' terms).
  const group = db.prepare(`SELECT phrase, rows, listed, terms FROM search_impacts WHERE phrase LIKE 'NEAR(%' ORDER BY rows DESC LIMIT 1`)
    .get() as { phrase: string; rows: number; listed: Buffer; terms: Buffer };
  assert.ok(group, 'no NEAR group listed');
  const alone = db.prepare('SELECT rowid AS id, bm25(decisions_fts, 4, 2.5, 1) AS score FROM decisions_fts WHERE decisions_fts MATCH ? ORDER BY score, rowid LIMIT 8')
    .all(group.phrase) as { id: number; score: number }[];
  const ids = new Int32Array(new Uint8Array(group.listed).buffer, 0, group.listed.byteLength / 8);
  assert.deepEqual([...ids], alone.map((row) => row.id));
  assert.deepEqual([...new Float64Array(new Uint8Array(group.terms).buffer)], alone.map((row) => -row.score));
  const before = { ...topKServed(db) };
  let withGroups = 0;
  fc.assert(fc.property(hybridArm, ({ words, typed, pool }) => {
    const query = words.join(' ');
    const widened = hybridLexicalGroups(db, planQuery(db, query, true).groups, query);
    const groups = typed ? distinctAlternatives(asTyped(widened)) : widened;
    const expression = matchExpression(groups, false);
    if (expression.includes('NEAR(')) withGroups++;
    const full = db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, pool))();
    const bounded = db.transaction(() => boundedRanking(db, expression, filterSql({}), pool))();
    // deepEqual compares the scores with Object.is: FTS5's own, from the walk that counts the matches.
    if (bounded) assert.deepEqual(bounded, full, expression);
    assertSameRanking(db, db.transaction(() => topKRanking(db, expression, phrasesOf(groups), filterSql({}), pool))() ?? full, full, expression);
  }), { numRuns: 200, seed: 20 });
  const served = topKServed(db);
  assert.ok(withGroups >= 80, `only ${withGroups} arms with a norm's NEAR group`);
  assert.ok(served.bounded - before.bounded >= 20, `the bounds proved only ${served.bounded - before.bounded} arms`);
});

test('the bounds are not used with filters, once a row changed, or for lists built before the bridge\'s groups were listed; a writable open lists them', async (t) => {
  const { db } = await corpus(t);
  const arms = LAY_QUERIES.flatMap((query) => {
    const widened = hybridLexicalGroups(db, planQuery(db, query, true).groups, query);
    return [widened, distinctAlternatives(asTyped(widened))].flatMap((groups) => [1, 3, 10, 20, 40].map((pool) => ({ expression: matchExpression(groups, false), pool })));
  });
  const proves = (filter: DecisionFilters, arm: { expression: string; pool: number }) =>
    db.transaction(() => boundedRanking(db, arm.expression, filterSql(filter), arm.pool))();
  // The first arm with a norm's NEAR group that the bounds prove.
  const arm = arms.find((found) => found.expression.includes('NEAR(') && proves({}, found) !== null);
  assert.ok(arm, 'no arm with a NEAR group proven');
  const proven = (filter: DecisionFilters = {}) => proves(filter, arm);
  assert.deepEqual(proven(), db.transaction(() => rankRange(db, arm.expression, filterSql({}), ALL_ROWS, arm.pool))());
  assert.equal(proven({ court: 'BGH' }), null);
  // Lists of session 19 (no lists of the bridge's groups): the bounds are not tried, and a writable open builds them.
  db.exec(`DELETE FROM search_impacts WHERE phrase LIKE 'NEAR(%' OR phrase LIKE '"% %"'; UPDATE meta SET value = json_remove(value, '$.groups') WHERE key = 'search_impacts'`);
  assert.equal(proven(), null);
  completeImpactLists(db);
  assert.equal(impactState(db)!.groups, true);
  // (Lists of 300 rows and more, as a file gets them: this corpus's phrases are read whole, each complete.)
  assert.deepEqual(proven(), db.transaction(() => rankRange(db, arm.expression, filterSql({}), ALL_ROWS, arm.pool))());
  db.prepare('INSERT INTO search_impacts_changed (doc_id) VALUES (?)').run(1);
  assert.equal(proven(), null);
});

test('a phrase inside an AND that does not match the row adds nothing to its score, in the lists\' terms as in FTS5', async (t) => {
  const { db } = await corpus(t);
  db.transaction(() => buildImpactLists(db, { length: 400, minRows: 6 }))();
  sealImpactLists(db);
  // As hybrid's arm writes a lay term's own words ('Urlaub verfallen': "urlaub" in no decision as typed): the AND
  // matches no row, so FTS5 scores "verfall" nowhere, though every row holding it is listed.
  const expression = '("verfall" AND "zzzzunbekannt") OR "urlaubsabgelt"';
  const full = db.transaction(() => rankRange(db, expression, filterSql({}), ALL_ROWS, 5))();
  assert.equal(full.docIds.length, 5);
  const fromLists = db.transaction(() => rankFromLists(db, expression, filterSql({}), 5))();
  if (fromLists) assertSameRanking(db, fromLists, full, expression);
  assertSameRanking(db, db.transaction(() => topKRanking(db, expression, ['"verfall"', '"zzzzunbekannt"', '"urlaubsabgelt"'], filterSql({}), 5))() ?? full, full, expression);
  assert.deepEqual(db.transaction(() => boundedRanking(db, expression, filterSql({}), 5))() ?? full, full);
});
