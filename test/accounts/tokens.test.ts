import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openState } from '../../src/accounts/state-db.ts';
import { createOrganization } from '../../src/accounts/organizations.ts';
import { ABILITIES, authenticate, createToken, parseAbilities } from '../../src/accounts/tokens.ts';

test('a token is stored only as a hash: neither it nor its secret is in the database files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-tokens-'));
  try {
    const state = openState(join(dir, 'state.db'));
    const now = new Date();
    const { organization } = createOrganization(state, { name: 'Kanzlei' }, now);
    const { token } = createToken(state, { organizationId: organization.id, abilities: [...ABILITIES] }, now);
    const secret = token.slice(20);
    assert.equal(authenticate(state, `Bearer ${token}`, now).organization.id, organization.id);
    // Read the files as they are on disk, with and without a checkpoint (WAL holds recent pages).
    const haystack = () => readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1')).join('');
    for (const check of [haystack(), (state.pragma('wal_checkpoint(TRUNCATE)'), haystack())]) {
      assert.ok(!check.includes(token));
      assert.ok(!check.includes(secret));
      assert.ok(!check.includes(Buffer.from(secret).toString('hex')));
    }
    state.close();
    assert.ok(!haystack().includes(secret));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tokens live at most 365 days; abilities are checked by name', () => {
  const state = openState(':memory:');
  const now = new Date('2026-05-01T00:00:00Z');
  const { organization } = createOrganization(state, { name: 'K' }, now);
  const { record } = createToken(state, { organizationId: organization.id, abilities: ['read'] }, now);
  assert.equal(record.expires_at, '2027-05-01T00:00:00.000Z');
  assert.throws(() => createToken(state, { organizationId: organization.id, abilities: ['read'], days: 366 }, now), /1 to 365 days/);
  assert.deepEqual(parseAbilities('all'), [...ABILITIES]);
  assert.deepEqual(parseAbilities('search, ALL'), [...ABILITIES], 'all in any case, also among others');
  assert.deepEqual(parseAbilities('read, search,read'), ['read', 'search']);
  assert.throws(() => parseAbilities('read,admin'), /Unknown abilities: admin/);
});
