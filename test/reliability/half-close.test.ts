/**
 * A client that half-closes its socket once the request is sent (shutdown(SHUT_WR), as `curl` over some proxies and
 * many scripted clients do) still reads its answer.
 *
 * Guards: src/server.ts sets Node's httpAllowHalfOpen; without it Node aborts the request on the client's FIN and ends
 * the socket, and an upload stored meanwhile (taking a quota place) was never answered.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startApi, type Api, type TestOrg } from '../helpers/api.ts';
import { uploadsOf } from '../../src/uploads/service.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';

let api: Api;
let org: TestOrg;
before(async () => {
  api = await startApi();
  org = api.org({ plan: 'starter' });
});
after(() => api.close());

/** Sends a whole request over a raw socket, half-closes it at once, and reads until the server closes. */
function halfClosed(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(api.url).port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => { answer += chunk; });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.end(request);
  });
}

const uploads = () => (api.services.state.prepare('SELECT count(*) AS n FROM uploads WHERE organization_id = ?').get(org.id) as { n: number }).n;

test('an upload whose client half-closes after the body is answered 202, and stored once', async () => {
  const boundary = 'halfclose';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="klage.txt"\r\nContent-Type: text/plain\r\n\r\n`
    + `${LEGAL_TEXT}\r\n--${boundary}--\r\n`;
  const answer = await halfClosed(`POST /api/v1/citation-check-documents HTTP/1.1\r\nHost: 127.0.0.1\r\n`
    + `Authorization: Bearer ${org.token(['citation-check'])}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  assert.match(answer, /^HTTP\/1\.1 202 /, `answered: ${JSON.stringify(answer.slice(0, 200))}`);
  const id = /"id":"(upl_[^"]+)"/.exec(answer)?.[1];
  assert.ok(id);
  assert.equal(uploads(), 1);
  await uploadsOf(api.services).settled();
});

test('a JSON call whose client half-closes is answered too', async () => {
  const body = JSON.stringify({ text: LEGAL_TEXT });
  const answer = await halfClosed(`POST /api/v1/citation-checks HTTP/1.1\r\nHost: 127.0.0.1\r\n`
    + `Authorization: Bearer ${org.token(['citation-check'])}\r\nContent-Type: application/json\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  assert.match(answer, /^HTTP\/1\.1 200 /, `answered: ${JSON.stringify(answer.slice(0, 200))}`);
});
