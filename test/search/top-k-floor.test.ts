// Keyword rankings with a floored phrase (one in half the rows or more: FTS5 floors its IDF at 1e-6) proven from the
// impact lists (top-k-lists.ts): the rows, their order and the count are FTS5's own, over a real SQLite corpus. The
// lists' sums leave the floored terms out (each below 2.2e-6), so rows whose sums lie within that margin of each
// other are not ordered from the lists: decisions written alike but for how often they hold the floored word tie on
// their sums, and FTS5 orders them by the floored terms alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { generate } from '../../bench/generate.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { filterSql } from '../../src/search/filters.ts';
import { buildImpactLists, sealImpactLists } from '../../src/search/impact-lists.ts';
import { planQuery } from '../../src/search/plan.ts';
import { matchExpression, phrasesOf } from '../../src/search/query.ts';
import { ALL_ROWS, rankRange } from '../../src/search/rank-range.ts';
import { topKRanking } from '../../src/search/top-k.ts';
import { listsRanking, listsServed } from '../../src/search/top-k-lists.ts';
import { assertSameRanking, flooredPhrases } from '../helpers/rankings.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/decisions/JURA000000001.xml', import.meta.url));
/** Decisions alike but for how often their reasons hold 'Tatbestand' (k of TWINS words; 'Wohnung' the others). */
const TWINS = 12;

/** 200 generated decisions and the twins, imported, with lists of 40 rows (phrases of 6 rows and more). */
async function corpus(t: { after(fn: () => void): void }): Promise<Database.Database> {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-floor-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  generate(200, join(dir, 'gen'), 1);
  const fixture = readFileSync(FIXTURE, 'utf8');
  for (let k = 1; k <= TWINS; k++) {
    // One token for one token: every twin is as long as the others, and 'Zauberformel' as frequent in each.
    const reasons = `<p>Zauberformel Zauberformel Zauberformel ${'Tatbestand '.repeat(k)}${'Wohnung '.repeat(TWINS - k)}</p>`;
    const text = fixture.replaceAll('JURA000000001', `JURA90000${String(k).padStart(4, '0')}`).replaceAll('361', String(500 + k))
      .replace(/<entscheidungsgruende>[\s\S]*<\/entscheidungsgruende>/u, `<entscheidungsgruende>${reasons}</entscheidungsgruende>`);
    writeFileSync(join(dir, `twin-${k}.xml`), text);
  }
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  await importPaths(db, [join(dir, 'gen'), ...Array.from({ length: TWINS }, (_, k) => join(dir, `twin-${k + 1}.xml`))]);
  db.transaction(() => buildImpactLists(db, { length: 40, minRows: 6 }))();
  sealImpactLists(db);
  return db;
}

const keyword = (db: Database.Database, query: string) => {
  const { groups } = planQuery(db, query, false);
  return { expression: matchExpression(groups, true), phrases: phrasesOf(groups) };
};

test('keyword rankings with a floored phrase are proven from the lists as FTS5 ranks them, ties on the sums not', async (t) => {
  const db = await corpus(t);
  const none = filterSql({});
  const queries = ['Stand der Technik', 'erfinderische Tätigkeit Stand der Technik', 'Tatbestand Patentfähigkeit',
    'Tatbestand Fachmann', 'Beschwerde Tatbestand', 'Tatbestand Kündigung', 'Zauberformel Tatbestand'];
  let proven = 0;
  for (const query of queries) {
    const { expression, phrases } = keyword(db, query);
    assert.ok(flooredPhrases(db, expression).length > 0, expression);
    for (const pool of [1, 3, 5, 10, 20]) {
      const full = db.transaction(() => rankRange(db, expression, none, ALL_ROWS, pool))();
      const before = listsServed(db).floored;
      const fast = db.transaction(() => topKRanking(db, expression, phrases, none, pool))();
      if (fast) assertSameRanking(db, fast, full, expression);
      if (listsServed(db).floored > before) proven++;
    }
  }
  assert.ok(proven >= 15, `only ${proven} rankings proven with a floored phrase`);
  // The twins tie on their sums: FTS5 orders them by their floored terms ('Tatbestand' k times: the twelfth first),
  // which the lists do not hold; a ranking whose pool splits or holds them is left to FTS5 (same answer).
  const twins = keyword(db, 'Zauberformel Tatbestand');
  assert.ok(flooredPhrases(db, twins.expression).length > 0, twins.expression);
  for (const pool of [5, 20]) {
    const full = db.transaction(() => rankRange(db, twins.expression, none, ALL_ROWS, pool))();
    assert.equal(full.matches, TWINS);
    assert.ok(full.scores.every((score, i) => i === 0 || score > full.scores[i - 1]), 'the twins\' scores differ by their floored terms');
    const fast = db.transaction(() => topKRanking(db, twins.expression, twins.phrases, none, pool))();
    if (fast) assertSameRanking(db, fast, full, twins.expression);
    assert.equal(db.transaction(() => listsRanking(db, twins.expression, none, pool))(), null, `pool ${pool}`);
  }
});
