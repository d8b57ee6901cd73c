/**
 * The cited_norm filter's decisions (src/search/filters.ts, src/corpus/norm-family.ts) against their definition
 * computed here from citation_edges: the decisions with a statute edge whose canonical form is the provision or one
 * of its subdivisions. A whole unit is answered by the index citation_links_statutes alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smallCorpus } from './small-corpus.ts';
import { citedNormCondition, filterSql } from '../../src/search/filters.ts';

const TEXTS = [
  'Die Kündigung nach § 573 Abs. 2 Nr. 2 BGB wegen Eigenbedarfs ist wirksam; § 574 BGB greift nicht.',
  'Die Kündigung nach § 573 Abs. 3 BGB war nicht begründet, § 573 Abs. 3 BGB verlangt Gründe im Schreiben.',
  'Der Vermieter kündigte nach § 573 BGB. Schadensersatz nach § 280 Abs. 1 BGB.',
  'Die fristlose Kündigung nach § 543 Abs. 2 Satz 1 Nr. 3 BGB.',
  'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO erlaubt die Verarbeitung; § 573a BGB gilt nicht.',
];

function byDefinition(db: Awaited<ReturnType<typeof smallCorpus>>, canonical: string, law: string): string[] {
  const stem = `${canonical.slice(0, -law.length - 1)} `;
  const edges = db.prepare(`SELECT from_decision_id AS id, reference_canonical AS written FROM citation_edges
    WHERE reference_type = 'statute' AND target_law = ?`).all(law) as { id: string; written: string }[];
  const ids = edges.filter(({ written }) => `${written} `.startsWith(stem) || `${written} `.replace(' UAbs. 1 ', ' ').startsWith(stem))
    .map((edge) => edge.id);
  return [...new Set(ids)].sort();
}

test('cited_norm: the decisions citing the provision or a subdivision, each once, as defined; a whole unit by the index alone', async (t) => {
  const db = await smallCorpus(t, TEXTS.map((text, i) => ({ doknr: `KORE60000${i}`, aktenzeichen: `VIII ZR ${i + 1}/24`, norm: '', text })));
  const cases = [['§ 573 BGB', '§ 573 BGB', 'BGB'], ['§ 573 Abs. 3 BGB', '§ 573 Abs. 3 BGB', 'BGB'], ['§ 573 II BGB', '§ 573 Abs. 2 BGB', 'BGB'],
    ['§ 543 BGB', '§ 543 BGB', 'BGB'], ['§ 573a BGB', '§ 573a BGB', 'BGB'], ['Art. 6 Abs. 1 lit. f DS-GVO', 'Art. 6 Abs. 1 lit. f DSGVO', 'DSGVO'],
    ['§ 626 BGB', '§ 626 BGB', 'BGB']] as const;
  for (const [asked, canonical, law] of cases) {
    const condition = citedNormCondition(asked);
    const found = (db.prepare(condition.sql).pluck().all(...condition.params) as string[]);
    assert.equal(new Set(found).size, found.length, `${asked}: each decision once`);
    assert.deepEqual(found.sort(), byDefinition(db, canonical, law), asked);
  }
  assert.equal(byDefinition(db, '§ 573 BGB', 'BGB').length, 3, 'the fixture cites § 573 BGB and its subdivisions in three decisions');
  const unit = citedNormCondition('§ 573 BGB');
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${unit.sql}`).all(...unit.params) as { detail: string }[]).map((row) => row.detail).join('\n');
  assert.match(plan, /COVERING INDEX citation_links_statutes/u, 'a whole unit reads no edge row');
});

test('cited_norm tests the rows another condition found: a list of rows is looked up by its own keys, never driven from the norm\'s decisions', async (t) => {
  const db = await smallCorpus(t, TEXTS.map((text, i) => ({ doknr: `KORE61000${i}`, aktenzeichen: `VIII ZR ${i + 11}/24`, norm: '', text })));
  // As top-k-lists.ts (rows of the lists passing the filters), semantic.ts and exact-citation.ts (decisions of a list)
  // ask. Driven from the norm's decisions, each was tested against every id of the list: 24 s for 5,000 ids and
  // '§ 823 BGB' at 100k decisions.
  // As the search asks (the norm's decisions read once and kept for the connection) and as a subquery.
  const docIds = db.prepare('SELECT doc_id FROM search_docs ORDER BY doc_id').pluck().all() as number[];
  const decisionIds = db.prepare('SELECT decision_id FROM search_docs ORDER BY doc_id').pluck().all() as string[];
  for (const filters of [filterSql({ cited_norm: '§ 573 BGB' }, db), filterSql({ cited_norm: '§ 573 BGB' })]) for (const [statement, list] of [
    [`SELECT s.doc_id FROM search_docs s WHERE s.doc_id IN (SELECT value FROM json_each(?))${filters.whereOnDocs}`, docIds],
    [`SELECT d.id FROM decisions d WHERE d.id IN (SELECT value FROM json_each(?))${filters.where}`, decisionIds],
  ] as const) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${statement}`).all(JSON.stringify(list), ...filters.params) as { detail: string }[])
      .map((row) => row.detail);
    const outer = plan.find((detail) => /^(SEARCH|SCAN) [sd] /u.test(detail));
    assert.match(outer ?? '', /USING (INTEGER PRIMARY KEY \(rowid=\?\)|(COVERING )?INDEX sqlite_autoindex_decisions_1 \(id=\?\))/u, statement);
    assert.equal(db.prepare(statement).all(JSON.stringify(list), ...filters.params).length, 3, 'the three decisions citing § 573 BGB or a subdivision');
  }
});

test('cited_norm read once per connection is read again when the file changes', async (t) => {
  const db = await smallCorpus(t, TEXTS.map((text, i) => ({ doknr: `KORE62000${i}`, aktenzeichen: `VIII ZR ${i + 21}/24`, norm: '', text })));
  const citing = () => {
    const filters = filterSql({ cited_norm: '§ 573 BGB' }, db);
    const byDocs = db.prepare(`SELECT s.decision_id FROM search_docs s WHERE 1${filters.whereOnDocs}`).pluck().all(...filters.params) as string[];
    const byDecisions = db.prepare(`SELECT d.id FROM decisions d WHERE 1${filters.where}`).pluck().all(...filters.params) as string[];
    assert.deepEqual(byDocs.sort(), byDecisions.sort(), 'the same decisions on search_docs and on decisions');
    return byDecisions;
  };
  const before = citing();
  assert.deepEqual(before, byDefinition(db, '§ 573 BGB', 'BGB'));
  db.prepare(`DELETE FROM citation_links WHERE reference_type = 'statute' AND target_law = 'BGB' AND target_unit = '§ 573'
    AND from_row = (SELECT row FROM decision_rows WHERE id = ?)`).run(before[0]);
  assert.deepEqual(citing(), before.slice(1), 'the decision no longer citing § 573 BGB is gone from the filter');
});
