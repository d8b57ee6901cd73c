/**
 * Bytes and characters that must not pass as something else (issue 26, 8).
 *
 * Guards: a JSON body that is not valid UTF-8 is 422 naming `body`, nothing charged (src/http/arguments.ts decodes
 * strictly; it was read with U+FFFD in place of the bad bytes, then checked and charged); an upload's filename is
 * shown back without bidirectional controls (src/uploads/receive.ts cleanFilename: U+202E made
 * 'rechnung\u202Efdp.exe' read as 'rechnungexe.pdf').
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api, type TestOrg } from '../helpers/api.ts';
import { cleanFilename } from '../../src/uploads/receive.ts';
import { upload } from '../uploads/client.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';

let api: Api;
let org: TestOrg;
before(async () => {
  api = await startApi();
  org = api.org({ plan: 'starter' });
});
after(() => api.close());

async function postBytes(path: string, bytes: Buffer, token: string) {
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST', body: bytes, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  return { status: response.status, body: await response.json() as any };
}

test('a JSON body with invalid UTF-8 is 422 naming the body, nothing charged; the same body in UTF-8 is checked', async () => {
  const token = org.token(['citation-check']);
  const before = org.balance();
  const json = (middle: Buffer) => Buffer.concat([Buffer.from(`{"text": ${JSON.stringify(LEGAL_TEXT).slice(0, -1)} `), middle, Buffer.from('"}')]);
  // A stray byte, a truncated sequence, an encoded surrogate (CESU-8), an overlong '/'.
  for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
    const reply = await postBytes('/api/v1/citation-checks', json(Buffer.from(bad)), token);
    assert.equal(reply.status, 422, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'validation_failed');
    assert.deepEqual(Object.keys(reply.body.errors), ['body']);
    assert.match(reply.body.errors.body[0], /UTF-8/);
  }
  assert.equal(org.balance(), before, 'nothing charged');
  const good = await postBytes('/api/v1/citation-checks', json(Buffer.from('ü', 'utf8')), token);
  assert.equal(good.status, 200, JSON.stringify(good.body));
});

test('an upload\'s filename is shown back without bidirectional controls', async () => {
  const reply = await upload(api, org.token(['citation-check']), LEGAL_TEXT, 'rechnung\u202Etxt.md');
  assert.equal(reply.status, 202, JSON.stringify(reply.body));
  assert.equal(reply.body.filename, 'rechnungtxt.md');
  for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C', '\u0085']) {
    assert.equal(cleanFilename(`a${control}b.pdf`), 'ab.pdf', `U+${control.codePointAt(0)!.toString(16)}`);
  }
  // Right-to-left letters themselves are a name's own: kept.
  assert.equal(cleanFilename('עברית.pdf'), 'עברית.pdf');
});
