// Open Legal Data records: cases (dump lines of cases.jsonl[.gz], Django fixtures, single JSON records) and laws
// (laws.jsonl[.gz] lines, or fixtures of laws.lawbook + laws.law). Content is HTML (with <rd nr="N"/> Randnummern
// and [ref=...]...[/ref] markers) or the Markdown-like text some records keep.
import { citedAbbreviation, registryAbbreviation } from '../corpus/law-aliases.ts';
import type { LawRecord, LawUnitRecord } from '../corpus/law-store.ts';
import { renderBlocks, renderMarkdownBlocks, type SectionBlocks } from './blocks.ts';
import { parseDate, splitFileNumbers, type DecisionRecord } from './decision-record.ts';
import { unitsOfEnbez } from './gii.ts';
import { collapse, htmlEvents, type MarkupEvent } from './xml.ts';

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** What a JSON value holds, for the dispatcher. */
export type OldpKind = 'case' | 'law' | 'lawbook' | 'openjur' | 'other';

/** Classifies one record (a Django fixture entry `{model, fields}` or a plain object). */
export function classifyRecord(value: unknown): OldpKind {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'other';
  const v = value as Json;
  if (typeof v.model === 'string') {
    if (v.model === 'cases.case') return 'case';
    if (v.model === 'laws.law') return 'law';
    if (v.model === 'laws.lawbook') return 'lawbook';
    return 'other';
  }
  if ('file_number' in v && ('content' in v || 'text' in v || 'raw' in v || 'sections' in v) && ('court' in v || 'court_raw' in v || 'ecli' in v)) return 'case';
  if ('section' in v && 'content' in v && ('book' in v || 'book_code' in v)) return 'law';
  if (('reference' in v || 'aktenzeichen' in v) && ('text' in v || 'tenor' in v || 'gruende' in v)) return 'openjur';
  return 'other';
}

const fieldsOf = (v: Json): Json => (typeof v.model === 'string' && v.fields && typeof v.fields === 'object' ? (v.fields as Json) : v);

function courtName(c: Json): string {
  const court = c.court;
  if (court && typeof court === 'object') {
    const o = court as Json;
    const name = str(o.name) ?? str(o.code);
    if (name) return name;
  }
  if (typeof court === 'string' && court.trim() !== '') return court;
  const raw = str(c.court_raw);
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as Json;
      const name = str(parsed?.name);
      if (name) return name;
    } catch {
      if (!raw.startsWith('{')) return raw;
    }
  }
  return str(c.source_name) ?? '';
}

/** Removes Open Legal Data's reference markers, keeping the marked text. */
function stripRefMarkers(content: string): string {
  return content.replace(/\[ref=[^\]]*\]/gu, '').replace(/\[\/ref\]/gu, '');
}

/** Renders OLDP decision content (HTML or Markdown-like) to sections. */
export function contentSections(content: string): SectionBlocks[] {
  const c = stripRefMarkers(content);
  if (/<[a-zA-Z][^>]*>/u.test(c)) {
    return renderBlocks(htmlEvents(c), { detectSections: true, defaultSection: 'Volltext' });
  }
  return renderMarkdownBlocks(c, 'Volltext');
}

function sectionsFromStructure(sections: unknown): SectionBlocks[] {
  if (!Array.isArray(sections)) return [];
  const out: SectionBlocks[] = [];
  for (const s of sections) {
    if (!s || typeof s !== 'object') continue;
    const title = str((s as Json).title) ?? 'Volltext';
    const content = (s as Json).content;
    const blocks = (Array.isArray(content) ? content : [])
      .map((p) => (p && typeof p === 'object' ? collapse(String((p as Json).value ?? '')) : ''))
      .filter((t) => t !== '')
      .map((text) => ({ text, rn: null, heading: false }));
    if (blocks.length) out.push({ name: title, blocks });
  }
  return out;
}

/** Turns an OLDP case record into a decision record. Throws with a reason when it holds no usable decision. */
export function parseOldpCase(value: Json, sourceName: string): DecisionRecord {
  const c = fieldsOf(value);
  const fileNumbers = splitFileNumbers(str(c.file_number));
  const content = str(c.content);
  let sections = content ? contentSections(content) : [];
  if (sections.length === 0 && str(c.text)) sections = contentSections(String(c.text));
  if (sections.length === 0) sections = sectionsFromStructure(c.sections);
  if (sections.length === 0) throw new Error('Open Legal Data case without text (no content, text or sections)');
  const court = courtName(c);
  const ecli = str(c.ecli);
  if (!court && !ecli) throw new Error('Open Legal Data case without court');
  const date = parseDate(str(c.date));
  if (fileNumbers.length === 0 && !ecli) throw new Error('Open Legal Data case without file number or ECLI');
  return {
    doknr: null,
    ecli,
    courtRaw: court,
    chamber: str(c.court_chamber),
    date,
    documentType: str(c.type),
    title: str(c.title) ? collapse(String(c.title)) : null,
    fileNumbers,
    norms: null,
    sections,
    sourceFormat: 'oldp-json',
    sourceName,
  };
}

/** The reason an openJur scrape record is refused (they carry Python byte literals and double-encoded UTF-8). */
export function openJurReason(value: Json): string {
  const text = String(value.text ?? value.tenor ?? '');
  if (text.startsWith("b'") || text.startsWith('b"')) return 'openJur record: text is a Python bytes literal with double-encoded UTF-8 (mojibake); not imported';
  if (/Ã[\u0080-\u00bf]|&#195;/u.test(text + String(value.court ?? ''))) return 'openJur record: double-encoded UTF-8 (mojibake); not imported';
  return 'openJur record: unsupported format (no court, date and text fields of a known source)';
}

/** Law unit lines from OLDP law HTML: one line per paragraph, ordered list items numbered as Absätze '(n)'. */
function lawLines(html: string): string[] {
  const events: MarkupEvent[] = [];
  const counters: number[] = [];
  for (const ev of htmlEvents(stripRefMarkers(html))) {
    if (ev.type === 'open' && ev.tag === 'ol') counters.push(0);
    else if (ev.type === 'close' && ev.tag === 'ol') counters.pop();
    if (ev.type === 'open' && ev.tag === 'li' && counters.length === 1) {
      counters[0]++;
      events.push(ev, { type: 'text', text: `(${counters[0]}) ` });
      continue;
    }
    events.push(ev);
  }
  const lines: string[] = [];
  for (const s of renderBlocks(events, { defaultSection: 'x' })) for (const b of s.blocks) lines.push(b.text);
  // An Absatz number alone on its line (li > p) joins the text after it.
  const out: string[] = [];
  for (const l of lines) {
    if (out.length && /^\(\d+[a-z]?\)$/u.test(out[out.length - 1])) out[out.length - 1] += ` ${l}`;
    else out.push(l);
  }
  return out;
}

export interface OldpLawUnit {
  book: string;
  bookTitle: string | null;
  /** False for a unit of an older revision of its book (fixtures hold several). */
  latest: boolean;
  unit: LawUnitRecord;
}

export interface OldpBook {
  code: string;
  title: string | null;
  latest: boolean;
}

/** Turns an OLDP law record (one § or article) into a unit of its book. Throws when it names no unit. */
export function parseOldpLaw(value: Json, books: Map<string, OldpBook>): OldpLawUnit {
  const l = fieldsOf(value);
  const bookRef = l.book_code ?? l.book;
  const fromBooks = books.get(String(bookRef));
  const book = fromBooks?.code ?? (typeof bookRef === 'string' ? bookRef : null);
  if (!book) throw new Error('Open Legal Data law without book code');
  const section = str(l.section);
  if (!section) throw new Error('Open Legal Data law without section');
  const { units } = unitsOfEnbez(section.replace(/^Artikel\b/u, 'Art'));
  if (units.length === 0) throw new Error(`Open Legal Data law section ${section} names no § or article`);
  const lines = lawLines(String(l.content ?? ''));
  const heading = str(l.title) ? collapse(String(l.title)) : null;
  const repealed = lines.length === 1 && /^\(?weggefallen\)?$/u.test(lines[0]);
  const numbered = lines.filter((x) => /^\(\d+[a-z]?\)/u.test(x)).length;
  return {
    book,
    bookTitle: fromBooks?.title ?? null,
    latest: fromBooks?.latest ?? true,
    unit: {
      kind: units[0].kind,
      number: units[0].number,
      heading,
      text: lines.length ? lines.join('\n') : null,
      absatz_count: repealed ? 0 : numbered || (lines.length ? 1 : 0),
      breadcrumb: null,
      repealed,
    },
  };
}

/** A law record for an OLDP book and its units; the cited abbreviation comes from the registry where it knows it. */
export function oldpLawRecord(book: string, title: string | null, units: LawUnitRecord[], sourceName: string): LawRecord {
  const abbreviation = registryAbbreviation(book) ?? citedAbbreviation(book);
  return {
    abbreviation,
    gii_jurabk: book !== abbreviation ? book : null,
    amtabk: null,
    title,
    law_type: null,
    jurisdiction: 'DE',
    stand: null,
    source_id: `oldp:${book}`,
    text_available: true,
    source_format: 'oldp-json',
    source_name: sourceName,
    units,
  };
}

/** Reads the lawbooks of a fixture array: pk -> code and title. */
export function lawbooksOf(records: unknown[]): Map<string, OldpBook> {
  const books = new Map<string, OldpBook>();
  for (const r of records) {
    if (classifyRecord(r) !== 'lawbook') continue;
    const v = r as Json;
    const f = fieldsOf(v);
    const code = str(f.code);
    if (code && v.pk !== undefined) {
      books.set(String(v.pk), { code, title: str(f.title) ? collapse(String(f.title)) : null, latest: f.latest !== false });
    }
  }
  return books;
}
