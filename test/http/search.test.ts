/**
 * GET /decisions/search (10) and GET /search (11) over HTTP on the demo corpus (fixtures/): keyword with German
 * analysis (compounds, umlaut folding), the exact-citation rule, the bridge on and off, semantic mode over the
 * decision vectors trained at import, hybrid with and without them, every filter in every mode, paging, the count
 * objects, the daily row cap and the 422s.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi, type Api } from '../helpers/api.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { berlinDay } from '../../src/accounts/time.ts';

let api: Api;
before(async () => { api = await startApi({ corpus: 'demo' }); });
after(async () => { await api.close(); });

const token = () => api.org({ plan: 'enterprise' }).token(['search']);
const search = async (path: string, params: Record<string, string | number | boolean>, auth = token()) => {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return api.call('GET', `/api/v1${path}?${query}`, { token: auth });
};
const decisions = (params: Record<string, string | number | boolean>) => search('/decisions/search', params);
const azs = (reply: { body: { results: { aktenzeichen: string }[] } }) => reply.body.results.map((r) => r.aktenzeichen);
const corpus = () => api.services.corpus!;
const court = (code: string) => (corpus().prepare('SELECT branch FROM courts WHERE code = ?').get(code) as { branch: string }).branch;
const MODES = ['keyword', 'semantic', 'hybrid'] as const;

test('keyword: a decision item has every field; a compound is found by its last part; snippets mark the words', async () => {
  const reply = await decisions({ query: 'Mieterhöhung', mode: 'keyword' });
  assert.equal(reply.status, 200);
  const body = reply.body;
  assert.equal(body.mode, 'keyword');
  assert.deepEqual(Object.keys(body.total_available).sort(), ['is_floor', 'value']);
  assert.equal(body.total_available_basis, 'matching_decisions_lexical_arm');
  assert.equal(typeof body.candidate_pool, 'number');
  assert.equal(body.pool_exhaustive, true);
  // The basis is matching decisions: with an exhaustive pool, the count is the decisions listed.
  assert.deepEqual(body.total_available, { value: body.results.length, is_floor: false });
  assert.equal(body.candidate_pool, body.results.length);
  assert.equal(body.page, 1);
  assert.equal(body.limit, 20);
  assert.deepEqual(body.query_expansion, {
    status: 'abstained', applied: false, reason: 'no_lay_term', lay_terms: [], added_terms: [], added_norms: [],
    note: body.query_expansion.note,
  });
  assert.ok(azs(reply).includes('VIII ZR 123/19'), 'Modernisierungsmieterhöhung answers Mieterhöhung');
  const item = body.results.find((r: { aktenzeichen: string }) => r.aktenzeichen === 'VIII ZR 123/19');
  assert.match(item.snippet, /<mark>Modernisierungsmieterhöhung<\/mark>/u);
  for (const field of ['id', 'aktenzeichen', 'court', 'date', 'document_type', 'title', 'snippet', 'snippets', 'chunk_title',
    'rn_range', 'fundstelle', 'fortgeltung_checked', 'fortgeltung_note', 'confidence']) assert.ok(field in item, field);
  assert.equal(item.fortgeltung_checked, false);
  assert.match(item.rn_range, /^\d+-\d+$/u);
  assert.equal(typeof item.snippets[0].rn, 'number');
  const [from, to] = item.rn_range.split('-').map(Number);
  assert.ok(item.snippets[0].rn >= from && item.snippets[0].rn <= to);
  // Every word answered: high for the ranking's first decision, medium further down (calibrated, docs/search.md).
  assert.equal(item.confidence, body.results[0] === item ? 'high' : 'medium');
  assert.equal(body.top_confidence, 'high');
});

test('German analysis: umlauts and ß fold, inflections stem, the first part of a compound finds it', async () => {
  const a = await decisions({ query: 'Räumung', mode: 'keyword' });
  const b = await decisions({ query: 'Raumung', mode: 'keyword' });
  assert.ok(a.body.results.length > 0);
  assert.deepEqual(azs(a), azs(b));
  const plural = await decisions({ query: 'Kündigungen', mode: 'keyword' });
  assert.deepEqual(azs(plural).sort(), azs(await decisions({ query: 'Kündigung', mode: 'keyword' })).sort());
  const prefix = await decisions({ query: 'Eigenbedarf', mode: 'keyword' });
  assert.ok(prefix.body.results.some((r: { snippet: string }) => /<mark>Eigenbedarfskündigung<\/mark>/u.test(r.snippet)));
});

test('keyword requires every word; an unknown word empties the result', async () => {
  const one = await decisions({ query: 'Eigenbedarf', mode: 'keyword' });
  const both = await decisions({ query: 'Eigenbedarf Härte', mode: 'keyword' });
  assert.ok(both.body.results.length > 0 && both.body.results.length < one.body.results.length);
  const none = await decisions({ query: 'Eigenbedarf Quantenchromodynamik', mode: 'keyword' });
  assert.deepEqual([none.body.results, none.body.total_available, none.body.top_confidence], [[], { value: 0, is_floor: false }, 'none']);
});

test('exact citations: an Aktenzeichen finds the decision and its citers, never a near number; mode becomes keyword', async () => {
  const reply = await decisions({ query: 'VI ZR 496/18' });
  assert.equal(reply.body.mode, 'keyword');
  assert.equal(reply.body.total_available_basis, 'matching_decisions_exact_citation');
  assert.deepEqual(azs(reply), ['VI ZR 496/18', '1 U 3456/19']);
  assert.match(reply.body.results[1].snippet, /<mark>VI ZR 496\/18<\/mark>/u);
  assert.equal(reply.body.query_expansion.reason, 'exact_citation');
  for (const near of ['VI ZR 496/17', 'VI ZR 469/18', 'VII ZR 496/18']) {
    assert.deepEqual((await decisions({ query: near })).body.results, [], near);
  }
  assert.deepEqual(azs(await decisions({ query: 'BGH, VI ZR 496/18', mode: 'keyword' })), ['VI ZR 496/18', '1 U 3456/19']);
  // As typed into a search box: lower case, doubled spaces, spaces around the slash.
  for (const typed of ['vi zr 496/18', 'VI  ZR  496/18', 'VI ZR 496 / 18', 'bgh, vi zr 496/18']) {
    const answer = (await decisions({ query: typed })).body;
    assert.deepEqual([answer.mode, answer.total_available_basis, azs({ body: answer })],
      ['keyword', 'matching_decisions_exact_citation', ['VI ZR 496/18', '1 U 3456/19']], typed);
  }
});

test('exact citations: a court written with the Aktenzeichen binds the decision and the citations of it', async () => {
  // The demo corpus holds 7 U 123/18 of the KG and of the OLG München; V ZR 112/20 cites the latter.
  const courts = async (query: string) => (await decisions({ query })).body.results.map((r: { court: string; aktenzeichen: string }) =>
    `${r.court}, ${r.aktenzeichen}`);
  assert.deepEqual(await courts('KG, 7 U 123/18'), ['KG, 7 U 123/18']);
  assert.deepEqual(await courts('OLG München, 7 U 123/18'), ['OLG München, 7 U 123/18', 'BGH, V ZR 112/20']);
  assert.deepEqual(await courts('LG Berlin, 7 U 123/18'), []);
  assert.deepEqual((await courts('7 U 123/18')).sort(), ['BGH, V ZR 112/20', 'KG, 7 U 123/18', 'OLG München, 7 U 123/18']);
});

test('exact citations: a § finds exactly the decisions citing it or a subdivision, the citation marked', async () => {
  const reply = await decisions({ query: '§ 573 Abs. 3 BGB' });
  assert.deepEqual(azs(reply).sort(), ['49 C 123/19', 'VIII ZR 214/12']);
  const whole = await decisions({ query: '§ 573 BGB' });
  assert.equal(whole.body.results.length, 9);
  // Marked where the text cites it; a decision citing it in its Normenkette alone shows its first passage.
  const inText = (id: string) => /§§? 573(?!\d)/u.test((corpus().prepare('SELECT decision_text(text_zstd) AS full_text FROM decisions WHERE id = ?').get(id) as { full_text: string }).full_text);
  for (const item of whole.body.results) {
    if (inText(item.id)) assert.match(item.snippet, /<mark>§ 573<\/mark>/u, item.aktenzeichen);
  }
  assert.ok(whole.body.results.filter((item: { id: string }) => inText(item.id)).length >= 4);
  // Hybrid is no exact lookup: the same words are searched as words.
  assert.equal((await decisions({ query: '§ 573 Abs. 3 BGB', mode: 'hybrid' })).body.mode, 'hybrid');
});

test('the bridge widens lay terms (applied) and bridge=false searches the literal query (disabled)', async () => {
  const query = 'Vermieter will mich rauswerfen, weil sein Sohn einziehen soll';
  const on = await decisions({ query });
  assert.equal(on.body.mode, 'hybrid');
  assert.equal(on.body.query_expansion.status, 'applied');
  assert.equal(on.body.query_expansion.applied, true);
  assert.ok(on.body.query_expansion.lay_terms.includes('rauswerfen'));
  assert.ok(on.body.query_expansion.added_norms.some((n: string) => n.startsWith('§ 573')));
  assert.ok(azs(on).slice(0, 3).includes('VIII ZR 214/12'));
  const off = await decisions({ query, bridge: false });
  assert.deepEqual([off.body.query_expansion.status, off.body.query_expansion.reason, off.body.query_expansion.applied],
    ['disabled', 'bridge_off', false]);
  assert.notDeepEqual(azs(on), azs(off));
  // Keyword mode requires every group: the literal lay words occur nowhere, their legal terms do.
  assert.equal((await decisions({ query, mode: 'keyword', bridge: false })).body.results.length, 0);
  assert.ok((await decisions({ query, mode: 'keyword' })).body.results.length > 0);
  const legal = await decisions({ query: 'Eigenbedarfskündigung Härtefall' });
  assert.equal(legal.body.query_expansion.reason, 'no_lay_term');
});

test('filters in every mode: court, branch, document_type, dates, cited_norm with subdivisions nesting', async () => {
  for (const mode of MODES) {
    const byCourt = await decisions({ query: 'Eigenbedarf Wohnung', mode, court: 'BGH' });
    assert.ok(byCourt.body.results.length > 0);
    assert.ok(byCourt.body.results.every((r: { court: string }) => r.court === 'BGH'), mode);
    const byBranch = await decisions({ query: 'Eigenbedarf Wohnung', mode, branch: 'sozial' });
    assert.ok(byBranch.body.results.length > 0);
    assert.ok(byBranch.body.results.every((r: { court: string }) => court(r.court) === 'sozial'), mode);
    const byType = await decisions({ query: 'Wohnung', mode, document_type: 'Beschluss' });
    assert.ok(byType.body.results.length > 0);
    assert.ok(byType.body.results.every((r: { document_type: string }) => r.document_type === 'Beschluss'), mode);
    const byDate = await decisions({ query: 'Wohnung', mode, date_from: '2019-01-01', date_to: '2020-12-31' });
    assert.ok(byDate.body.results.length > 0);
    assert.ok(byDate.body.results.every((r: { date: string }) => r.date >= '2019-01-01' && r.date <= '2020-12-31'), mode);
    const abs3 = await decisions({ query: 'Kündigung', mode, cited_norm: '§ 573 Abs. 3 BGB' });
    assert.deepEqual(azs(abs3).sort(), ['49 C 123/19', 'VIII ZR 214/12'], mode);
    const unit = await decisions({ query: 'Kündigung', mode, cited_norm: '§ 573 BGB' });
    assert.ok(azs(abs3).every((az) => azs(unit).includes(az)) && unit.body.results.length > abs3.body.results.length, mode);
    // Read as the citation check reads texts: '§ 573 III BGB' is '§ 573 Abs. 3 BGB'.
    assert.deepEqual(azs(await decisions({ query: 'Kündigung', mode, cited_norm: '§ 573 III BGB' })).sort(), azs(abs3).sort(), mode);
    // A first Unterabsatz is implied where the norm leaves it out: the decisions store 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'.
    const gdpr = await decisions({ query: 'Daten', mode, cited_norm: 'Art. 6 Abs. 1 lit. f DS-GVO' });
    assert.ok(gdpr.body.results.length > 0, mode);
    assert.deepEqual(azs(gdpr), azs(await decisions({ query: 'Daten', mode, cited_norm: 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO' })), mode);
    const nothing = await decisions({ query: 'Wohnung', mode, court: 'BGH', branch: 'sozial' });
    assert.deepEqual(nothing.body.results, []);
  }
});

test('paging: pages do not overlap; limit narrows; a page past the end is empty', async () => {
  const first = await decisions({ query: 'Gericht Urteil Anspruch', mode: 'hybrid', limit: 3 });
  const second = await decisions({ query: 'Gericht Urteil Anspruch', mode: 'hybrid', limit: 3, page: 2 });
  assert.equal(first.body.results.length, 3);
  assert.equal(second.body.page, 2);
  assert.equal(second.body.results.length, 3);
  assert.ok(azs(second).every((az) => !azs(first).includes(az)));
  assert.equal(first.body.truncated, true);
  const last = await decisions({ query: 'Mieterhöhung', mode: 'keyword', page: 10 });
  assert.deepEqual([last.body.results, last.body.truncated], [[], false]);
});

test('keyword pages: each ranks as deep as it reaches, and pages of 3 concatenate to the first 9 in order', async () => {
  const query = 'Gericht';
  const pages = await Promise.all([1, 2, 3].map((page) => decisions({ query, mode: 'keyword', limit: 3, page })));
  const whole = await decisions({ query, mode: 'keyword', limit: 9 });
  assert.equal(whole.body.results.length, 9);
  assert.ok(whole.body.total_available.value > 9, 'the query matches more than the nine compared');
  assert.deepEqual(pages.flatMap((reply) => reply.body.results.map((r: { id: string }) => r.id)), whole.body.results.map((r: { id: string }) => r.id));
  assert.deepEqual(pages.map((reply) => [reply.body.candidate_pool, reply.body.pool_exhaustive, reply.body.truncated]),
    [[3, false, true], [6, false, true], [9, false, true]]);
  for (const reply of pages) assert.deepEqual(reply.body.total_available, whole.body.total_available);
});

test('a mode left out and the same mode written out are one result, paid for once a month', async () => {
  const org = api.org({ plan: 'enterprise' });
  const auth = org.token(['search']);
  const cost = async (path: string, params: Record<string, string>) => {
    const reply = await search(path, params, auth);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.credits.cost;
  };
  // Endpoint 10: unset is hybrid for words, keyword (the exact-citation rule) for one citation.
  assert.equal(await cost('/decisions/search', { query: 'Mieterhöhung Zustimmung' }), 1);
  assert.equal(await cost('/decisions/search', { query: 'Mieterhöhung Zustimmung', mode: 'hybrid' }), 0);
  assert.equal(await cost('/decisions/search', { query: 'Mieterhöhung Zustimmung', mode: 'keyword' }), 1);
  assert.equal(await cost('/decisions/search', { query: 'VIII ZR 123/19' }), 1);
  assert.equal(await cost('/decisions/search', { query: 'VIII ZR 123/19', mode: 'keyword' }), 0);
  assert.equal(await cost('/decisions/search', { query: 'VIII ZR 123/19', mode: 'hybrid' }), 1);
  // Endpoint 11 has no exact-citation rule: unset is hybrid.
  assert.equal(await cost('/search', { query: 'Mieterhöhung Zustimmung' }), 1);
  assert.equal(await cost('/search', { query: 'Mieterhöhung Zustimmung', mode: 'hybrid' }), 0);
  assert.equal(await cost('/search', { query: 'VIII ZR 123/19', mode: 'hybrid' }), 1);
  assert.equal(await cost('/search', { query: 'VIII ZR 123/19' }), 0);
});

test('FTS5 syntax in a query is read as words, never as syntax', async () => {
  for (const query of ['NEAR(Miete', '"Miete', 'Miete*', '-Miete', 'Miete AND OR NOT', 'title:Miete', '^Miete', '(((', '""', '§§§ --']) {
    for (const mode of MODES) {
      const reply = await decisions({ query, mode });
      assert.equal(reply.status, 200, `${mode} ${query}: ${JSON.stringify(reply.body)}`);
    }
    assert.equal((await search('/search', { query })).status, 200, query);
  }
});

test('422 for every invalid argument, named, and nothing charged', async () => {
  const org = api.org({ plan: 'enterprise' });
  const auth = org.token(['search']);
  const start = org.balance();
  const cases: [string, Record<string, string | number>, string][] = [
    ['/decisions/search', {}, 'query'], ['/decisions/search', { query: 'a' }, 'query'],
    ['/decisions/search', { query: 'x'.repeat(501) }, 'query'], ['/decisions/search', { query: 'Miete', limit: 21 }, 'limit'],
    ['/decisions/search', { query: 'Miete', limit: 0 }, 'limit'], ['/decisions/search', { query: 'Miete', page: 11 }, 'page'],
    ['/decisions/search', { query: 'Miete', page: 0 }, 'page'], ['/decisions/search', { query: 'Miete', mode: 'fuzzy' }, 'mode'],
    ['/decisions/search', { query: 'Miete', branch: 'zivil' }, 'branch'],
    ['/decisions/search', { query: 'Miete', document_type: 'Urteile' }, 'document_type'],
    ['/decisions/search', { query: 'Miete', date_from: '2020-02-30' }, 'date_from'],
    ['/decisions/search', { query: 'Miete', date_from: '2021-01-01', date_to: '2020-01-01' }, 'date_to'],
    ['/decisions/search', { query: 'Miete', bridge: 'maybe' }, 'bridge'],
    ['/decisions/search', { query: 'Miete', cited_norm: 'Kündigung' }, 'cited_norm'],
    ['/search', { query: 'Miete', jurisdiction: 'US' }, 'jurisdiction'], ['/search', { query: 'Miete', limit: 0 }, 'limit'],
    ['/search', { query: 'Miete', cited_norm: '§ 573' }, 'cited_norm'], ['/search', { query: ' ' }, 'query'],
    // Lengths are Unicode code points: one emoji is one character (two UTF-16 units).
    ['/decisions/search', { query: '😀' }, 'query'], ['/search', { query: '😀'.repeat(501) }, 'query'],
  ];
  for (const [path, params, name] of cases) {
    const reply = await search(path, params, auth);
    assert.equal(reply.status, 422, `${path} ${JSON.stringify(params)}`);
    assert.equal(reply.body.code, 'validation_failed');
    assert.ok(reply.body.errors[name], `${name} named for ${JSON.stringify(params)}: ${JSON.stringify(reply.body.errors)}`);
  }
  assert.equal(org.balance(), start);
  assert.equal((await search('/decisions/search', { query: '😀'.repeat(500), mode: 'keyword' }, auth)).status, 200, '500 code points');
  assert.deepEqual((await search('/decisions/search', {}, auth)).body.errors, { query: ['is required'] });
  const twice = await api.call('GET', '/api/v1/decisions/search?query=Miete&query=Kaution', { token: auth });
  assert.deepEqual(twice.body.errors, { query: ['must be given once, not as a list'] });
  const blank = await api.call('GET', '/api/v1/decisions/search?query=Miete&court=%20%20', { token: auth });
  assert.deepEqual(blank.body.errors, { court: ['must not be blank'] }, 'a court of spaces names none');
  // The same words for arguments whose schema words its own message for a wrong value.
  for (const path of ['/decisions/search?query=Miete&limit=5&limit=6', '/search?query=Miete&jurisdiction=EU&jurisdiction=DE']) {
    const [name] = path.split('&')[1].split('=');
    const repeated = await api.call('GET', `/api/v1${path}`, { token: auth });
    assert.deepEqual(repeated.body.errors, { [name]: ['must be given once, not as a list'] }, path);
  }
});

test('result rows count against the daily row cap, in both endpoints; a full cap refuses', async () => {
  const org = api.org({ plan: 'enterprise' });
  const auth = org.token(['search']);
  const rows = () => (api.services.state.prepare(`SELECT amount FROM daily_counters WHERE organization_id = ? AND unit = 'rows' AND day = ?`)
    .get(org.id, berlinDay(api.now())) as { amount: number } | undefined)?.amount ?? 0;
  const first = await search('/decisions/search', { query: 'Eigenbedarf', mode: 'keyword', limit: 4 }, auth);
  assert.equal(first.body.credits.cost, 1);
  assert.equal(rows(), first.body.results.length);
  const combined = await search('/search', { query: 'Kündigung' }, auth);
  assert.equal(rows(), first.body.results.length + combined.body.sections.laws.length + combined.body.sections.decisions.length);
  api.services.state.prepare(`UPDATE daily_counters SET amount = 60000 WHERE organization_id = ? AND unit = 'rows'`).run(org.id);
  const refused = await search('/decisions/search', { query: 'Eigenbedarf' }, auth);
  assert.deepEqual([refused.status, refused.body.code, refused.body.unit], [429, 'volume_cap', 'rows']);
});

test('GET /search: laws and decisions sections with totals; jurisdiction narrows the laws only; limit capped at 10', async () => {
  const reply = await search('/search', { query: 'Eigenbedarf Kündigung Vermieter' });
  assert.equal(reply.status, 200);
  const body = reply.body;
  assert.equal(body.limit, 5);
  assert.ok(body.sections.laws.length > 0 && body.sections.laws.length <= 5);
  assert.ok(body.sections.decisions.length > 0 && body.sections.decisions.length <= 5);
  const law = body.sections.laws[0];
  assert.deepEqual([law.artifact_type, law.aktenzeichen, law.court, law.date, law.document_type], ['LAW', null, null, null, null]);
  for (const field of ['id', 'title', 'snippet', 'snippets', 'chunk_title', 'rn_range', 'fundstelle', 'breadcrumb', 'abbreviation',
    'law_type', 'jurisdiction', 'confidence']) assert.ok(field in law, field);
  // A unit is its own titled passage: its heading, or its label where it has none (Art. 1 GRCh in the demo corpus).
  const unheaded = (await search('/search', { query: 'Recht Vertrag Datenschutz Artikel', limit: 10 })).body.sections.laws;
  assert.ok(unheaded.some((item: { title: string; chunk_title: string }) => item.chunk_title === item.title), 'a unit without heading');
  assert.ok([...body.sections.laws, ...unheaded].every((item: { chunk_title: unknown }) => typeof item.chunk_title === 'string'));
  assert.ok(body.sections.decisions.every((d: { artifact_type: string }) => d.artifact_type === 'DECISION'));
  for (const section of ['laws', 'decisions']) {
    const totals = body.section_totals[section];
    assert.deepEqual(Object.keys(totals).sort(), ['candidate_pool', 'pool_exhaustive', 'total_available', 'total_available_basis', 'truncated']);
  }
  assert.equal(body.total_available.value, body.section_totals.laws.total_available.value + body.section_totals.decisions.total_available.value);
  assert.ok(body.norms_cited_by_decision_results.some((n: { norm: string }) => n.norm === '§ 573 BGB'));
  assert.ok(Array.isArray(body.frequently_cited_by_results));
  const eu = await search('/search', { query: 'Verarbeitung personenbezogener Daten Auskunft', jurisdiction: 'EU' });
  assert.ok(eu.body.sections.laws.length > 0);
  assert.ok(eu.body.sections.laws.every((l: { jurisdiction: string }) => l.jurisdiction === 'EU'));
  assert.ok(eu.body.sections.decisions.length > 0, 'jurisdiction never empties the decisions');
  assert.deepEqual(eu.body.filters_applied_sections, { jurisdiction: ['laws'] });
  const wide = await search('/search', { query: 'Kündigung', limit: 50 });
  assert.equal(wide.body.limit, 10);
  assert.ok(wide.body.sections.laws.length <= 10 && wide.body.sections.decisions.length <= 10);
  const filtered = await search('/search', { query: 'Kündigung', court: 'BGH', mode: 'keyword' });
  assert.ok(filtered.body.sections.decisions.every((d: { court: string }) => d.court === 'BGH'));
  assert.ok(filtered.body.sections.laws.length > 0, 'decision filters leave the laws alone');
  assert.deepEqual(filtered.body.filters_applied_sections, { court: ['decisions'] });
});

test('GET /search: the bridge adds the norms of a lay term as leading law units; bridge=false adds nothing', async () => {
  const on = await search('/search', { query: 'Vermieter will mich rauswerfen wegen Eigenbedarf' });
  assert.equal(on.body.query_expansion.status, 'applied');
  assert.ok(on.body.sections.laws.some((l: { title: string }) => l.title.startsWith('§ 573 BGB')));
  const off = await search('/search', { query: 'Vermieter will mich rauswerfen wegen Eigenbedarf', bridge: false });
  assert.equal(off.body.query_expansion.status, 'disabled');
  // No exact-citation rule in the combined search: a citation is searched as words, and § 573 BGB leads the laws.
  const cited = await search('/search', { query: '§ 573 BGB' });
  assert.equal(cited.body.mode, 'hybrid');
  assert.match(cited.body.sections.laws[0].title, /^§ 573 BGB/u);
});

test('semantic: nearest decisions by their vectors, every field, passages chosen for the query, nothing invented', async () => {
  const reply = await decisions({ query: 'Vermieter will mich rauswerfen, weil sein Sohn einziehen soll', mode: 'semantic' });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const body = reply.body;
  assert.equal(body.mode, 'semantic');
  assert.equal(body.total_available_basis, 'nearest_decisions_vector_arm');
  assert.deepEqual(Object.keys(body.total_available).sort(), ['is_floor', 'value']);
  assert.ok(body.candidate_pool >= body.results.length && body.results.length === 20);
  assert.equal(body.query_expansion.status, 'applied', 'the bridge applies to the embedded query too');
  // The Eigenbedarf decisions come first, found by meaning (the lay words occur in none of them).
  assert.ok(azs(reply).slice(0, 3).includes('VIII ZR 214/12'), azs(reply).join(', '));
  for (const item of body.results) {
    for (const field of ['id', 'aktenzeichen', 'court', 'date', 'document_type', 'title', 'snippet', 'snippets', 'chunk_title',
      'rn_range', 'fundstelle', 'fortgeltung_checked', 'fortgeltung_note', 'confidence']) assert.ok(field in item, field);
    assert.ok(item.snippet.length > 0 && item.snippets.length >= 1 && item.snippets.length <= 3);
    assert.ok(['high', 'medium', 'low'].includes(item.confidence));
  }
  const ids = body.results.map((r: { id: string }) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'each decision once');
  const second = await decisions({ query: 'Vermieter will mich rauswerfen, weil sein Sohn einziehen soll', mode: 'semantic', page: 2 });
  assert.ok(second.body.results.length > 0 && second.body.results.every((r: { id: string }) => !ids.includes(r.id)), 'pages do not overlap');
  // Words no decision and no model knows: an empty answer, not a 503 and not the nearest noise.
  const unknown = await decisions({ query: 'Quxzyplorb Vrrnktz', mode: 'semantic' });
  assert.deepEqual([unknown.status, unknown.body.results, unknown.body.top_confidence], [200, [], 'none']);
});

test('hybrid fuses the vector arm; a corpus without vectors answers 503 for semantic and runs hybrid without them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-novectors-'));
  const path = join(dir, 'corpus.db');
  copyFileSync(await demoCorpus(), path);
  const db = openCorpus(path);
  db.exec(`DELETE FROM search_vectors; DROP TABLE search_vec; DELETE FROM meta WHERE key = 'search_embedder'`);
  db.close();
  const bare = await startApi({ corpus: path });
  try {
    const org = bare.org({ plan: 'enterprise' });
    const start = org.balance();
    const query = { query: 'Vermieter will mich rauswerfen, weil sein Sohn einziehen soll', bridge: 'false' };
    const refused = await bare.call('GET', `/api/v1/decisions/search?${new URLSearchParams({ ...query, mode: 'semantic' })}`, { token: org.token(['search']) });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.code, 'backend_unavailable');
    assert.match(refused.body.detail, /needs decision vectors/u);
    assert.equal(refused.body.detail.match(/Nothing was charged/gu)?.length, 1, `said once: ${refused.body.detail}`);
    assert.equal(org.balance(), start, 'nothing charged');
    const without = await bare.call('GET', `/api/v1/decisions/search?${new URLSearchParams(query)}`, { token: org.token(['search']) });
    assert.equal(without.status, 200);
    const withVectors = await decisions(query);
    assert.equal(withVectors.body.mode, 'hybrid');
    // The vector arm adds its candidates to the pool and changes the order.
    assert.ok(withVectors.body.candidate_pool > without.body.candidate_pool);
    assert.notDeepEqual(azs(withVectors), azs(without));
    assert.ok(azs(withVectors).slice(0, 3).includes('VIII ZR 214/12'), azs(withVectors).join(', '));
  } finally {
    await bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hybrid never counts fewer decisions than it serves: beyond the lexical matches the count is a floor', async () => {
  const keywordTotal = (await decisions({ query: 'Eigenbedarf', mode: 'keyword' })).body.total_available;
  const hybrid = (await decisions({ query: 'Eigenbedarf' })).body;
  assert.ok(hybrid.results.length > keywordTotal.value, 'the vector arm adds decisions the word is not in');
  assert.ok(hybrid.total_available.value >= hybrid.results.length && hybrid.total_available.is_floor, JSON.stringify(hybrid.total_available));
  // The count is then the decisions a client can page through.
  const served = new Set<string>();
  for (let page = 1; page <= 10; page++) {
    const { results } = (await decisions({ query: 'Eigenbedarf', page })).body;
    if (results.length === 0) break;
    for (const item of results) served.add(item.id);
  }
  assert.equal(hybrid.total_available.value, served.size);
  for (let page = 1; page <= 3; page++) {
    const body = (await decisions({ query: 'Kündigung', document_type: 'Beschluss', limit: 3, page })).body;
    assert.ok(body.total_available.value >= (page - 1) * 3 + body.results.length, `page ${page}`);
  }
  const combined = (await search('/search', { query: 'Kündigung', branch: 'patent' })).body;
  const decisionsSection = combined.section_totals.decisions.total_available;
  assert.ok(decisionsSection.value >= combined.sections.decisions.length);
  assert.equal(combined.total_available.value, combined.section_totals.laws.total_available.value + decisionsSection.value);
});

test('GET /search laws: keyword mode shows only units holding every word; the bridge units of hybrid count in the total', async () => {
  const query = 'Mietminderung Schimmel';
  const keyword = (await search('/search', { query, mode: 'keyword' })).body;
  const laws = keyword.sections.laws as { title: string; confidence: string }[];
  assert.ok(laws.length > 0);
  // Every group (a word or the legal terms the bridge adds for it) answered: § 535 BGB, a bridge norm holding no
  // word for Schimmel, is not shown. Answering every group says medium; high is kept for a first unit well ahead
  // that the bridge or the decisions' citations name too (docs/search.md, "The laws section").
  for (const law of laws) assert.ok(['high', 'medium'].includes(law.confidence), law.title);
  assert.ok(laws.slice(1).every((law) => law.confidence !== 'high'));
  assert.equal(keyword.section_totals.laws.total_available.value, laws.length);
  const hybrid = (await search('/search', { query })).body;
  assert.ok(hybrid.query_expansion.added_norms.length > 0, 'the bridge names norms');
  assert.ok(hybrid.section_totals.laws.total_available.value >= hybrid.sections.laws.length);
  assert.ok(hybrid.sections.laws.length > laws.length, 'the bridge units lead in hybrid');
});
