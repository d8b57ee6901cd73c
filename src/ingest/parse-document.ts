// A document's bytes to what the importer writes: decisions prepared for writing, laws, and the files that fail or
// hold nothing. Needs no corpus, so it runs in the importer's worker threads (src/ingest/prepare-pool.ts).
import type { LawRecord, LawUnitRecord } from '../corpus/law-store.ts';
import type { DecisionRecord } from './decision-record.ts';
import { looksLikeGii, parseGiiXml } from './gii.ts';
import { looksLikeRii, parseRiiXml } from './rii.ts';
import {
  classifyRecord, lawbooksOf, oldpLawRecord, openJurReason, parseOldpCase, parseOldpLaw, type OldpBook,
} from './oldp.ts';
import { prepareDecision, type PreparedDecision } from './prepare-decision.ts';
import { looksLikeManifest, parseManifest, type CoverageManifest } from '../corpus/coverage-manifest.ts';

export type ParsedItem =
  | { kind: 'decision'; name: string; decision: PreparedDecision }
  | { kind: 'law'; name: string; law: LawRecord; mergeUnits: boolean; yieldToOtherSources: boolean }
  | { kind: 'coverage'; name: string; manifest: CoverageManifest }
  | { kind: 'failed'; name: string; reason: string }
  | { kind: 'skipped'; name: string };

export const failed = (name: string, reason: string): ParsedItem => ({ kind: 'failed', name, reason });
export const skipped = (name: string): ParsedItem => ({ kind: 'skipped', name });

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A parsed decision prepared for writing, or the reason it cannot be. */
export function decisionItem(record: DecisionRecord): ParsedItem {
  try {
    return { kind: 'decision', name: record.sourceName, decision: prepareDecision(record) };
  } catch (error) {
    return failed(record.sourceName, message(error));
  }
}

function lawItem(law: LawRecord, options: { mergeUnits?: boolean; yieldToOtherSources?: boolean } = {}): ParsedItem {
  return { kind: 'law', name: law.source_name ?? law.abbreviation, law,
    mergeUnits: options.mergeUnits ?? false, yieldToOtherSources: options.yieldToOtherSources ?? false };
}

function coverageItem(name: string, value: unknown): ParsedItem {
  try {
    return { kind: 'coverage', name, manifest: parseManifest(value) };
  } catch (error) {
    return failed(name, message(error));
  }
}

/** Groups Open Legal Data law units, which arrive one § per record, by book: each book becomes one law. */
export class LawGrouper {
  private book: string | null = null;
  private title: string | null = null;
  private units: LawUnitRecord[] = [];
  private readonly written = new Set<string>();
  private readonly sourceName: string;

  constructor(sourceName: string) {
    this.sourceName = sourceName;
  }

  /** Adds a unit; returns the previous book's law when this unit starts another book. */
  add(book: string, title: string | null, unit: LawUnitRecord): ParsedItem[] {
    const done = book === this.book ? [] : this.flush();
    this.book = book;
    this.title ??= title;
    this.units.push(unit);
    return done;
  }

  /** The book being collected, as a law (none when empty). */
  flush(): ParsedItem[] {
    if (this.book === null || this.units.length === 0) return [];
    const law = oldpLawRecord(this.book, this.title, this.units, `${this.sourceName}#${this.book}`);
    // A book that comes back later in the same dump adds to what was written, never replaces it.
    const mergeUnits = this.written.has(this.book);
    this.written.add(this.book);
    this.book = null;
    this.title = null;
    this.units = [];
    return [lawItem(law, { mergeUnits, yieldToOtherSources: true })];
  }
}

/** The bytes of an XML file as text, in the encoding its declaration names (UTF-8 otherwise, BOM dropped). */
function decodeText(data: Uint8Array): string {
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(200, data.byteLength)).toString('latin1');
  const declared = /<\?xml[^>]*encoding=["']([^"']+)["']/iu.exec(head)?.[1]?.toLowerCase();
  if (declared && /^(?:iso-8859-1|latin-?1|windows-1252|cp1252)$/u.test(declared)) {
    return new TextDecoder(declared.startsWith('windows') || declared === 'cp1252' ? 'windows-1252' : 'latin1').decode(data);
  }
  return new TextDecoder('utf-8').decode(data).replace(/^\uFEFF/u, '');
}

function parseXmlDocument(name: string, start: string, explicit: boolean): ParsedItem[] {
  const head = start.slice(0, 4096);
  try {
    if (looksLikeGii(head)) return [lawItem(parseGiiXml(start, name))];
    if (looksLikeRii(head)) return [decisionItem(parseRiiXml(start, name))];
    if (/<items[\s>]/u.test(head) && /gii-toc|<link>/u.test(head)) return [skipped(name)];
    if (/^<(?:!doctype html|html)/iu.test(start.slice(0, 200).replace(/<\?xml[^>]*>\s*/iu, ''))) {
      return [explicit ? failed(name, 'unsupported format: HTML page (import the source XML or JSON instead)') : skipped(name)];
    }
    const root = /<([A-Za-z][\w:-]*)/u.exec(head.replace(/<\?[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/giu, ''))?.[1] ?? '?';
    return [failed(name, `unsupported XML: root element <${root}> is neither a rechtsprechung-im-internet.de decision nor a gesetze-im-internet.de law`)];
  } catch (error) {
    return [failed(name, message(error))];
  }
}

/** The records of a JSON file (Open Legal Data fixtures and dumps): cases, law units grouped by book, openJur. */
export function parseJsonValues(name: string, values: unknown[], explicit: boolean): ParsedItem[] {
  const books: Map<string, OldpBook> = lawbooksOf(values);
  const laws = new LawGrouper(name);
  const items: ParsedItem[] = [];
  let found = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as Record<string, unknown>;
    const kind = classifyRecord(value);
    const itemName = values.length > 1 ? `${name}[${i}]` : name;
    if (kind === 'other' || kind === 'lawbook') continue;
    found++;
    try {
      if (kind === 'case') items.push(decisionItem(parseOldpCase(value, itemName)));
      else if (kind === 'openjur') items.push(failed(itemName, openJurReason(value)));
      else {
        const unit = parseOldpLaw(value, books);
        if (unit.latest) items.push(...laws.add(unit.book, unit.bookTitle, unit.unit));
        else items.push(skipped(itemName));
      }
    } catch (error) {
      items.push(failed(itemName, message(error)));
    }
  }
  items.push(...laws.flush());
  if (found === 0) items.push(explicit ? failed(name, 'JSON holds no decision or law record of a known format') : skipped(name));
  return items;
}

/** One line of a JSONL dump; law units go to the dump's grouper, which hands back finished books. */
export function parseJsonLine(itemName: string, line: string, laws: LawGrouper): ParsedItem[] {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return [failed(itemName, `invalid JSON: ${message(error)}`)];
  }
  try {
    const kind = classifyRecord(value);
    if (kind === 'case') return [decisionItem(parseOldpCase(value, itemName))];
    if (kind === 'law') {
      const unit = parseOldpLaw(value, new Map());
      return laws.add(unit.book, unit.bookTitle, unit.unit);
    }
    if (kind === 'openjur') return [failed(itemName, openJurReason(value))];
    return [failed(itemName, 'JSON line is no Open Legal Data case or law record')];
  } catch (error) {
    return [failed(itemName, message(error))];
  }
}

/**
 * One document that is no archive: an XML decision or law, a JSON file of records, a coverage manifest, or something
 * juralite does not read (failed when named explicitly, skipped inside folders and archives).
 */
export function parseDocument(name: string, data: Uint8Array, explicit: boolean): ParsedItem[] {
  const start = decodeText(data).trimStart();
  if (start.startsWith('<')) return parseXmlDocument(name, start, explicit);
  if (start.startsWith('{') || start.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(start);
    } catch (error) {
      return [failed(name, `invalid JSON: ${message(error)}`)];
    }
    if (looksLikeManifest(value)) return [coverageItem(name, value)];
    return parseJsonValues(name, Array.isArray(value) ? value : [value], explicit);
  }
  return [explicit ? failed(name, 'unsupported format: neither XML, JSON nor a zip or gzip archive') : skipped(name)];
}
