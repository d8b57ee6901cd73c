/**
 * Hostile uploads: generated malformed multipart bodies (boundaries, part headers, filenames with traversal, NUL,
 * RTL marks and lone surrogates, cut-off and garbage bodies) and DOCX files carrying XML entity bombs and external
 * entities.
 *
 * Guards: the streaming multipart receiver (src/uploads/receive.ts) answers 202 or a 422 on `file`, never anything
 * else, keeps no file of a refused upload and stores files only under generated names in the uploads directory
 * (cleanFilename: the client's name is shown back, never used as a path); the DOCX reader expands no entity and reads
 * no external resource (src/uploads/extract); the server keeps serving.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { startApi, type Api, type TestOrg } from '../helpers/api.ts';
import { docxEntries, zip } from '../helpers/documents.ts';
import { uploadsOf } from '../../src/uploads/service.ts';
import { waitingPaths } from '../../src/uploads/store.ts';
import { NASTY_STRINGS, SEED } from './helpers/nasty.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';
import { assertAnswer, assertServing, withLoggedErrors } from './helpers/problems.ts';

const DOCUMENTS = '/api/v1/citation-check-documents';
let api: Api;
let org: TestOrg;
let acceptedHere = 0;

before(async () => {
  api = await startApi();
  org = api.org();
});
after(() => api.close());

/** An organization with room in its upload quota (20 not consumed or expired): a new one every 15 accepted uploads. */
function uploader(): TestOrg {
  if (acceptedHere >= 15) {
    org = api.org();
    acceptedHere = 0;
  }
  return org;
}

async function post(body: Buffer, contentType: string): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(api.url + DOCUMENTS, {
    method: 'POST', body: new Uint8Array(body), headers: { authorization: `Bearer ${uploader().token(['citation-check'])}`, 'content-type': contentType },
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* kept */ }
  if (response.status === 202) acceptedHere++;
  return { status: response.status, headers: response.headers, body: parsed };
}

const CRLF = '\r\n';
const boundaries = fc.oneof(fc.constantFrom('b', 'x'.repeat(70), 'x'.repeat(200), '--', 'a b', '"quoted"', ''), fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 20 }));
const filenames = fc.oneof(
  fc.constantFrom('brief.txt', 'klage.docx', 'scan.pdf', '../../../../tmp/juralite-escape.txt', '..\\..\\escape.txt', '/etc/passwd', 'a\u0000b.txt',
    '\u202etxt.exe', 'e\u0301.md', '.', '..', '', ' ', `${'x'.repeat(400)}.txt`, 'CON', 'x.txt\r\nX-Injected: 1'),
  fc.constantFrom(...NASTY_STRINGS),
);
const headerLines = fc.oneof(
  fc.tuple(fc.constantFrom('file', 'File', '', 'file[]', 'files', 'f\u0000ile'), filenames).map(([name, filename]) =>
    `Content-Disposition: form-data; name="${name}"; filename="${filename}"`),
  filenames.map((filename) => `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(filename.replace(/[\ud800-\udfff]/g, '\ufffd'))}`),
  fc.constantFrom('Content-Disposition: form-data; name="file"', 'Content-Disposition: attachment', 'Content-Disposition:', 'Content-Type: text/plain',
    'Content-Type: application/pdf', 'Content-Transfer-Encoding: base64', `X-Long: ${'y'.repeat(9000)}`, 'no colon here'),
);
const payloads = fc.oneof(
  fc.constantFrom(LEGAL_TEXT, '', '%PDF-1.4\n%%EOF', 'PK\u0003\u0004', `${LEGAL_TEXT}\u0000\ud800\u202e`),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

/** A multipart body of a few parts, any of them malformed. */
const wildMultipart = fc.record({
  boundary: boundaries,
  declared: fc.oneof(fc.constant<string | null>(null), boundaries),
  parts: fc.array(fc.record({ headers: fc.array(headerLines, { minLength: 0, maxLength: 3 }), payload: payloads }), { minLength: 0, maxLength: 3 }),
  preamble: fc.constantFrom('', 'garbage before\r\n', '\r\n\r\n'),
  ending: fc.constantFrom('--\r\n', '--', '', '\r\n', 'garbage'),
  contentType: fc.constantFrom('multipart/form-data', 'multipart/form-data; charset=utf-8', 'multipart/mixed', 'text/plain', 'MULTIPART/FORM-DATA'),
}).map(({ boundary, declared, parts, preamble, ending, contentType }) => {
  const body = preamble + parts.map((part) => `--${boundary}${CRLF}${part.headers.join(CRLF)}${CRLF}${CRLF}${part.payload}${CRLF}`).join('')
    + `--${boundary}${ending}`;
  const type = declared === null ? `${contentType}; boundary=${boundary}` : `${contentType}; boundary="${declared}"`;
  return { body: Buffer.from(body, 'latin1'), type };
});

/** One well-formed file part with a hostile name and content, then at most one corruption of the whole body. */
const nearlyValidMultipart = fc.record({
  filename: filenames,
  payload: payloads,
  partType: fc.constantFrom('', 'Content-Type: text/plain\r\n', 'Content-Type: application/octet-stream\r\n', 'Content-Type: \u00ff\r\n'),
  corruption: fc.oneof(
    { weight: 3, arbitrary: fc.constant<[string, number]>(['none', 0]) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('truncate', 'no end', 'second file', 'field named file', 'no blank line', 'other boundary', 'garbage inside'), fc.nat()) },
  ),
}).map(({ filename, payload, partType, corruption: [kind, at] }) => {
  const boundary = '----juralite-test-boundary';
  const part = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n${partType}\r\n${payload}\r\n`;
  let body = `${part('file')}--${boundary}--\r\n`;
  if (kind === 'truncate') body = body.slice(0, at % body.length);
  if (kind === 'no end') body = part('file');
  if (kind === 'second file') body = `${part('file')}${part('file')}--${boundary}--\r\n`;
  if (kind === 'field named file') body = `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\n${payload}\r\n--${boundary}--\r\n`;
  if (kind === 'no blank line') body = body.replace('\r\n\r\n', '\r\n');
  if (kind === 'other boundary') body = body.replaceAll(boundary, 'another-boundary');
  if (kind === 'garbage inside') body = body.slice(0, at % body.length) + '\r\n--\r\n\u0000--' + body.slice(at % body.length);
  return { body: Buffer.from(body, 'latin1'), type: `multipart/form-data; boundary=${boundary}` };
});

const multipart = fc.oneof({ weight: 2, arbitrary: nearlyValidMultipart }, { weight: 1, arbitrary: wildMultipart });

test('generated malformed multipart bodies: 202 or 422 on file, no stray or escaped file, names shown back clean', async () => {
  const dir = uploadsOf(api.services).dir;
  const { logged } = await withLoggedErrors(() => fc.assert(fc.asyncProperty(multipart, async ({ body, type }) => {
    let reply;
    try {
      reply = await post(body, type);
    } catch (error) {
      // Header values fetch itself refuses (a byte outside Latin-1 in the boundary) never reach the server.
      if (error instanceof TypeError && /header|ByteString/i.test(String(error.cause ?? error.message))) return;
      throw error;
    }
    assertAnswer(reply, [422], `${type} ${body.toString('latin1').slice(0, 200)}`);
    if (reply.status === 422) assert.deepEqual(Object.keys(reply.body.errors), ['file']);
    if (reply.status === 202) {
      assert.equal(reply.body.status, 'uploaded');
      assert.doesNotMatch(reply.body.filename, /[\\/\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/, 'a clean name');
      assert.ok([...reply.body.filename].length <= 255);
    }
    // Only waiting uploads have files, all of them directly in the uploads directory (once the extractions running in
    // the background have recorded their outcome and deleted their file).
    await uploadsOf(api.services).settled();
    const waiting = waitingPaths(api.services.state);
    for (const name of readdirSync(dir)) assert.ok(waiting.has(join(dir, name)), `stray file ${name}`);
    for (const path of waiting) assert.equal(dirname(path), dir);
  }), { numRuns: 100, seed: SEED, endOnFailure: true }));
  assert.deepEqual(logged, []);
  assert.ok(!existsSync('/tmp/juralite-escape.txt') && !existsSync(join(dir, '..', 'escape.txt')), 'nothing written outside');
  await uploadsOf(api.services).settled();
  await assertServing(api, api.org());
});

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const BODY = (text: string) => `<w:document ${W}><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`;
const LAUGHS = '<!DOCTYPE lolz [<!ENTITY lol "lol">'
  + Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('') + ']>';

/** A DOCX whose document.xml (or another part) carries hostile XML. */
function hostileDocx(part: string, xml: string): Buffer {
  const entries = docxEntries({ paragraphs: [LEGAL_TEXT] });
  return zip(entries.map((entry) => (entry.name === part ? { ...entry, data: xml } : entry)));
}

test('DOCX with entity bombs and external entities: no entity is expanded, no file is read, the text is as written', async () => {
  const secret = '/etc/hostname';
  const cases: [string, string, string][] = [
    ['billion laughs', 'word/document.xml', `<?xml version="1.0"?>${LAUGHS}${BODY(`${LEGAL_TEXT} &lol9;`)}`],
    ['external entity', 'word/document.xml', `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file://${secret}">]>${BODY(`${LEGAL_TEXT} &xxe;`)}`],
    ['parameter entity', 'word/document.xml', `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY % p SYSTEM "file://${secret}"> %p;]>${BODY(LEGAL_TEXT)}`],
    ['quadratic blowup', 'word/document.xml', `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "${'x'.repeat(50_000)}">]>${BODY(`${LEGAL_TEXT} ${'&a;'.repeat(5_000)}`)}`],
    ['bomb in the content types', '[Content_Types].xml', `<?xml version="1.0"?>${LAUGHS}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">&lol9;</Types>`],
    ['external entity in the relationships', 'word/_rels/document.xml.rels', `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file://${secret}">]><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">&xxe;</Relationships>`],
  ];
  const hostname = existsSync(secret) ? readFileSync(secret, 'utf8').trim() : null;
  for (const [label, part, xml] of cases) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(hostileDocx(part, xml))]), `${label}.docx`);
    const owner = api.org();
    const response = await fetch(api.url + DOCUMENTS, { method: 'POST', body: form, headers: { authorization: `Bearer ${owner.token()}` } });
    assert.equal(response.status, 202, label);
    const { id } = (await response.json()) as { id: string };
    await uploadsOf(api.services).settled();
    const row = api.services.state.prepare('SELECT status, text, char_count FROM uploads WHERE id = ?').get(id) as { status: string; text: string | null; char_count: number | null };
    assert.ok(['ready', 'failed'].includes(row.status), `${label}: ${row.status}`);
    const text = row.text ?? '';
    assert.ok(!text.includes('lollol'), `${label}: an entity was expanded`);
    assert.ok(!text.includes('x'.repeat(1000)), `${label}: an entity was expanded`);
    if (hostname) assert.ok(!text.includes(hostname), `${label}: an external file was read`);
    if (row.status === 'ready') assert.ok((row.char_count ?? 0) < 25_000, label);
  }
  await assertServing(api, api.org());
});
