/** The check both held-out judged sets share: not one query (case and punctuation aside) nor id of their tuning set. */
import assert from 'node:assert/strict';

interface JudgedSet { queries: { id: string; query: string }[] }

export function assertDisjoint(heldout: JudgedSet, tuning: JudgedSet): void {
  const fold = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const tuned = new Set(tuning.queries.map((q) => fold(q.query)));
  const ids = new Set(tuning.queries.map((q) => q.id));
  for (const q of heldout.queries) {
    assert.ok(!tuned.has(fold(q.query)), q.query);
    assert.ok(!ids.has(q.id), q.id);
  }
}
