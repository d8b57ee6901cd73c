// The held-out judged laws set (bench/search-relevance-laws-heldout.json): its shape, that it shares no query with the
// tuning set it checks, and that every judged unit names a federal law of ../shared/data/gii (by the importer's
// cited abbreviation; skipped when absent). The units themselves were checked against the imported text when written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { citedAbbreviation } from '../../src/corpus/law-aliases.ts';
import { assertDisjoint } from '../helpers/held-out.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';

interface LawSet { queries: { id: string; kind: string; query: string; relevant_law_units: string[] }[] }
const read = (file: string) => JSON.parse(readFileSync(new URL(`../../bench/${file}`, import.meta.url), 'utf8')) as LawSet;
const heldout = read('search-relevance-laws-heldout.json');
const tuning = read('search-relevance-laws.json');
const UNIT = /^(?:§|Art\.) (\d+[a-z]?) (\S.*)$/u;

test('held-out laws set: at least 60 queries of both kinds, unique ids, units named as the corpus labels them', () => {
  const { queries } = heldout;
  assert.ok(queries.length >= 60, `${queries.length} queries`);
  assert.ok(queries.filter((q) => q.kind === 'legal').length >= 35 && queries.filter((q) => q.kind === 'lay').length >= 25);
  assert.equal(new Set(queries.map((q) => q.id)).size, queries.length, 'ids are unique');
  for (const q of queries) {
    assert.ok(q.kind === 'legal' || q.kind === 'lay', q.id);
    assert.ok(q.query.length >= 2 && q.relevant_law_units.length > 0, q.id);
    for (const unit of q.relevant_law_units) assert.match(unit, UNIT, `${q.id}: ${unit}`);
  }
});

test('held-out laws set: no query of the tuning set, nor its ids', () => assertDisjoint(heldout, tuning));

test('held-out laws set: every judged law is a federal law of the GII corpus', skipUnlessSharedData('gii/law_index.tsv'), () => {
  // As the importer names a law: the form lawyers cite ('SGB 6' -> 'SGB VI', 'AO 1977' -> 'AO').
  const known = new Set(readFileSync(sharedData('gii/law_index.tsv'), 'utf8').split('\n').slice(1).filter(Boolean)
    .map((line) => line.split('\t')).map(([, jurabk, amtabk]) => citedAbbreviation(jurabk!, amtabk)));
  for (const q of heldout.queries) {
    for (const unit of q.relevant_law_units) assert.ok(known.has(UNIT.exec(unit)![2]!), `${q.id}: ${unit}`);
  }
});
