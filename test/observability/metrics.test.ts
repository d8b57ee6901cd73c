/**
 * The metrics' lifetime and the figures they read from a synced corpus.
 *
 * Guards: each server's metrics listen to the process's extractions only while the server is open (every
 * createMetrics added a listener that was never removed: src/server.ts removes it when the server closes); the sync
 * gauges give per source what a real `sync` recorded (they were only tested for being declared): a sync against a
 * local mirror, then `juralite serve --metrics on` on that corpus, scraped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi } from '../helpers/api.ts';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { startServeProcess } from '../helpers/serve-process.ts';
import { Mirror, fixtureSources } from '../sync/mirror.ts';
import { silentLog } from '../../src/observability/access-log.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { extractionListenerCount } from '../../src/uploads/service.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { syncCorpus } from '../../src/sync/run.ts';

test('closing a server removes its metrics\' extraction listener: after closing three, the count is back', async () => {
  const before = extractionListenerCount();
  const apis = [];
  for (let i = 0; i < 3; i++) {
    apis.push(await startApi({
      corpus: 'none',
      observability: (services) => ({ log: silentLog(), logQueries: false,
        metrics: createMetrics(services), metricsAt: 'api' }),
    }));
  }
  assert.equal(extractionListenerCount(), before + 3);
  for (const api of apis) await api.close();
  assert.equal(extractionListenerCount(), before);
});

test('the sync gauges of a served corpus give per source the items and the last import of a real sync', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-sync-metrics-'));
  const sources = fixtureSources(12);
  const mirror = await new Mirror(sources).start();
  try {
    const corpusPath = join(dir, 'corpus.db');
    const corpus = openCorpus(corpusPath);
    const started = Date.now();
    try {
      const summary = await syncCorpus(corpus, { sources: ['gii', 'rii'], baseUrl: mirror.url,
        fetcher: { pauseMs: 0, backoffMs: 10, retries: 2, timeoutMs: 5_000 } });
      assert.deepEqual(summary.failed, []);
    } finally {
      corpus.close();
    }
    const manifest = openCorpus(corpusPath, { readonly: true });
    const recorded = manifest.prepare('SELECT source, count(*) AS items, max(imported_at) AS last FROM sync_manifest GROUP BY source ORDER BY source')
      .all() as { source: string; items: number; last: string }[];
    manifest.close();
    assert.deepEqual(recorded.map((row) => [row.source, row.items]), [['gii', sources.laws.length], ['rii', 12]]);

    const server = await startServeProcess(['--db', corpusPath, '--data', join(dir, 'data'), '--metrics', 'on']);
    try {
      const response = await fetch(`${server.url}/metrics`);
      assert.equal(response.status, 200);
      const families = parsePrometheusText(await response.text());
      for (const row of recorded) {
        assert.equal(sampleValue(families, 'juralite_sync_items', { source: row.source }), row.items, row.source);
        const last = sampleValue(families, 'juralite_sync_last_import_timestamp_seconds', { source: row.source });
        assert.equal(last, Date.parse(row.last) / 1000, row.source);
        assert.ok(last * 1000 >= started - 1_000 && last * 1000 <= Date.now(), `${row.source}: ${new Date(last * 1000).toISOString()}`);
      }
      assert.deepEqual(families.get('juralite_sync_items')?.samples.map((sample) => sample.labels.source).sort(), ['gii', 'rii']);
    } finally {
      const closed = new Promise((resolve) => server.child.once('close', resolve));
      server.child.kill('SIGTERM');
      await closed;
    }
  } finally {
    await mirror.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
