/**
 * A full citation check of 20,000 characters (extraction + verification) through HTTP, against the same check run
 * in-process and the extraction alone, in one run.
 *
 *   node bench/check-citations.ts [--db CORPUS] [--requests 200]
 *
 * Without --db the demo corpus is built from fixtures/ into .tmp/. The texts are windows of 20,000 characters over the
 * corpus's own decision texts (real citation density: every decision cites statutes and decisions), each different,
 * so every HTTP call is a paid, first-time check.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openServices, listen } from '../src/server.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { createToken } from '../src/accounts/tokens.ts';
import { extractCitations } from '../src/citations/extract.ts';
import { runCheck } from '../src/citations/check.ts';
import { ensureDemoCorpus, httpPost, printTable, stats, tearDown, timeEach } from './lib.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, requests: { type: 'string', default: '200' } } });
const requests = Number(values.requests);
const corpusPath = values.db ?? '.tmp/bench-demo.db';
await ensureDemoCorpus(corpusPath);

const dir = mkdtempSync(join(tmpdir(), 'juralite-bench-'));
const services = openServices({ corpusPath, statePath: join(dir, 'state.db') });
const corpus = services.corpus!;
const all = (corpus.prepare('SELECT decision_text(text_zstd) AS full_text FROM decisions ORDER BY id').all() as { full_text: string }[]).map((r) => r.full_text).join('\n\n');
const texts = Array.from({ length: requests }, (_, i) => {
  const start = (i * 7919) % Math.max(1, all.length - 20_000);
  return Array.from(all.slice(start, start + 20_000)).slice(0, 20_000).join('');
});
const { organization } = createOrganization(services.state, { name: 'bench', plan: 'enterprise' }, new Date());
// Checks are heavy (10 a minute per token): a fresh token every 8 calls keeps the limit out of the measurement.
const tokens = Array.from({ length: Math.ceil(requests / 8) + 2 }, () =>
  createToken(services.state, { organizationId: organization.id, abilities: ['citation-check'] }, new Date()).token);

const extraction = await timeEach(texts, (text) => extractCitations(text, { backReferences: true }), 10);
const inProcess = await timeEach(texts, (text) => JSON.stringify(runCheck(corpus, { id: 'bench', text, source: 'api_v1', submittedAt: new Date() })), 10);
const { server, url } = await listen(services, '127.0.0.1', 0);
let call = 0;
let findings = 0;
const http = await timeEach(texts, async (text) => {
  const response = await httpPost(`${url}/api/v1/citation-checks`, { authorization: `Bearer ${tokens[Math.floor(call++ / 8)]}` }, { text });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body}`);
  findings += (JSON.parse(response.body) as { findings: unknown[] }).findings.length;
}, 0);

const rows: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'p99 ms', 'x extraction p50', 'x in-process p50', 'target']];
const base = stats(extraction).p50;
const check = stats(inProcess).p50;
for (const [name, samples, target] of [
  ['extraction only', extraction, ''], ['check in-process', inProcess, ''], ['HTTP POST /citation-checks', http, 'p50 <= 25 ms'],
] as const) {
  const s = stats(samples);
  rows.push([name, s.p50, s.p95, s.p99, (s.p50 / base).toFixed(2), (s.p50 / check).toFixed(2), target]);
}
console.log(`Citation check of 20,000 characters: ${texts.length} texts, ${Math.round(findings / texts.length)} findings each on average, node ${process.version}`);
printTable(rows);
tearDown([server], services, dir);
