/** GET /decisions/{id} (9) on the small corpus: every parameter and every error it can give. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../helpers/api.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { codePointLength } from '../../src/text/code-points.ts';

let api: Api;
let token: string;
before(async () => {
  api = await startApi();
  token = api.org({ plan: 'enterprise' }).token(['read']);
});
after(() => api.close());

const get = (path: string) => api.call('GET', `/api/v1/decisions/${path}`, { token });
const enc = encodeURIComponent;

test('by UUID: the whole decision with metadata, sections, range and Fortgeltung fields', async () => {
  const { status, body } = await get(SMALL.bgh.id);
  assert.equal(status, 200);
  assert.equal(body.id, SMALL.bgh.id);
  assert.equal(body.aktenzeichen, 'VIII ZR 123/19');
  assert.equal(body.court, 'BGH');
  assert.equal(body.date, '2020-01-15');
  assert.equal(body.jurisdiction, 'DE');
  assert.deepEqual([body.metadata.document_type, body.metadata.ecli, body.metadata.file_numbers],
    ['Urteil', SMALL.bgh.ecli, ['VIII ZR 123/19']]);
  assert.equal(body.fortgeltung_checked, false);
  assert.match(body.fortgeltung_note, /quashed or superseded/);
  assert.equal(body.truncated, false);
  assert.equal(codePointLength(body.full_text), body.text_length);
  assert.equal(body.rn_source, 'printed');
  assert.equal(body.has_rn_anchors, true);
  assert.deepEqual(body.available_sections, ['Leitsatz', 'Tenor', 'Gründe']);
  assert.deepEqual(body.available_range, { rn_from: 1, rn_to: 6, rn_source: 'printed' });
  assert.equal(body.available_range_scope, 'decision');
  assert.deepEqual(body.returned_range, { rn_from: 1, rn_to: 6, section: null, chars: body.text_length });
});

test('by ECLI (any case) and by Aktenzeichen', async () => {
  assert.equal((await get(enc(SMALL.bgh.ecli.toLowerCase()))).body.id, SMALL.bgh.id);
  assert.equal((await get(enc('VIII ZR 123/19'))).body.id, SMALL.bgh.id);
  assert.equal((await get(enc('viii  zr 123/19'))).body.id, SMALL.bgh.id);
});

test('an Aktenzeichen held by several decisions: 422 naming the candidates, court or date disambiguate', async () => {
  const ambiguous = await get(enc(SMALL.lgBerlin.az));
  assert.equal(ambiguous.status, 422);
  assert.match(ambiguous.body.errors.id[0], /LG Berlin, 2019-05-02/);
  assert.match(ambiguous.body.errors.id[0], /LG München I, 2018-03-01/);
  assert.equal((await get(`${enc(SMALL.lgBerlin.az)}?court=LG%20Berlin`)).body.id, SMALL.lgBerlin.id);
  assert.equal((await get(`${enc(SMALL.lgBerlin.az)}?date=2018-03-01`)).body.id, SMALL.lgMuenchen.id);
  // Court as a whole-word prefix: "LG" does not disambiguate, "LG München" does; "LG Münch" matches nothing.
  assert.equal((await get(`${enc(SMALL.lgBerlin.az)}?court=LG`)).status, 422);
  assert.equal((await get(`${enc(SMALL.lgBerlin.az)}?court=${enc('LG München')}`)).body.id, SMALL.lgMuenchen.id);
  assert.equal((await get(`${enc(SMALL.lgBerlin.az)}?court=${enc('LG Münch')}`)).status, 404);
  // court and date are ignored for UUID lookups.
  assert.equal((await get(`${SMALL.bgh.id}?court=LG%20Berlin&date=1999-01-01`)).body.id, SMALL.bgh.id);
});

test('max_chars cuts the text in code points and says truncated', async () => {
  const whole = (await get(SMALL.bgh.id)).body.full_text as string;
  const { body } = await get(`${SMALL.bgh.id}?max_chars=500`);
  assert.equal(body.truncated, true);
  assert.equal(codePointLength(body.full_text), 500);
  assert.equal(body.returned_range.chars, 500);
  assert.equal([...whole].slice(0, 500).join(''), body.full_text);
  assert.ok(body.full_text.includes('𝔄'), 'the non-BMP character before the cut is kept whole');
  // returned_range names what was served: Leitsatz, Tenor and the start of Rn. 1, not the decision's Rn. 1 to 6.
  assert.deepEqual([body.returned_range.rn_from, body.returned_range.rn_to], [1, 1]);
  const ranged = (await get(`${SMALL.bgh.id}?rn_from=2&rn_to=5&max_chars=1000`)).body;
  assert.equal(ranged.truncated, true);
  assert.deepEqual([ranged.returned_range.rn_from, ranged.returned_range.rn_to, ranged.returned_range.chars], [2, 3, 1000]);
});

test('rn_from/rn_to serve whole chunks and report the served span', async () => {
  const { body } = await get(`${SMALL.bgh.id}?rn_from=2&rn_to=3`);
  assert.deepEqual([body.returned_range.rn_from, body.returned_range.rn_to, body.returned_range.section], [2, 3, null]);
  assert.match(body.full_text, /^2 Randnummer 2\./);
  assert.match(body.full_text, /3 Randnummer 3\./);
  assert.doesNotMatch(body.full_text, /Randnummer 4\./);
  const open = (await get(`${SMALL.bgh.id}?rn_from=5`)).body;
  assert.deepEqual([open.returned_range.rn_from, open.returned_range.rn_to], [5, 6]);
  const until = (await get(`${SMALL.bgh.id}?rn_to=1`)).body;
  assert.deepEqual([until.returned_range.rn_from, until.returned_range.rn_to], [1, 1]);
});

test('section serves one named section, case-insensitively', async () => {
  const tenor = (await get(`${SMALL.bgh.id}?section=tenor`)).body;
  assert.equal(tenor.returned_range.section, 'Tenor');
  assert.match(tenor.full_text, /^Tenor\n\nDie Revision wird zurückgewiesen\. 𝔄/);
  const reasons = (await get(`${SMALL.bgh.id}?section=${enc('Gründe')}`)).body;
  assert.match(reasons.full_text, /^Gründe/);
  assert.equal(reasons.returned_range.chars, codePointLength(reasons.full_text));
});

test('422 for every invalid argument, naming it', async () => {
  const cases: [string, string, string][] = [
    [SMALL.bgh.id, 'max_chars=499', 'max_chars'],
    [SMALL.bgh.id, 'max_chars=many', 'max_chars'],
    [SMALL.bgh.id, 'rn_from=0', 'rn_from'],
    [SMALL.bgh.id, 'rn_from=4&rn_to=2', 'rn_to'],
    [SMALL.bgh.id, 'rn_from=40', 'rn_from'],
    [SMALL.bgh.id, 'section=Sachverhalt', 'section'],
    [SMALL.bgh.id, 'section=Tatbestand', 'section'],
    // A section and a Randnummer range name two parts: refused, not guessed.
    [SMALL.bgh.id, 'section=Tenor&rn_from=1', 'section'],
    [SMALL.bgh.id, 'rn_to=2&section=Tenor', 'section'],
    [SMALL.bgh.id, 'date=15.01.2020', 'date'],
    [SMALL.bgh.id, 'court=', 'court'],
    [SMALL.bgh.id, 'court=%20%20', 'court'],
    ['%20', '', 'id'],
    [enc(SMALL.lgBerlin.az) + '', 'court=LG%20Berlin&rn_from=1', 'rn_from'],
  ];
  for (const [id, query, argument] of cases) {
    const reply = await get(`${id}?${query}`);
    assert.equal(reply.status, 422, `${query}: ${JSON.stringify(reply.body)}`);
    assert.deepEqual(Object.keys(reply.body.errors), [argument], query);
  }
  assert.deepEqual((await get(`${SMALL.bgh.id}?max_chars=99999999999999999999`)).body.errors, { max_chars: ['is too large'] });
});

test('404 for an unknown UUID, ECLI or Aktenzeichen', async () => {
  for (const id of ['00000000-0000-5000-8000-000000000000', enc('ECLI:DE:BGH:2099:010199UIZR1.99.0'), enc('IX ZR 1/99')]) {
    const reply = await get(id);
    assert.equal(reply.status, 404, id);
    assert.equal(reply.body.code, 'not_found');
  }
});

test('Gründe and Entscheidungsgründe name the same reasons, and are one paid result', async () => {
  const demo = await startApi({ corpus: 'demo' });
  try {
    const auth = demo.org({ plan: 'enterprise' }).token(['read']);
    const id = (demo.services.corpus!.prepare(`SELECT decision_id FROM decision_sections WHERE name = 'Entscheidungsgründe' LIMIT 1`)
      .get() as { decision_id: string }).decision_id;
    const read = (section: string) => demo.call('GET', `/api/v1/decisions/${id}?section=${enc(section)}`, { token: auth });
    const reasons = await read('Gründe');
    assert.equal(reasons.status, 200);
    assert.equal(reasons.body.returned_range.section, 'Entscheidungsgründe');
    assert.equal(reasons.body.credits.cost, 1);
    const again = await read('entscheidungsgründe');
    assert.equal(again.body.full_text, reasons.body.full_text);
    assert.equal(again.body.credits.cost, 0, 'the same text is not paid twice');
    // And the other way: a decision whose reasons are headed 'Gründe' is read by 'Entscheidungsgründe' too.
    const other = (demo.services.corpus!.prepare(`SELECT decision_id FROM decision_sections WHERE name = 'Gründe' LIMIT 1`)
      .get() as { decision_id: string }).decision_id;
    const byLongName = await demo.call('GET', `/api/v1/decisions/${other}?section=${enc('Entscheidungsgründe')}`, { token: auth });
    assert.equal(byLongName.status, 200, JSON.stringify(byLongName.body));
    assert.equal(byLongName.body.returned_range.section, 'Gründe');
  } finally {
    await demo.close();
  }
});
