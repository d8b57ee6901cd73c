/**
 * GET /decisions/{id} reads the corpus once: the decision is found, its request made canonical and its answer read in
 * one read transaction (src/operations/get-decision.ts), so a sync committing while the call is priced and checked
 * changes neither what is served nor whether it is found.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startApi, type Api } from '../helpers/api.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import type { Operation } from '../../src/operations/operation.ts';

let api: Api;
let token: string;
/** Another process's write to the corpus (`juralite sync`), made while the call is priced: after it found the decision. */
let whilePriced: ((corpus: Database.Database) => void) | undefined;

before(async () => {
  const operations = OPERATIONS.map((operation): Operation => (operation.name !== 'get_decision' ? operation : {
    ...operation,
    price: (args, ctx) => {
      const writer = new Database(join(api.dir, 'corpus.db'));
      try {
        whilePriced?.(writer);
      } finally {
        writer.close();
      }
      return operation.price(args, ctx);
    },
  }));
  api = await startApi({ operations });
  token = api.org({ plan: 'enterprise' }).token(['read']);
});
after(() => api.close());

const get = (path: string) => api.call('GET', `/api/v1/decisions/${path}`, { token });

test('a change committed after the decision was found is not served: the answer is the decision as found', async () => {
  const found = await get(`${SMALL.bgh.id}?max_chars=600`);
  assert.equal(found.status, 200);
  whilePriced = (corpus) => corpus.prepare('UPDATE decisions SET title = ?, chamber = ? WHERE id = ?').run('Neu', '9. Senat', SMALL.bgh.id);
  const during = await get(SMALL.bgh.id);
  whilePriced = undefined;
  assert.equal(during.status, 200);
  assert.deepEqual([during.body.metadata.title, during.body.metadata.chamber], [found.body.metadata.title, found.body.metadata.chamber]);
  // The next call sees the sync's change.
  const after = await get(`${SMALL.bgh.id}?max_chars=700`);
  assert.deepEqual([after.body.metadata.title, after.body.metadata.chamber], ['Neu', '9. Senat']);
});

test('a decision a sync removes after it was found is served as found, not refused after its price was checked', async () => {
  whilePriced = (corpus) => {
    // Its parts stay behind (keyed by the decision's integer row): only the decision's own row goes.
    corpus.pragma('foreign_keys = OFF');
    corpus.prepare('UPDATE decisions SET id = ? WHERE id = ?').run('00000000-0000-4000-8000-000000000000', SMALL.lgBerlin.id);
  };
  const during = await get(`${SMALL.lgBerlin.id}?max_chars=800`);
  whilePriced = undefined;
  assert.equal(during.status, 200, JSON.stringify(during.body));
  assert.equal(during.body.id, SMALL.lgBerlin.id);
  assert.equal((await get(SMALL.lgBerlin.id)).status, 404);
});

test('a refusal of the handler keeps its place: a Randnummer range the decision lacks is 422, nothing charged', async () => {
  const org = api.org({ plan: 'enterprise' });
  const own = org.token(['read']);
  const before = org.balance();
  const reply = await api.call('GET', `/api/v1/decisions/${SMALL.bgh.id}?rn_from=90`, { token: own });
  assert.equal(reply.status, 422);
  assert.match(reply.body.errors.rn_from[0], /no Randnummer in that range/);
  assert.equal(org.balance(), before);
});
