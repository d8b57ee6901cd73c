// Property test of the citation engine (issue 26, item 4): random and adversarial texts up to 20,000 code points
// (the check's limit) thrown at every scanner and at the whole check. Each must answer without an exception and
// within a second. In `npm test` the seed is fixed and the count bounded (a few seconds); a longer run:
//   JURALITE_PROPERTY_RUNS=20000 JURALITE_PROPERTY_SEED=$RANDOM node --test test/citations/property.test.ts
// (bench/README.md, "Citation engine property run").
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { scanCases } from '../../src/citations/cases.ts';
import { scanStatutes } from '../../src/citations/statutes.ts';
import { extractCitations } from '../../src/citations/extract.ts';
import { legalSignals } from '../../src/citations/signals.ts';
import { runCheck } from '../../src/citations/check.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const RUNS = Number(process.env.JURALITE_PROPERTY_RUNS ?? 1500);
const SEED = Number(process.env.JURALITE_PROPERTY_SEED ?? 20261127);
const MAX_CODE_POINTS = 20_000;
const MAX_MS = 1000;

const db = openCorpus(await demoCorpus(), { readonly: true });
after(() => db.close());

/** The pieces citations are made of, and their false friends: what the scanners' patterns branch on. */
const TOKENS = [
  '§', '§§', 'Art.', 'Artt.', 'Artikel', ' ', '  ', '\n', '\r\n', '\n\n', '\u00a0', '\u2009', '\u202f', '\u2011', ',', ';', '.', '-',
  '–', '/', '(', ')', '<', '>', '[', ']', '„', '“', '"', ':', '1', '12', '823', '2019', '18', '496/18', '7.15', 'a', 'b', 'f.', 'ff.',
  'Abs.', 'Abs', 'Satz', 'S.', 'S', 'Nr.', 'lit.', 'Buchst.', 'Halbs.', 'Alt.', 'Var.', 'UAbs.', 'I', 'II', 'IV', 'und', 'oder',
  'bis', 'i.V.m.', 'iVm', 'in Verbindung mit', 'BGB', 'SGB V', 'SGB', 'ZPO', 'DSGVO', 'GG', 'des Gesetzes', 'gegen', 'über',
  'des Bürgerlichen Gesetzbuchs', 'a.F.', 'n.F.', 'BGH', 'OLG München', 'Landgericht Hamburg', 'VG', 'M', 'VI ZR', 'ZR', 'AZR',
  '1 BvR', 'B 4 AS', 'R', 'K', 'U', 'Wx', 'C-', 'ECLI:DE:BGH:2019:', 'ECLI:EU:C:2019:', 'Urteil vom', 'Beschluss vom', '3. Mai 2012',
  '01.02.2020', 'Az.', 'Rn.', 'NJW', 'BGHZ', 'RGZ', 'a.a.O.', 'aaO', 'ebd.', 'ebenda', 'vgl.', 'Kläger', 'Klage', 'Mu\u0308nchen',
  'ä', 'ß', 'Straße', 'x', 'AaAaAa', '😀', '\u202e', '\u0000',
];

const tokenText = fc.array(fc.constantFrom(...TOKENS), { maxLength: 600 }).map((parts) => parts.join(''));
const anyText = fc.string({ unit: 'grapheme', maxLength: 400 });
/** One piece repeated up to the limit: the shape that found the stack overflow (',S1' x 6,000 after a §). */
const repeated = fc.tuple(
  fc.constantFrom('§ 1', '§§ 1', 'Art. 1', 'BGH, ', 'VI ZR 1/19', ''),
  fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
  fc.integer({ min: 1, max: 20_000 }),
  fc.constantFrom(' BGB', '', ' des Gesetzes gegen den unlauteren Wettbewerb', ' NJW 2019, 1'),
).map(([head, piece, times, tail]) => head + piece.repeat(Math.ceil(times / Math.max(1, piece.length))) + tail);

const texts = fc.oneof({ weight: 4, arbitrary: tokenText }, { weight: 2, arbitrary: anyText }, { weight: 1, arbitrary: repeated })
  .map((t) => [...t].slice(0, MAX_CODE_POINTS).join(''));

const ENGINES: [string, (text: string) => unknown][] = [
  ['scanStatutes', (t) => scanStatutes(t)],
  ['scanCases', (t) => scanCases(t)],
  ['extractCitations', (t) => extractCitations(t)],
  ['legalSignals', (t) => legalSignals(t)],
  ['runCheck', (t) => runCheck(db, { id: 'property', text: t, reference_date: null, source: 'text', submittedAt: new Date(0) })],
];

test(`every scanner and the whole check answer within ${MAX_MS} ms without an exception (${RUNS} texts, seed ${SEED})`, () => {
  fc.assert(fc.property(texts, (text) => {
    for (const [name, engine] of ENGINES) {
      const started = performance.now();
      engine(text);
      const ms = performance.now() - started;
      assert.ok(ms < MAX_MS, `${name} took ${ms.toFixed(0)} ms on a text of ${text.length} UTF-16 units`);
    }
  }), { numRuns: RUNS, seed: SEED, endOnFailure: true });
});

test('thousands of chained subdivisions after a § do not depend on the call stack (the parser keeps its own)', () => {
  // 6,600 ',S1' (further paths of § 1, stacked) fill the check's 20,000 code points; a small stack stands in for the deeper one a server call runs on.
  const script = `import('${new URL('../../src/citations/extract.ts', import.meta.url).href}').then(({ extractCitations }) => {
    const { citations } = extractCitations('§ 1' + ',S1'.repeat(6600) + ' BGB');
    process.stdout.write(citations.map((c) => c.canonical).join('|'));
  })`;
  const child = spawnSync(process.execPath, ['--stack-size=300', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(child.stderr, '');
  assert.equal(child.stdout, '§ 1 BGB');
});
