/**
 * POST /datapackages (endpoint 8) over HTTP: order and duplicates, excerpts and full texts, the per-source edge caps
 * with edge_accounting, the response budget, the daily document cap and every refusal.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../helpers/api.ts';
import { GRAPH, startDemoAndGraphApis } from '../helpers/graph-corpus.ts';
import { fixtureId } from '../helpers/demo-corpus.ts';
import { berlinDay } from '../../src/accounts/time.ts';
import { RESPONSE_BUDGET_CHARS } from '../../src/graph/datapackage.ts';

let demo: Api;
let graph: Api;
const fixture = fixtureId;
const HUB = fixture(3);

before(async () => {
  ({ demo, graph } = await startDemoAndGraphApis());
});
after(async () => {
  await Promise.all([demo.close(), graph.close()]);
});

const post = (api: Api, body: unknown, token = api.org({ plan: 'enterprise' }).token(['datapackage'])) =>
  api.call('POST', '/api/v1/datapackages', { token, body });

test('excerpts of about 700 characters in the order asked; duplicates (by UUID, ECLI or Aktenzeichen) collapse', async () => {
  const reply = await post(demo, { ids: [fixture(13), HUB, 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0', fixture(13), 'VIII ZR 214/12'] });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const body = reply.body;
  assert.deepEqual(body.decisions.map((d: any) => d.id), [fixture(13), HUB]);
  assert.deepEqual([body.requested, body.included, body.deduped], [5, 2, 3]);
  const [first] = body.decisions;
  assert.deepEqual(Object.keys(first).sort(), ['aktenzeichen', 'court', 'date', 'document_type', 'ecli', 'excerpt', 'excerpt_span',
    'fortgeltung_checked', 'fortgeltung_note', 'id', 'jurisdiction', 'text_length', 'truncated'].sort());
  assert.deepEqual([first.aktenzeichen, first.court, first.date, first.document_type, first.jurisdiction, first.excerpt_span],
    ['VIII ZR 44/21', 'BGH', '2022-05-11', 'Urteil', 'DE', 'document_start']);
  assert.ok(first.excerpt.length > 560 && first.excerpt.length <= 700, String(first.excerpt.length));
  assert.ok(first.truncated);
  assert.equal(first.fortgeltung_checked, false);
  assert.deepEqual([body.text_mode, body.max_chars, body.truncated, body.payload_truncated, body.dropped_ids], ['excerpt', 700, false, false, []]);
  assert.deepEqual([body.per_source_resolved_target_cap, body.per_source_unresolved_edge_row_cap], [25, 25]);
  assert.ok(Math.abs(Date.parse(body.assembled_at) - demo.now().getTime()) < 1000);
  assert.equal(body.credits.cost, 5);
});

test('include_citations: every outgoing edge row of each decision, without hop, and its edge_accounting', async () => {
  const body = (await post(demo, { ids: [fixture(13), HUB] })).body;
  const from13 = body.citation_edges.filter((e: any) => e.from_artifact_id === fixture(13));
  assert.deepEqual(from13.map((e: any) => [e.reference_canonical, e.rns, e.resolution_status]), [
    ['BGH, VIII ZR 214/12', [7], 'resolved'], ['BGH, VIII ZR 214/12', [10], 'resolved'], ['BGH, VIII ZR 99/16', [11], 'unresolved'],
    ['BGH, VIII ZR 214/12', [13], 'resolved'], ['LG Berlin, 67 S 123/17', [14], 'resolved'], ['BGH, VIII ZR 123/19', [15], 'resolved'],
  ]);
  assert.ok(body.citation_edges.every((e: any) => !('hop' in e)));
  assert.equal(from13[0].corpus.artifact_id, HUB);
  assert.deepEqual(body.edge_accounting.map((a: any) => a.from_artifact_id), [fixture(13), HUB]);
  assert.deepEqual(body.edge_accounting[0], {
    from_artifact_id: fixture(13), unit: 'edge_rows', edges_total: 6, edges_included: 6, edges_resolved_included: 5,
    edges_unresolved_included: 1, edges_resolved_total: 5, edges_unresolved_total: 1, targets_resolved_included: 3,
    targets_resolved_total: 3,
  });
  const without = (await post(demo, { ids: [fixture(13)], include_citations: false })).body;
  assert.deepEqual([without.citation_edges, without.edge_accounting], [[], []]);
});

test('per-source caps: the rows of 25 resolved targets and 25 unresolved rows, the rest counted', async () => {
  const body = (await post(graph, { ids: [GRAPH.source.id] })).body;
  assert.deepEqual(body.edge_accounting[0], {
    from_artifact_id: GRAPH.source.id, unit: 'edge_rows', edges_total: 60, edges_included: 50, edges_resolved_included: 25,
    edges_unresolved_included: 25, edges_resolved_total: 30, edges_unresolved_total: 30, targets_resolved_included: 25,
    targets_resolved_total: 30,
  });
  assert.deepEqual(body.citation_edges.filter((e: any) => e.in_corpus).map((e: any) => e.corpus.az), GRAPH.citers.slice(0, 25).map((c) => c.az));
  assert.equal(body.truncated, true);
  assert.equal(body.payload_truncated, false);
});

test('full_text: whole texts up to max_chars, cut texts marked; full texts count against the daily document cap', async () => {
  const org = demo.org({ plan: 'enterprise' });
  const token = org.token(['datapackage']);
  const documents = () => (demo.services.state.prepare(`SELECT amount FROM daily_counters WHERE organization_id = ? AND unit = 'documents' AND day = ?`)
    .get(org.id, berlinDay(demo.now())) as { amount: number } | undefined)?.amount ?? 0;
  const whole = (await post(demo, { ids: [fixture(11), HUB], full_text: true }, token)).body;
  assert.deepEqual([whole.text_mode, whole.max_chars], ['full_text', 60000]);
  for (const d of whole.decisions) {
    assert.deepEqual([d.excerpt_span, d.truncated, [...d.excerpt].length], ['whole_document', false, d.text_length]);
  }
  assert.equal(documents(), 2);
  const cut = (await post(demo, { ids: [HUB], full_text: true, max_chars: 500 }, token)).body;
  assert.deepEqual([cut.decisions[0].excerpt_span, cut.decisions[0].truncated, [...cut.decisions[0].excerpt].length], ['document_start', true, 500]);
  assert.equal(cut.truncated, true);
  assert.equal(documents(), 3);
  await post(demo, { ids: [HUB] }, token);
  assert.equal(documents(), 3, 'excerpts are no full texts');
});

test('the response budget drops decisions from the end and says so', async () => {
  const ids = [GRAPH.long[0].id, GRAPH.hub.id, ...GRAPH.long.slice(1).map((l) => l.id)];
  const body = (await post(graph, { ids, full_text: true, max_chars: 200000 })).body;
  const kept = Math.floor(RESPONSE_BUDGET_CHARS / 176_643) + 1;
  assert.deepEqual(body.decisions.map((d: any) => d.id), ids.slice(0, kept));
  assert.deepEqual(body.dropped_ids, ids.slice(kept));
  assert.deepEqual([body.requested, body.included, body.truncated, body.payload_truncated], [7, kept, true, true]);
  assert.ok(body.decisions.every((d: any) => d.truncated === false));
});

test('422 for every invalid argument, named: ids (empty, too many, not an array, unknown, ambiguous), max_chars, flags', async () => {
  const cases: [unknown, string][] = [
    [{}, 'ids'], [{ ids: [] }, 'ids'], [{ ids: Array.from({ length: 11 }, () => HUB) }, 'ids'], [{ ids: HUB }, 'ids'],
    [{ ids: [42] }, 'ids'], [{ ids: [HUB], max_chars: 499 }, 'max_chars'], [{ ids: [HUB], max_chars: 200001 }, 'max_chars'],
    [{ ids: [HUB], include_citations: 'yes' }, 'include_citations'], [{ ids: [HUB], full_text: 1 }, 'full_text'],
  ];
  for (const [body, argument] of cases) {
    const reply = await post(demo, body);
    assert.equal(reply.status, 422, JSON.stringify(body));
    assert.deepEqual(Object.keys(reply.body.errors), [argument], JSON.stringify(body));
  }
  // Missing arguments and wrong types in plain words, not the validator's.
  assert.deepEqual((await post(demo, {})).body.errors, { ids: ['is required'] });
  assert.deepEqual((await post(demo, { ids: [42] })).body.errors, { ids: ['ids[0] must be a string'] });
  assert.deepEqual((await post(demo, { ids: [['a']] })).body.errors, { ids: ['ids[0] must not be a list'] });
  // The schema's own messages name the item too.
  assert.deepEqual((await post(demo, { ids: [fixture(3), ' ', 'x'.repeat(201)] })).body.errors,
    { ids: ['ids[1] must not be blank', 'ids[2] must be at most 200 characters'] });
  assert.deepEqual((await post(demo, { ids: [HUB], full_text: 1 })).body.errors, { full_text: ['must be true or false'] });
  const org = demo.org({ plan: 'enterprise' });
  const before = org.balance();
  const unknown = await post(demo, { ids: [HUB, '00000000-0000-5000-8000-000000000000', '7 U 123/18'] }, org.token(['datapackage']));
  assert.equal(unknown.status, 422);
  assert.deepEqual(unknown.body.errors.ids.map((m: string) => m.slice(0, 7)), ['ids[1] ', 'ids[2] ']);
  assert.match(unknown.body.errors.ids[0], /names no decision/);
  assert.match(unknown.body.errors.ids[1], /names several decisions/);
  assert.equal(org.balance(), before);
});

test('401, 409, 403 without the datapackage ability, 402, 429 at the document cap with full_text only, 503 without a corpus', async () => {
  assert.equal((await demo.call('POST', '/api/v1/datapackages', { body: { ids: [HUB] } })).status, 401);
  const orphan = demo.org({ plan: 'enterprise' }).token(['datapackage']);
  demo.services.state.prepare('UPDATE tokens SET organization_id = NULL WHERE id = ?').run(orphan.slice(3, 19));
  assert.equal((await post(demo, { ids: [HUB] }, orphan)).status, 409);
  const poor = demo.org({ plan: 'free' });
  for (let spent = 0; spent < 6; spent++) {
    const paid = await post(demo, { ids: [fixture(spent + 1)] }, poor.token(['datapackage']));
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
  }
  assert.equal(poor.balance(), 0);
  // (ids [HUB] alone was paid in the loop: free again this month.)
  const refused = await post(demo, { ids: [fixture(20)] }, poor.token(['datapackage']));
  assert.deepEqual([refused.status, refused.body.code, refused.body.cost, refused.body.balance], [402, 'insufficient_credits', 5, 0]);
  const org = demo.org({ plan: 'enterprise' });
  const forbidden = await post(demo, { ids: [HUB] }, org.token(['read', 'graph']));
  assert.deepEqual([forbidden.status, forbidden.body.required_ability], [403, 'datapackage']);
  demo.services.state.prepare(`INSERT INTO daily_counters (organization_id, day, unit, amount) VALUES (?, ?, 'documents', 2000)`)
    .run(org.id, berlinDay(demo.now()));
  const token = org.token(['datapackage']);
  const capped = await post(demo, { ids: [HUB], full_text: true }, token);
  assert.deepEqual([capped.status, capped.body.code, capped.body.unit, capped.body.cap], [429, 'volume_cap', 'documents', 2000]);
  assert.equal((await post(demo, { ids: [HUB] }, token)).status, 200, 'excerpts are not capped');
  const none = await startApi({ corpus: 'none' });
  try {
    const reply = await post(none, { ids: [HUB] });
    assert.deepEqual([reply.status, reply.body.code], [503, 'backend_unavailable']);
  } finally {
    await none.close();
  }
});
