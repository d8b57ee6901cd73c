/**
 * POST /citation-checks (1) and GET /citation-checks/{run} (2) over HTTP on the demo corpus (fixtures/README.md):
 * the run object of the contract, the verdicts, code-point offsets, chains, the price by length and the free repeat,
 * every refusal, and reading a run back.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api, type Reply, type TestOrg } from '../helpers/api.ts';
import { ABILITIES } from '../../src/accounts/tokens.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { ALTERED, buildBrief } from '../citations/claims-brief.ts';

const CHECKS = '/api/v1/citation-checks';
let api: Api;
/** Pays for the checks whose price is not under test. */
let rich: TestOrg;

before(async () => {
  api = await startApi({ corpus: 'demo' });
  rich = api.org({ plan: 'enterprise' });
});
after(() => api.close());

// --- Calls -------------------------------------------------------------------------------------------------------

/** Checks take a heavy rate slot (10 a minute per token), so every call gets a fresh token of its organization. */
const post = (body: unknown, org = rich): Promise<Reply> =>
  api.call('POST', CHECKS, { token: org.token(['citation-check']), body });
const getRun = (id: string, org = rich): Promise<Reply> =>
  api.call('GET', `${CHECKS}/${encodeURIComponent(id)}`, { token: org.token(['citation-check']) });

/** A successful check: the run. */
async function check(text: string, extra: Record<string, unknown> = {}, org = rich): Promise<any> {
  const reply = await post({ text, ...extra }, org);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

function findingOf(run: any, canonical: string): any {
  const found = run.findings.filter((f: any) => f.canonical === canonical);
  assert.equal(found.length, 1, `one finding ${canonical} in ${JSON.stringify(run.findings.map((f: any) => f.canonical))}`);
  return found[0];
}

function assertProblem(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(reply.body.status, status);
  assert.equal(reply.body.code, code);
  assert.equal(reply.body.type, `${api.services.config.docsUrl}/api/errors#${code}`);
  assert.equal(typeof reply.body.title, 'string');
  assert.equal(typeof reply.body.detail, 'string');
}

function spendAll(org: TestOrg): void {
  org.spendAll();
  assert.equal(org.balance(), 0);
}

// --- Texts -------------------------------------------------------------------------------------------------------

const codePoints = (text: string) => Array.from(text).length;
/** The code points [start, end) of `text`: what a finding's offsets must cut out. */
const cut = (text: string, start: number, end: number) => Array.from(text).slice(start, end).join('');

/** Prose with two legal-signal categories (a court, procedural vocabulary) and no citation. */
const LEGAL_PROSE = 'Die Kammer hat den Vortrag der Parteien umfassend gewürdigt; die Einwände der Beklagten greifen nicht durch.';
/** Prose with no legal signal at all. */
const PLAIN_PROSE = 'Dieser Satz steht nur hier, damit der Text die verlangte Länge erreicht und sonst nichts.';
/** A statute reference and procedural vocabulary: two signal categories. */
const BASE = 'Die Klägerin stützt ihren Anspruch auf § 573 Abs. 2 Nr. 2 BGB.';
/** Two signal categories in 19 characters. */
const SHORT = 'Klage aus § 573 BGB';
/** One signal category only, however long it is made. */
const LONE_STATUTE = '§ 823 Abs. 1 BGB regelt die Haftung für unerlaubte Handlungen im deutschen Recht allgemein.';

/** `text` followed by `prose` repeated, cut to exactly `length` code points. */
function padTo(text: string, length: number, prose = LEGAL_PROSE): string {
  const chars = Array.from(text);
  assert.ok(chars.length <= length, `"${text}" is longer than ${length}`);
  const filler = Array.from(` ${prose}`);
  while (chars.length < length) chars.push(...filler);
  const padded = chars.slice(0, length).join('');
  assert.equal(codePoints(padded), length);
  return padded;
}

/** A sentence with a citation and a procedural word, so that the text shows two signal categories. */
const cites = (citation: string) => `Die Klägerin beruft sich zur Begründung ihres Antrags auf ${citation}.`;

// --- The run object ----------------------------------------------------------------------------------------------

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const KINDS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  timestamp: (value) => typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)),
  date: (value) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value),
  null: (value) => value === null,
  any: () => true,
};

/** Every field is present and of one of its kinds ('string|null'); fields beyond these are allowed (v1 grows). */
function assertFields(value: any, fields: Record<string, string>, where: string): void {
  assert.ok(KINDS.object(value), `${where} is an object: ${JSON.stringify(value)}`);
  for (const [name, kind] of Object.entries(fields)) {
    assert.ok(Object.hasOwn(value, name), `${where}.${name} is missing`);
    assert.ok(kind.split('|').some((k) => KINDS[k](value[name])), `${where}.${name} should be ${kind}: ${JSON.stringify(value[name])}`);
  }
}

const RUN_FIELDS = {
  id: 'string', status: 'string', source: 'string', progress: 'object', verdict_counts: 'object', partial: 'boolean',
  unverified_count: 'integer', reason_counts: 'array', unique_citations: 'array', extraction: 'object', notes: 'array',
  findings_unavailable_reason: 'string|null', findings_purged_at: 'timestamp|null', findings: 'array',
  submitted_at: 'timestamp', completed_at: 'timestamp', created_at: 'timestamp', payload_truncated: 'boolean',
  api_version: 'string', changelog_url: 'string', credits: 'object', claim_counts: 'object',
};
const UNIQUE_FIELDS = {
  key_basis: 'string', target_artifact_id: 'string|null', canonical: 'string', spellings: 'array', occurrences: 'integer',
  verdict: 'string', reference_type: 'string',
};
const EXTRACTION_INTEGERS = ['detected', 'dropped', 'dropped_unreadable', 'dropped_truncation', 'dropped_trailing_noun',
  'dropped_stacked_subdivision', 'dropped_refused_collision', 'not_verifiable', 'possible_citations_unparsed'];
const EXTRACTION_ARRAYS = ['dropped_by_token', 'dropped_unreadable_texts', 'refused_contract_collision', 'not_verifiable_by_type',
  'possible_citations_unparsed_texts'];
const FINDING_FIELDS = {
  id: 'string', raw_text: 'string', canonical: 'string', type: 'string', role: 'string|null', verdict: 'string',
  external_status: 'string', start_offset: 'integer', end_offset: 'integer', occurrence_index: 'integer', confidence: 'any',
  matched_decision: 'object|null', subdivision_check: 'string', subdivision_advisory: 'string|null', check_scope: 'object',
  ambiguity_advisory: 'string|null', coverage: 'any', coverage_boundary: 'any', coverage_advisory: 'any', evidence: 'object',
  disputed_at: 'timestamp|null', pinpoint: 'object|null', pinpoint_check: 'string', pinpoint_advisory: 'string|null',
  quotations: 'array', claim_check: 'string',
};
const QUOTATION_FIELDS = {
  text: 'string', start_offset: 'integer', end_offset: 'integer', omissions: 'integer', check: 'string', similarity: 'any',
  rn_from: 'integer|null', rn_to: 'integer|null', section: 'string|null', best_match: 'string|null', advisory: 'string|null',
};

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The run object of the contract, field by field, and its counters agree with its findings. */
function assertRun(run: any): void {
  assertFields(run, RUN_FIELDS, 'run');
  assert.equal(run.status, 'complete');
  assert.equal(run.source, 'api_v1');
  assertFields(run.progress, { citations_total: 'integer', citations_checked: 'integer', unique_citations_total: 'integer' }, 'progress');
  for (const [verdict, count] of Object.entries(run.verdict_counts)) assert.ok(Number.isInteger(count), `verdict_counts.${verdict}`);
  for (const item of run.reason_counts) assertFields(item, { category: 'string', count: 'integer' }, 'reason_counts[]');
  for (const item of run.unique_citations) {
    assertFields(item, UNIQUE_FIELDS, 'unique_citations[]');
    assert.ok(['matched_decision', 'canonical'].includes(item.key_basis), item.key_basis);
    assert.ok(['case', 'statute'].includes(item.reference_type), item.reference_type);
    assert.ok(item.spellings.length > 0 && item.spellings.every((s: unknown) => typeof s === 'string'));
  }
  assertFields(run.extraction, Object.fromEntries([
    ...EXTRACTION_INTEGERS.map((name) => [name, 'integer']), ...EXTRACTION_ARRAYS.map((name) => [name, 'array'])]), 'extraction');
  for (const f of run.findings) {
    assertFields(f, FINDING_FIELDS, `finding ${f.id}`);
    assert.ok(['case', 'statute'].includes(f.type), f.type);
    assert.equal(f.external_status, 'skipped');
    assert.ok(f.start_offset >= 0 && f.start_offset < f.end_offset, `${f.id}: [${f.start_offset}, ${f.end_offset})`);
    if (f.matched_decision) {
      assertFields(f.matched_decision, { artifact_id: 'string', ecli: 'string', court: 'string', date: 'date' }, `${f.id}.matched_decision`);
    }
    assertFields(f.check_scope, { subdivision: 'string', article_text_available: 'boolean|null', article_text_read: 'boolean', court: 'string' },
      `${f.id}.check_scope`);
    assertFields(f.evidence, { reason: 'string', match_strength: 'string', citation_date_source: 'string' }, `${f.id}.evidence`);
    assert.ok(['sentence', 'reference_date', 'none'].includes(f.evidence.citation_date_source), f.evidence.citation_date_source);
    assert.ok(['verified', 'not_found', 'not_checked', 'not_applicable'].includes(f.pinpoint_check), f.pinpoint_check);
    assert.ok(['supported', 'not_supported', 'not_checked', 'not_applicable'].includes(f.claim_check), f.claim_check);
    for (const q of f.quotations) {
      assertFields(q, QUOTATION_FIELDS, `${f.id}.quotations[]`);
      assert.ok(['found', 'not_found', 'not_checked'].includes(q.check), q.check);
    }
  }
  const claimed = (check: string) => run.findings.filter((f: any) => f.claim_check === check).length;
  assert.deepEqual(run.claim_counts, { supported: claimed('supported'), not_supported: claimed('not_supported'), not_checked: claimed('not_checked') });
  // The counters describe the findings (none are cut from these small texts).
  assert.equal(run.payload_truncated, false);
  const total = run.findings.length;
  assert.equal(run.progress.citations_total, total);
  assert.equal(run.progress.citations_checked, total);
  assert.equal(run.progress.unique_citations_total, run.unique_citations.length);
  assert.equal(sum(Object.values(run.verdict_counts) as number[]), total);
  for (const [verdict, count] of Object.entries(run.verdict_counts)) {
    assert.equal(run.findings.filter((f: any) => f.verdict === verdict).length, count, `verdict_counts.${verdict}`);
  }
  assert.equal(run.unverified_count, run.findings.filter((f: any) => f.verdict !== 'verified').length);
  assert.equal(sum(run.reason_counts.map((r: any) => r.count)), total);
  assert.equal(sum(run.unique_citations.map((u: any) => u.occurrences)), total);
  assert.equal(new Set(run.findings.map((f: any) => f.id)).size, total, 'finding ids are unique');
  assert.ok(run.submitted_at <= run.completed_at);
  assert.equal(run.api_version, api.services.config.release);
  assert.equal(run.changelog_url, api.services.config.changelogUrl);
  assertFields(run.credits, { metered: 'boolean', cost: 'integer', credits_remaining: 'integer' }, 'credits');
}

test('success: the whole run object of the contract with the envelope', async () => {
  const org = api.org({ plan: 'starter' });
  const balance = org.balance();
  const text = 'Die Klägerin beruft sich auf BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10, und auf '
    + '§ 573 Abs. 2 Nr. 2 BGB. Die Beklagte hält § 999 BGB und das Urteil 7 U 123/18 entgegen.';
  const reply = await post({ text }, org);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(reply.headers.get('x-service-api-release'), api.services.config.release);
  const run = reply.body;
  assertRun(run);
  assert.match(run.id, /\S/);
  assert.deepEqual(run.credits, { metered: true, cost: 2, credits_remaining: balance - 2 });
  assert.deepEqual(run.findings.map((f: any) => [f.canonical, f.type, f.verdict]), [
    ['BGH, VIII ZR 214/12', 'case', 'verified'],
    ['§ 573 Abs. 2 Nr. 2 BGB', 'statute', 'verified'],
    ['§ 999 BGB', 'statute', 'not_found'],
    ['7 U 123/18', 'case', 'ambiguous'],
  ]);
  assert.deepEqual(run.verdict_counts, { verified: 2, not_found: 1, ambiguous: 1 });
  assert.equal(run.unverified_count, 2);
  assert.equal(run.partial, false);
  assert.equal(run.findings_unavailable_reason, null);
  assert.equal(run.findings_purged_at, null);
  for (const f of run.findings) assert.equal(f.raw_text, cut(text, f.start_offset, f.end_offset), f.id);
  const exact = run.findings[1];
  assert.deepEqual([exact.evidence.reason, exact.evidence.match_strength, exact.evidence.citation_date_source], ['exact_match', 'exact', 'none']);
  // The decision cited is grouped by the decision it matched, the statutes by canonical form.
  assert.deepEqual(run.unique_citations.map((u: any) => [u.key_basis, u.canonical, u.reference_type, u.verdict]), [
    ['matched_decision', 'BGH, VIII ZR 214/12', 'case', 'verified'],
    ['canonical', '§ 573 Abs. 2 Nr. 2 BGB', 'statute', 'verified'],
    ['canonical', '§ 999 BGB', 'statute', 'not_found'],
    ['canonical', '7 U 123/18', 'case', 'ambiguous'],
  ]);
  assert.equal(run.unique_citations[0].target_artifact_id, run.findings[0].matched_decision.artifact_id);
  assert.deepEqual(run.unique_citations[0].spellings, ['BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12']);
  // Timestamps are the server's clock.
  for (const field of ['submitted_at', 'completed_at', 'created_at']) {
    assert.ok(Math.abs(Date.parse(run[field]) - api.now().getTime()) < 60_000, `${field} ${run[field]}`);
  }
});

test('one decision cited three times, once by ECLI: one unique citation, occurrences and spellings', async () => {
  const text = 'Die Klägerin zitiert BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10, sowie '
    + 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0 und erneut BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12.';
  const run = await check(text);
  assertRun(run);
  assert.deepEqual(run.findings.map((f: any) => [f.verdict, f.occurrence_index]), [['verified', 0], ['verified', 0], ['verified', 1]]);
  assert.equal(run.unique_citations.length, 1);
  const [unique] = run.unique_citations;
  assert.equal(unique.key_basis, 'matched_decision');
  assert.equal(unique.occurrences, 3);
  assert.deepEqual(unique.spellings, ['BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12', 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0']);
  assert.ok(run.findings.every((f: any) => f.matched_decision.artifact_id === unique.target_artifact_id));
});

// --- Verdicts on the demo corpus ---------------------------------------------------------------------------------

interface VerdictCase {
  name: string;
  citation: string;
  canonical: string;
  type: 'case' | 'statute';
  verdict: string;
  more?: (finding: any, run: any) => void | Promise<void>;
}

const VERDICTS: VerdictCase[] = [
  {
    name: 'a decision held (BGH VIII ZR 214/12)',
    citation: 'BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12',
    canonical: 'BGH, VIII ZR 214/12', type: 'case', verdict: 'verified',
    more: async (f) => {
      assert.deepEqual({ ...f.matched_decision, artifact_id: typeof f.matched_decision.artifact_id },
        { artifact_id: 'string', ecli: 'ECLI:DE:BGH:2013:231013UVIIIZR214.12.0', court: 'BGH', date: '2013-10-23' });
      assert.equal(f.check_scope.court, 'checked');
      assert.deepEqual([f.evidence.reason, f.evidence.match_strength], ['exact_match', 'exact']);
      // The artifact id is the decision's id in the rest of the API.
      const decision = await api.call('GET', `/api/v1/decisions/${encodeURIComponent(f.matched_decision.ecli)}?max_chars=500`,
        { token: rich.token(['read']) });
      assert.equal(decision.body.id, f.matched_decision.artifact_id);
    },
  },
  {
    name: 'the court and date disambiguate 7 U 123/18 (OLG München)',
    citation: 'OLG München, Urteil vom 20. März 2019 - 7 U 123/18',
    canonical: 'OLG München, 7 U 123/18', type: 'case', verdict: 'verified',
    more: (f) => assert.deepEqual([f.matched_decision.court, f.matched_decision.date], ['OLG München', '2019-03-20']),
  },
  {
    name: 'the court and date disambiguate 7 U 123/18 (KG)',
    citation: 'KG, Urteil vom 12. September 2019 - 7 U 123/18',
    canonical: 'KG, 7 U 123/18', type: 'case', verdict: 'verified',
    more: (f) => assert.deepEqual([f.matched_decision.court, f.matched_decision.date], ['KG', '2019-09-12']),
  },
  {
    name: 'a statute held (§ 573 Abs. 2 Nr. 2 BGB), its subdivision checked',
    citation: '§ 573 Abs. 2 Nr. 2 BGB',
    canonical: '§ 573 Abs. 2 Nr. 2 BGB', type: 'statute', verdict: 'verified',
    more: (f, run) => {
      assert.equal(f.matched_decision, null);
      assert.equal(f.subdivision_check, 'verified');
      assert.deepEqual([f.check_scope.article_text_available, f.check_scope.article_text_read], [true, true]);
      assert.equal(run.unique_citations[0].key_basis, 'canonical');
      assert.equal(typeof run.unique_citations[0].target_artifact_id, 'string');
    },
  },
  {
    name: 'a BGH Aktenzeichen inside BGH\'s coverage (2004 to 2023, derived from the holdings) that is not held',
    citation: 'BGH, Urteil vom 1. Februar 2010 - VIII ZR 999/09',
    canonical: 'BGH, VIII ZR 999/09', type: 'case', verdict: 'not_in_corpus',
    more: (f) => {
      assert.equal(f.matched_decision, null);
      assert.match(f.coverage_advisory, /derived from the decisions it holds.*does not mean it does not exist/);
    },
  },
  {
    name: 'a fixture\'s own out-of-corpus citation inside coverage (BGH VI ZR 138/11, 2012)',
    citation: 'BGH, Urteil vom 12. Juni 2012 - VI ZR 138/11',
    canonical: 'BGH, VI ZR 138/11', type: 'case', verdict: 'not_in_corpus',
  },
  {
    name: 'a § that a held law does not have (§ 999 BGB)',
    citation: '§ 999 BGB',
    canonical: '§ 999 BGB', type: 'statute', verdict: 'not_found',
  },
  {
    name: 'a law the corpus does not hold (§ 1 TKG)',
    citation: '§ 1 TKG',
    canonical: '§ 1 TKG', type: 'statute', verdict: 'out_of_coverage',
  },
  {
    name: 'a court the corpus does not hold (EuGH)',
    citation: 'EuGH, Urteil vom 4. Mai 2023 - C-300/21',
    canonical: 'EuGH, C-300/21', type: 'case', verdict: 'out_of_coverage',
  },
  {
    name: 'a court the corpus does not hold (LG Hamburg)',
    citation: 'LG Hamburg, Urteil vom 9. Februar 2017 - 333 S 24/16',
    canonical: 'LG Hamburg, 333 S 24/16', type: 'case', verdict: 'out_of_coverage',
  },
  {
    name: 'a date before the court\'s earliest decision (BGH, 1984)',
    citation: 'BGH, Urteil vom 27. November 1984 - VI ZR 49/83',
    canonical: 'BGH, VI ZR 49/83', type: 'case', verdict: 'out_of_coverage',
    more: (f) => assert.equal(typeof f.coverage_advisory, 'string'),
  },
  {
    name: '7 U 123/18 without court: held by OLG München and KG',
    citation: 'das Urteil 7 U 123/18',
    canonical: '7 U 123/18', type: 'case', verdict: 'ambiguous',
    more: (f) => {
      assert.equal(f.matched_decision, null);
      assert.match(f.ambiguity_advisory, /OLG München/);
      assert.match(f.ambiguity_advisory, /\bKG\b/);
    },
  },
  {
    name: 'an Absatz that the held § does not have: the § verified, the subdivision not found',
    citation: '§ 573 Abs. 9 BGB',
    canonical: '§ 573 Abs. 9 BGB', type: 'statute', verdict: 'verified',
    more: (f) => {
      assert.equal(f.subdivision_check, 'not_found');
      assert.equal(typeof f.subdivision_advisory, 'string');
    },
  },
];

for (const c of VERDICTS) {
  test(`verdict ${c.verdict}: ${c.name}`, async () => {
    const text = cites(c.citation);
    const run = await check(text);
    assertRun(run);
    assert.equal(run.findings.length, 1, JSON.stringify(run.findings.map((f: any) => f.canonical)));
    const f = findingOf(run, c.canonical);
    assert.deepEqual([f.type, f.verdict], [c.type, c.verdict]);
    assert.equal(f.raw_text, cut(text, f.start_offset, f.end_offset));
    assert.ok(c.citation.endsWith(f.raw_text), `raw_text ${f.raw_text} is the citation as written`);
    await c.more?.(f, run);
  });
}

// --- Offsets -----------------------------------------------------------------------------------------------------

/** Texts with astral characters (emoji, ZWJ sequences, flags, mathematical letters) before citations; findings each. */
const ASTRAL_TEXTS: [string, number][] = [
  ['😀 Die Klägerin stützt sich auf § 573 Abs. 2 Nr. 2 BGB und 𝔄𝔅 auf BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10.', 2],
  ['\n\n   𝔄 Der Kläger 👩‍⚖️👨‍👩‍👧 beruft sich auf § 823 Abs.\u00a01 BGB\r\nsowie 🇩🇪 auf KG, Urteil vom 12. September 2019 - 7 U 123/18.  ', 2],
  ['🎉🎉🎉 Die Beklagte: §§ 280 Abs. 1, 281 Abs. 1 Satz 1 BGB; 😀 Art. 3 Abs. 1, Art. 12 Abs. 1 GG; 𝕭 ECLI:DE:BGH:2013:231013UVIIIZR214.12.0.', 5],
];

/** Every finding's code-point offsets cut out exactly its raw_text. */
async function assertOffsets(text: string, expectedFindings: number): Promise<any> {
  const run = await check(text);
  assert.equal(run.findings.length, expectedFindings, JSON.stringify(run.findings.map((f: any) => f.raw_text)));
  for (const f of run.findings) {
    assert.equal(cut(text, f.start_offset, f.end_offset), f.raw_text, `${f.id} [${f.start_offset}, ${f.end_offset}) in ${JSON.stringify(text)}`);
  }
  return run;
}

test('offsets are code points into the exact text: BMP text with umlauts, no-break spaces, quotes, dashes, CRLF', async () => {
  const text = '  Die Klägerin beruft sich auf „§\u00a0242 Abs.\u00a01 StGB“ – und auf den Beschluss des BGH vom 12. Mai 2020 – 3 StR 12/20,'
    + '\r\nRn. 6; ferner § 823 Abs. 1 BGB.';
  const run = await assertOffsets(text, 3);
  assert.deepEqual(run.findings.map((f: any) => f.canonical), ['§ 242 Abs. 1 StGB', 'BGH, 3 StR 12/20', '§ 823 Abs. 1 BGB']);
});

test('offsets are code points with emoji and other astral characters before the citations', async () => {
    for (const [text, findings] of ASTRAL_TEXTS) {
      const run = await assertOffsets(text, findings);
      // Each text has astral characters before its citations: UTF-16 offsets would be larger.
      assert.ok(run.findings.every((f: any) => f.start_offset < text.indexOf(f.raw_text)), 'offsets differ from UTF-16 indices');
    }
  });

// --- Chains ------------------------------------------------------------------------------------------------------

const CHAINS: [string, string[]][] = [
  ['§§ 280 Abs. 1, 281 Abs. 1 Satz 1 BGB', ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB']],
  ['Art. 3 Abs. 1, Art. 12 Abs. 1 GG', ['Art. 3 Abs. 1 GG', 'Art. 12 Abs. 1 GG']],
  ['§§ 433 ff. BGB', ['§ 433 BGB']],
];

for (const [chain, canonicals] of CHAINS) {
  test(`a chain gives one finding per provision, each with its own offsets: ${chain}`, async () => {
    const text = cites(chain);
    const run = await check(text);
    assertRun(run);
    assert.deepEqual(run.findings.map((f: any) => f.canonical), canonicals);
    assert.ok(run.findings.every((f: any) => f.type === 'statute' && f.verdict === 'verified'));
    const chainStart = text.indexOf(chain);
    let previousEnd = chainStart;
    for (const f of run.findings) {
      assert.equal(cut(text, f.start_offset, f.end_offset), f.raw_text);
      assert.ok(f.start_offset >= previousEnd, `${f.raw_text} starts after the previous provision`);
      previousEnd = f.end_offset;
    }
    assert.ok(previousEnd <= chainStart + codePoints(chain), 'all inside the chain');
    if (canonicals.length === 2) {
      assert.match(run.findings[0].raw_text, /^(§§ 280|Art\. 3) Abs\. 1$/);
      assert.match(run.findings[1].raw_text, /^(281 Abs\. 1 Satz 1 BGB|Art\. 12 Abs\. 1 GG)$/);
    }
  });
}

// --- Price -------------------------------------------------------------------------------------------------------

test('price: 2 credits up to 5000 characters, +1 per further started 5000, counted in code points', async () => {
  const org = api.org({ plan: 'starter' });
  const emoji = padTo('😀𝔄 ' + BASE, 5000);
  assert.ok(emoji.length > 5000, 'more UTF-16 units than code points');
  const cases: [string, string, number][] = [
    ['50', padTo(SHORT, 50), 2],
    ['5000', padTo(BASE, 5000), 2],
    ['5000 code points with astral characters', emoji, 2],
    ['5001', padTo(BASE, 5001), 3],
    ['10000', padTo(BASE, 10_000), 3],
    ['10001', padTo(BASE, 10_001), 4],
    ['20000', padTo(BASE, 20_000), 5],
    ['20000 code points with astral characters', padTo('😀😀😀 ' + BASE, 20_000), 5],
  ];
  for (const [name, text, cost] of cases) {
    const balance = org.balance();
    const reply = await post({ text }, org);
    assert.equal(reply.status, 200, `${name}: ${JSON.stringify(reply.body)}`);
    assert.deepEqual(reply.body.credits, { metered: true, cost, credits_remaining: balance - cost }, name);
    assert.equal(org.balance(), balance - cost, name);
  }
});

test('the same text and reference_date again in the same month costs 0; another reference_date costs again', async () => {
  const org = api.org({ plan: 'starter' });
  const text = padTo(BASE, 6000);
  const start = org.balance();
  const calls: [Record<string, unknown>, number][] = [
    [{}, 3],
    [{}, 0],
    [{ reference_date: null }, 0],
    [{ reference_date: '2020-01-01' }, 3],
    [{ reference_date: '2020-01-01' }, 0],
    [{ reference_date: '2021-06-30' }, 3],
  ];
  let spent = 0;
  for (const [extra, cost] of calls) {
    const run = await check(text, extra, org);
    spent += cost;
    assert.deepEqual(run.credits, { metered: true, cost, credits_remaining: start - spent }, JSON.stringify(extra));
  }
  // A text that differs by one character is another text.
  const other = await check(`${text.slice(0, -1)}!`, {}, org);
  assert.equal(other.credits.cost, 3);
  assert.equal(org.balance(), start - spent - 3);
});

test('a text paid for last month costs again the next month (UTC calendar month), then nothing more', async () => {
  const org = api.org({ plan: 'starter' });
  const text = padTo(BASE, 4000);
  assert.equal((await check(text, {}, org)).credits.cost, 2);
  assert.equal((await check(text, {}, org)).credits.cost, 0);
  const real = api.now();
  api.setNow(new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth() + 1, 1, 0, 0, 5)));
  try {
    const balance = org.balance();
    const nextMonth = await check(text, {}, org);
    assert.deepEqual(nextMonth.credits, { metered: true, cost: 2, credits_remaining: balance - 2 });
    assert.equal((await check(text, {}, org)).credits.cost, 0);
    assert.equal(org.balance(), balance - 2);
  } finally {
    api.setNow(real);
  }
});

test('reference_date is reported in evidence.citation_date_source; a date in the sentence wins; no verdict changes', async () => {
  const text = 'Die Klägerin beruft sich auf § 823 Abs. 1 BGB. Am 01.03.2019 galt § 573 Abs. 2 Nr. 2 BGB ebenso, vgl. Rn. 3.';
  const without = await check(text);
  const dated = await check(text, { reference_date: '2022-05-04' });
  const sources = (run: any) => run.findings.map((f: any) => f.evidence.citation_date_source);
  assert.deepEqual(sources(without), ['none', 'sentence']);
  assert.deepEqual(sources(dated), ['reference_date', 'sentence']);
  assert.deepEqual(dated.findings.map((f: any) => f.verdict), without.findings.map((f: any) => f.verdict));
});

test('a date written with the month name in the citation\'s sentence wins over reference_date',
  async () => {
    for (const text of [
      'Die Klägerin beruft sich auf § 823 Abs. 1 BGB. Am 1. März 2019 galt § 573 Abs. 2 Nr. 2 BGB ebenso, vgl. Rn. 3.',
      'Die Klägerin beruft sich auf § 823 Abs. 1 BGB. Ebenso galt § 573 Abs. 2 Nr. 2 BGB schon am 1. März 2019 so.',
    ]) {
      const run = await check(text, { reference_date: '2022-05-04' });
      assert.deepEqual(run.findings.map((f: any) => f.evidence.citation_date_source), ['reference_date', 'sentence'], text);
    }
  });

// --- Refusals ----------------------------------------------------------------------------------------------------

const INVALID: [string, Record<string, unknown>, string][] = [
  ['text of 49 characters', { text: padTo(SHORT, 49) }, 'text'],
  ['text of 49 code points (51 UTF-16 units)', { text: padTo(`😀${SHORT}𝔄`, 49) }, 'text'],
  ['text of 20001 characters', { text: padTo(BASE, 20_001) }, 'text'],
  ['a lone statute sentence', { text: LONE_STATUTE }, 'text'],
  ['a lone statute sentence repeated to 5000 characters', { text: padTo(LONE_STATUTE, 5000, LONE_STATUTE) }, 'text'],
  ['a lone statute sentence padded with plain prose', { text: padTo(LONE_STATUTE, 3000, PLAIN_PROSE) }, 'text'],
  ['plain prose only', { text: padTo(PLAIN_PROSE, 500, PLAIN_PROSE) }, 'text'],
  ['text not a string', { text: 12345 }, 'text'],
  ['text and document_id both', { text: padTo(BASE, 200), document_id: 'upl_00000000-0000-4000-8000-000000000000' }, 'text|document_id'],
  ['neither text nor document_id', {}, 'text|document_id'],
  ['only a reference_date', { reference_date: '2020-01-01' }, 'text|document_id'],
  ['a document_id that does not exist', { document_id: 'upl_00000000-0000-4000-8000-000000000000' }, 'document_id'],
  ['reference_date in German notation', { text: padTo(BASE, 200), reference_date: '15.01.2020' }, 'reference_date'],
  ['reference_date with month 13', { text: padTo(BASE, 200), reference_date: '2020-13-01' }, 'reference_date'],
  ['reference_date as a number', { text: padTo(BASE, 200), reference_date: 20200115 }, 'reference_date'],
  ['reference_date empty', { text: padTo(BASE, 200), reference_date: '' }, 'reference_date'],
  ['reference_date as a date-time', { text: padTo(BASE, 200), reference_date: '2020-01-15T00:00:00Z' }, 'reference_date'],
];

async function assertInvalid(org: TestOrg, name: string, body: Record<string, unknown>, keys: string): Promise<void> {
  const balance = org.balance();
  const reply = await post(body, org);
  assertProblem(reply, 422, 'validation_failed');
  const named = Object.keys(reply.body.errors);
  assert.ok(named.length > 0 && named.every((key) => keys.split('|').includes(key)), `${name}: errors ${JSON.stringify(reply.body.errors)}`);
  for (const messages of Object.values(reply.body.errors) as unknown[]) {
    assert.ok(Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string'), name);
  }
  assert.equal(org.balance(), balance, `${name}: nothing charged`);
}

test('422 validation_failed for every invalid argument, naming it, nothing charged', async () => {
  const org = api.org({ plan: 'starter' });
  for (const [name, body, keys] of INVALID) await assertInvalid(org, name, body, keys);
});

test('the messages say what is wrong with the text: length, signals', async () => {
  const messages = async (text: string) => (await post({ text })).body.errors.text.join(' ');
  assert.match(await messages(padTo(SHORT, 49)), /\b50\b/);
  assert.match(await messages(padTo(BASE, 20_001)), /\b20000\b/);
  assert.match(await messages(LONE_STATUTE), /signal/);
});

test('the boundaries are accepted: 50 characters, and a lone statute sentence with one more signal category', async () => {
  assert.equal((await post({ text: padTo(SHORT, 50) })).status, 200);
  assert.equal((await post({ text: `${LONE_STATUTE} Vgl. die Gründe.` })).status, 200);
  assert.equal((await post({ text: `${LONE_STATUTE} Die Klägerin stützt darauf ihre Klage.` })).status, 200);
  assert.equal((await post({ text: padTo(BASE, 200), reference_date: '2024-02-29' })).status, 200);
  assert.equal((await post({ text: padTo(BASE, 200), reference_date: null })).status, 200);
});

test('422 for a reference_date that is no calendar date (2020-02-30, 2021-02-29)',
  async () => {
    const org = api.org({ plan: 'starter' });
    for (const reference_date of ['2020-02-30', '2021-02-29', '2019-04-31']) {
      await assertInvalid(org, reference_date, { text: padTo(BASE, 200), reference_date }, 'reference_date');
    }
  });

test('402 insufficient_credits with cost and balance when the organization has no credits; a paid text stays free', async () => {
  const org = api.org({ plan: 'free' });
  const paid = padTo(BASE, 300);
  const run = await check(paid, {}, org);
  assert.equal(run.credits.cost, 2);
  spendAll(org);
  for (const [text, cost] of [[padTo(BASE, 5000), 2], [padTo(BASE, 20_000), 5]] as const) {
    const reply = await post({ text }, org);
    assertProblem(reply, 402, 'insufficient_credits');
    assert.match(reply.body.detail, /nothing was charged/i);
    assert.deepEqual([reply.body.cost, reply.body.balance], [cost, 0]);
  }
  assert.equal(org.balance(), 0);
  // Already paid this month: nothing more to pay, so no 402. Reading the run back is free.
  const again = await post({ text: paid }, org);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.deepEqual(again.body.credits, { metered: true, cost: 0, credits_remaining: 0 });
  const read = await getRun(run.id, org);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.credits, { metered: true, cost: 0, credits_remaining: 0 });
});

test('401 unauthenticated without a token, on both endpoints', async () => {
  assertProblem(await api.call('POST', CHECKS, { body: { text: padTo(BASE, 200) } }), 401, 'unauthenticated');
  assertProblem(await api.call('GET', `${CHECKS}/run_00000000-0000-4000-8000-000000000000`), 401, 'unauthenticated');
  assertProblem(await api.call('POST', CHECKS, { body: { text: padTo(BASE, 200) }, headers: { authorization: 'Bearer nonsense' } }),
    401, 'unauthenticated');
});

test('403 token_ability_missing with required_ability citation-check, on both endpoints; nothing charged', async () => {
  const org = api.org({ plan: 'starter' });
  const run = await check(padTo(BASE, 200), {}, org);
  const balance = org.balance();
  const others = ABILITIES.filter((ability) => ability !== 'citation-check');
  const refusals = [
    await api.call('POST', CHECKS, { token: org.token(others), body: { text: padTo(BASE, 300) } }),
    await api.call('GET', `${CHECKS}/${run.id}`, { token: org.token(others) }),
  ];
  for (const reply of refusals) {
    assertProblem(reply, 403, 'token_ability_missing');
    assert.equal(reply.body.required_ability, 'citation-check');
  }
  assert.equal(org.balance(), balance);
});

// --- Reading a run back ------------------------------------------------------------------------------------------

test('GET /citation-checks/{run}: the same run, free', async () => {
  const org = api.org({ plan: 'starter' });
  const text = 'Die Klägerin beruft sich auf BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10, auf §§ 280 Abs. 1, '
    + '281 Abs. 1 Satz 1 BGB, auf § 1 TKG und auf das Urteil 7 U 123/18.';
  const posted = await post({ text, reference_date: '2021-03-01' }, org);
  assert.equal(posted.status, 200);
  const balance = org.balance();
  const read = await getRun(posted.body.id, org);
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assertRun(read.body);
  const { credits: postedCredits, ...postedRun } = posted.body;
  const { credits, ...run } = read.body;
  assert.equal(postedCredits.cost, 2);
  assert.deepEqual(run, postedRun);
  assert.deepEqual(credits, { metered: true, cost: 0, credits_remaining: balance });
  assert.equal(org.balance(), balance);
});

test('GET /citation-checks/{run}: 404 for another organization\'s run (not 403) and for an unknown run', async () => {
  const owner = api.org({ plan: 'starter' });
  const run = await check(padTo(BASE, 200), {}, owner);
  const stranger = api.org({ plan: 'enterprise' });
  assertProblem(await getRun(run.id, stranger), 404, 'not_found');
  for (const id of ['run_00000000-0000-4000-8000-000000000000', 'nothing']) {
    assertProblem(await getRun(id, owner), 404, 'not_found');
  }
  // The owner still reads it: the 404s are not a broken read.
  assert.equal((await getRun(run.id, owner)).status, 200);
});

// --- Claims: pinpoints and quotations ---------------------------------------------------------------------------

test('claims over REST: a brief from the demo corpus, every altered Randnummer or quotation not_supported, every correct one supported; read back the same', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  const ids = (db.prepare(`SELECT id FROM decisions WHERE has_rn_anchors = 1 AND court IN ('BGH', 'BVerfG', 'BAG', 'BSG')
    ORDER BY date DESC LIMIT 6`).all() as { id: string }[]).map((r) => r.id);
  const { text, items } = buildBrief(db, ids);
  db.close();
  assert.ok(items.length >= 40 && codePoints(text) <= 20_000, `${items.length} items, ${codePoints(text)} characters`);
  const run = await check(text);
  assertRun(run);
  for (const item of items) {
    const [f] = run.findings.filter((x: any) => x.type === 'case' && x.start_offset >= item.from && x.start_offset < item.to);
    assert.equal(f.verdict, 'verified', `${item.kind} ${item.aktenzeichen}`);
    assert.equal(f.claim_check, ALTERED.has(item.kind) ? 'not_supported' : 'supported', `${item.kind} ${item.aktenzeichen}: ${JSON.stringify(f)}`);
    assert.equal(cut(text, f.pinpoint.start_offset, f.pinpoint.end_offset), f.pinpoint.text);
    const quote = f.quotations[0];
    if (quote) assert.equal(cut(text, quote.start_offset + 1, quote.end_offset - 1), quote.text);
  }
  const altered = items.filter((i) => ALTERED.has(i.kind)).length;
  assert.deepEqual(run.claim_counts, { supported: items.length - altered, not_supported: altered, not_checked: 0 });
  assert.ok(run.notes.some((n: any) => n.code === 'claims_not_supported'));
  const read = await getRun(run.id);
  assert.deepEqual(read.body.findings, run.findings);
  assert.deepEqual(read.body.claim_counts, run.claim_counts);
});
