/**
 * Scoring rules for bench/citations-gold.ts: how a finding of the citation extractor is matched against the refex and
 * LER gold annotations. Pure functions; the rules are described in bench/README.md ("Citation extraction").
 */
import type { CaseCitation, Citation, StatuteCitation } from '../src/citations/types.ts';
import { utf16Index } from '../src/text/code-points.ts';

export interface Span { start: number; end: number }

/** One refex gold citation (annotations.jsonl), the fields this benchmark reads. */
export interface RefexGold {
  id: string;
  type: 'law' | 'case';
  span: Span & { text: string };
  book?: string | null;
  number?: string | null;
  court?: string | null;
  file_number?: string | null;
  reporter?: string | null;
  reporter_volume?: string | null;
  reporter_page?: string | null;
}

export const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

/** Law or reporter key: lowercase without spaces, dots and hyphens ('SGB V' -> 'sgbv', 'NJW-RR' -> 'njwrr'). */
export const lawKey = (law: string): string => law.toLowerCase().replace(/[\s.\-]/g, '');

/** '74 a' = '74a', case-insensitive. */
export const numberKey = (number: string): string => number.toLowerCase().replace(/\s/g, '');

/** 'BVerwG 4 NB 48.93' = '4 NB 48/93': whitespace collapsed, '.' before the year read as '/', ', ...' tails dropped. */
export function fileNumberKey(fileNumber: string): string {
  return fileNumber
    .replace(/,.*$/, '')
    .replace(/(\d)\.(\d{2}|\d{4})\b/g, '$1/$2')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** True when one file number contains the other on word boundaries (gold sometimes cuts 'L ' or 'B ' off). */
function sameFileNumber(a: string, b: string): boolean {
  const [x, y] = [` ${fileNumberKey(a)} `, ` ${fileNumberKey(b)} `];
  return x.length > 2 && y.length > 2 && (x.includes(y) || y.includes(x));
}

/**
 * A gold law book is "odd" when it is null, a number (SGB V annotated as '5'), or not written as an abbreviation in
 * the text ('Sozialgerichtsgesetzes', 'Fünftes Buch Sozialgesetzbuch', 'Grundgesetz'): then the § number alone decides.
 * An abbreviation is one word with a capital after its first letter, optionally followed by a roman or arabic book
 * number ('SGB XI').
 */
export function isOddBook(book: string | null | undefined, spanText: string, docText: string): boolean {
  if (!book || /^\d+$/.test(book.trim())) return true;
  const escaped = book.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  const pattern = new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, 'iu');
  const written = pattern.exec(spanText)?.[0] ?? pattern.exec(docText)?.[0];
  if (!written) return true;
  return !/^\p{L}[\p{L}]*(\s+([IVX]+|\d+))?$/u.test(written) || !/\p{Lu}/u.test(written.slice(1));
}

/** Why a gold item cannot be found by a § / Art. / decision extractor, or null when it can. */
export function unmatchableReason(gold: RefexGold): string | null {
  const text = gold.span.text.trim();
  if (gold.type === 'law') {
    if (/^\d+\s*[a-z]?$/i.test(text)) return 'bare number';
    if (!gold.number) return 'no provision (law or directive named without § / Art.)';
    return null;
  }
  if (/^(Tz|Rz|Rn|Rdnr|RdNr|Randnr|Randnummer)\.?\s*\d+$/i.test(text)) return 'marginal number only';
  if (!/\d/.test(text)) return 'bare court reference';
  if (!gold.file_number && !gold.reporter && !/\d+\s*,\s*\S*\d/.test(text)) return 'no file number or reporter';
  return null;
}

const statutes = (findings: Citation[]) => findings.filter((f): f is StatuteCitation => f.type === 'statute');
const cases = (findings: Citation[]) => findings.filter((f): f is CaseCitation => f.type === 'case');

/**
 * Same § number: '74 a' = '74a'; and where the gold number dropped a letter written apart ('§ 74 a HGB' annotated as
 * '74'), the finding's '74a' counts when the span writes it so.
 */
function sameNumber(found: string, gold: string, spanText: string): boolean {
  const [f, g] = [numberKey(found), numberKey(gold)];
  if (f === g) return true;
  const letter = f.startsWith(g) && f.length === g.length + 1 ? f.slice(-1) : null;
  return !!letter && new RegExp(`(?<![\\d])${g}\\s+${letter}(?!\\p{L})`, 'iu').test(spanText);
}

/**
 * The finding that hits a law gold item, else null. Besides the rules above, a gold book that the span contradicts
 * (span '§ 13 Abs 3a S 1 SGB V' annotated with book 'sgg': propagated from an earlier citation) gives way to the span:
 * the finding counts when the span writes the finding's law and does not write the gold book.
 */
export function matchLaw(gold: RefexGold, findings: Citation[], docText: string): StatuteCitation | null {
  const odd = isOddBook(gold.book, gold.span.text, docText);
  const bookKey = gold.book ? lawKey(gold.book) : '';
  const spanKey = lawKey(gold.span.text);
  return (
    statutes(findings).find((finding) => {
      if (!overlaps(finding, gold.span)) return false;
      if (!gold.number) return true; // a directive named as a whole: any provision cited of it at this place
      if (!sameNumber(finding.number, gold.number, gold.span.text)) return false;
      if (odd) return true;
      const keys = [finding.law, finding.lawText].filter((law): law is string => !!law).map(lawKey);
      if (keys.some((key) => key === bookKey || key.replace(/\d{4}$/, '') === bookKey)) return true;
      return !!finding.lawText && !spanKey.includes(bookKey) && spanKey.includes(lawKey(finding.lawText));
    }) ?? null
  );
}

/**
 * The finding that hits a case gold item, else null: it overlaps the gold span and names the gold reporter citation,
 * or the gold file number, or (gold reporter fields are often empty: 'BStBl II 1999, 28', 'BVerfGE' chains '70, 219')
 * has a reporter citation whose volume and page both appear in the gold span text.
 */
export function matchCase(gold: RefexGold, findings: Citation[]): CaseCitation | null {
  const spanNumbers = new Set(gold.span.text.match(/[\w-]*\d[\w-]*/g) ?? []);
  return (
    cases(findings).find((finding) => {
      if (!overlaps(finding, gold.span)) return false;
      if (gold.reporter && gold.reporter_volume && gold.reporter_page) {
        const hit = finding.reporters.some(
          (r) => lawKey(r.reporter) === lawKey(gold.reporter!) && r.volume.trim() === gold.reporter_volume!.trim() &&
            r.page.trim() === gold.reporter_page!.trim(),
        );
        if (hit) return true;
      }
      if (gold.file_number && finding.aktenzeichen && sameFileNumber(finding.aktenzeichen, gold.file_number)) return true;
      return finding.reporters.some((r) => spanNumbers.has(r.volume.trim()) && spanNumbers.has(r.page.trim()));
    }) ?? null
  );
}

export interface PRF { tp: number; fp: number; fn: number }
export const precision = (m: PRF): number => (m.tp + m.fp ? m.tp / (m.tp + m.fp) : 0);
export const recall = (m: PRF): number => (m.tp + m.fn ? m.tp / (m.tp + m.fn) : 0);
export const f1 = (m: PRF): number => {
  const [p, r] = [precision(m), recall(m)];
  return p + r ? (2 * p * r) / (p + r) : 0;
};

/** refex's own span metrics (benchmarks/metrics.py): exact (start, end) equality, and greedy one-to-one overlap. */
export function spanScores(gold: Span[], found: Span[]): { exact: PRF; overlap: PRF } {
  const key = (s: Span) => `${s.start}:${s.end}`;
  const goldKeys = new Set(gold.map(key));
  const foundKeys = new Set(found.map(key));
  const exactTp = [...foundKeys].filter((k) => goldKeys.has(k)).length;
  const exact = { tp: exactTp, fp: foundKeys.size - exactTp, fn: goldKeys.size - exactTp };
  const golds = [...gold].sort((a, b) => a.start - b.start);
  const taken = new Set<number>();
  let tp = 0;
  for (const f of [...found].sort((a, b) => a.start - b.start)) {
    const index = golds.findIndex((g, i) => !taken.has(i) && overlaps(f, g));
    if (index < 0) continue;
    taken.add(index);
    tp++;
  }
  return { exact, overlap: { tp, fp: found.length - tp, fn: gold.length - tp } };
}

/**
 * UTF-16 offsets of a gold span given as UTF-16 or code point offsets, decided by which reading yields the span's
 * text; null when neither does.
 */
export function toUtf16(text: string, start: number, end: number, expected: string): { span: Span; codePoints: boolean } | null {
  if (text.slice(start, end) === expected) return { span: { start, end }, codePoints: false };
  const span = { start: utf16Index(text, start), end: utf16Index(text, end) };
  return text.slice(span.start, span.end) === expected ? { span, codePoints: true } : null;
}

/** The span with 60 characters either side: '... left [[span]] right ...'. */
export function context(text: string, span: Span, width = 60): string {
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  return `${flat(text.slice(Math.max(0, span.start - width), span.start))}[[${flat(text.slice(span.start, span.end))}]]${flat(text.slice(span.end, span.end + width))}`;
}

/** A finding as a short line for error files: '§ 823 BGB', 'BGH VI ZR 1/20 NJW 2020, 1'. */
export function describe(finding: Citation): string {
  if (finding.type === 'statute') return `${finding.kind} ${finding.number} ${finding.law ?? '(no law)'}${finding.lawFromContext ? ' (law from context)' : ''}`;
  return [finding.court ?? '(no court)', finding.aktenzeichen ?? '', ...finding.reporters.map((r) => r.canonical)].filter(Boolean).join(' ');
}
