/**
 * The OpenAPI document states every operation's answer (issue 31): real answers of every operation on the demo corpus,
 * in their different states, validate against the document's schemas (ajv), and every field they hold is declared
 * there; a client generated from the document with openapi-typescript type-checks a program reading a decision, a
 * search and a check run.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import { startApi, type Api } from '../helpers/api.ts';
import { fixtureId } from '../helpers/demo-corpus.ts';
import { pollUntilExtracted, upload } from '../uploads/client.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { answerComponent } from '../../src/http/openapi.ts';

const LEGAL_TEXT = 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB und § 573 Abs. 2 Nr. 2 BGB; '
  + 'vgl. BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10. Die Revision der Beklagten hat keinen Erfolg.';

let api: Api;
let document: any;
let token: string;
before(async () => {
  api = await startApi({ corpus: 'demo' });
  token = api.org({ plan: 'enterprise' }).token();
  document = (await api.call('GET', '/api/v1/openapi.json')).body;
});
after(() => api.close());

/** Answers of every operation, in the states worth telling apart (full text or excerpts, laws found or not, ...). */
async function realAnswers(): Promise<[string, any][]> {
  const get = async (path: string) => (await api.call('GET', `/api/v1${path}`, { token })).body;
  const post = async (path: string, body: unknown) => (await api.call('POST', `/api/v1${path}`, { token, body })).body;
  const check = await post('/citation-checks', { text: `${LEGAL_TEXT} Vgl. auch BGH, VIII ZR 999/99 und § 9999 BGB.` });
  const uploaded = (await upload(api, token, LEGAL_TEXT, 'klage.txt')).body;
  const ready = await pollUntilExtracted(api, token, uploaded.id);
  const failed = (await upload(api, token, 'Kurz.', 'kurz.txt')).body;
  return [
    ['check_citations', check],
    ['check_citations', await post('/citation-checks', { document_id: uploaded.id, reference_date: '2020-01-01' })],
    ['check_citations', await post('/citation-checks', { text: 'Der Bundesgerichtshof hat entschieden: „Die Kündigung '
      + 'des Vermieters ist wirksam und begründet gewesen“ (BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10 ff.); '
      + 'vgl. § 573 Abs. 2 Nr. 2 BGB.' })],
    ['get_citation_check', await get(`/citation-checks/${check.id}`)],
    ['upload_citation_document', uploaded],
    ['get_citation_document', ready],
    ['get_citation_document', await pollUntilExtracted(api, token, failed.id)],
    ['get_citation_graph', await get(`/decisions/${fixtureId(1)}/citations`)],
    ['get_citation_graph', await get(`/decisions/${fixtureId(7)}/citations?depth=2&direction=incoming`)],
    ['get_corpus_coverage', await get('/corpus/coverage')],
    ['list_facets', await get('/corpus/facets/court_name')],
    ['list_facets', await get(`/corpus/facets/cited_norms?norm=${encodeURIComponent('§ 573 BGB')}`)],
    ['list_facets', await get('/corpus/facets/law_abbreviation?type=law')],
    ['create_datapackage', await post('/datapackages', { ids: [fixtureId(1), fixtureId(7)] })],
    ['create_datapackage', await post('/datapackages', { ids: [fixtureId(2), fixtureId(2)], full_text: true, include_citations: false })],
    ['get_decision', await get(`/decisions/${fixtureId(1)}`)],
    ['get_decision', await get(`/decisions/${fixtureId(3)}?section=tenor`)],
    ['get_decision', await get(`/decisions/${fixtureId(4)}?rn_from=2&rn_to=3&max_chars=500`)],
    ['search_decisions', await get(`/decisions/search?query=${encodeURIComponent('Eigenbedarf Kündigung')}`)],
    ['search_decisions', await get(`/decisions/search?query=${encodeURIComponent('VIII ZR 214/12')}&mode=keyword`)],
    ['search_decisions', await get(`/decisions/search?query=${encodeURIComponent('Schimmel in der Wohnung')}&court=BGH&page=2`)],
    ['search', await get(`/search?query=${encodeURIComponent('Kündigung wegen Eigenbedarf')}`)],
    ['get_account', await get('/account')],
    ['get_law_unit', await get('/laws/BGB/units/573')],
    ['get_law_unit', await get(`/laws/DSGVO/units/${encodeURIComponent('Art. 6')}`)],
    ['get_decision_text_citations', await get(`/decisions/${fixtureId(1)}/text-citations`)],
    ['search', await get(`/search?query=${encodeURIComponent('§ 573 BGB')}&mode=keyword&jurisdiction=DE&limit=10`)],
  ];
}

test('real answers of every operation validate against the document, and every field they hold is declared', async () => {
  const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const answers = await realAnswers();
  assert.deepEqual([...new Set(answers.map(([name]) => name))].sort(), OPERATIONS.map((operation) => operation.name).sort(),
    'an answer of every operation');
  const problems: string[] = [];
  for (const [index, [name, body]] of answers.entries()) {
    assert.ok(body.api_version, `${name} #${index} succeeded: ${JSON.stringify(body).slice(0, 300)}`);
    const operation = OPERATIONS.find((candidate) => candidate.name === name)!;
    assert.ok(operation.answer, `${name} declares its answer`);
    const component = answerComponent(operation);
    const validate = ajv.getSchema(`openapi.json#/components/schemas/${component}`)!;
    if (!validate(body)) problems.push(`${name} #${index}: ${ajv.errorsText(validate.errors, { separator: '\n' })}`);
    undeclared(body, document.components.schemas[component], `${name} #${index}`, problems);
  }
  assert.deepEqual(problems, []);
});

/** Fields of `value` its object schema does not declare (records and open `unknown`s aside), all the way down. */
function undeclared(value: unknown, schema: any, path: string, problems: string[]): void {
  if (!schema || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) undeclared(item, schema.items, `${path}[${index}]`, problems);
    return;
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    for (const [key, item] of Object.entries(value)) undeclared(item, schema.additionalProperties, `${path}.${key}`, problems);
    return;
  }
  if (!schema.properties) return;
  for (const [key, item] of Object.entries(value)) {
    if (!(key in schema.properties)) problems.push(`${path}.${key} is not declared in the document`);
    else undeclared(item, schema.properties[key], `${path}.${key}`, problems);
  }
}

test('a client generated with openapi-typescript types the answers: a program reading a decision, a search and a check run type-checks', async () => {
  const types = astToString(await openapiTS(structuredClone(document)));
  const dir = mkdtempSync(join(tmpdir(), 'juralite-client-'));
  try {
    writeFileSync(join(dir, 'api.ts'), types);
    writeFileSync(join(dir, 'program.ts'), `import type { components, paths } from './api.ts';
type Decision = paths['/decisions/{id}']['get']['responses']['200']['content']['application/json'];
type Search = paths['/decisions/search']['get']['responses']['200']['content']['application/json'];
type Run = components['schemas']['CheckCitationsAnswer'];
export function read(decision: Decision, search: Search, run: Run): string[] {
  const text: string = decision.full_text;
  const length: number = decision.text_length;
  const ecli: string | null = decision.metadata.ecli;
  const titles: (string | null)[] = search.results.map((result) => result.title);
  const total: number = search.total_available.value;
  const verdicts: ('verified' | 'not_found' | 'not_in_corpus' | 'out_of_coverage' | 'ambiguous')[] = run.findings.map((finding) => finding.verdict);
  const offsets: number[] = run.findings.map((finding) => finding.start_offset);
  const remaining: number = run.credits.credits_remaining;
  // @ts-expect-error a field the answer does not have is an error, not unknown
  const wrong = decision.no_such_field;
  return [text, String(length), String(ecli), ...titles.map(String), String(total), ...verdicts, ...offsets.map(String), String(remaining), String(wrong)];
}
`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext',
        allowImportingTsExtensions: true, skipLibCheck: true, types: [] },
      files: ['program.ts'],
    }));
    const tsc = join(import.meta.dirname, '../../node_modules/typescript/bin/tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    } catch (error) {
      assert.fail(`the program does not type-check:\n${(error as { stdout: string }).stdout}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
