/**
 * A restart during extraction loses nothing: an upload still `uploaded` when the server stops is extracted again when
 * a server opens the same data directory; an upload that expired meanwhile is expired instead (file deleted), and
 * files no upload names (a crash mid-upload) are removed.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeServices, listen, openServices } from '../../src/server.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createOrganization } from '../../src/accounts/organizations.ts';
import { createToken } from '../../src/accounts/tokens.ts';
import type { Services } from '../../src/operations/operation.ts';
import { uploadsOf } from '../../src/uploads/service.ts';
import { getUpload, HOSTILE_WORKER, pollUntilExtracted, upload, type Target } from './client.ts';
import { filesLeftIn } from '../helpers/uploads-dir.ts';

const dir = mkdtempSync(join(tmpdir(), 'juralite-restart-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const LEGAL_TEXT = 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB; die Beklagte beantragt, die Klage abzuweisen.';

interface Running { api: Target; server: Server; services: Services }

/** A server on the data directory `dir` (its uploads live in dir/uploads), which stays when the server stops. */
async function start(config: Config): Promise<Running> {
  const services = openServices({ corpusPath: join(dir, 'corpus.db'), statePath: join(dir, 'state.db'), config });
  const { server, url } = await listen(services, '127.0.0.1', 0);
  return { api: { url, services }, server, services };
}

async function stop({ server, services }: Running): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  closeServices(services);
}

test('an upload left uploaded by a stopped server is extracted on the next start', async () => {
  // 1. A server whose worker hangs on this document: the upload is accepted and stays `uploaded`.
  const hanging = await start({ ...loadConfig({}), uploads: { ...loadConfig({}).uploads, workerScript: HOSTILE_WORKER, timeoutMs: 600_000 } });
  const { organization } = createOrganization(hanging.services.state, { name: 'Kanzlei', plan: 'enterprise' }, new Date());
  const token = ({ services } = hanging) => createToken(services.state, { organizationId: organization.id, abilities: ['citation-check'] }, new Date()).token;
  const accepted = await upload(hanging.api, token(), `${LEGAL_TEXT} WORKER-HANG`, 'klage.txt');
  assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
  assert.equal((await getUpload(hanging.api, token(), accepted.body.id)).body.status, 'uploaded');
  const uploads = uploadsOf(hanging.services).dir;
  // Meanwhile: an upload that will have expired by the next start, and a file left by a crash mid-upload.
  const expiredPath = join(uploads, 'upl_expired.text');
  writeFileSync(expiredPath, LEGAL_TEXT);
  hanging.services.state.prepare(`INSERT INTO uploads (id, organization_id, filename, format, status, stored_path, byte_size, created_at, expires_at)
    VALUES ('upl_expired', ?, 'alt.txt', 'text', 'uploaded', ?, 1, '2020-01-01T00:00:00.000Z', '2020-01-02T00:00:00.000Z')`)
    .run(organization.id, expiredPath);
  writeFileSync(join(uploads, 'upl_crashed.part'), 'half an upload');
  await stop(hanging);
  assert.equal(readdirSync(uploads).length, 3);

  // 2. The next start, with the real worker: the waiting upload is extracted, nothing else is kept.
  const restarted = await start(loadConfig({}));
  try {
    const read = await pollUntilExtracted(restarted.api, token(restarted), accepted.body.id);
    assert.equal(read.status, 'ready', JSON.stringify(read));
    assert.equal(read.char_count, Array.from(`${LEGAL_TEXT} WORKER-HANG`).length);
    assert.equal((await getUpload(restarted.api, token(restarted), 'upl_expired')).body.status, 'expired');
    assert.ok(!existsSync(expiredPath));
    assert.deepEqual(await filesLeftIn(uploads), []);
  } finally {
    await stop(restarted);
  }
});
