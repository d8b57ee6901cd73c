/**
 * `juralite sync` against a local mirror built from fixtures/ (test/sync/mirror.ts): the first sync, a second one that
 * fetches only what changed (requests counted), a server that answers 429, 500, slowly, with a cut connection or a
 * truncated zip, and tables of contents of another format.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus, type CorpusDb } from '../../src/corpus/open.ts';
import { syncCorpus, type SyncOptions } from '../../src/sync/run.ts';
import { USER_AGENT } from '../../src/sync/fetcher.ts';
import { runCheck } from '../../src/citations/check.ts';
import { demoCorpus, fixtureId } from '../helpers/demo-corpus.ts';
import { startApi } from '../helpers/api.ts';
import { Mirror, decisionPath, fixtureSources } from './mirror.ts';

const dir = mkdtempSync(join(tmpdir(), 'juralite-sync-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshCorpus = () => openCorpus(join(dir, `corpus-${++files}.db`));
/** Fast and patient enough for a local mirror: no pause, short backoff. */
const LOCAL = { pauseMs: 0, backoffMs: 10, retries: 3, timeoutMs: 2_000 };
const sync = (db: CorpusDb, mirror: Mirror, options: Partial<SyncOptions> = {}) =>
  syncCorpus(db, { sources: ['gii', 'rii'], baseUrl: mirror.url, fetcher: LOCAL, ...options });
const rows = (db: CorpusDb, query: string) => db.prepare(query).all();

test('first sync imports every law and decision of the mirror as `juralite import` does, with a manifest row each', async () => {
  const mirror = await new Mirror(fixtureSources()).start();
  const db = freshCorpus();
  try {
    const summary = await sync(db, mirror);
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.sources.gii!.imported, 24);
    assert.equal(summary.sources.rii!.imported, 50);
    assert.equal(summary.requests, 2 + 24 + 50);
    assert.ok(mirror.userAgents.every((agent) => agent === USER_AGENT) && USER_AGENT.startsWith('juralite/'));
    const imported = openCorpus(await demoCorpus(), { readonly: true });
    try {
      const same = (query: string) => assert.deepEqual(rows(db, query), rows(imported, query), query);
      same('SELECT id, content_hash FROM decisions ORDER BY id');
      same('SELECT id, abbreviation FROM laws WHERE text_available = 1 ORDER BY id');
      same('SELECT count(*) AS n, sum(resolution_status = \'resolved\') AS resolved FROM citation_edges');
      same('SELECT count(*) AS n FROM search_docs');
    } finally {
      imported.close();
    }
    const manifest = db.prepare('SELECT source, count(*) AS n FROM sync_manifest GROUP BY source ORDER BY source').all();
    assert.deepEqual(manifest, [{ source: 'gii', n: 24 }, { source: 'rii', n: 50 }]);
    const row = db.prepare('SELECT * FROM sync_manifest WHERE url LIKE ?').get('%jb-JURA000000003.zip') as Record<string, string>;
    assert.equal(row.url, 'http://www.rechtsprechung-im-internet.de/jportal/docs/bsjrs/jb-JURA000000003.zip');
    assert.match(row.etag, /^"[0-9a-f]{40}"$/);
    assert.equal(row.modified, '2024-01-02T03:04:05.000Z');
    assert.deepEqual(JSON.parse(row.documents), [fixtureId(3)]);
    // A complete rii run makes its courts' coverage exhaustive, verified today.
    const bgh = db.prepare(`SELECT * FROM coverage_ranges WHERE court = 'BGH'`).get() as Record<string, unknown>;
    assert.equal(bgh.exhaustive, 1);
    assert.equal(bgh.from_date, '2004-06-23');
    assert.equal(bgh.verified_at, new Date().toISOString().slice(0, 10));
    // There, a BGH decision not held is a statement of fact (in the demo corpus, imported without a sync, not_in_corpus).
    const [finding] = runCheck(db, { id: 'run', text: 'BGH, Urteil vom 12. Juni 2012 - VI ZR 138/11', source: 'text',
      submittedAt: new Date() }).findings;
    assert.deepEqual([finding.verdict, finding.coverage_advisory],
      ['not_found', 'BGH is covered from 2004-06-23 to 2023-12-12 (exhaustively); no such decision is held.']);
  } finally {
    db.close();
    await mirror.close();
  }
});

test('second sync: two changed decisions and one new are the only items fetched; ids kept, search, graph and facets follow', async () => {
  const mirror = await new Mirror(fixtureSources()).start();
  const path = join(dir, `corpus-${++files}.db`);
  const db = openCorpus(path);
  const api = await startApi({ corpus: path });
  try {
    await sync(db, mirror);
    const [third, eighth] = [mirror.decisions[2], mirror.decisions[7]];
    // Decision 3 gets a new paragraph; decision 8 no longer cites VIII ZR 214/12 (the edge must go).
    third.xml = third.xml.replace('</tenor>', '<p>Die Zitronenfalterklausel bleibt unberührt.</p></tenor>')
      .replace('Art 14 Abs 1 GG</norm>', 'Art 14 Abs 1 GG, § 1004 BGB</norm>');
    third.modified = '2024-03-01T00:00:00Z';
    eighth.xml = eighth.xml.replaceAll('VIII ZR 214/12', 'VIII ZR 999/99');
    eighth.modified = '2024-03-01T00:00:00Z';
    const fiftieth = mirror.decisions[49];
    mirror.decisions.push({ ...fiftieth, doknr: 'JURA000000099', modified: '2024-03-02T00:00:00Z',
      xml: fiftieth.xml.replaceAll('JURA000000050', 'JURA000000099').replace(/<ecli>[^<]*<\/ecli>/u, '<ecli/>')
        .replace(/<aktenzeichen>[^<]*<\/aktenzeichen>/u, '<aktenzeichen>99 X 1/24</aktenzeichen>') });
    const citing = (id: string) => db.prepare(`SELECT count(*) AS n FROM citation_edges WHERE from_decision_id = ? AND to_decision_id = ?`)
      .pluck().get(id, fixtureId(3)) as number;
    assert.ok(citing(fixtureId(8)) > 0);
    const token = api.org({ plan: 'enterprise' }).token();
    const citing1004 = async () => (await api.call('GET', `/api/v1/corpus/facets/cited_norms?norm=${encodeURIComponent('§ 1004 BGB')}`,
      { token })).body.values['§ 1004 BGB'].value as number;
    const before1004 = await citing1004();
    mirror.requests.length = 0;
    mirror.served.length = 0;

    const summary = await sync(db, mirror);
    assert.deepEqual(summary.failed, []);
    assert.deepEqual(mirror.served.sort(), ['/gii-toc.xml', '/rii-toc.xml',
      decisionPath('JURA000000003'), decisionPath('JURA000000008'), decisionPath('JURA000000099')].sort());
    // Laws have no dates: each is asked for conditionally (304); of the decisions only the three changed are asked for.
    assert.equal(mirror.requests.length, 2 + 24 + 3);
    assert.equal(summary.sources.gii!.unchanged, 24);
    assert.deepEqual({ ...summary.sources.rii, exhaustive_courts: undefined }, { listed: 51, passed_over: 48, requested: 3,
      unchanged: 0, imported: 1, updated: 2, failed: 0, exhaustive_courts: undefined });
    assert.equal(citing(fixtureId(8)), 0, 'the edge of the old text is gone');
    assert.equal(db.prepare('SELECT count(*) FROM decisions').pluck().get(), 51);

    // The server opened before the sync sees the new text and the new decision without a restart.
    const found = await api.call('GET', '/api/v1/decisions/search?query=Zitronenfalterklausel&mode=keyword', { token });
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.results.map((r: { id: string }) => r.id), [fixtureId(3)], 'the same id, found by its new text');
    const added = await api.call('GET', `/api/v1/decisions/${encodeURIComponent('99 X 1/24')}`, { token });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const coverage = await api.call('GET', '/api/v1/corpus/coverage', { token });
    assert.equal(coverage.body.total_decisions.value, 51);
    assert.equal(await citing1004(), before1004 + 1, 'the facet counts the new Normenkette');
  } finally {
    await api.close();
    db.close();
    await mirror.close();
  }
});
