/**
 * A mirror that misbehaves: 429 with Retry-After, 500, an answer too slow, a connection cut mid-body, a truncated
 * zip served whole, an item that keeps failing, and tables of contents of another format. What fails is named, is
 * written not at all, and comes in on the next run.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openCorpus } from '../../src/corpus/open.ts';
import { syncCorpus, type SyncOptions } from '../../src/sync/run.ts';
import { Mirror, decisionPath, fixtureSources } from './mirror.ts';

const dir = mkdtempSync(join(tmpdir(), 'juralite-sync-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const LOCAL = { pauseMs: 0, backoffMs: 10, retries: 2, timeoutMs: 1_000 };

async function withMirror(count: number, work: (mirror: Mirror, options: SyncOptions) => Promise<void>): Promise<void> {
  const mirror = await new Mirror({ ...fixtureSources(count), laws: fixtureSources(0).laws.slice(0, 2) }).start();
  try {
    await work(mirror, { sources: ['gii', 'rii'], baseUrl: mirror.url, fetcher: LOCAL });
  } finally {
    await mirror.close();
  }
}

const count = (path: string, requests: string[]) => requests.filter((request) => request === path).length;

test('429 (Retry-After honoured), 500, a slow answer and a cut connection are retried; the items come in', async () => {
  await withMirror(6, async (mirror, options) => {
    mirror.misbehaving.set(decisionPath('JURA000000001'), { kind: 'status', status: 429, retryAfter: '1', times: 1 });
    mirror.misbehaving.set(decisionPath('JURA000000002'), { kind: 'status', status: 503, times: 2 });
    mirror.misbehaving.set(decisionPath('JURA000000003'), { kind: 'slow', ms: 60_000, times: 1 });
    mirror.misbehaving.set(decisionPath('JURA000000004'), { kind: 'truncate', times: 1 });
    const db = openCorpus(join(dir, `corpus-${++files}.db`));
    try {
      const started = Date.now();
      // Patient enough for a loaded machine; the slow answer (a minute) still times out.
      const summary = await syncCorpus(db, { ...options, fetcher: { ...LOCAL, timeoutMs: 5_000, retries: 3 } });
      assert.deepEqual(summary.failed, []);
      assert.equal(summary.sources.rii!.imported, 6);
      assert.ok(Date.now() - started >= 1_000, 'Retry-After: 1 was waited for (the backoff alone is 10 ms)');
      assert.equal(count(decisionPath('JURA000000001'), mirror.requests), 2);
      assert.equal(count(decisionPath('JURA000000002'), mirror.requests), 3);
      assert.equal(count(decisionPath('JURA000000003'), mirror.requests), 2);
      assert.equal(count(decisionPath('JURA000000004'), mirror.requests), 2);
      assert.equal(db.prepare('SELECT count(*) FROM decisions').pluck().get(), 6);
    } finally {
      db.close();
    }
  });
});

test('an item failing after every retry, and a truncated zip served whole, are named and written not at all; the next run takes them', async () => {
  await withMirror(4, async (mirror, options) => {
    mirror.misbehaving.set(decisionPath('JURA000000002'), { kind: 'status', status: 500, times: 3 });
    const zip = mirror.body(decisionPath('JURA000000003'))!;
    mirror.misbehaving.set(decisionPath('JURA000000003'), { kind: 'body', body: zip.subarray(0, zip.length - 30), times: 1 });
    const db = openCorpus(join(dir, `corpus-${++files}.db`));
    try {
      const first = await syncCorpus(db, options);
      assert.deepEqual(first.failed.map((f) => f.item.replace(/.*\//u, '')), ['jb-JURA000000002.zip', 'jb-JURA000000003.zip']);
      assert.match(first.failed[0].reason, /HTTP 500/);
      assert.match(first.failed[1].reason, /jb-JURA000000003\.zip: .*(zip|central directory)/);
      assert.equal(first.sources.rii!.failed, 2);
      const held = () => db.prepare('SELECT doknr FROM decisions ORDER BY doknr').pluck().all();
      assert.deepEqual(held(), ['JURA000000001', 'JURA000000004']);
      assert.equal(db.prepare(`SELECT count(*) FROM sync_manifest WHERE source = 'rii'`).pluck().get(), 2);
      assert.equal(db.prepare(`SELECT count(*) FROM coverage_ranges`).pluck().get(), 0, 'an incomplete run claims no exhaustive coverage');

      mirror.requests.length = 0;
      const second = await syncCorpus(db, options);
      assert.deepEqual(second.failed, []);
      assert.deepEqual(mirror.requests.filter((path) => path.includes('jb-')), [decisionPath('JURA000000002'), decisionPath('JURA000000003')]);
      assert.deepEqual(held(), ['JURA000000001', 'JURA000000002', 'JURA000000003', 'JURA000000004']);
      assert.ok((db.prepare(`SELECT count(*) FROM coverage_ranges WHERE exhaustive = 1`).pluck().get() as number) > 0);
    } finally {
      db.close();
    }
  });
});

test('a table of contents of another format is refused whole, naming what changed; nothing of the source is imported', async () => {
  await withMirror(3, async (mirror, options) => {
    const db = openCorpus(join(dir, `corpus-${++files}.db`));
    try {
      mirror.misbehaving.set('/rii-toc.xml', { kind: 'body', times: 1,
        body: '<?xml version="1.0"?><dokumente><dokument><link>x</link></dokument></dokumente>' });
      const renamed = await syncCorpus(db, options);
      assert.equal(renamed.failed.length, 1);
      assert.equal(renamed.failed[0].item, 'https://www.rechtsprechung-im-internet.de/rii-toc.xml');
      assert.match(renamed.failed[0].reason, /rii-toc\.xml has the root <dokumente>, not <items>: its format has changed; nothing was imported/);
      assert.equal(renamed.sources.gii!.imported, 2, 'the other source still ran');

      mirror.misbehaving.set('/rii-toc.xml', { kind: 'body', times: 1, body: mirror.riiToc().replace(/<modified>[^<]*<\/modified>/gu,
        (stamp, at: number) => (at > 400 ? '<geaendert>2024-05-01</geaendert>' : stamp)) });
      const restamped = await syncCorpus(db, options);
      assert.match(restamped.failed[0].reason,
        /^rii-toc\.xml item 2 \(LG München I 27\. Zivilkammer, 27 O 1234\/05\): no readable <modified> stamp \(none\); has its format changed\? Nothing was imported$/);
      assert.equal(db.prepare('SELECT count(*) FROM decisions').pluck().get(), 0);
      assert.equal(count('/jportal/docs/bsjrs/jb-JURA000000001.zip', mirror.requests), 0, 'no item was fetched');
    } finally {
      db.close();
    }
  });
});

test('--dry-run fetches the tables only and writes nothing; --only and --limit narrow a run', async () => {
  await withMirror(6, async (mirror, options) => {
    const db = openCorpus(join(dir, `corpus-${++files}.db`));
    try {
      const dry = await syncCorpus(db, { ...options, dryRun: true });
      assert.deepEqual(mirror.requests, ['/gii-toc.xml', '/rii-toc.xml']);
      assert.equal(dry.sources.rii!.would_request, 6);
      assert.equal(db.prepare('SELECT count(*) FROM sync_manifest').pluck().get(), 0);
      const only = await syncCorpus(db, { ...options, sources: ['rii'], only: 'BGH' });
      assert.deepEqual(db.prepare('SELECT DISTINCT court FROM decisions').pluck().all(), ['BGH']);
      assert.equal(only.sources.rii!.imported, 4);
      const limited = await syncCorpus(db, { ...options, sources: ['rii'], limit: 2 });
      assert.equal(limited.sources.rii!.requested, 2);
      assert.equal(db.prepare('SELECT count(*) FROM decisions').pluck().get(), 6);
    } finally {
      db.close();
    }
  });
});

test('oldp: a dump by URL is downloaded to a file and imported, then asked for conditionally; a cut download is retried', async () => {
  await withMirror(0, async (mirror, options) => {
    const record = (n: number) => JSON.stringify({ court: { name: 'Bundesgerichtshof' }, file_number: `VI ZR ${n}/20`, date: '2020-05-05',
      type: 'Urteil', content: `<h2>Tenor</h2><p>Die Revision Nr. ${n} wird zurückgewiesen.</p>` });
    mirror.files.set('/dumps/cases.jsonl.gz', gzipSync(`${record(1)}\n${record(2)}\n`));
    mirror.misbehaving.set('/dumps/cases.jsonl.gz', { kind: 'truncate', times: 1 });
    const db = openCorpus(join(dir, `corpus-${++files}.db`));
    try {
      const dump = `${mirror.url}/dumps/cases.jsonl.gz`;
      const first = await syncCorpus(db, { ...options, sources: ['oldp'], dumps: [dump] });
      assert.deepEqual(first.failed, []);
      assert.equal(first.sources.oldp!.imported, 1);
      assert.equal(count('/dumps/cases.jsonl.gz', mirror.requests), 2, 'the cut download was tried again');
      assert.equal(db.prepare('SELECT count(*) FROM decisions').pluck().get(), 2);
      const again = await syncCorpus(db, { ...options, sources: ['oldp'], dumps: [dump] });
      assert.equal(again.sources.oldp!.unchanged, 1);
      assert.equal(mirror.served.filter((path) => path.startsWith('/dumps/')).length, 2, 'the second run got a 304');
      const none = await syncCorpus(db, { ...options, sources: ['oldp'] });
      assert.match(none.failed[0].reason, /needs the dumps to read/);
    } finally {
      db.close();
    }
  });
});
