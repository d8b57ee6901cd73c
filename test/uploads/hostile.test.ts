/**
 * Robustness of the extraction pool over HTTP: a worker process that exits or hangs on a document fails that upload
 * as unreadable, one that runs out of memory as resource_limit, and the next upload is extracted by a fresh process.
 * The hostile behaviour comes from a test worker (test/uploads/hostile-worker.ts) named in the configuration, as an executable
 * names its bundled worker.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api, type TestOrg } from '../helpers/api.ts';
import { loadConfig } from '../../src/config.ts';
import { uploadsOf } from '../../src/uploads/service.ts';
import { getUpload, HOSTILE_WORKER, pollUntilExtracted, upload } from './client.ts';
const LEGAL_TEXT = 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB; die Beklagte beantragt, die Klage abzuweisen.';

let api: Api;
let org: TestOrg;

before(async () => {
  api = await startApi({
    corpus: 'none',
    // One process, so that the upload after a crash must be served by a new one; a hang is cut after 3 s
    // (long enough for a fresh process to start on a busy machine).
    config: { uploads: { ...loadConfig({}).uploads, workerScript: HOSTILE_WORKER, workers: 1, timeoutMs: 3000, workerMemoryMb: 96 } },
  });
  org = api.org();
});
after(() => api.close());

async function extracted(text: string): Promise<any> {
  const accepted = await upload(api, org.token(['citation-check']), text, 'klage.txt');
  assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
  return pollUntilExtracted(api, org.token(['citation-check']), accepted.body.id);
}

// Memory: the watchdog ends the process at 96 MB resident, before the 96 MB heap can fill (resource_limit).
for (const [marker, what, code] of [['WORKER-EXIT', 'exits', 'unreadable'], ['WORKER-HANG', 'hangs past the time limit', 'unreadable'],
  ['WORKER-OOM', 'runs out of memory', 'resource_limit']]) {
  test(`a worker that ${what} fails that upload as ${code}; the pool recovers`, async () => {
    const hostile = await extracted(`${LEGAL_TEXT} ${marker}`);
    assert.equal(hostile.status, 'failed');
    assert.equal(hostile.error_code, code);
    const next = await extracted(LEGAL_TEXT);
    assert.equal(next.status, 'ready', JSON.stringify(next));
  });
}

test('hostile and good uploads at once: each gets its own outcome', async () => {
  const results = await Promise.all([`${LEGAL_TEXT} WORKER-EXIT`, LEGAL_TEXT, `${LEGAL_TEXT} WORKER-HANG`, LEGAL_TEXT].map(extracted));
  assert.deepEqual(results.map((result) => result.status), ['failed', 'ready', 'failed', 'ready']);
});

test('organizations take turns: one organization\'s queue of slow files holds another\'s upload back one task at most', async () => {
  const slow = api.org();
  const other = api.org();
  const status = async (owner: TestOrg, id: string) => (await getUpload(api, owner.token(['citation-check']), id)).body.status;
  const queued = [];
  for (let i = 0; i < 3; i++) queued.push((await upload(api, slow.token(['citation-check']), `${LEGAL_TEXT} WORKER-HANG ${i}`, 'langsam.txt')).body.id);
  const quick = (await upload(api, other.token(['citation-check']), LEGAL_TEXT, 'klage.txt')).body.id;
  // One process, each hanging file cut after 3 s: in arrival order the quick upload would wait for all three.
  while (await status(other, quick) === 'uploaded') await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(await status(other, quick), 'ready');
  assert.equal(await status(slow, queued[2]), 'uploaded', 'the last slow file is still waiting');
  await uploadsOf(api.services).settled();
  for (const id of queued) assert.equal(await status(slow, id), 'failed');
});
