/** GET /corpus/coverage (6) and GET /corpus/facets/{field} (7) on the small corpus: every parameter, every error. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../helpers/api.ts';

let api: Api;
let token: string;
before(async () => {
  api = await startApi();
  token = api.org().token(['read']);
});
after(() => api.close());

const get = (path: string) => api.call('GET', path, { token });

test('coverage: totals, every branch rolled up, courts busiest first, derived ranges, law coverage; free', async () => {
  const reply = await get('/api/v1/corpus/coverage');
  assert.equal(reply.status, 200);
  const body = reply.body;
  assert.deepEqual(body.total_decisions, { value: 3, is_floor: false });
  assert.equal(body.branches.length, 8);
  const ordentlich = body.branches.find((branch: { branch: string }) => branch.branch === 'ordentlich');
  assert.equal(ordentlich.count, 3);
  assert.equal(ordentlich.earliest, '2018-03');
  assert.equal(ordentlich.latest, '2020-01');
  assert.equal(ordentlich.court_founding_year, 1950);
  assert.deepEqual(ordentlich.instance_mix.federal, { value: 1, is_floor: false });
  assert.deepEqual(ordentlich.instance_mix.first_instance_and_regional, { value: 2, is_floor: false });
  assert.equal(body.courts_total, 3);
  assert.equal(body.courts_returned, 3);
  assert.equal(body.coverage_ranges.ranges.length, 3);
  const bgh = body.coverage_ranges.ranges.find((range: { court: string }) => range.court === 'BGH');
  assert.equal(bgh.from, '2020-01-15');
  assert.equal(bgh.exhaustive, false);
  assert.deepEqual(body.law_coverage.eu, ['DSGVO']);
  assert.deepEqual(body.law_coverage.international, ['EMRK']);
  assert.equal(body.as_of, '2026-01-01T00:00:00.000Z');
  assert.equal(body.credits.cost, 0);
});

test('coverage: top caps the per-court rows, never the branch rollup; branch narrows', async () => {
  const top = (await get('/api/v1/corpus/coverage?top=1')).body;
  assert.equal(top.courts.length, 1);
  assert.equal(top.courts_returned, 1);
  assert.equal(top.courts_total, 3);
  assert.equal(top.branches.length, 8);
  const sozial = (await get('/api/v1/corpus/coverage?branch=sozial')).body;
  assert.deepEqual(sozial.branches.map((branch: { branch: string }) => branch.branch), ['sozial']);
  assert.equal(sozial.courts.length, 0);
  assert.deepEqual(sozial.total_decisions, { value: 0, is_floor: false });
});

test('coverage: 422 for an unknown branch or a top outside 1..100', async () => {
  for (const [query, argument] of [['branch=strafrecht', 'branch'], ['top=0', 'top'], ['top=101', 'top'], ['top=2.5', 'top']]) {
    const reply = await get(`/api/v1/corpus/coverage?${query}`);
    assert.equal(reply.status, 422, query);
    assert.deepEqual(Object.keys(reply.body.errors), [argument]);
  }
});

test('facets: court_name, document_type, branch and law_abbreviation with counts, type and prefix', async () => {
  const courts = (await get('/api/v1/corpus/facets/court_name')).body;
  assert.deepEqual(courts.values, {
    'BGH': { value: 1, is_floor: false }, 'LG Berlin': { value: 1, is_floor: false }, 'LG München I': { value: 1, is_floor: false },
  });
  assert.equal(courts.applies_to, 'DECISION');
  assert.equal(courts.total_values, 3);
  assert.equal(courts.truncated, false);
  assert.equal(courts.value_limit, 500);
  const prefixed = (await get('/api/v1/corpus/facets/court_name?prefix=lg%20')).body;
  assert.deepEqual(Object.keys(prefixed.values), ['LG Berlin', 'LG München I']);
  const noSpace = (await get('/api/v1/corpus/facets/court_name?prefix=lg%20m')).body;
  assert.deepEqual(Object.keys(noSpace.values), ['LG München I']);
  const laws = (await get('/api/v1/corpus/facets/law_abbreviation?type=law')).body;
  assert.equal(laws.applies_to, 'LAW');
  assert.deepEqual(laws.values.BGB, { value: 3, is_floor: false });
  assert.equal(laws.count_basis, 'law_units');
  const cited = (await get('/api/v1/corpus/facets/law_abbreviation?type=decision')).body;
  assert.deepEqual(cited.values, { BGB: { value: 2, is_floor: false } });
  assert.equal(cited.count_basis, 'decisions');
  // Without a type both are counted, and count_basis says so.
  const both = (await get('/api/v1/corpus/facets/law_abbreviation')).body;
  assert.deepEqual([both.applies_to, both.values.BGB.value, both.count_basis], ['DECISION_AND_LAW', 5, 'decisions_and_law_units']);
  const lawTypes = (await get('/api/v1/corpus/facets/document_type?type=law')).body;
  assert.deepEqual([lawTypes.applies_to, lawTypes.count_basis], ['LAW', 'laws']);
  assert.equal((await get('/api/v1/corpus/facets/court_name')).body.count_basis, 'decisions');
  const branches = (await get('/api/v1/corpus/facets/branch')).body;
  assert.deepEqual(branches.values, { ordentlich: { value: 3, is_floor: false } });
  const types = (await get('/api/v1/corpus/facets/document_type?type=decision')).body;
  assert.deepEqual(types.values, { Urteil: { value: 3, is_floor: false } });
  // Fields no law has, asked for laws: no values, and still every field of the answer.
  for (const field of ['court_name', 'branch']) {
    const none = (await get(`/api/v1/corpus/facets/${field}?type=law`)).body;
    assert.deepEqual([none.applies_to, none.values, none.total_values, none.count_basis], ['LAW', {}, 0, 'laws'], field);
  }
});

test('facets: cited_norms lists the family of a norm, canonicalized and echoed back; subdivisions nest', async () => {
  const family = (await get('/api/v1/corpus/facets/cited_norms?norm=%C2%A7573%20BGB')).body;
  assert.equal(family.norm, '§ 573 BGB');
  assert.deepEqual(family.values, {
    '§ 573 Abs. 2 Nr. 2 BGB': { value: 2, is_floor: false },
    '§ 573 Abs. 3 BGB': { value: 1, is_floor: false },
    '§ 573 BGB': { value: 1, is_floor: false },
  });
  const narrow = (await get('/api/v1/corpus/facets/cited_norms?norm=%C2%A7%20573%20Abs%202%20BGB')).body;
  assert.equal(narrow.norm, '§ 573 Abs. 2 BGB');
  assert.deepEqual(Object.keys(narrow.values), ['§ 573 Abs. 2 Nr. 2 BGB']);
  // Read as the citation check reads texts: Roman Absätze, a spelled-out alias of the law.
  const roman = (await get(`/api/v1/corpus/facets/cited_norms?norm=${encodeURIComponent('§ 573 II BGB')}`)).body;
  assert.deepEqual([roman.norm, roman.values], [narrow.norm, narrow.values]);
});

test('facets: 422 for an unknown field or type, cited_norms without norm, an unreadable norm', async () => {
  const cases: [string, string][] = [
    ['/api/v1/corpus/facets/colour', 'field'],
    ['/api/v1/corpus/facets/court_name?type=statute', 'type'],
    ['/api/v1/corpus/facets/cited_norms', 'norm'],
    ['/api/v1/corpus/facets/cited_norms?norm=Mietrecht', 'norm'],
  ];
  for (const [path, argument] of cases) {
    const reply = await get(path);
    assert.equal(reply.status, 422, path);
    assert.deepEqual(Object.keys(reply.body.errors), [argument], path);
  }
});

test('coverage and facets need the read ability and a corpus', async () => {
  const denied = await api.call('GET', '/api/v1/corpus/facets/court_name', { token: api.org().token(['search']) });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.required_ability, 'read');
  const bare = await startApi({ corpus: 'none' });
  try {
    const reply = await bare.call('GET', '/api/v1/corpus/coverage', { token: bare.org().token(['read']) });
    assert.equal(reply.status, 503);
  } finally {
    await bare.close();
  }
});
