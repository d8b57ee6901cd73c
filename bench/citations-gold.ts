/**
 * The citation extractor (src/citations/extract.ts) against the gold sets in ../shared/data/citations:
 *
 *   node bench/citations-gold.ts        (npm run bench:citations)
 *
 * 1. refex (15 decisions, 541 citations): provision-level recall for statutes and decisions, precision, and refex's own
 *    exact-span and overlap F1; 2. LER test split: recall of § / Art. statute spans and of decision spans, precision
 *    against all legal-entity spans; 3. throughput on the refex texts. Misses and false findings, with 60 characters of
 *    context, go to .tmp/citations-eval/. Matching rules: bench/citations-score.ts and bench/README.md.
 *
 * refex leaves many real citations unannotated; bench/citations-gold-gaps.json lists the false findings an audit found
 * to be such gold gaps (document, UTF-16 offsets, kind, reason). Precision is printed raw and, second, with those
 * findings counted correct; an entry counts only while a finding of its kind with exactly its offsets still exists.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractCitations } from '../src/citations/extract.ts';
import type { Citation } from '../src/citations/types.ts';
import { SHARED_DATA, sharedData } from '../test/helpers/shared-data.ts';
import {
  context, describe, f1, matchCase, matchLaw, overlaps, precision, recall, spanScores, toUtf16, unmatchableReason,
  type PRF, type RefexGold, type Span,
} from './citations-score.ts';
import { printTable, stats } from './lib.ts';

const REFEX_DOCS = sharedData('citations/refex/fixtures/documents.jsonl');
const REFEX_GOLD = sharedData('citations/refex/fixtures/annotations.jsonl');
const LER_TEST = sharedData('citations/ler/ler_test.spans.jsonl');
const GOLD_GAPS = fileURLToPath(new URL('./citations-gold-gaps.json', import.meta.url));
const OUT = fileURLToPath(new URL('../.tmp/citations-eval/', import.meta.url));

const missing = [REFEX_DOCS, REFEX_GOLD, LER_TEST].filter((path) => !existsSync(path));
if (missing.length) {
  console.log(`citations-gold: skipped, shared data not found (${missing.join(', ')}); expected at ${SHARED_DATA}`);
  console.log('set JURALITE_SHARED_DATA to the folder that holds citations/refex and citations/ler');
  process.exit(0);
}

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as T);
const mark = (value: number, target: number) => (value >= target ? 'pass' : 'FAIL');
const ratio = (hits: number, total: number) => `${hits}/${total}`;
const errors: Record<string, object[]> = { 'refex-fn': [], 'refex-fp': [], 'ler-fn': [], 'ler-fp': [], backrefs: [] };

/** Offsets of gold spans: how many needed reading as code points, how many matched neither reading (dropped). */
const offsetCheck = { refex: { spans: 0, codePoints: 0, dropped: 0, astralTexts: 0 }, ler: { spans: 0, codePoints: 0, dropped: 0, astralTexts: 0 } };
const hasAstral = (text: string) => /[\uD800-\uDBFF]/.test(text);

function goldSpan(set: 'refex' | 'ler', text: string, start: number, end: number, expected: string): Span | null {
  const check = offsetCheck[set];
  check.spans++;
  const read = toUtf16(text, start, end, expected);
  if (!read) check.dropped++;
  else if (read.codePoints) check.codePoints++;
  return read?.span ?? null;
}
const describeOffsets = (set: 'refex' | 'ler') => {
  const c = offsetCheck[set];
  return `offsets: ${c.spans} gold spans, ${c.codePoints} read as code points, ${c.dropped} dropped (text mismatch); ` +
    `${c.astralTexts} texts with characters outside the BMP (only there do code points and UTF-16 differ)`;
};

// 1. refex ---------------------------------------------------------------------------------------------------------

interface RefexDoc { doc_id: string; text: string }
const refexDocs = readJsonl<RefexDoc>(REFEX_DOCS);
const refexGold = new Map(readJsonl<{ doc_id: string; citations: RefexGold[] }>(REFEX_GOLD).map((a) => [a.doc_id, a.citations]));

/**
 * Back-references ('BGH, aaO', 'ebd.': role back_reference) repeat a decision cited before; neither gold set
 * annotates them, so they are counted apart (and listed for review in refex-backrefs.jsonl), not scored.
 */
const backReferences: { text: string; canonical: string }[] = [];
function scored(citations: Citation[], text: string): Citation[] {
  return citations.filter((c) => {
    if (c.type !== 'case' || c.role !== 'back_reference') return true;
    backReferences.push({ text: text.slice(c.start, c.end), canonical: c.canonical });
    return false;
  });
}

/** Audited gold gaps: findings that are real citations refex does not annotate, keyed 'doc_id start end kind'. */
interface GoldGap { doc_id: string; start: number; end: number; kind: 'statute' | 'case'; reason: string }
const goldGaps = new Map(
  (JSON.parse(readFileSync(GOLD_GAPS, 'utf8')) as GoldGap[]).map((gap) => [`${gap.doc_id} ${gap.start} ${gap.end} ${gap.kind}`, gap]),
);
const gapsUsed = new Set<string>();

const tally = { law: { total: 0, hits: 0, unmatchable: 0, unmatchableHits: 0 }, case: { total: 0, hits: 0, unmatchable: 0, unmatchableHits: 0 } };
const findingsTally = { total: 0, sameType: 0, anyGold: 0, audited: 0 };
const spans = { exact: { tp: 0, fp: 0, fn: 0 }, overlap: { tp: 0, fp: 0, fn: 0 } };
const addPRF = (into: PRF, from: PRF) => { into.tp += from.tp; into.fp += from.fp; into.fn += from.fn; };
const goldType = (finding: Citation) => (finding.type === 'statute' ? 'law' : 'case');

for (const doc of refexDocs) {
  if (hasAstral(doc.text)) offsetCheck.refex.astralTexts++;
  const gold: RefexGold[] = [];
  for (const g of refexGold.get(doc.doc_id) ?? []) {
    const span = goldSpan('refex', doc.text, g.span.start, g.span.end, g.span.text);
    if (span) gold.push({ ...g, span: { ...g.span, ...span } });
  }
  const findings: Citation[] = scored(extractCitations(doc.text, { backReferences: true }).citations, doc.text);

  for (const g of gold) {
    const t = tally[g.type];
    const unmatchable = unmatchableReason(g);
    const hit = g.type === 'law' ? matchLaw(g, findings, doc.text) : matchCase(g, findings);
    t.total++;
    if (unmatchable) t.unmatchable++;
    if (hit) {
      t.hits++;
      if (unmatchable) t.unmatchableHits++;
      continue;
    }
    const near = findings.filter((f) => overlaps(f, g.span));
    const sameKind = near.filter((f) => goldType(f) === g.type);
    const reason = unmatchable ? `unmatchable: ${unmatchable}`
      : !near.length ? 'no finding overlaps'
      : !sameKind.length ? `found only as ${near[0].type}`
      : g.type === 'law' ? (sameKind.some((f) => f.type === 'statute' && f.number.replace(/\s/g, '').toLowerCase() === (g.number ?? '').replace(/\s/g, '').toLowerCase()) ? 'law differs' : 'number differs')
      : 'file number / reporter differs';
    errors['refex-fn'].push({
      doc: doc.doc_id, type: g.type, gold: g.span.text, book: g.book, number: g.number, court: g.court,
      file_number: g.file_number, reporter: g.reporter && `${g.reporter} ${g.reporter_volume}, ${g.reporter_page}`,
      reason, overlapping: near.map(describe), context: context(doc.text, g.span),
    });
  }

  for (const f of findings) {
    const sameType = gold.some((g) => g.type === goldType(f) && overlaps(f, g.span));
    const anyGold = sameType || gold.some((g) => overlaps(f, g.span));
    findingsTally.total++;
    if (sameType) findingsTally.sameType++;
    if (anyGold) findingsTally.anyGold++;
    const gapKey = `${doc.doc_id} ${f.start} ${f.end} ${f.type}`;
    const gap = sameType ? undefined : goldGaps.get(gapKey);
    if (gap) gapsUsed.add(gapKey);
    if (sameType || gap) findingsTally.audited++;
    if (!sameType) {
      errors['refex-fp'].push({
        doc: doc.doc_id, start: f.start, end: f.end, finding: describe(f), text: doc.text.slice(f.start, f.end),
        overlapsOtherType: anyGold, auditedGoldGap: gap?.reason ?? null, context: context(doc.text, f),
      });
    }
  }

  const scores = spanScores(gold.map((g) => g.span), findings);
  addPRF(spans.exact, scores.exact);
  addPRF(spans.overlap, scores.overlap);
}

const recallRow = (label: string, t: typeof tally.law) => [
  label, ratio(t.hits, t.total), t.hits / t.total,
  `${ratio(t.hits - t.unmatchableHits, t.total - t.unmatchable)} = ${((t.hits - t.unmatchableHits) / (t.total - t.unmatchable)).toFixed(3)}`,
  '', '',
];
const spanRow = (label: string, m: PRF, reference: number) => [
  label, `P ${precision(m).toFixed(3)} R ${recall(m).toFixed(3)}`, f1(m), '', `refex ${reference}`, f1(m) >= reference ? 'above' : 'below',
];
console.log(`\nrefex: ${refexDocs.length} documents, ${tally.law.total + tally.case.total} gold citations, ${findingsTally.total} findings`);
console.log(`${describeOffsets('refex')}\n`);
printTable([
  ['measure', 'n', 'value', 'without unmatchable gold', 'reference', ''],
  recallRow('statute recall (law + number)', tally.law),
  recallRow('decision recall (file number / reporter)', tally.case),
  ['precision, finding overlaps gold of its type', ratio(findingsTally.sameType, findingsTally.total), findingsTally.sameType / findingsTally.total, '', '', ''],
  ['precision, finding overlaps any gold', ratio(findingsTally.anyGold, findingsTally.total), findingsTally.anyGold / findingsTally.total, '', '', ''],
  [
    'precision after audited gold gaps (bench/citations-gold-gaps.json)', ratio(findingsTally.audited, findingsTally.total),
    findingsTally.audited / findingsTally.total, '', '>= 0.93', mark(findingsTally.audited / findingsTally.total, 0.93),
  ],
  spanRow('exact-span F1 (refex metric)', spans.exact, 0.73),
  spanRow('overlap F1 (refex metric)', spans.overlap, 0.82),
]);
const staleGaps = [...goldGaps.keys()].filter((key) => !gapsUsed.has(key));
console.log(
  `\naudited gold gaps: ${gapsUsed.size} of ${goldGaps.size} entries in bench/citations-gold-gaps.json match a false finding ` +
    `(same document, kind and UTF-16 offsets)${staleGaps.length ? `; stale, no longer counted: ${staleGaps.join(', ')}` : ''}`,
);

// 2. LER test split --------------------------------------------------------------------------------------------------

interface LerEntity extends Span { label: string; text: string }
const LEGAL = new Set(['GS', 'VO', 'EUN', 'VS', 'VT', 'RS', 'LIT']);
const lerSentences = readJsonl<{ id: string; text: string; entities: LerEntity[] }>(LER_TEST);
const ler = { gs: { total: 0, hits: 0 }, rs: { total: 0, hits: 0 }, findings: 0, correct: 0 };

for (const sentence of lerSentences) {
  if (hasAstral(sentence.text)) offsetCheck.ler.astralTexts++;
  const entities: LerEntity[] = [];
  for (const e of sentence.entities) {
    const span = goldSpan('ler', sentence.text, e.start, e.end, e.text);
    if (span) entities.push({ ...e, ...span });
  }
  const findings: Citation[] = scored(extractCitations(sentence.text, { backReferences: true }).citations, sentence.text);
  for (const e of entities) {
    const target = e.label === 'GS' && /§|\bArt(\.|ikel)?(?!\p{L})/u.test(e.text) ? ler.gs : e.label === 'RS' ? ler.rs : null;
    if (!target) continue;
    target.total++;
    const wanted = target === ler.gs ? 'statute' : 'case';
    if (findings.some((f) => f.type === wanted && overlaps(f, e))) target.hits++;
    else {
      const near = findings.filter((f) => overlaps(f, e));
      errors['ler-fn'].push({ id: sentence.id, label: e.label, gold: e.text, overlapping: near.map(describe), context: context(sentence.text, e) });
    }
  }
  for (const f of findings) {
    ler.findings++;
    if (entities.some((e) => LEGAL.has(e.label) && overlaps(f, e))) ler.correct++;
    else {
      const labels = entities.filter((e) => overlaps(f, e)).map((e) => e.label);
      errors['ler-fp'].push({ id: sentence.id, finding: describe(f), text: sentence.text.slice(f.start, f.end), labels, context: context(sentence.text, f) });
    }
  }
}

console.log(`\nLER test: ${lerSentences.length} sentences (space-tokenized), ${ler.findings} findings`);
console.log(`${describeOffsets('ler')}\n`);
const lerRow = (label: string, hits: number, total: number, target: number) => [label, ratio(hits, total), hits / total, `>= ${target}`, mark(hits / total, target)];
printTable([
  ['measure', 'n', 'value', 'target', ''],
  lerRow('GS spans with § / Art.: recall (statute finding overlaps)', ler.gs.hits, ler.gs.total, 0.97),
  lerRow('RS spans: recall (case finding overlaps)', ler.rs.hits, ler.rs.total, 0.9),
  lerRow('precision (finding overlaps GS/VO/EUN/VS/VT/RS/LIT)', ler.correct, ler.findings, 0.95),
]);

console.log(`\nBack-references resolved (aaO, ebd.; role back_reference, not scored above): ${backReferences.length}`);
errors['backrefs'] = backReferences;

// 3. Speed -----------------------------------------------------------------------------------------------------------

const texts = refexDocs.map((doc) => doc.text);
const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
const pass = () => { for (const text of texts) extractCitations(text, { backReferences: true }); };
for (let i = 0; i < 10; i++) pass();
const samples: number[] = [];
for (let i = 0; i < 50; i++) {
  const started = performance.now();
  pass();
  samples.push(performance.now() - started);
}
const seconds = stats(samples).p50 / 1000;
const mbPerSecond = bytes / 1e6 / seconds;
const docsPerSecond = texts.length / seconds;
console.log(`\nSpeed: ${texts.length} refex documents, ${(bytes / 1e6).toFixed(3)} MB UTF-8, median of 50 passes after 10 warm-up: ${(seconds * 1000).toFixed(1)} ms per pass\n`);
printTable([
  ['measure', 'value', 'target', '', 'refex'],
  ['MB/s', mbPerSecond, '>= 10', mark(mbPerSecond, 10), ''],
  ['documents/s', docsPerSecond, '>= 780', mark(docsPerSecond, 780), '390'],
]);

// 4. Error files -----------------------------------------------------------------------------------------------------

mkdirSync(OUT, { recursive: true });
console.log(`\nError analysis in ${OUT}:`);
for (const [name, rows] of Object.entries(errors)) {
  writeFileSync(`${OUT}${name}.jsonl`, rows.map((row) => JSON.stringify(row)).join('\n') + (rows.length ? '\n' : ''));
  console.log(`  ${name}.jsonl: ${rows.length}`);
}
