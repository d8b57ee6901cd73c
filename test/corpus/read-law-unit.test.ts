// readLawUnit on the demo corpus, unit after unit on one connection (its statements bind +?, src/db/statements.ts):
// each answer's neighbours and citing decisions equal what plain statements of the test count for that unit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { CITED_BY_LIMIT, readLawUnit } from '../../src/corpus/read-law-unit.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

test('readLawUnit: neighbours, citing total and citing decisions of every cited unit, read one after another', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  try {
    const cited = db.prepare(`SELECT l.abbreviation AS law, u.kind, u.number, u.position, u.law_id,
        (SELECT count(DISTINCT e.from_decision_id) FROM citation_edges e WHERE e.reference_type = 'statute'
          AND e.target_law = l.abbreviation AND e.target_unit = u.kind || ' ' || u.number) AS citing
      FROM law_units u JOIN laws l ON l.id = u.law_id WHERE u.number IS NOT NULL AND u.kind IN ('§', 'Art.')
      ORDER BY citing DESC, l.abbreviation, u.position LIMIT 12`).all() as
      { law: string; kind: string; number: string; position: number; law_id: string; citing: number }[];
    assert.ok(cited.length >= 6 && cited[0].citing > 0, 'the demo corpus cites units of its laws');
    const next = db.prepare('SELECT kind, number FROM law_units WHERE law_id = ? AND position > ? ORDER BY position LIMIT 1');
    const previous = db.prepare('SELECT kind, number FROM law_units WHERE law_id = ? AND position < ? ORDER BY position DESC LIMIT 1');
    const citingIds = db.prepare(`SELECT DISTINCT from_decision_id FROM citation_edges WHERE reference_type = 'statute'
      AND target_law = ? AND target_unit = ? ORDER BY from_decision_id`).pluck();
    const side = (row: { kind: string; number: string } | undefined) => row ? { kind: row.kind, number: row.number } : null;
    for (const unit of [...cited, ...cited.reverse()]) {
      const label = `${unit.kind} ${unit.number}`;
      const answer = readLawUnit(db, unit.law, `${unit.kind} ${unit.number}`);
      assert.equal(answer.unit.label, label);
      assert.deepEqual(answer.previous && { kind: answer.previous.kind, number: answer.previous.number },
        side(previous.get(unit.law_id, unit.position) as never), `${label} ${unit.law}: previous`);
      assert.deepEqual(answer.next && { kind: answer.next.kind, number: answer.next.number },
        side(next.get(unit.law_id, unit.position) as never), `${label} ${unit.law}: next`);
      assert.equal(answer.cited_by_total, unit.citing, `${label} ${unit.law}: citing total`);
      const ids = citingIds.all(unit.law, label) as string[];
      const served = answer.cited_by.map((row) => row.id);
      assert.equal(served.length, Math.min(ids.length, CITED_BY_LIMIT), `${label} ${unit.law}: citing decisions served`);
      assert.ok(served.every((id) => ids.includes(id)), `${label} ${unit.law}: citing decisions`);
      assert.ok(answer.cited_by.every((row, i, rows) => i === 0 || (rows[i - 1].date ?? '') >= (row.date ?? '')), 'newest first');
    }
  } finally {
    db.close();
  }
});
