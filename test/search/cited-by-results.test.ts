/**
 * frequently_cited_by_results (src/search/cited-by-results.ts) against its definition computed here from the view
 * citation_edges: the decisions at least two of the results cite, by how many, then newest, then id, at most 10; the
 * results given by UUID and by decision row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphCorpus, GRAPH } from '../helpers/graph-corpus.ts';
import { citedBeforeStatements } from '../helpers/cited-before.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { frequentlyCitedByResults, frequentlyCitedByRows, type CitedDecision } from '../../src/search/cited-by-results.ts';

function byDefinition(db: ReturnType<typeof openCorpus>, resultIds: string[]): CitedDecision[] {
  const results = new Set(resultIds);
  const citing = new Map<string, Set<string>>();
  const edges = db.prepare(`SELECT from_decision_id AS source, to_decision_id AS target FROM citation_edges
    WHERE reference_type = 'case' AND to_decision_id IS NOT NULL`).all() as { source: string; target: string }[];
  for (const { source, target } of edges) if (results.has(source)) citing.set(target, (citing.get(target) ?? new Set()).add(source));
  const rows = [...citing].filter(([, sources]) => sources.size >= 2).map(([id, sources]) => ({
    ...(db.prepare('SELECT id, aktenzeichen, court, date FROM decisions WHERE id = ?').get(id) as Omit<CitedDecision, 'cited_by_results'>),
    cited_by_results: sources.size,
  }));
  rows.sort((a, b) => b.cited_by_results - a.cited_by_results || (b.date ?? '').localeCompare(a.date ?? '') || (a.id < b.id ? -1 : 1));
  return rows.slice(0, 10);
}

test('frequently_cited_by_results: the decisions two or more results cite, counted, ordered and capped as defined', async () => {
  const db = openCorpus(await graphCorpus(), { readonly: true });
  try {
    const citers = GRAPH.citers.map((citer) => citer.id);
    const sets = [
      citers.slice(0, 4), // all cite HUB: one decision, cited 4 times
      [GRAPH.source.id, citers[24]], // both cite CITER[25]
      [GRAPH.source.id, ...citers.slice(20, 30)], // HUB by ten, CITER[25] by two
      [GRAPH.source.id, GRAPH.hub.id], // nothing cited twice
      [citers[0]], // one result: nothing
      [GRAPH.source.id, citers[24], ...citers.slice(40, 60)],
    ];
    const rowOf = (id: string) => (db.prepare('SELECT row FROM decision_rows WHERE id = ?').get(id) as { row: number }).row;
    for (const ids of sets) {
      assert.deepEqual(frequentlyCitedByResults(db, ids), byDefinition(db, ids), ids.join());
      // The same by the results' decision rows (a result page's way).
      assert.deepEqual(frequentlyCitedByRows(db, ids.map(rowOf)), byDefinition(db, ids), `rows: ${ids.join()}`);
    }
    const hub = frequentlyCitedByResults(db, citers.slice(0, 4));
    assert.deepEqual(hub.map((item) => [item.id, item.cited_by_results]), [[GRAPH.hub.id, 4]]);
    assert.deepEqual(frequentlyCitedByResults(db, [GRAPH.source.id, citers[24]]).map((item) => item.id), [citers[25]]);
  } finally {
    db.close();
  }
});

/**
 * A corpus file written with SQL: 90 decisions on five dates (every seventh undated), ids whose order differs by
 * case and non-ASCII letters; links drawn with a fixed seed: mostly to 25 popular decisions (so many counts tie),
 * some twice from one decision, some unresolved (to_row NULL), some statute links pointing at decisions (never
 * counted); every ninth decision cites nothing; a few decision rows differ from their decisions' rowids.
 */
function trickyCorpus(path: string) {
  const db = openCorpus(path);
  let seed = 21;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const ids = Array.from({ length: 90 }, (_, n) => `${['a', 'B', 'ä', 'b'][n % 4]}-${String(n).padStart(2, '0')}`);
  const decision = db.prepare(`INSERT INTO decisions (id, court, date, aktenzeichen, text_zstd, text_length, source_format,
    content_hash, imported_at) VALUES (?, 'BGH', ?, ?, compress_text(''), 0, 'rii-xml', ?, '2026-01-01T00:00:00Z')`);
  const link = db.prepare(`INSERT INTO citation_links (from_row, rn, reference_canonical, reference_type, to_row, resolution_status)
    VALUES ((SELECT row FROM decision_rows WHERE id = ?), 1, 'x', ?, (SELECT row FROM decision_rows WHERE id = ?), ?)`);
  const dates = ['2020-01-01', '2021-06-30', '2021-06-30', '2019-12-31', '2022-02-02'];
  db.transaction(() => {
    ids.forEach((id, n) => decision.run(id, n % 7 === 0 ? null : dates[n % 5], n % 11 === 0 ? null : `VIII ZR ${n}/20`, `hash-${n}`));
    // Decision rows no longer the decisions' rowids (as after an upgrade numbered them anew): two popular decisions
    // swap rows, a third moves past the end.
    const renumber = db.prepare('UPDATE decision_rows SET row = ? WHERE id = ?');
    const rowOf = (id: string) => db.prepare('SELECT row FROM decision_rows WHERE id = ?').pluck().get(id) as number;
    const [first, second] = [rowOf(ids[1]), rowOf(ids[2])];
    renumber.run(-1, ids[1]);
    renumber.run(first, ids[2]);
    renumber.run(second, ids[1]);
    renumber.run(10_000, ids[3]);
    ids.forEach((id, n) => {
      if (n % 9 === 0) return;
      let target = '';
      for (let k = Math.floor(random() * 12); k > 0; k--) {
        if (!target || random() > 0.1) target = ids[random() < 0.75 ? Math.floor(random() * 25) : Math.floor(random() * 90)];
        const kind = random();
        if (kind < 0.1) link.run(id, 'statute', target, 'resolved');
        else if (kind < 0.2) link.run(id, 'case', null, 'unresolved');
        else link.run(id, 'case', target, 'resolved');
      }
    });
    // Exactly: DUP cites X twice, ONE cites X, NONE cites nothing; R and S cite Y. X's and Y's rows are beyond what
    // the count's array holds (counted in a Map): one very high, one negative (SQLite allows both when set).
    for (const id of ['dup', 'one', 'none', 'x', 'r', 's', 'y']) decision.run(id, '2020-05-05', null, `hash-${id}`);
    renumber.run(2 ** 40, 'x');
    renumber.run(-7, 'y');
    for (const [from, to] of [['dup', 'x'], ['dup', 'x'], ['one', 'x'], ['r', 'y'], ['s', 'y']]) link.run(from, 'case', to, 'resolved');
  })();
  return { db, ids };
}

test('frequently_cited_by_results: the counting in JS answers as the single statement did (ties, duplicates, unresolved, statutes)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-cited-'));
  const { db, ids } = trickyCorpus(join(dir, 'corpus.db'));
  try {
    const { byRows, byIds, uncapped } = citedBeforeStatements(db);
    const rowOf = db.prepare('SELECT row FROM decision_rows WHERE id = ?').pluck();
    const rows = ids.map((id) => rowOf.get(id) as number);
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const seen = { empty: 0, citedTwice: 0, full: 0, tieAcrossCap: 0 };
    for (let round = 0; round < 400; round++) {
      // 2 to 30 rows, now and then one twice, now and then a row no decision has.
      const set = Array.from({ length: 2 + Math.floor(random() * 29) }, () => rows[Math.floor(random() * rows.length)]);
      if (round % 5 === 0) set.push(set[0]);
      if (round % 7 === 0) set.push(999_999);
      const expected = byRows.all(JSON.stringify(set));
      assert.deepEqual(frequentlyCitedByRows(db, set), expected, JSON.stringify(set));
      const setIds = set.map((row) => ids[rows.indexOf(row)] ?? 'no-such-id');
      assert.deepEqual(frequentlyCitedByResults(db, setIds), byIds.all(JSON.stringify(setIds)), setIds.join());
      const all = uncapped.all(JSON.stringify(set));
      if (expected.length === 0) seen.empty++;
      if (expected.some((item) => item.cited_by_results === 2)) seen.citedTwice++;
      if (expected.length === 10) seen.full++;
      if (all.length > 10 && all[10].cited_by_results === all[9].cited_by_results) seen.tieAcrossCap++;
    }
    // The drawn sets reach every tricky case, so a lost HAVING, DISTINCT or tie order would have failed above.
    for (const [name, n] of Object.entries(seen)) assert.ok(n >= 10, `${name}: ${n}`);
    const [dup, one, none, x, r, s] = ['dup', 'one', 'none', 'x', 'r', 's'].map((id) => rowOf.get(id) as number);
    assert.deepEqual(frequentlyCitedByRows(db, [dup, none]), [], 'cited twice by one result: once');
    assert.deepEqual(frequentlyCitedByRows(db, [dup, dup]), [], 'one result given twice: once');
    const counted = (set: number[]) => frequentlyCitedByRows(db, set).map((item) => [item.id, item.cited_by_results]);
    assert.deepEqual(counted([dup, one]), [['x', 2]]);
    assert.deepEqual(counted([dup, one, x, none]), [['x', 2]]);
    assert.deepEqual(counted([r, s]), [['y', 2]]);
    assert.deepEqual(counted([r, s, dup, one, rows[3]]), byRows.all(JSON.stringify([r, s, dup, one, rows[3]])).map((item) => [item.id, item.cited_by_results]));
    assert.deepEqual(frequentlyCitedByResults(db, ['dup', 'one', 'dup']).map((item) => item.id), ['x']);
    assert.deepEqual(frequentlyCitedByResults(db, ['dup']), []);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
