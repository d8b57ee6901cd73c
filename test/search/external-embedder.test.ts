/**
 * The optional external embedder against a local OpenAI-compatible endpoint (test/search/embeddings-server.ts): the
 * import embeds every decision through it (model, key and batches as configured by JURALITE_EMBEDDINGS_*), the corpus
 * records the model, and the server's semantic search embeds queries with it over HTTP. A server configured for
 * another model, or none, or an endpoint that fails, answers 503 naming the cause, and charges nothing. An import
 * whose endpoint fails says so, leaves keyword search complete, and the next import embeds what was left.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { loadEmbeddingsConfig, type EmbeddingsConfig } from '../../src/config.ts';
import { recordedEmbedder } from '../../src/search/embedder.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { syncSearchIndex } from '../../src/search/index-sync.ts';
import { closeSyncPost } from '../../src/search/sync-post.ts';
import { startApi, type Api } from '../helpers/api.ts';
import { riiXml } from '../ingest/helpers.ts';
import { startEmbeddingsServer, type EmbeddingsServer } from './embeddings-server.ts';

const FIXTURE_DECISIONS = fileURLToPath(new URL('../../fixtures/decisions/', import.meta.url));
const MODEL = 'juralite-test-embed-1';
let endpoint: EmbeddingsServer;
let dir: string;
let corpusPath: string;
let config: EmbeddingsConfig;

/** Runs `fn` with the embeddings variables set, as `juralite import` would see them. */
async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

const ENV = () => ({ JURALITE_EMBEDDINGS_URL: endpoint.url, JURALITE_EMBEDDINGS_MODEL: MODEL, JURALITE_EMBEDDINGS_API_KEY: 'test-key', JURALITE_EMBEDDINGS_BATCH: '8' });

before(async () => {
  endpoint = await startEmbeddingsServer();
  dir = mkdtempSync(join(tmpdir(), 'juralite-embed-'));
  corpusPath = join(dir, 'corpus.db');
  // Twenty fixture decisions: enough to rank, few enough to keep the test fast.
  const some = join(dir, 'decisions');
  const files = readdirSync(FIXTURE_DECISIONS).filter((name) => name.endsWith('.xml')).sort().slice(0, 20);
  rmSync(some, { recursive: true, force: true });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(some);
  for (const name of files) copyFileSync(join(FIXTURE_DECISIONS, name), join(some, name));
  const db = openCorpus(corpusPath);
  try {
    await withEnv(ENV(), () => importPaths(db, [some]));
  } finally {
    db.close();
  }
  config = loadEmbeddingsConfig(ENV())!;
});
after(async () => {
  closeSyncPost();
  await endpoint.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the import embeds every decision through the endpoint, with the model, the key and batches; the corpus records it', async () => {
  const db = openCorpus(corpusPath, { readonly: true });
  try {
    const record = recordedEmbedder(db);
    assert.deepEqual(record, { kind: 'external', model: MODEL, dims: 64, endpoint: `${endpoint.url}/embeddings` });
    const counts = db.prepare(`SELECT (SELECT count(*) FROM decisions) AS decisions, (SELECT count(*) FROM search_vectors) AS vectors,
      (SELECT count(*) FROM search_vec) AS bits, (SELECT count(*) FROM search_model_words) AS words`).get() as Record<string, number>;
    assert.equal(counts.decisions, 20);
    assert.deepEqual([counts.vectors, counts.bits, counts.words], [20, 20, 0]);
  } finally {
    db.close();
  }
  const requests = await endpoint.requests();
  assert.equal(requests.reduce((n, r) => n + r.inputs, 0), 20, 'each decision embedded once');
  assert.ok(requests.every((r) => r.model === MODEL && r.authorization === 'Bearer test-key' && r.inputs <= 8));
});

test('semantic search over HTTP embeds the query with the configured endpoint; the nearest decision shares its words', async () => {
  const api = await startApi({ corpus: corpusPath, config: { embeddings: config } });
  try {
    const db = api.services.corpus!;
    // A distinctive sentence of one decision as the query: the endpoint's vectors put that decision first.
    const target = db.prepare(`SELECT d.id, substr(decision_text(d.text_zstd), c.start_offset + 1, c.end_offset - c.start_offset) AS text
      FROM decisions d JOIN chunks c ON c.decision_id = d.id
      WHERE c.section NOT IN ('Tenor') AND c.end_offset - c.start_offset > 300 ORDER BY d.id, c.position LIMIT 1`).get() as { id: string; text: string };
    const query = target.text.slice(0, 300).replace(/\s+/gu, ' ');
    const before = (await endpoint.requests()).length;
    const reply = await api.call('GET', `/api/v1/decisions/search?${new URLSearchParams({ query, mode: 'semantic', bridge: 'false' })}`,
      { token: api.org({ plan: 'enterprise' }).token(['search']) });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.mode, 'semantic');
    assert.equal(reply.body.results[0].id, target.id);
    const after = await endpoint.requests();
    assert.equal(after.length, before + 1);
    assert.deepEqual([after.at(-1)!.inputs, after.at(-1)!.firstInput], [1, query]);
    const hybrid = await api.call('GET', `/api/v1/decisions/search?${new URLSearchParams({ query: 'Schimmel Wohnung Mietminderung' })}`,
      { token: api.org({ plan: 'enterprise' }).token(['search']) });
    assert.equal(hybrid.status, 200);
    assert.equal(hybrid.body.mode, 'hybrid');
  } finally {
    await api.close();
  }
});

test('a server configured for another model, or for none, answers 503 naming the model, and charges nothing', async () => {
  for (const embeddings of [{ ...config, model: 'another-model' }, null]) {
    const api = await startApi({ corpus: corpusPath, config: { embeddings } });
    try {
      const org = api.org({ plan: 'enterprise' });
      const start = org.balance();
      for (const mode of ['semantic', 'hybrid']) {
        const reply = await api.call('GET', `/api/v1/decisions/search?query=Wohnung&mode=${mode}`, { token: org.token(['search']) });
        assert.equal(reply.status, 503, `${mode} ${JSON.stringify(reply.body)}`);
        assert.equal(reply.body.code, 'backend_unavailable');
        assert.match(reply.body.detail, new RegExp(MODEL));
        if (embeddings) assert.match(reply.body.detail, /another-model/u);
      }
      // Keyword search needs no vectors.
      const keyword = await api.call('GET', '/api/v1/decisions/search?query=Wohnung&mode=keyword', { token: org.token(['search']) });
      assert.equal(keyword.status, 200);
      assert.equal(org.balance(), start - 1);
    } finally {
      await api.close();
    }
  }
});

test('an endpoint that fails or answers the wrong shape gives 503 with the cause; nothing charged', async () => {
  const api = await startApi({ corpus: corpusPath, config: { embeddings: config } });
  try {
    const org = api.org({ plan: 'enterprise' });
    const start = org.balance();
    for (const [mode, cause] of [['fail', /HTTP 500/u], ['short', /0 vectors for 1 texts/u], ['dims32', /32 dimensions/u]] as const) {
      await endpoint.setMode(mode);
      const reply = await api.call('GET', '/api/v1/decisions/search?query=Wohnung&mode=semantic', { token: org.token(['search']) });
      assert.equal(reply.status, 503, mode);
      assert.equal(reply.body.code, 'backend_unavailable');
      assert.match(reply.body.detail, cause, mode);
      assert.equal(reply.body.detail.match(/Nothing was charged/gu)?.length, 1, `said once: ${reply.body.detail}`);
    }
    assert.equal(org.balance(), start);
  } finally {
    await endpoint.setMode('ok');
    await api.close();
  }
});

test('an import whose endpoint fails says so; keyword search has the decision; the next sync embeds it', async () => {
  const copy = join(dir, 'failing.db');
  copyFileSync(corpusPath, copy);
  const db = openCorpus(copy);
  try {
    const file = join(dir, 'new.xml');
    writeFileSync(file, riiXml({ doknr: 'EMBD00000001', datum: '20240301', aktenzeichen: 'VIII ZR 99/24',
      gruende: [{ rn: 1, text: 'Der Quastenflosser im Aquarium des Mieters war kein Grund zur Kündigung.' }] }));
    await endpoint.setMode('fail');
    await assert.rejects(withEnv(ENV(), () => importPaths(db, [file])),
      /embeddings endpoint .* answered HTTP 500.*keyword search is up to date; 1 decisions have no vector yet/su);
    const missing = () => (db.prepare(`SELECT count(*) AS n FROM decisions d
      WHERE NOT EXISTS (SELECT 1 FROM search_vectors v WHERE v.decision_id = d.id)`).get() as { n: number }).n;
    assert.equal(missing(), 1);
    const keyword = await searchDecisions(db, { query: 'Quastenflosser', mode: 'keyword', limit: 20, page: 1, bridge: false });
    assert.deepEqual(keyword.results.map((r) => r.aktenzeichen), ['VIII ZR 99/24'], 'the FTS5 part was committed');
    await endpoint.setMode('ok');
    assert.equal(syncSearchIndex(db, { embeddings: config }).vectors, 1);
    assert.equal(missing(), 0);
  } finally {
    await endpoint.setMode('ok');
    db.close();
  }
});

test('an import without the external embedder configured switches to the trained one: all vectors go, never mixed', async () => {
  const copy = join(dir, 'switch.db');
  copyFileSync(corpusPath, copy);
  const db = openCorpus(copy);
  const count = () => (db.prepare('SELECT count(*) AS n FROM search_vectors').get() as { n: number }).n;
  try {
    // Twenty decisions are too little text to train on: no vectors at all, rather than the external ones kept.
    syncSearchIndex(db, { embeddings: null });
    assert.equal(recordedEmbedder(db), null);
    assert.equal(count(), 0);
    await assert.rejects(searchDecisions(db, { query: 'Wohnung', mode: 'semantic', limit: 20, page: 1, bridge: true }), /needs decision vectors/u);
    // With the whole demo corpus there is enough: every vector is the trained model's.
    await importPaths(db, [join(FIXTURE_DECISIONS, '../laws'), FIXTURE_DECISIONS]);
    const record = recordedEmbedder(db);
    assert.equal(record?.kind, 'trained');
    const dims = (db.prepare('SELECT DISTINCT length(vector) / 4 AS dims FROM search_vectors').all() as { dims: number }[]).map((r) => r.dims);
    assert.deepEqual(dims, [record!.dims]);
    assert.equal(count(), (db.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number }).n);
  } finally {
    db.close();
  }
});

test('JURALITE_EMBEDDINGS_URL needs a model and an http(s) URL', () => {
  assert.equal(loadEmbeddingsConfig({}), null);
  assert.throws(() => loadEmbeddingsConfig({ JURALITE_EMBEDDINGS_URL: 'http://127.0.0.1:1/v1' }), /JURALITE_EMBEDDINGS_MODEL/u);
  assert.throws(() => loadEmbeddingsConfig({ JURALITE_EMBEDDINGS_URL: 'ftp://x', JURALITE_EMBEDDINGS_MODEL: 'm' }), /http\(s\) URL/u);
  assert.equal(loadEmbeddingsConfig({ JURALITE_EMBEDDINGS_URL: 'http://h:1/v1/', JURALITE_EMBEDDINGS_MODEL: 'm' })!.url, 'http://h:1/v1');
});
