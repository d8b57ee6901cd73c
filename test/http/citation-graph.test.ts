/**
 * GET /decisions/{id}/citations (endpoint 5) over HTTP: the demo corpus (fixtures/README.md: the hub JURA000000003,
 * the chain 031 → 030 → 029 → 003, 013 citing 003 at three Randnummern) for shapes, and the graph corpus
 * (test/helpers/graph-corpus.ts: a hub with 60 citers, a source with 30 + 30 references) for pages and caps.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../helpers/api.ts';
import { GRAPH, graphCorpus, startDemoAndGraphApis } from '../helpers/graph-corpus.ts';
import { fixtureId } from '../helpers/demo-corpus.ts';
import { berlinDay } from '../../src/accounts/time.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

const get = (api: Api, path: string, token = api.org({ plan: 'enterprise' }).token(['graph'])) =>
  api.call('GET', `/api/v1/decisions/${path}`, { token });

test('depth 1: references in citing order with Randnummern and role, unresolved ones after them, every total and cap', async () => {
  const reply = await get(demo, `${fixture(13)}/citations`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const body = reply.body;
  assert.deepEqual(body.source, { id: fixture(13), aktenzeichen: 'VIII ZR 44/21', court: 'BGH', date: '2022-05-11' });
  assert.deepEqual(body.references.map((e: any) => [e.reference_canonical, e.resolution_status, e.in_corpus, e.rns, e.reference_role]), [
    ['BGH, VIII ZR 214/12', 'resolved', true, [7, 10, 13], 'leitentscheidung'],
    ['LG Berlin, 67 S 123/17', 'resolved', true, [14], null],
    ['BGH, VIII ZR 123/19', 'resolved', true, [15], null],
    ['BGH, VIII ZR 99/16', 'unresolved', false, [11], null],
  ]);
  const [first] = body.references;
  assert.deepEqual(first.corpus, {
    artifact_id: HUB, court: 'BGH', date: '2013-10-23', az: 'VIII ZR 214/12', document_type: 'Urteil',
    ecli: 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0', corpus_url: `${demo.services.config.publicUrl}/api/v1/decisions/${HUB}`,
  });
  assert.equal(first.from_artifact_id, fixture(13));
  assert.equal(first.hop, 1);
  assert.equal(first.via_artifact_id, null);
  assert.equal(body.references[3].corpus, null);
  assert.deepEqual(body.referenced_by, []);
  const { references, referenced_by, source, pagination, fortgeltung_note, api_version, changelog_url, credits, ...rest } = body;
  assert.deepEqual(rest, {
    served_direction: 'both', served_references_total: 4, served_referenced_by_total: 0,
    references_total: 4, references_resolved_total: 3, referenced_by_total: 0, references_unresolved_total: 1,
    references_withheld_reasons: [], totals_scope: 'direct_neighbours', per_direction_cap: 25, unresolved_cap: 25, node_cap: 50,
    nodes_omitted: 0, nodes_omitted_is_floor: false, truncated: false, payload_truncated: false, fortgeltung_checked: false,
  });
  assert.deepEqual(pagination, {
    page: 1, page_size: 25, max_page: 20, reachable_distinct_max: 500, references_pages: 1, referenced_by_pages: 0,
    has_more_references: false, has_more_referenced_by: false, applies_at_depth: 1,
  });
  assert.match(fortgeltung_note, /quashed or superseded/);
  assert.deepEqual(credits, { metered: true, cost: 2, credits_remaining: credits.credits_remaining });
});

test('references that are all unresolved still make one page of references', async () => {
  const body = (await get(demo, `${fixture(7)}/citations?direction=outgoing`)).body;
  assert.equal(body.references_resolved_total, 0);
  assert.ok(body.references.length > 0 && body.references.every((edge: { in_corpus: boolean }) => !edge.in_corpus));
  assert.equal(body.pagination.references_pages, 1);
  assert.equal(body.pagination.has_more_references, false);
});

test('incoming: the hub is cited by 9 distinct decisions, newest first; each edge comes from the citing decision', async () => {
  const body = (await get(demo, `${HUB}/citations?direction=incoming`)).body;
  assert.equal(body.served_direction, 'incoming');
  assert.deepEqual(body.references, []);
  assert.deepEqual(body.references_withheld_reasons, ['direction_not_requested']);
  assert.equal(body.referenced_by_total, 9);
  assert.equal(body.referenced_by.length, 9);
  const dates = body.referenced_by.map((e: any) => e.corpus.date);
  assert.deepEqual(dates, [...dates].sort().reverse());
  for (const edge of body.referenced_by) assert.equal(edge.from_artifact_id, edge.corpus.artifact_id);
  const from13 = body.referenced_by.find((e: any) => e.from_artifact_id === fixture(13));
  assert.deepEqual([from13.rns, from13.reference_role], [[7, 10, 13], 'leitentscheidung']);
  // The adverb 'grundlegend' in 010 Rn 7 marks nothing.
  const from10 = body.referenced_by.find((e: any) => e.from_artifact_id === fixture(10));
  assert.equal(from10.reference_role, null);
});

test('the id may be an ECLI or an Aktenzeichen narrowed by court and date; an ambiguous one is 422 naming the candidates', async () => {
  const byEcli = (await get(demo, 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0/citations?direction=incoming')).body;
  assert.equal(byEcli.source.id, HUB);
  const byAz = (await get(demo, `${encodeURIComponent('VIII ZR 214/12')}/citations`)).body;
  assert.equal(byAz.source.id, HUB);
  const ambiguous = await get(demo, `${encodeURIComponent('7 U 123/18')}/citations`);
  assert.equal(ambiguous.status, 422);
  assert.match(ambiguous.body.errors.id[0], /OLG München, 2019-03-20.*KG, 2019-09-12|KG, 2019-09-12.*OLG München, 2019-03-20/);
  const narrowed = (await get(demo, `${encodeURIComponent('7 U 123/18')}/citations?court=KG`)).body;
  assert.equal(narrowed.source.court, 'KG');
  const byDate = (await get(demo, `${encodeURIComponent('7 U 123/18')}/citations?date=2019-03-20`)).body;
  assert.equal(byDate.source.court, 'OLG München');
  const incoming = (await get(demo, `${encodeURIComponent('7 U 123/18')}/citations?court=OLG%20M%C3%BCnchen&direction=incoming`)).body;
  assert.deepEqual(incoming.referenced_by.map((e: any) => e.from_artifact_id), [fixture(12)]);
});

test('depth 2 follows the chain 031 → 030 → 029 → 003: hop-2 edges name the hop-1 decision they come through', async () => {
  const reply = await get(demo, `${fixture(31)}/citations?depth=2&direction=outgoing`);
  assert.equal(reply.status, 200);
  const body = reply.body;
  assert.equal(body.credits.cost, 4);
  const hopOne = body.references.filter((e: any) => e.hop === 1 && e.in_corpus).map((e: any) => e.corpus.artifact_id);
  assert.deepEqual(hopOne, [fixture(30), fixture(29), HUB]);
  const hopTwo = body.references.filter((e: any) => e.hop === 2);
  assert.ok(hopTwo.length > 0);
  for (const edge of hopTwo) {
    assert.ok(hopOne.includes(edge.via_artifact_id), `${edge.via_artifact_id} is at hop 1`);
    assert.equal(edge.from_artifact_id, edge.via_artifact_id);
    assert.ok(!hopOne.includes(edge.corpus.artifact_id) && edge.corpus.artifact_id !== fixture(31));
  }
  // Incoming at depth 2: 013 and 030 cite 011, and 031 cites 030.
  const incoming = (await get(demo, `${fixture(11)}/citations?depth=2&direction=incoming`)).body;
  assert.deepEqual(incoming.referenced_by.map((e: any) => [e.hop, e.corpus.artifact_id, e.from_artifact_id, e.via_artifact_id]), [
    [1, fixture(13), fixture(13), null],
    [1, fixture(30), fixture(30), null],
    [2, fixture(31), fixture(31), fixture(30)],
  ]);
});

test('paging: 25 distinct decisions per page to the last page, then empty pages; unresolved ones on page 1 only', async () => {
  const token = graph.org({ plan: 'enterprise' }).token(['graph']);
  const pages = [];
  for (let page = 1; page <= 4; page++) pages.push((await get(graph, `${GRAPH.hub.id}/citations?direction=incoming&page=${page}`, token)).body);
  assert.deepEqual(pages.map((p) => p.referenced_by.length), [25, 25, 10, 0]);
  assert.deepEqual(pages.map((p) => p.pagination.has_more_referenced_by), [true, true, false, false]);
  assert.deepEqual(pages.map((p) => p.truncated), [true, true, false, false]);
  assert.equal(pages[0].pagination.referenced_by_pages, 3);
  assert.equal(pages[0].referenced_by_total, 60);
  const seen = pages.flatMap((p) => p.referenced_by.map((e: any) => e.from_artifact_id));
  assert.equal(new Set(seen).size, 60);
  // Newest first: the last citer is the newest.
  assert.equal(seen[0], GRAPH.citers[59].id);

  const first = (await get(graph, `${GRAPH.source.id}/citations?direction=outgoing`, token)).body;
  assert.deepEqual([first.references_resolved_total, first.references_unresolved_total, first.references_total], [30, 30, 60]);
  assert.equal(first.references.filter((e: any) => e.in_corpus).length, 25);
  assert.equal(first.references.filter((e: any) => !e.in_corpus).length, 25);
  assert.deepEqual(first.references_withheld_reasons, ['unresolved_cap', 'other_pages']);
  assert.deepEqual(first.references.filter((e: any) => e.in_corpus).map((e: any) => e.corpus.az),
    GRAPH.citers.slice(0, 25).map((c) => c.az));
  const second = (await get(graph, `${GRAPH.source.id}/citations?direction=outgoing&page=2`, token)).body;
  assert.deepEqual(second.references.map((e: any) => e.corpus?.az), GRAPH.citers.slice(25, 30).map((c) => c.az));
  assert.deepEqual(second.references_withheld_reasons, ['unresolved_on_first_page_only', 'other_pages']);
  assert.equal(second.pagination.has_more_references, false);
});

test('depth 2 caps: at most 50 distinct decisions, 25 per direction when both are asked; the rest counted in nodes_omitted', async () => {
  const token = graph.org({ plan: 'enterprise' }).token(['graph']);
  const incoming = (await get(graph, `${GRAPH.hub.id}/citations?direction=incoming&depth=2`, token)).body;
  assert.equal(incoming.referenced_by.length, 50);
  assert.equal(new Set(incoming.referenced_by.map((e: any) => e.corpus.artifact_id)).size, 50);
  assert.ok(incoming.referenced_by.every((e: any) => e.hop === 1));
  // 60 citers at hop 1 and the source at hop 2 (it cites 30 of them): 61 reached, 50 served.
  assert.equal(incoming.nodes_omitted, 11);
  assert.equal(incoming.truncated, true);

  const outgoing = (await get(graph, `${GRAPH.source.id}/citations?direction=outgoing&depth=2`, token)).body;
  const resolved = outgoing.references.filter((e: any) => e.in_corpus);
  assert.equal(resolved.length, 31);
  assert.deepEqual(resolved.at(-1).corpus.artifact_id, GRAPH.hub.id);
  assert.equal(resolved.at(-1).hop, 2);
  assert.equal(outgoing.nodes_omitted, 0);

  const both = (await get(graph, `${GRAPH.source.id}/citations?depth=2`, token)).body;
  assert.equal(both.references.filter((e: any) => e.in_corpus).length, 25);
  assert.equal(both.referenced_by.length, 0);
  // 30 cited, 25 sampled; hop 2 reaches the hub and CITER[25] (via CITER[24]), a direct neighbour counted once: 31
  // reached, 25 served.
  assert.equal(both.nodes_omitted, 6);
  assert.ok(both.references_withheld_reasons.includes('node_cap'));
});

test('depth 2: a walk cut at its row bound says so (nodes_omitted_is_floor); an uncut one does not', async (t) => {
  const token = graph.org({ plan: 'enterprise' }).token(['graph']);
  const path = `${GRAPH.source.id}/citations?direction=outgoing&depth=2`;
  assert.equal((await get(graph, path, token)).body.nodes_omitted_is_floor, false);
  // A copy where CITER[0] cites the hub at 5,000 more Randnummern: the walk from the source meets 5,000 more rows
  // behind one hop-1 decision and stops at its bound, so more decisions may lie behind the sample than it counts.
  const dir = mkdtempSync(join(tmpdir(), 'juralite-graph-cut-'));
  const copy = join(dir, 'corpus.db');
  copyFileSync(await graphCorpus(), copy);
  const db = openCorpus(copy);
  const insert = db.prepare(`INSERT INTO citation_links (from_row, rn, reference_canonical, reference_type,
    to_row, resolution_status) VALUES ((SELECT row FROM decision_rows WHERE id = ?), ?, 'BGH, VIII ZR 1/20', 'case', (SELECT row FROM decision_rows WHERE id = ?), 'resolved')`);
  db.transaction(() => {
    for (let rn = 1_000; rn < 6_000; rn++) insert.run(GRAPH.citers[0].id, rn, GRAPH.hub.id);
  })();
  db.close();
  const cut = await startApi({ corpus: copy });
  t.after(async () => {
    await cut.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const body = (await get(cut, path)).body;
  assert.equal(body.nodes_omitted_is_floor, true);
  assert.ok(body.references.some((e: any) => e.hop === 2 && e.corpus.artifact_id === GRAPH.hub.id), 'the hub is still reached');
});

test('depth 1 beyond 500 neighbours: the requested direction alone decides truncated', async (t) => {
  // A copy where 501 more decisions cite CITER[59], which itself cites the hub alone.
  const dir = mkdtempSync(join(tmpdir(), 'juralite-graph-wide-'));
  const copy = join(dir, 'corpus.db');
  copyFileSync(await graphCorpus(), copy);
  const db = openCorpus(copy);
  const decision = db.prepare(`INSERT INTO decisions (id, court, text_zstd, text_length, source_format, content_hash, imported_at)
    VALUES (?, 'BGH', compress_text(''), 0, 'rii-xml', ?, '2026-01-01T00:00:00Z')`);
  const edge = db.prepare(`INSERT INTO citation_links (from_row, rn, reference_canonical, reference_type, to_row,
    resolution_status) VALUES ((SELECT row FROM decision_rows WHERE id = ?), 1, ?, 'case', (SELECT row FROM decision_rows WHERE id = ?), 'resolved')`);
  const cited = GRAPH.citers[59];
  db.transaction(() => {
    for (let i = 0; i < 501; i++) {
      decision.run(`wide-${i}`, `hash-${i}`);
      edge.run(`wide-${i}`, `BGH, ${cited.az}`, cited.id);
    }
  })();
  db.close();
  const wide = await startApi({ corpus: copy });
  t.after(async () => {
    await wide.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const outgoing = (await get(wide, `${cited.id}/citations?direction=outgoing`)).body;
  assert.deepEqual([outgoing.references.length, outgoing.referenced_by_total, outgoing.truncated], [1, 501, false]);
  const incoming = (await get(wide, `${cited.id}/citations?direction=incoming`)).body;
  assert.deepEqual([incoming.referenced_by.length, incoming.truncated], [25, true]);
});

test('graph neighbours served count against the daily row cap; the free repeat in the same month costs nothing', async () => {
  const org = demo.org({ plan: 'enterprise' });
  const token = org.token(['graph']);
  const rows = () => (demo.services.state.prepare(`SELECT amount FROM daily_counters WHERE organization_id = ? AND unit = 'rows' AND day = ?`)
    .get(org.id, berlinDay(demo.now())) as { amount: number } | undefined)?.amount ?? 0;
  const first = await get(demo, `${fixture(13)}/citations`, token);
  assert.equal(first.body.credits.cost, 2);
  assert.equal(rows(), 3);
  const again = await get(demo, `${fixture(13)}/citations`, token);
  assert.equal(again.body.credits.cost, 0);
  assert.equal(rows(), 6);
  await get(demo, `${HUB}/citations?direction=incoming`, token);
  assert.equal(rows(), 15);
});

test('422 for every invalid argument, named; 404 for an unknown decision; 503 without a corpus', async () => {
  const cases: [string, string][] = [
    ['direction=sideways', 'direction'], ['depth=3', 'depth'], ['depth=0', 'depth'], ['page=0', 'page'], ['page=21', 'page'],
    ['page=x', 'page'], ['date=2020-02-30', 'date'], ['depth=2&page=2', 'page'],
  ];
  for (const [query, argument] of cases) {
    const reply = await get(demo, `${HUB}/citations?${query}`);
    assert.equal(reply.status, 422, query);
    assert.deepEqual(Object.keys(reply.body.errors), [argument], query);
  }
  const unknown = await get(demo, '00000000-0000-5000-8000-000000000000/citations');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.code, 'not_found');
  assert.equal((await get(demo, `${encodeURIComponent('IX ZR 999/99')}/citations`)).status, 404);
  const none = await startApi({ corpus: 'none' });
  try {
    const reply = await get(none, `${HUB}/citations`);
    assert.equal(reply.status, 503);
    assert.equal(reply.body.code, 'backend_unavailable');
  } finally {
    await none.close();
  }
});

test('401 without a token, 409 for a token without organization, 403 without the graph ability, 402 without credits, 429 at the row cap: nothing charged', async () => {
  assert.equal((await demo.call('GET', `/api/v1/decisions/${HUB}/citations`)).status, 401);
  const orphan = demo.org({ plan: 'enterprise' }).token(['graph']);
  demo.services.state.prepare('UPDATE tokens SET organization_id = NULL WHERE id = ?').run(orphan.slice(3, 19));
  assert.equal((await get(demo, `${HUB}/citations`, orphan)).body.code, 'token_org_missing');
  const org = demo.org({ plan: 'free' });
  const forbidden = await get(demo, `${HUB}/citations`, org.token(['read']));
  assert.deepEqual([forbidden.status, forbidden.body.required_ability], [403, 'graph']);
  org.spendAll();
  const poor = await get(demo, `${HUB}/citations`, org.token(['graph']));
  assert.deepEqual([poor.status, poor.body.code, poor.body.cost], [402, 'insufficient_credits', 2]);
  const capped = demo.org({ plan: 'enterprise' });
  demo.services.state.prepare(`INSERT INTO daily_counters (organization_id, day, unit, amount) VALUES (?, ?, 'rows', 60000)`)
    .run(capped.id, berlinDay(demo.now()));
  const before = capped.balance();
  const reply = await get(demo, `${HUB}/citations`, capped.token(['graph']));
  assert.deepEqual([reply.status, reply.body.code, reply.body.unit, reply.body.cap], [429, 'volume_cap', 'rows', 60000]);
  assert.equal(capped.balance(), before);
});
