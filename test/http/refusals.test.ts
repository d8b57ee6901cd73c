/**
 * The refusal chain of the HTTP edge on a real, priced operation (GET /decisions/{id}: 1 credit, ability read,
 * daily document cap): every error code of the contract with its extra fields and headers, and that no refusal
 * charges anything.
 */
import { test, before, after } from 'node:test';
import { connect } from 'node:net';
import { STATUS_CODES } from 'node:http';
import assert from 'node:assert/strict';
import { startApi, type Api, type Reply } from '../helpers/api.ts';
import { SMALL } from '../helpers/small-corpus.ts';
import { revokeToken } from '../../src/accounts/tokens.ts';
import { deleteOrganization } from '../../src/accounts/organizations.ts';
import { DEFAULT_PLAN_TERMS } from '../../src/accounts/plans.ts';

const DECISION = `/api/v1/decisions/${SMALL.bgh.id}`;
let api: Api;

before(async () => {
  api = await startApi({
    config: { plans: { ...DEFAULT_PLAN_TERMS, starter: { ...DEFAULT_PLAN_TERMS.starter, dailyDocuments: 2 } } },
  });
});
after(() => api.close());

function assertProblem(reply: Reply, status: number, code: string, label = '') {
  assert.equal(reply.status, status, `${label} ${JSON.stringify(reply.body)}`);
  assert.equal(reply.statusText, STATUS_CODES[status], label);
  if (reply.bytes !== undefined) assert.equal(reply.headers.get('content-length'), String(reply.bytes), label);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(reply.headers.get('x-service-api-release'), api.services.config.release);
  assert.equal(reply.body.status, status);
  assert.equal(reply.body.code, code);
  assert.equal(reply.body.type, `${api.services.config.docsUrl}/api/errors#${code}`);
  assert.equal(typeof reply.body.title, 'string');
  assert.equal(typeof reply.body.detail, 'string');
  // RFC 9110: a 401 names the scheme that would succeed; no other answer challenges.
  assert.equal(reply.headers.get('www-authenticate'), status === 401 ? 'Bearer realm="juralite"' : null, label);
  const chargeApplies = ![401, 409, 422].includes(status);
  assert.equal(/nothing was charged/i.test(reply.body.detail), chargeApplies, reply.body.detail);
}

test('a successful call carries the envelope and the release header, and costs its price once a month', async () => {
  const org = api.org({ plan: 'starter' });
  const token = org.token(['read']);
  const before = org.balance();
  const first = await api.call('GET', `${DECISION}?max_chars=900`, { token });
  assert.equal(first.status, 200);
  assert.equal(first.statusText, 'OK');
  // Sent whole with its length, not chunked.
  assert.equal(first.headers.get('content-length'), String(first.bytes));
  assert.equal(first.headers.get('transfer-encoding'), null);
  assert.match(first.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(first.headers.get('x-service-api-release'), api.services.config.release);
  assert.equal(first.body.api_version, api.services.config.release);
  assert.equal(first.body.changelog_url, api.services.config.changelogUrl);
  assert.deepEqual(first.body.credits, { metered: true, cost: 1, credits_remaining: before - 1 });
  const repeat = await api.call('GET', `${DECISION}?max_chars=900`, { token });
  assert.deepEqual(repeat.body.credits, { metered: true, cost: 0, credits_remaining: before - 1 });
  assert.equal(org.balance(), before - 1);
});

test('401 unauthenticated: missing, malformed, unknown, revoked and expired tokens, deleted organization', async () => {
  const org = api.org();
  const revoked = org.token(['read']);
  revokeToken(api.services.state, revoked.slice(3, 19), api.now());
  const expiring = org.token(['read'], 1);
  const doomed = api.org();
  const doomedToken = doomed.token(['read']);
  deleteOrganization(api.services.state, doomed.id, api.now());
  const unknown = `jl_0123456789abcdef_${'A'.repeat(43)}`;
  const cases: [string, Record<string, string>][] = [
    ['no header', {}],
    ['not bearer', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['malformed', { authorization: 'Bearer nonsense' }],
    ['unknown', { authorization: `Bearer ${unknown}` }],
    ['wrong secret', { authorization: `Bearer ${org.token(['read']).slice(0, 20)}${'B'.repeat(43)}` }],
    ['revoked', { authorization: `Bearer ${revoked}` }],
    ['deleted organization', { authorization: `Bearer ${doomedToken}` }],
  ];
  for (const [name, headers] of cases) {
    assertProblem(await api.call('GET', DECISION, { headers }), 401, 'unauthenticated', name);
  }
  const realNow = api.now();
  api.setNow(new Date(realNow.getTime() + 2 * 86_400_000));
  try {
    assertProblem(await api.call('GET', DECISION, { token: expiring }), 401, 'unauthenticated');
  } finally {
    api.setNow(realNow);
  }
});

test('409 token_org_missing for a token created before tokens named an organization', async () => {
  const org = api.org();
  const token = org.token(['read']);
  api.services.state.prepare('UPDATE tokens SET organization_id = NULL WHERE id = ?').run(token.slice(3, 19));
  assertProblem(await api.call('GET', DECISION, { token }), 409, 'token_org_missing');
});

test('403 two_factor_required until the user sets up two-factor sign-in', async () => {
  const org = api.org({ requireTwoFactor: true });
  const token = org.token(['read']);
  const before = org.balance();
  assertProblem(await api.call('GET', DECISION, { token }), 403, 'two_factor_required');
  api.services.state.prepare('UPDATE users SET two_factor_enabled = 1 WHERE id = ?').run(org.userId);
  assert.equal((await api.call('GET', DECISION, { token })).status, 200);
  assert.equal(org.balance(), before - 1);
});

test('403 token_ability_missing names the required ability; nothing executed or charged', async () => {
  const org = api.org();
  const before = org.balance();
  const reply = await api.call('GET', DECISION, { token: org.token(['search', 'graph']) });
  assertProblem(reply, 403, 'token_ability_missing');
  assert.equal(reply.body.required_ability, 'read');
  assert.equal(org.balance(), before);
});

/** Runs `work` with the server clock at second 1 of a minute, so that a fixed one-minute window cannot roll over. */
async function atStartOfMinute(work: () => Promise<void>) {
  const real = api.now();
  api.setNow(new Date(Math.floor(real.getTime() / 60_000) * 60_000 + 1_000));
  try {
    await work();
  } finally {
    api.setNow(real);
  }
}

test('429 rate_limited after 60 calls a minute per token, with retry_after_seconds and Retry-After', () => atStartOfMinute(async () => {
  const org = api.org();
  const token = org.token(['read', 'citation-check']);
  const before = org.balance();
  // Refusals before validation still count: 60 calls with an invalid argument use the minute up without charge.
  const replies = await Promise.all(Array.from({ length: 60 }, () => api.call('GET', `${DECISION}?max_chars=1`, { token })));
  assert.ok(replies.every((reply) => reply.status === 422));
  const limited = await api.call('GET', DECISION, { token });
  assertProblem(limited, 429, 'rate_limited');
  assert.ok(Number.isInteger(limited.body.retry_after_seconds) && limited.body.retry_after_seconds >= 1);
  assert.equal(limited.headers.get('retry-after'), String(limited.body.retry_after_seconds));
  assert.equal(org.balance(), before);
  // Another token of the same organization has its own minute.
  assert.equal((await api.call('GET', DECISION, { token: org.token(['read']) })).status, 200);
}));

test('429 rate_limited after 10 heavy calls a minute (citation checks, datapackages, uploads)', () => atStartOfMinute(async () => {
  const token = api.org().token(['citation-check']);
  for (let call = 0; call < 10; call++) {
    const reply = await api.call('POST', '/api/v1/citation-checks', { token, body: {} });
    assert.equal(reply.status, 422);
  }
  const limited = await api.call('POST', '/api/v1/citation-checks', { token, body: {} });
  assertProblem(limited, 429, 'rate_limited');
  // A sliding minute: a slot frees when the first of the ten calls (at this same instant) is a minute old.
  assert.equal(limited.body.retry_after_seconds, 60);
}));

test('422 validation_failed keys messages by argument', async () => {
  const token = api.org().token(['read']);
  const reply = await api.call('GET', `${DECISION}?max_chars=abc&rn_from=0&date=2020-13-45`, { token });
  assertProblem(reply, 422, 'validation_failed');
  assert.deepEqual(Object.keys(reply.body.errors).sort(), ['date', 'max_chars', 'rn_from']);
  for (const messages of Object.values(reply.body.errors)) assert.ok(Array.isArray(messages) && messages.length > 0);
  const order = await api.call('GET', `${DECISION}?rn_from=5&rn_to=2`, { token });
  assertProblem(order, 422, 'validation_failed');
  assert.deepEqual(Object.keys(order.body.errors), ['rn_to']);
  const body = await api.call('POST', '/api/v1/datapackages', { token: api.org().token(['datapackage']), body: '{not json' });
  assertProblem(body, 422, 'validation_failed');
  assert.deepEqual(Object.keys(body.body.errors), ['body']);
});

test('402 insufficient_credits states cost and balance; nothing charged', async () => {
  const org = api.org();
  org.spendAll();
  assert.equal(org.balance(), 0);
  const reply = await api.call('GET', DECISION, { token: org.token(['read']) });
  assertProblem(reply, 402, 'insufficient_credits');
  assert.equal(reply.body.cost, 1);
  assert.equal(reply.body.balance, 0);
});

test('404 not_found for an unknown decision; nothing charged', async () => {
  const org = api.org();
  const before = org.balance();
  assertProblem(await api.call('GET', '/api/v1/decisions/00000000-0000-5000-8000-000000000000', { token: org.token(['read']) }),
    404, 'not_found');
  assertProblem(await api.call('GET', '/api/v1/decisions/XII%20ZR%201%2F99', { token: org.token(['read']) }), 404, 'not_found');
  assert.equal(org.balance(), before);
});

test('a malformed percent-encoding in the path: 401 without a token, else 422 naming the path parameter; nothing charged', async () => {
  const org = api.org();
  const before = org.balance();
  for (const [path, ability, argument] of [
    ['/api/v1/decisions/%ZZ', 'read', 'id'], ['/api/v1/decisions/%E0%A4%A/citations', 'graph', 'id'],
    ['/api/v1/citation-check-documents/%ZZ', 'citation-check', 'document'],
  ] as const) {
    assertProblem(await api.call('GET', path), 401, 'unauthenticated', path);
    const reply = await api.call('GET', path, { token: org.token([ability]) });
    assertProblem(reply, 422, 'validation_failed', path);
    assert.deepEqual(Object.keys(reply.body.errors), [argument], path);
  }
  assert.equal(org.balance(), before);
});

test('a malformed percent-encoding in the query string: 422 naming the parameter, not a search for U+FFFD; nothing charged', async () => {
  const org = api.org();
  const token = org.token(['search']);
  const before = org.balance();
  for (const [query, argument] of [
    ['query=%ZZ', 'query'], ['query=Miete&court=%ED%A0%80', 'court'], ['query=Miete%E0%A4%A', 'query'], ['query=Miete&%ZZ=1', '%ZZ'],
    // A character's bytes cut apart by '&' (the query string is first decoded whole): the first part is named.
    ['query=Miete%C3&court=%BC', 'query'],
  ] as const) {
    const reply = await api.call('GET', `/api/v1/decisions/search?${query}`, { token });
    assertProblem(reply, 422, 'validation_failed', query);
    assert.deepEqual(Object.keys(reply.body.errors), [argument], query);
    assert.match(reply.body.errors[argument][0], /percent-encoded UTF-8/u, query);
  }
  assert.equal(org.balance(), before);
  // Well encoded ('+' as a space, umlauts as UTF-8, a '%' itself as %25), even in a parameter the call ignores: served.
  assert.equal((await api.call('GET', `${DECISION}?max_chars=600&note=K%C3%BCndigung+Miete%25`, { token: org.token(['read']) })).status, 200);
});

test('429 volume_cap when the daily document cap is reached, with unit, cap and resets_at at Berlin midnight', async () => {
  const org = api.org({ plan: 'starter' });
  const token = org.token(['read']);
  assert.equal((await api.call('GET', `${DECISION}?max_chars=600`, { token })).status, 200);
  assert.equal((await api.call('GET', `${DECISION}?max_chars=601`, { token })).status, 200);
  const before = org.balance();
  const capped = await api.call('GET', `${DECISION}?max_chars=602`, { token });
  assertProblem(capped, 429, 'volume_cap');
  assert.equal(capped.body.unit, 'documents');
  assert.equal(capped.body.cap, 2);
  assert.equal(capped.headers.get('retry-after'), String(capped.body.retry_after_seconds));
  assert.ok(capped.body.retry_after_seconds >= 1 && capped.body.retry_after_seconds <= 86_400);
  assert.match(capped.body.resets_at, /^\d{4}-\d{2}-\d{2}T00:00:00\+0[12]:00$/);
  assert.ok(Date.parse(capped.body.resets_at) > api.now().getTime());
  assert.ok(Date.parse(capped.body.resets_at) - api.now().getTime() <= 86_400_000);
  // Half of the text or more is a full text too: every Randnummer from the first, or the reasons.
  for (const part of ['rn_from=1', 'section=Gründe']) assertProblem(await api.call('GET', `${DECISION}?${part}`, { token }), 429, 'volume_cap');
  assert.equal(org.balance(), before);
  // A Randnummer range or section serving less than half the text is not a full text: it does not draw on the cap.
  assert.equal((await api.call('GET', `${DECISION}?rn_from=2&rn_to=3`, { token })).status, 200);
  assert.equal((await api.call('GET', `${DECISION}?section=Tenor`, { token })).status, 200);
});

test('the document cap counts what a read served: a part of at least half the text counts as a full text', async () => {
  const org = api.org({ plan: 'starter' });
  const token = org.token(['read']);
  const documents = () => (api.services.state.prepare(`SELECT amount FROM daily_counters WHERE organization_id = ? AND unit = 'documents'`)
    .get(org.id) as { amount: number } | undefined)?.amount ?? 0;
  const served = async (query: string) => {
    const reply = await api.call('GET', `${DECISION}?${query}`, { token });
    assert.equal(reply.status, 200, query);
    return 2 * reply.body.returned_range.chars >= reply.body.text_length;
  };
  assert.equal(await served('rn_from=2&rn_to=3'), false);
  assert.equal(await served('section=Tenor'), false);
  assert.equal(documents(), 0, 'small parts are not counted');
  assert.equal(await served('rn_from=1&rn_to=6'), true);
  assert.equal(documents(), 1, 'every Randnummer is most of the text');
});

test('a decision however named is one result, paid for once: UUID, ECLI, Aktenzeichen, any case, court and date', async () => {
  const org = api.org({ plan: 'professional' });
  const token = org.token(['read', 'graph', 'datapackage']);
  const cost = async (method: string, path: string, body?: unknown) => {
    const reply = await api.call(method, `/api/v1${path}`, { token, body });
    assert.equal(reply.status, 200, `${path} ${JSON.stringify(reply.body)}`);
    return reply.body.credits.cost;
  };
  assert.equal(await cost('GET', `/decisions/${SMALL.bgh.id}?section=Tenor`), 1);
  for (const id of [SMALL.bgh.id.toUpperCase(), SMALL.bgh.ecli, SMALL.bgh.ecli.toLowerCase(), SMALL.bgh.az, ` ${SMALL.bgh.az.toLowerCase()} `]) {
    assert.equal(await cost('GET', `/decisions/${encodeURIComponent(id)}?section=tenor&court=BGH&date=2020-01-15`), 0, id);
  }
  assert.equal(await cost('GET', `/decisions/${SMALL.bgh.id}?section=Gründe`), 1, 'another section is another result');
  assert.equal(await cost('GET', `/decisions/${SMALL.bgh.id}`), 1);
  assert.equal(await cost('GET', `/decisions/${SMALL.bgh.id}?max_chars=200000`), 0, 'max_chars beyond the text serves the same text');
  assert.equal(await cost('GET', `/decisions/${encodeURIComponent(SMALL.bgh.az)}/citations`), 2);
  assert.equal(await cost('GET', `/decisions/${encodeURIComponent(SMALL.bgh.ecli)}/citations?direction=both`), 0);
  assert.equal(await cost('POST', '/datapackages', { ids: [SMALL.bgh.az] }), 5);
  // max_chars caps full texts only: in excerpt mode it changes nothing.
  assert.equal(await cost('POST', '/datapackages', { ids: [SMALL.bgh.id], max_chars: 1000 }), 0);
  assert.equal(await cost('POST', '/datapackages', { ids: [SMALL.bgh.id, SMALL.bgh.ecli] }), 5, 'a duplicate is counted in the answer');
});

test('an id naming no decision is 404 before any price: no 402 for what does not exist', async () => {
  const org = api.org({ plan: 'starter' });
  const token = org.token(['read', 'graph']);
  org.spendAll();
  assertProblem(await api.call('GET', '/api/v1/decisions/XII%20ZR%201%2F99', { token }), 404, 'not_found');
  assertProblem(await api.call('GET', '/api/v1/decisions/XII%20ZR%201%2F99/citations', { token }), 404, 'not_found');
  assertProblem(await api.call('GET', DECISION, { token }), 402, 'insufficient_credits');
});

test('429 volume_cap for a call that would carry the day past the cap; what is left still serves', async () => {
  const org = api.org({ plan: 'starter' });
  const token = org.token(['read', 'datapackage']);
  const before = org.balance();
  const ids = [SMALL.bgh.id, SMALL.lgBerlin.id, SMALL.lgMuenchen.id];
  const over = await api.call('POST', '/api/v1/datapackages', { token, body: { ids, full_text: true } });
  assertProblem(over, 429, 'volume_cap');
  assert.equal(over.body.cap, 2);
  assert.match(over.body.detail, /would serve 3 documents, and 2 of the organization's daily cap of 2 are left/);
  assert.equal(org.balance(), before);
  const fits = await api.call('POST', '/api/v1/datapackages', { token, body: { ids: ids.slice(0, 2), full_text: true } });
  assert.equal(fits.status, 200, JSON.stringify(fits.body));
  assertProblem(await api.call('GET', `${DECISION}?max_chars=603`, { token }), 429, 'volume_cap');
});

test('503 backend_unavailable when the backend cannot answer; nothing charged', async () => {
  const bare = await startApi({ corpus: 'none' });
  try {
    const org = bare.org();
    const before = org.balance();
    const reply = await bare.call('GET', DECISION, { token: org.token(['read']) });
    assert.equal(reply.status, 503);
    assert.equal(reply.body.code, 'backend_unavailable');
    assert.match(reply.body.detail, /nothing was charged/i);
    assert.equal(reply.headers.get('x-service-api-release'), bare.services.config.release);
    assert.equal(org.balance(), before);
  } finally {
    await bare.close();
  }
});

test('unknown routes are 404 problems and wrong methods 405 problems with Allow', async () => {
  const unknown = await api.call('GET', '/api/v1/nothing-here');
  assertProblem(unknown, 404, 'not_found');
  // The likeliest first mistakes get a hint: an Aktenzeichen's slash left unencoded, the API's root.
  assert.match((await api.call('GET', '/api/v1/decisions/VIII%20ZR%20123/19')).body.detail, /slash encoded as %2F/);
  assert.match((await api.call('GET', '/api/v1')).body.detail, /listed in \/api\/v1\/openapi\.json/);
  const wrong = await api.call('DELETE', DECISION);
  assertProblem(wrong, 405, 'method_not_allowed');
  assert.equal(wrong.headers.get('allow'), 'GET');
  const twice = await api.call('DELETE', '/api/v1/decisions/search');
  assert.equal(twice.headers.get('allow'), 'GET', 'one method named once, though two routes have the shape');
  // HEAD would run and charge a metered call whose answer nobody reads: refused like any other method.
  const token = api.org().token();
  const head = await api.call('HEAD', DECISION, { token });
  assert.equal(head.status, 405);
  assert.equal(head.headers.get('allow'), 'GET');
  assert.equal(head.bytes, 0);
});

test('the public pages answer HEAD as GET does, without the body, and other methods with 405', async () => {
  for (const path of ['/api/v1/openapi.json', '/docs/api/errors', '/docs/changelog']) {
    const get = await api.call('GET', path);
    const head = await api.call('HEAD', path);
    assert.equal(head.status, 200, path);
    assert.equal(head.bytes, 0, path);
    assert.equal(head.headers.get('content-type'), get.headers.get('content-type'), path);
    assert.ok(get.bytes! > 0, path);
    const post = await api.call('POST', path, { body: {} });
    assertProblem(post, 405, 'method_not_allowed', path);
    assert.equal(post.headers.get('allow'), 'GET, HEAD', path);
  }
});

/** Writes raw bytes to the server and reads everything it answers until it closes the connection. */
function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => { answer += chunk; });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

// Guards the clientError handler (src/server.ts): Node's own parser refusals were bare 431/400 answers.
test('requests Node cannot parse get problems too: 431 for a head over 16 KB, 400 for broken HTTP or no Host, 417 for an Expect; the server serves on', async () => {
  for (const [request, status] of [
    [`GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['NOT HTTP AT ALL\r\n\r\n', 400],
    // Node refused these two itself, with an empty body and without the release header.
    ['GET /api/v1/openapi.json HTTP/1.1\r\n\r\n', 400],
    ['POST /api/v1/datapackages HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}', 417],
  ] as const) {
    const answer = await rawExchange(api.url, request);
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head, new RegExp(`^HTTP/1\\.1 ${status} `));
    assert.match(head, /content-type: application\/problem\+json/);
    assert.match(head, new RegExp(`x-service-api-release: ${api.services.config.release}`));
    assert.deepEqual({ status: JSON.parse(body).status, code: JSON.parse(body).code }, { status, code: 'request_unreadable' });
    assert.match(JSON.parse(body).detail, /Nothing was charged\.$/);
  }
  assert.equal((await api.call('GET', '/api/v1/openapi.json')).status, 200);
  // HTTP/1.0 needs no Host header.
  assert.match(await rawExchange(api.url, 'GET /api/v1/openapi.json HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 200 /);
});
