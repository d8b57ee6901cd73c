/**
 * The norm arm of hybrid (src/search/norm-arm.ts) against its definition computed here from citation_edges: the
 * candidates with a statute edge to one of the norms, most such edges first (ties by id), each with its first chunk;
 * a norm's counts read from the index alone, once per connection, and again once the file changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { smallCorpus } from './small-corpus.ts';
import { CITING_DECISIONS_SQL, normArm } from '../../src/search/norm-arm.ts';

const TEXTS = [
  'Die Kündigung nach § 573 Abs. 2 Nr. 2 BGB wegen Eigenbedarfs ist wirksam; § 573 BGB verlangt ein Interesse, § 546 BGB die Räumung.',
  'Die Kündigung nach § 573 Abs. 3 BGB war nicht begründet.',
  'Der Arbeitgeber kündigte; § 1 KSchG und § 4 KSchG, die Klagefrist des § 4 KSchG ist gewahrt, § 1 Abs. 2 KSchG.',
  'Die Räumung nach § 546 BGB; § 546 BGB, § 546a BGB, § 573 BGB.',
  'Schadensersatz nach § 280 Abs. 1 BGB.',
  'Ohne jede Norm.',
];
const NORMS = [['BGB', '§ 573'], ['BGB', '§ 546'], ['KSchG', '§ 1'], ['KSchG', '§ 4'], ['BGB', '§ 280'], ['BGB', '§ 999']] as const;

function byDefinition(db: Database.Database, norms: { law: string; unit: string }[], candidates: string[]) {
  const wanted = new Set(norms.map((norm) => `${norm.law}|${norm.unit}`));
  const counts = new Map<string, number>();
  const edges = db.prepare(`SELECT from_decision_id AS id, target_law AS law, target_unit AS unit FROM citation_edges
    WHERE reference_type = 'statute'`).all() as { id: string; law: string; unit: string }[];
  for (const edge of edges) {
    if (candidates.includes(edge.id) && wanted.has(`${edge.law}|${edge.unit}`)) counts.set(edge.id, (counts.get(edge.id) ?? 0) + 1);
  }
  const first = db.prepare('SELECT id FROM chunks WHERE decision_id = ? ORDER BY position LIMIT 1').pluck();
  return [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .map(([id]) => ({ decision_id: id, chunks: [first.get(id) as number] }));
}

test('norm arm: the candidates citing the norms, most edges first, as defined', async (t) => {
  const db = await smallCorpus(t, TEXTS.map((text, i) => ({ doknr: `KORE61000${i}`, aktenzeichen: `VIII ZR ${i + 1}/24`, norm: '', text })));
  const ids = (db.prepare('SELECT id FROM decisions ORDER BY id').pluck().all() as string[]);
  const expected = byDefinition(db, [{ law: 'BGB', unit: '§ 573' }, { law: 'BGB', unit: '§ 546' }], ids);
  assert.ok(expected.length >= 3 && new Set(expected.map((entry) => entry.decision_id)).size === expected.length, 'the fixture cites the norms in three decisions');
  fc.assert(fc.property(
    fc.subarray(ids), fc.array(fc.constantFrom(...NORMS), { maxLength: 4 }), fc.boolean(),
    (candidates, pairs, unknown) => {
      const norms = pairs.map(([law, unit]) => ({ law, unit }));
      // A candidate twice, or one naming no decision, changes nothing.
      const asked = unknown ? [...candidates, ...candidates.slice(0, 1), 'no-such-decision'] : candidates;
      assert.deepEqual(normArm(db, norms, asked), norms.length === 0 ? [] : byDefinition(db, norms, candidates));
    },
  ), { numRuns: 150, seed: 27 });
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${CITING_DECISIONS_SQL}`).all('BGB', '§ 573') as { detail: string }[]).map((row) => row.detail).join('\n');
  assert.match(plan, /COVERING INDEX citation_links_statutes \(target_law=\? AND target_unit=\?\)/u, 'a norm\'s edges from the index alone');
});

test('norm arm: the counts kept per connection are read again when the file changes', async (t) => {
  const db = await smallCorpus(t, TEXTS.map((text, i) => ({ doknr: `KORE61100${i}`, aktenzeichen: `VIII ZR ${i + 11}/24`, norm: '', text })));
  const ids = (db.prepare('SELECT id FROM decisions ORDER BY id').pluck().all() as string[]);
  const norms = [{ law: 'BGB', unit: '§ 573' }];
  const before = normArm(db, norms, ids);
  assert.deepEqual(before, byDefinition(db, norms, ids));
  assert.ok(before.length >= 2, 'the fixture cites § 573 BGB in two decisions or more');
  const [dropped] = before;
  db.prepare(`DELETE FROM citation_links WHERE reference_type = 'statute' AND target_law = 'BGB' AND target_unit = '§ 573'
    AND from_row = (SELECT row FROM decision_rows WHERE id = ?)`).run(dropped!.decision_id);
  const after = normArm(db, norms, ids);
  assert.deepEqual(after, byDefinition(db, norms, ids));
  assert.ok(!after.some((entry) => entry.decision_id === dropped!.decision_id), 'the decision no longer citing § 573 BGB is gone');
});
