import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { upsertCourt } from '../../src/corpus/seed.ts';
import type { CourtInfo } from '../../src/corpus/courts.ts';

const LG_BONN: CourtInfo = {
  code: 'LG Bonn', name: 'Landgericht Bonn', branch: 'ordentlich', court_type: 'LG', level: 'first_instance_and_regional',
  state: 'NW', founding_year: null, founding_basis: null,
};

test('upsertCourt writes a new court, leaves a court held as it is untouched, and updates a changed one', () => {
  const db = openCorpus(':memory:');
  const changes = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  const row = () => db.prepare('SELECT * FROM courts WHERE code = ?').get('LG Bonn');
  let before = changes();
  upsertCourt(db, LG_BONN);
  assert.equal(changes(), before + 1);
  assert.deepEqual(row(), LG_BONN);

  before = changes();
  upsertCourt(db, { ...LG_BONN });
  assert.equal(changes(), before, 'the same court again writes nothing');

  upsertCourt(db, { ...LG_BONN, founding_year: 1850, founding_basis: 'Gesetz' });
  upsertCourt(db, { ...LG_BONN, name: 'Landgericht Bonn (neu)' });
  assert.deepEqual(row(), { ...LG_BONN, name: 'Landgericht Bonn (neu)', founding_year: 1850, founding_basis: 'Gesetz' },
    'a later write without founding fields keeps them');
  before = changes();
  upsertCourt(db, { ...LG_BONN, name: 'Landgericht Bonn (neu)' });
  assert.equal(changes(), before, 'missing founding fields are no change');
  db.close();
});
