/**
 * POST /citation-check-documents (3) and GET /citation-check-documents/{document} (4) over HTTP on the demo corpus:
 * real PDF and DOCX files upload, extract in the worker pool and are checked with document_id (offsets into the
 * extracted text); every refusal is a 422 on `file` with nothing left on disk; extraction failures; the quota;
 * another organization's upload; expiry; and POST /citation-checks with a document_id in each state.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { startApi, type Api, type Reply, type TestOrg } from '../helpers/api.ts';
import { docx, docxEntries, pdf, zip } from '../helpers/documents.ts';
import { BRIEF, BRIEF_TEXT } from '../uploads/brief.ts';
import { uploadsOf } from '../../src/uploads/service.ts';
import { DOCUMENTS, getUpload, pollUntilExtracted, postRaw, storedFiles, storedUpload, upload } from '../uploads/client.ts';

const CHECKS = '/api/v1/citation-checks';
let api: Api;
let rich: TestOrg;

before(async () => {
  api = await startApi({ corpus: 'demo' });
  rich = api.org({ plan: 'enterprise' });
});
after(() => api.close());

/** Uploads and checks take a heavy rate slot (10 a minute per token): every call gets a fresh token. */
const token = (org = rich) => org.token(['citation-check']);
const check = (body: unknown, org = rich) => api.call('POST', CHECKS, { token: token(org), body });

function assertProblem(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(reply.body.code, code);
}

/** A 422 naming `argument`, whose message matches `pattern`. */
function assertRefused(reply: Reply, argument: string, pattern: RegExp): void {
  assertProblem(reply, 422, 'validation_failed');
  assert.deepEqual(Object.keys(reply.body.errors), [argument], JSON.stringify(reply.body));
  assert.match(reply.body.errors[argument].join(' '), pattern);
}

/** Uploads a document and waits for its extraction: the upload as then read. */
async function uploaded(data: Buffer | string, filename: string, org = rich): Promise<any> {
  const accepted = await upload(api, token(org), data, filename);
  assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
  return pollUntilExtracted(api, token(org), accepted.body.id);
}

const cut = (text: string, start: number, end: number) => Array.from(text).slice(start, end).join('');
const codePoints = (text: string) => Array.from(text).length;

const UPLOAD_FIELDS = ['id', 'filename', 'format', 'status', 'char_count', 'page_count', 'pages_without_text_layer',
  'check_max_chars', 'quoted_credits', 'error_code', 'expires_at', 'created_at', 'api_version', 'changelog_url', 'credits'];

const LEGAL_TEXT = 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB; die Beklagte beantragt, die Klage abzuweisen.';

// --- The way through: upload, poll, check ------------------------------------------------------------------------

test('a DOCX with footnotes and endnotes: 202 uploaded, then ready, then checked with document_id and consumed', async () => {
  const before = rich.balance();
  const accepted = await upload(api, token(), docx(BRIEF), 'Klageschrift.docx');
  assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
  for (const field of UPLOAD_FIELDS) assert.ok(Object.hasOwn(accepted.body, field), field);
  assert.match(accepted.body.id, /^upl_[0-9a-f-]{36}$/);
  assert.equal(accepted.body.status, 'uploaded');
  assert.equal(accepted.body.filename, 'Klageschrift.docx');
  assert.equal(accepted.body.format, 'docx');
  assert.equal(accepted.body.char_count, null);
  assert.equal(accepted.body.quoted_credits, null);
  assert.equal(accepted.body.check_max_chars, 20000);
  assert.deepEqual(accepted.body.credits, { metered: true, cost: 0, credits_remaining: before });
  assert.equal(Date.parse(accepted.body.expires_at) - Date.parse(accepted.body.created_at), 24 * 3600 * 1000);

  const ready = await pollUntilExtracted(api, token(), accepted.body.id);
  assert.equal(ready.status, 'ready');
  assert.equal(ready.char_count, codePoints(BRIEF_TEXT));
  assert.equal(ready.quoted_credits, 2);
  assert.equal(ready.error_code, null);
  assert.ok(!('text' in ready), 'the extracted text is never served');
  // Reading order: each paragraph followed by its footnotes, endnotes last; the stored file is gone once extracted.
  assert.equal(storedUpload(api, ready.id)!.text, BRIEF_TEXT);
  assert.equal(storedUpload(api, ready.id)!.stored_path, null);

  const run = await check({ document_id: ready.id });
  assert.equal(run.status, 200, JSON.stringify(run.body));
  assert.equal(run.body.credits.cost, ready.quoted_credits);
  assert.equal(rich.balance(), before - ready.quoted_credits);
  // Offsets are code points into the extracted text, footnotes and endnotes included.
  for (const finding of run.body.findings) assert.equal(cut(BRIEF_TEXT, finding.start_offset, finding.end_offset), finding.raw_text);
  const verdicts = run.body.findings.map((finding: any) => [finding.canonical, finding.verdict]);
  assert.deepEqual(verdicts.filter(([canonical]: string[]) => canonical === '§ 823 Abs. 1 BGB').length, 2);
  const inFootnote = run.body.findings.find((finding: any) => finding.raw_text.includes('14. Mai 2019'));
  assert.equal(inFootnote.verdict, 'verified', JSON.stringify(inFootnote));
  assert.equal(inFootnote.start_offset, BRIEF_TEXT.indexOf('BGH, Urteil vom 14. Mai'));

  // Consumed: read back as such, and a second check is refused.
  assert.equal((await getUpload(api, token(), ready.id)).body.status, 'consumed');
  assert.equal(storedUpload(api, ready.id)!.text, null);
  assertRefused(await check({ document_id: ready.id }), 'document_id', /already consumed/);
});

test('a PDF over several pages with an image-only page: ready with page counts; checked with offsets into its text', async () => {
  const pages = [
    ['Die Klägerin verlangt Schadensersatz aus § 823 Abs. 1 BGB.', 'Die Beklagte beantragt, die Klage abzuweisen.'],
    null,
    ['Vgl. BGH, Urteil vom 14. Mai 2019 - VI ZR 496/18, Rn. 8.'],
    ['Die Revision wird nicht zugelassen.'],
  ];
  const ready = await uploaded(pdf(pages), 'Schriftsatz_Müller_§ 823.pdf');
  assert.equal(ready.status, 'ready', JSON.stringify(ready));
  assert.equal(ready.format, 'pdf');
  assert.equal(ready.filename, 'Schriftsatz_Müller_§ 823.pdf');
  assert.equal(ready.page_count, 4);
  assert.equal(ready.pages_without_text_layer, 1);
  const text = storedUpload(api, ready.id)!.text!;
  assert.equal(ready.char_count, codePoints(text));
  const run = await check({ document_id: ready.id });
  assert.equal(run.status, 200, JSON.stringify(run.body));
  const found = run.body.findings.map((finding: any) => cut(text, finding.start_offset, finding.end_offset));
  assert.deepEqual(found, run.body.findings.map((finding: any) => finding.raw_text));
  assert.ok(found.includes('§ 823 Abs. 1 BGB') && found.some((raw: string) => raw.includes('VI ZR 496/18')), JSON.stringify(found));
});

test('a scanned PDF (no text layer on any page) fails with no_text; a check with it is refused', async () => {
  const failed = await uploaded(pdf([null, null, null]), 'scan.pdf');
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error_code, 'no_text');
  assert.equal(failed.page_count, 3);
  assert.equal(failed.pages_without_text_layer, 3);
  assert.equal(failed.char_count, null);
  assert.equal(failed.quoted_credits, null);
  assert.match(failed.error_detail, /text layer/);
  assertRefused(await check({ document_id: failed.id }), 'document_id', /extraction failed \(no_text\)/);
});

test('Markdown and a windows-1252 text file: decoded and ready', async () => {
  const markdown = await uploaded(`# Klageschrift\n\n${LEGAL_TEXT}\n`, 'klage.md');
  assert.equal(markdown.format, 'markdown');
  assert.equal(storedUpload(api, markdown.id)!.text, `# Klageschrift\n\n${LEGAL_TEXT}\n`);
  const legacy = await uploaded(Buffer.from(LEGAL_TEXT.replace('§', '\u00a7'), 'latin1'), 'klage.txt');
  assert.equal(legacy.format, 'text');
  assert.equal(storedUpload(api, legacy.id)!.text, LEGAL_TEXT);
});

test('a text above 20,000 characters fails with too_long and says how long it is; exactly 20,000 is ready at 5 credits', async () => {
  const sentence = `${LEGAL_TEXT} `;
  const long = sentence.repeat(Math.ceil(20_001 / sentence.length)).slice(0, 20_001);
  const tooLong = await uploaded(long, 'lang.txt');
  assert.equal(tooLong.status, 'failed');
  assert.equal(tooLong.error_code, 'too_long');
  assert.equal(tooLong.char_count, 20_001);
  assert.match(tooLong.error_detail, /20001 characters.*at most 20000/);
  assertRefused(await check({ document_id: tooLong.id }), 'document_id', /longer than a check takes; send the part to check as text/);
  const atCap = await uploaded(long.slice(0, 20_000), 'genau.txt');
  assert.equal(atCap.status, 'ready');
  assert.equal(atCap.quoted_credits, 5);
});

test('corrupt and password-protected files fail with unreadable and encrypted', async () => {
  const corruptPdf = await uploaded(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 0x5a)]), 'kaputt.pdf');
  assert.deepEqual([corruptPdf.status, corruptPdf.error_code], ['failed', 'unreadable']);
  const truncatedDocx = await uploaded(docx(BRIEF).subarray(0, 400), 'abgeschnitten.docx');
  assert.deepEqual([truncatedDocx.status, truncatedDocx.error_code], ['failed', 'unreadable']);
  const encrypted = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504),
    Buffer.from('EncryptionInfo', 'utf16le'), Buffer.alloc(2048)]);
  const locked = await uploaded(encrypted, 'geschuetzt.docx');
  assert.deepEqual([locked.status, locked.error_code], ['failed', 'encrypted']);
});

test('five uploads at once are all extracted', async () => {
  const replies = await Promise.all(Array.from({ length: 5 }, (_, index) =>
    upload(api, token(), docx({ paragraphs: [`${LEGAL_TEXT} (${index})`] }), `parallel-${index}.docx`)));
  for (const reply of replies) assert.equal(reply.status, 202, JSON.stringify(reply.body));
  const read = await Promise.all(replies.map((reply) => pollUntilExtracted(api, token(), reply.body.id)));
  assert.deepEqual(read.map((upload) => upload.status), Array(5).fill('ready'));
  assert.equal(new Set(read.map((upload) => upload.id)).size, 5);
});

// --- Refusals at upload: 422 on `file`, nothing stored -----------------------------------------------------------

function uploadRows(): number {
  return (api.services.state.prepare('SELECT count(*) AS n FROM uploads').get() as { n: number }).n;
}

const partialFiles = () => storedFiles(api).filter((name) => name.endsWith('.part'));

/** The refusal leaves neither a file nor a row behind. */
async function assertRefusedUnstored(send: () => Promise<Reply>, pattern: RegExp): Promise<void> {
  const rows = uploadRows();
  const files = new Set(storedFiles(api));
  const reply = await send();
  assertRefused(reply, 'file', pattern);
  assert.equal(uploadRows(), rows);
  // No file added (files of uploads still extracting may have gone meanwhile).
  assert.deepEqual(storedFiles(api).filter((name) => !files.has(name)), []);
}

test('25 MB + 1 byte is refused while streaming; exactly 25 MB is accepted', async () => {
  const limit = 25 * 1000 * 1000;
  await assertRefusedUnstored(() => upload(api, token(), Buffer.alloc(limit + 1, 0x61), 'gross.txt'), /at most 25 MB \(25,000,000 bytes\)/);
  const exact = await upload(api, token(), Buffer.alloc(limit, 0x61), 'genau-25-mb.txt');
  assert.equal(exact.status, 202, JSON.stringify(exact.body));
  const read = await pollUntilExtracted(api, token(), exact.body.id);
  assert.equal(read.error_code, 'too_long');
});

test('a body declaring far more than 25 MB is refused before it is read', async () => {
  const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = httpRequest(`${api.url}${DOCUMENTS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'multipart/form-data; boundary=b', 'content-length': 30_000_000 },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) });
      });
    });
    request.on('error', reject);
    // Only the first bytes are ever sent: the answer must come without the rest.
    request.write('--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n');
  });
  assert.equal(answer.status, 422);
  assert.match(answer.body.errors.file.join(' '), /at most 25 MB/);
});

/** A multipart upload request of text sent in chunks without a content-length; the caller writes the file. */
function chunkedUpload(onAnswer: (answer: { status?: number; body?: any }) => void) {
  const request = httpRequest(`${api.url}${DOCUMENTS}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token()}`, 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked' },
  }, (response) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => {
      request.destroy();
      onAnswer({ status: response.statusCode, body: JSON.parse(Buffer.concat(chunks).toString()) });
    });
  });
  request.on('error', () => onAnswer({}));
  request.write('--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n');
  return request;
}

/** Sends `megabytes` MB in the file part, then the closing boundary; the answer. */
function sendChunked(megabytes: number): Promise<{ status?: number; body?: any }> {
  return new Promise((resolve) => {
    const request = chunkedUpload(resolve);
    const megabyte = Buffer.alloc(1_000_000, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent++ < megabytes) if (!request.write(megabyte)) return void request.once('drain', pump);
      request.end('\r\n--b--\r\n');
    };
    pump();
  });
}

/** Waits (a bounded number of short turns, never a fixed time) until `done` holds. */
async function eventually(done: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 500 && !done(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(done(), what);
}

test('a chunked body past 25 MB is cut off while streaming: 422, the partial file deleted', async () => {
  const rows = uploadRows();
  const answer = await sendChunked(40);
  assert.equal(answer.status, 422, JSON.stringify(answer));
  assert.match(answer.body.errors.file.join(' '), /at most 25 MB/);
  assert.equal(uploadRows(), rows);
  assert.deepEqual(partialFiles(), []);
});

test('a client that disconnects mid-upload leaves nothing behind', async () => {
  const rows = uploadRows();
  const request = chunkedUpload(() => undefined);
  request.write(Buffer.alloc(2_000_000, 0x61));
  await eventually(() => partialFiles().length === 1, 'the server streams the file part to disk');
  request.destroy();
  await eventually(() => partialFiles().length === 0, 'the partial file is deleted once the client is gone');
  assert.equal(uploadRows(), rows);
});

test('a wrong field name is refused, naming the field that came', async () => {
  await assertRefusedUnstored(() => upload(api, token(), LEGAL_TEXT, 'klage.txt', 'document'), /field "file".*"document"/);
  const unnamed = `--b\r\nContent-Disposition: form-data; filename="a.txt"\r\n\r\n${LEGAL_TEXT}\r\n--b--\r\n`;
  await assertRefusedUnstored(() => postRaw(api, token(), unnamed, 'multipart/form-data; boundary=b'), /field "file".*a part without a name/);
});

test('no multipart body, a missing boundary, a malformed or cut-off body: 422 on file', async () => {
  const send = (body: string, type: string) => () => postRaw(api, token(), body, type);
  await assertRefusedUnstored(send(JSON.stringify({ file: 'x' }), 'application/json'), /multipart\/form-data/);
  await assertRefusedUnstored(send('--x\r\n', 'multipart/form-data'), /multipart\/form-data/);
  await assertRefusedUnstored(send('--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nDie Klägerin',
    'multipart/form-data; boundary=b'), /malformed or was cut off/);
  await assertRefusedUnstored(send('no boundary anywhere', 'multipart/form-data; boundary=b'), /malformed|field "file"/);
  await assertRefusedUnstored(send('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\ntext\r\n--b--\r\n',
    'multipart/form-data; boundary=b'), /file part/);
  const twice = `--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n${LEGAL_TEXT}\r\n`.repeat(2) + '--b--\r\n';
  await assertRefusedUnstored(send(twice, 'multipart/form-data; boundary=b'), /once/);
});

test('unsupported formats are refused by their content and extension', async () => {
  const cases: [string, Buffer | string, RegExp][] = [
    ['bild.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), /PNG image/],
    ['bild.pdf', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), /JPEG image/],
    ['alt.doc', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]), /legacy Office file \(\.doc\)/],
    ['seite.html', `<html><body>${LEGAL_TEXT}</body></html>`, /extension \.html/],
    // Text named as a binary format: the content is the problem, not the (supported) extension.
    ['fake.pdf', LEGAL_TEXT, /named \.pdf but its content is not a PDF file/],
    ['daten.bin', Buffer.from([1, 2, 0, 3, 4]), /binary file/],
    ['tabelle.xlsx', zip([{ name: 'xl/workbook.xml', data: '<workbook/>' }]), /not a Word document/],
    ['leer.txt', '', /is empty/],
    // UTF-32 (its little-endian mark begins as UTF-16's): refused, not read as UTF-16 with NULs between the letters.
    ['utf32.txt', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from(new Uint32Array([...LEGAL_TEXT].map((c) => c.codePointAt(0)!)).buffer)]),
      /UTF-32, which is not supported/],
  ];
  for (const [filename, data, pattern] of cases) await assertRefusedUnstored(() => upload(api, token(), data, filename), pattern);
});

test('a zip bomb disguised as DOCX is refused by the uncompressed size its directory declares', async () => {
  // Real deflate of 120 MB of spaces (about 120 KB on the wire), declared honestly in the headers.
  const entries = docxEntries(BRIEF).map((entry) => entry.name === 'word/document.xml'
    ? { ...entry, data: Buffer.concat([Buffer.from(String(entry.data)), Buffer.alloc(120_000_000, 0x20)]) }
    : entry);
  await assertRefusedUnstored(() => upload(api, token(), zip(entries), 'harmlos.docx'), /declares 120 MB uncompressed.*zip bomb/);
  // A member past 4 GB needs ZIP64 sizes: no document does.
  const huge = docxEntries(BRIEF).map((entry) => entry.name === 'word/document.xml' ? { ...entry, declaredSize: 0xffffffff } : entry);
  await assertRefusedUnstored(() => upload(api, token(), zip(huge), 'riesig.docx'), /more than 4 GB.*zip bomb/);
});

test('who may upload: 401 and 403 before the body is read, nothing stored', async () => {
  const rows = uploadRows();
  assertProblem(await upload(api, 'jl_0000000000000000_nope', LEGAL_TEXT, 'a.txt'), 401, 'unauthenticated');
  const readOnly = await upload(api, rich.token(['read']), LEGAL_TEXT, 'a.txt');
  assertProblem(readOnly, 403, 'token_ability_missing');
  assert.equal(readOnly.body.required_ability, 'citation-check');
  assert.equal(uploadRows(), rows);
});

// --- Reading, organizations, document_id in every state ----------------------------------------------------------

test("another organization's upload is 404 and cannot be checked", async () => {
  const mine = await uploaded(LEGAL_TEXT, 'meins.txt');
  const other = api.org({ plan: 'enterprise' });
  assertProblem(await getUpload(api, token(other), mine.id), 404, 'not_found');
  assertProblem(await getUpload(api, token(), 'upl_00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  assertRefused(await check({ document_id: mine.id }, other), 'document_id', /no upload with this id/);
  assert.equal((await getUpload(api, token(), mine.id)).body.status, 'ready');
});

test('a check with an upload still being extracted is refused, saying to poll', async () => {
  const org = api.org({ plan: 'enterprise' });
  const id = 'upl_11111111-1111-4111-8111-111111111111';
  const now = api.now().toISOString();
  api.services.state.prepare(`INSERT INTO uploads (id, organization_id, filename, format, status, byte_size, created_at, expires_at)
    VALUES (?, ?, 'a.txt', 'text', 'uploaded', 1, ?, ?)`).run(id, org.id, now, new Date(api.now().getTime() + 3600e3).toISOString());
  assertRefused(await check({ document_id: id }, org), 'document_id', /still being extracted/);
  assert.equal((await getUpload(api, token(org), id)).body.status, 'uploaded');
});

test('a ready upload whose text cannot be checked (too few legal signals) is refused without consuming it', async () => {
  const plain = await uploaded('Dieser Text hat keinerlei juristischen Inhalt, nur etwas Wetter und ein wenig Sonne heute.', 'wetter.txt');
  assert.equal(plain.status, 'ready');
  assertRefused(await check({ document_id: plain.id }), 'document_id', /legal-signal/);
  assert.equal((await getUpload(api, token(), plain.id)).body.status, 'ready');
});

test('the quota: 20 uploads neither consumed nor expired; the 21st is refused until one is consumed', async () => {
  const org = api.org({ plan: 'enterprise' });
  const ids: string[] = [];
  for (let index = 0; index < 20; index++) {
    const reply = await upload(api, token(org), `${LEGAL_TEXT} Nr. ${index}`, `klage-${index}.txt`);
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    ids.push(reply.body.id);
  }
  await assertRefusedUnstored(() => upload(api, token(org), LEGAL_TEXT, 'eins-zu-viel.txt'), /upload quota.*20/);
  // Other organizations have their own quota.
  assert.equal((await upload(api, token(), LEGAL_TEXT, 'andere.txt')).status, 202);
  await pollUntilExtracted(api, token(org), ids[0]);
  assert.equal((await check({ document_id: ids[0] }, org)).status, 200);
  assert.equal((await upload(api, token(org), LEGAL_TEXT, 'wieder-frei.txt')).status, 202);
});

test('expiry after 24 hours: status expired, text and file deleted, a check refused; the sweep expires unread uploads', async () => {
  const expiring = api.org({ plan: 'enterprise' });
  const ready = await uploaded(LEGAL_TEXT, 'bald-weg.txt', expiring);
  // An upload still waiting when it expires: its file is deleted too.
  api.services.state.prepare("UPDATE uploads SET status = 'uploaded', stored_path = ? WHERE id = ?").run(`${api.dir}/waiting.txt`, ready.id);
  writeFileSync(`${api.dir}/waiting.txt`, LEGAL_TEXT);
  const start = api.now();
  try {
    api.setNow(new Date(Date.parse(ready.expires_at) - 1));
    assert.equal((await getUpload(api, token(expiring), ready.id)).body.status, 'uploaded');
    api.setNow(new Date(Date.parse(ready.expires_at)));
    const expired = await getUpload(api, token(expiring), ready.id);
    assert.equal(expired.body.status, 'expired');
    assert.equal(storedUpload(api, ready.id)!.text, null);
    assert.equal(storedUpload(api, ready.id)!.stored_path, null);
    assert.ok(!existsSync(`${api.dir}/waiting.txt`));
    assertRefused(await check({ document_id: ready.id }, expiring), 'document_id', /expired/);
    // The periodic sweep expires uploads nobody reads.
    api.setNow(start);
    const unread = await uploaded(LEGAL_TEXT, 'ungelesen.txt', expiring);
    api.setNow(new Date(Date.parse(unread.expires_at) + 1000));
    assertRefused(await check({ document_id: unread.id }, expiring), 'document_id', /expired/);
    assert.equal(storedUpload(api, unread.id)!.status, 'ready');
    assert.ok(await uploadsOf(api.services).sweep() >= 1);
    assert.equal(storedUpload(api, unread.id)!.status, 'expired');
    assert.equal(storedUpload(api, unread.id)!.text, null);
  } finally {
    api.setNow(start);
  }
});
