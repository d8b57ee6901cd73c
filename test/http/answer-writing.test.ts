/**
 * An operation's answer is written straight to Node's response on the server (src/http/responses.ts writeJson), and
 * as a web Response by app.fetch: the two are the same on the wire, byte for byte (status line, headers in the same
 * order, content-length, body), for an ordinary answer, one with a status of its own and one carrying Deprecation
 * and Sunset (a problem, written as before, beside them); the access log line of a written answer names its status.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeAnswer, writeJson } from '../../src/http/responses.ts';
import type { Config } from '../../src/config.ts';
import { startApi } from '../helpers/api.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { createApp } from '../../src/http/app.ts';
import { createAccessLog } from '../../src/observability/access-log.ts';
import { quietObservability, type Observability } from '../../src/observability/observability.ts';
import type { Services } from '../../src/operations/operation.ts';

/** The raw answer of one request on a connection of its own: status line and headers as sent, and the body. */
async function rawAnswer(url: string, path: string, authorization: string): Promise<{ head: string[]; body: Buffer }> {
  return (await rawAnswers(url, [path], authorization, () => 'same-id'))[0];
}

/**
 * The answers to `paths` sent pipelined, in one write on one connection (the last closing it): each answer's status
 * line and headers as sent, and its body.
 */
function rawAnswers(url: string, paths: string[], authorization: string, requestId: (index: number) => string) {
  const { hostname, port } = new URL(url);
  return new Promise<{ head: string[]; body: Buffer }[]>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk)).on('error', reject).on('end', () => {
      let rest = Buffer.concat(chunks);
      const answers: { head: string[]; body: Buffer }[] = [];
      while (rest.length) {
        const split = rest.indexOf('\r\n\r\n');
        const head = rest.subarray(0, split).toString('latin1').split('\r\n');
        const length = Number(/^content-length: (\d+)$/im.exec(head.join('\n'))![1]);
        answers.push({ head, body: rest.subarray(split + 4, split + 4 + length) });
        rest = rest.subarray(split + 4 + length);
      }
      resolve(answers);
    });
    socket.write(paths.map((path, index) => `GET ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: ${authorization}\r\n`
      + `X-Request-Id: ${requestId(index)}\r\n${index === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join(''));
  });
}

/** The same request through app.fetch, as the lines Node would send for its Response (srvx: headers, then content-length). */
async function fetchedAnswer(app: ReturnType<typeof createApp>, path: string, authorization: string) {
  const response = await app.fetch(new Request(`http://test${path}`, { headers: { authorization, 'x-request-id': 'same-id' } }));
  const body = Buffer.from(await response.arrayBuffer());
  return {
    head: [`HTTP/1.1 ${response.status} ${response.statusText}`, ...[...response.headers].map(([name, value]) => `${name}: ${value}`),
      `content-length: ${body.length}`],
    body,
  };
}

test('an answer written to the socket is the Response app.fetch gives, byte for byte, and is logged with its status', async () => {
  const deprecation = { deprecation: '@1798761600', sunset: 'Fri, 01 Jan 2027 00:00:00 GMT' };
  const operations = OPERATIONS.map((operation) => (operation.name === 'get_decision' ? { ...operation, deprecation }
    : operation.name === 'list_facets' ? { ...operation, status: 202 as const } : operation));
  const lines: string[] = [];
  const observability = (): Observability => ({ ...quietObservability(),
    log: createAccessLog({ level: 'info', format: 'json', destination: { write: (line: string) => { lines.push(line); } } }) });
  const api = await startApi({ corpus: 'demo', operations, observability });
  try {
    const app = createApp(api.services as Services, operations, quietObservability());
    const org = api.org();
    const paths = ['/api/v1/decisions/VIII%20ZR%20123%2F19', '/api/v1/decisions/search?query=Miete&mode=keyword',
      '/api/v1/corpus/facets/court_name', '/api/v1/decisions/nothing'];
    for (const path of paths) {
      // Each asked once before, so that both ask for a result already paid: credits_remaining is the same.
      const token = `Bearer ${org.token(['read', 'search'])}`;
      await rawAnswer(api.url, path, token);
      const written = await rawAnswer(api.url, path, token);
      const fetched = await fetchedAnswer(app, path, token);
      // Node adds Date and Connection after the answer's own headers.
      const own = written.head.filter((line) => !/^(date|connection|keep-alive):/i.test(line));
      assert.deepEqual(own, fetched.head, path);
      assert.ok(written.body.equals(fetched.body), path);
    }
    const logged = lines.map((line) => JSON.parse(line) as { path: string; status: number; request_id: string });
    assert.deepEqual(logged.map((entry) => entry.status), [200, 200, 200, 200, 202, 202, 404, 404]);
    assert.ok(logged.every((entry) => entry.request_id === 'same-id'));
    const [deprecated] = (await rawAnswer(api.url, paths[0], `Bearer ${org.token(['read'])}`)).head.filter((line) => line.startsWith('sunset'));
    assert.equal(deprecated, `sunset: ${deprecation.sunset}`);
  } finally {
    await api.close();
  }
});

test('a search answer on the wire: its head byte for byte, its content-length in UTF-8 bytes; pipelined answers keep their own bytes', async () => {
  const api = await startApi({ corpus: 'demo' });
  try {
    const token = `Bearer ${api.org().token(['search', 'read'])}`;
    const paths = ['Kündigung', 'Mangel', 'Schadensersatz'].map((query) => `/api/v1/decisions/search?${new URLSearchParams({ query, mode: 'keyword' })}`);
    // Each asked twice alone: the second answers are free, so they show the balance the pipelined repeats show.
    for (const path of paths) await rawAnswer(api.url, path, token);
    const alone = [];
    for (const path of paths) alone.push(await rawAnswer(api.url, path, token));
    const [first] = alone;
    const text = first.body.toString('utf8');
    assert.match(text, /[^\x00-\x7f]/u, 'the answer holds characters outside ASCII');
    assert.ok(first.body.length > text.length);
    assert.deepEqual(first.head.map((line) => line.replace(/^date: .*$/i, 'date: *')), [
      'HTTP/1.1 200 OK',
      'content-type: application/json; charset=utf-8',
      'x-request-id: same-id',
      `x-service-api-release: ${api.services.config.release}`,
      `content-length: ${first.body.length}`,
      'date: *',
      'Connection: close',
    ]);
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(JSON.parse(text))));
    // Pipelined, the second and third answers wait behind the first with their bytes: each keeps its own.
    const together = await rawAnswers(api.url, [...paths, paths[0]], token, (index) => `id-${index}`);
    assert.equal(together.length, 4);
    for (const [index, answer] of together.entries()) {
      const expected = alone[index % paths.length];
      assert.ok(answer.head.includes(`x-request-id: id-${index}`));
      assert.ok(answer.body.equals(expected.body), `answer ${index}`);
    }
  } finally {
    await api.close();
  }
});

test('a kept search answer asked again is its first answer\'s bytes with this call\'s credits', async () => {
  // The answer cache hands out the same frozen answer; its JSON is written from bytes kept beside it (responses.ts
  // writeAnswer), and each call's envelope (its credits) follows: stale credits or a wrong join would show here.
  const api = await startApi({ corpus: 'demo' });
  try {
    const org = api.org();
    const token = `Bearer ${org.token(['search'])}`;
    const [kept, other] = ['Kündigung', 'Mangel'].map((query) => `/api/v1/decisions/search?${new URLSearchParams({ query, mode: 'keyword' })}`);
    const first = await rawAnswer(api.url, kept, token);
    const text = first.body.toString('utf8');
    const answer = JSON.parse(text) as { results: unknown[]; credits: { cost: number; credits_remaining: number } };
    assert.ok(answer.results.length > 0);
    assert.equal(answer.credits.cost, 1);
    assert.equal(text, JSON.stringify(answer), 'the first answer is its envelope stringified');
    await rawAnswer(api.url, other, token);
    const again = await rawAnswer(api.url, kept, token);
    const credits = { metered: true, cost: 0, credits_remaining: answer.credits.credits_remaining - 1 };
    assert.equal(org.balance(), credits.credits_remaining);
    assert.equal(again.body.toString('utf8'), JSON.stringify({ ...answer, credits }));
    assert.ok(again.head.includes(`content-length: ${again.body.length}`));
  } finally {
    await api.close();
  }
});

test('a kept result without fields of its own is the envelope alone', async () => {
  const answer = { status: 200, result: Object.freeze({}), body: { api_version: 'r', changelog_url: 'c', credits: { metered: true, cost: 0, credits_remaining: 3 } } };
  const server: Server = createServer((_request, response) => { writeAnswer(response, { release: 'r', changelogUrl: 'c' } as Config, answer, {}); });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const { port } = server.address() as AddressInfo;
    for (let call = 0; call < 2; call++) {
      const { head, body } = await rawAnswer(`http://127.0.0.1:${port}`, '/', 'Bearer x');
      assert.equal(body.toString('utf8'), JSON.stringify(answer.body), `call ${call}`);
      assert.ok(head.includes(`content-length: ${body.length}`));
    }
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

test('connections that never read keep only their own answers\' bytes, not a reused buffer each', async () => {
  // Each answer is 2 KB; a reused encoding buffer kept by every waiting write held 768 KB each (about 1.4 GB here).
  const body = { data: 'x'.repeat(2000) };
  const server: Server = createServer((_request, response) => { writeJson(response, { release: 'r' } as Config, 200, body, {}); });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const before = process.memoryUsage().arrayBuffers;
  const sockets: Socket[] = [];
  try {
    await Promise.all(Array.from({ length: 50 }, () => new Promise<void>((done, fail) => {
      const socket = connect(port, '127.0.0.1').on('error', fail);
      socket.pause();
      sockets.push(socket);
      socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3000), () => done()));
    })));
    // Until the server has answered what the connections' buffers take.
    await new Promise((done) => setTimeout(done, 1500));
    const grown = (process.memoryUsage().arrayBuffers - before) / 1e6;
    assert.ok(grown < 300, `${grown.toFixed(0)} MB held by answers waiting to be read`);
  } finally {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});
