/** Coverage manifests: imported like any document, shown by GET /corpus/coverage, deciding not_found vs out_of_coverage. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus, type CorpusDb } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/index.ts';
import { runCheck } from '../../src/citations/check.ts';
import { startApi } from '../helpers/api.ts';
import { riiXml } from '../ingest/helpers.ts';

const MANIFEST = {
  juralite: 'coverage-manifest',
  version: 1,
  verified_at: '2026-10-01',
  note: 'Collected from the courts\' own publications.',
  ranges: [
    { court: 'Bundesgerichtshof', label: 'BGH, Zivilsenate', from: '1950-10-01', until: null, sources: ['bundesgerichtshof.de', 'rii'], exhaustive: true },
    { court: 'LG Berlin', from: '2010-01-01', until: '2019-12-31', sources: ['berlin.de'], ocr: true, note: 'Scans before 2015.' },
  ],
};

/** A corpus of three decisions: BGH 2020, LG Berlin 2019, LG München I 2018. */
async function setUp(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-manifest-'));
  const path = join(dir, 'corpus.db');
  const db = openCorpus(path);
  const decisions = [
    { doknr: 'KORE700012020', gertyp: 'BGH', datum: '20200115', aktenzeichen: 'VIII ZR 123/19' },
    { doknr: 'KORE700022019', gertyp: 'LG', gerort: 'Berlin', datum: '20190502', aktenzeichen: '1 S 23/19' },
    { doknr: 'KORE700032018', gertyp: 'LG', gerort: 'München I', datum: '20180301', aktenzeichen: '1 S 23/19' },
  ].map((options) => {
    const file = join(dir, `${options.doknr}.xml`);
    writeFileSync(file, riiXml({ ...options, gruende: [{ rn: 1, text: 'Die Berufung ist unbegründet.' }] }));
    return file;
  });
  await importPaths(db, decisions);
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };
  return { path, db, write };
}

const verdictOf = (db: CorpusDb, text: string) => runCheck(db, { id: 'run', text, source: 'text', submittedAt: new Date() })
  .unique_citations.map((citation) => citation.verdict);

// The corpus holds one BGH decision (2020): without a manifest, BGH is covered only on that day's range.
const OLD_BGH_CITATION = 'Vgl. BGH, Urteil vom 10. März 1995 - VIII ZR 99/94.';

test('a manifest states ranges for its courts (canonical courts, sources, exhaustive, ocr, verified_at, note); other courts held keep derived ones', async (t) => {
  const { path, db, write } = await setUp(t);
  assert.deepEqual(verdictOf(db, OLD_BGH_CITATION), ['out_of_coverage'], 'before: outside the holdings');
  const summary = await importPaths(db, [write('coverage.json', MANIFEST)]);
  assert.equal(summary.imported, 1);
  assert.deepEqual(summary.failed, []);
  // The court covered since 1950 holds no such decision: not found, no longer out of coverage.
  assert.deepEqual(verdictOf(db, OLD_BGH_CITATION), ['not_found']);

  const api = await startApi({ corpus: path });
  t.after(() => api.close());
  const reply = await api.call('GET', '/api/v1/corpus/coverage', { token: api.org().token(['read']) });
  assert.equal(reply.status, 200);
  const coverage = reply.body.coverage_ranges;
  assert.equal(coverage.verified_at, '2026-10-01');
  assert.equal(coverage.note, MANIFEST.note);
  // LG München I is held but named by no range: its range is derived from its holdings, as the check decides it.
  assert.deepEqual(coverage.ranges, [
    { bucket: 'ordentlich', court: 'BGH', label: 'BGH, Zivilsenate', from: '1950-10-01', until: null,
      sources: ['bundesgerichtshof.de', 'rii'], exhaustive: true, ocr: false, note: null, verified_at: '2026-10-01',
      holdings_earliest: '2020-01-15' },
    { bucket: 'ordentlich', court: 'LG Berlin', label: 'LG Berlin', from: '2010-01-01', until: '2019-12-31',
      sources: ['berlin.de'], exhaustive: false, ocr: true, note: 'Scans before 2015.', verified_at: '2026-10-01',
      holdings_earliest: '2019-05-02' },
    { bucket: 'ordentlich', court: 'LG München I', label: 'LG München I', from: '2018-03-01', until: '2018-03-01',
      sources: ['corpus'], exhaustive: false, ocr: false, verified_at: null, holdings_earliest: '2018-03-01',
      note: 'Derived from the decisions held: earliest to latest; no manifest or complete sync states the ingestion boundary, '
        + 'so a cited decision of this court that is not held is not_in_corpus, never not_found.' },
  ]);
});

test('the same manifest again is skipped, a changed one updates; its ranges replace the earlier ones', async (t) => {
  const { db, write } = await setUp(t);
  await importPaths(db, [write('coverage.json', MANIFEST)]);
  assert.equal((await importPaths(db, [write('coverage.json', MANIFEST)])).skipped, 1);
  const narrower = { ...MANIFEST, ranges: [MANIFEST.ranges[1]] };
  assert.equal((await importPaths(db, [write('coverage.json', narrower)])).updated, 1);
  assert.deepEqual(db.prepare('SELECT court FROM coverage_ranges').pluck().all(), ['LG Berlin']);
});

test('an invalid manifest is reported by name and reason, and the ranges in force stay', async (t) => {
  const { db, write } = await setUp(t);
  await importPaths(db, [write('coverage.json', MANIFEST)]);
  const cases: [unknown, RegExp][] = [
    [{ ...MANIFEST, ranges: [{ ...MANIFEST.ranges[0], from: '1950-13-01' }] }, /ranges\.0\.from: from must be a date/],
    [{ ...MANIFEST, ranges: [{ ...MANIFEST.ranges[0], from: '2000-01-01', until: '1999-01-01' }] }, /ranges\.0: from must not lie after until/],
    [{ ...MANIFEST, ranges: [{ ...MANIFEST.ranges[0], court: 'Hohes Schiedsamt von Atlantis' }] }, /ranges\.0\.court: unknown court/],
    [{ ...MANIFEST, ranges: [] }, /ranges: ranges must hold at least one range/],
    [{ ...MANIFEST, version: 2 }, /version: version must be 1/],
    [{ ...MANIFEST, extra: true }, /extra/],
  ];
  for (const [value, reason] of cases) {
    const file = write('bad.json', value);
    const summary = await importPaths(db, [file]);
    assert.equal(summary.failed.length, 1, JSON.stringify(value));
    assert.equal(summary.failed[0].path, file);
    assert.match(summary.failed[0].reason, reason);
  }
  assert.equal(db.prepare('SELECT count(*) FROM coverage_ranges').pluck().get(), 2);
});

test('a decision not held inside a range: not_found where the range is exhaustive, not_in_corpus where it is not', async (t) => {
  const { db, write } = await setUp(t);
  const findings = (text: string) => runCheck(db, { id: 'run', text, source: 'text', submittedAt: new Date() }).findings
    .map((f) => [f.verdict, f.coverage_advisory]);
  const lgBerlin = 'Vgl. LG Berlin, Urteil vom 3. März 2015 - 5 O 1/15.';
  assert.deepEqual(findings('LG Berlin, Urteil vom 2. Mai 2019 - 9 S 9/19')[0][0], 'not_in_corpus', 'without a manifest: from the holdings');
  await importPaths(db, [write('coverage.json', MANIFEST)]);
  const [[verdict, advisory]] = findings(lgBerlin);
  assert.equal(verdict, 'not_in_corpus');
  assert.match(String(advisory), /^LG Berlin is covered from 2010-01-01 to 2019-12-31, but this coverage is not exhaustive: .*does not mean it does not exist/);
  assert.deepEqual(findings(OLD_BGH_CITATION), [['not_found', 'BGH is covered from 1950-10-01 to today (exhaustively); no such decision is held.']]);
});
