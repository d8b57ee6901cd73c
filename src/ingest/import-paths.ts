// The import dispatcher: walks files, folders and archives, detects each document's format from its content (and
// name), parses it, and writes documents in batches: one transaction per batch, one savepoint per document, so an
// interrupted import never leaves a half-written document and one bad document never spoils its batch.
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import type { CorpusDb } from '../corpus/open.ts';
import { setMeta } from '../corpus/open.ts';
import { writeLaw, type LawRecord, type LawUnitRecord, type WriteOutcome } from '../corpus/law-store.ts';
import { looksLikeGii, parseGiiXml } from './gii.ts';
import { looksLikeRii, parseRiiXml } from './rii.ts';
import {
  classifyRecord, lawbooksOf, oldpLawRecord, openJurReason, parseOldpCase, parseOldpLaw, type OldpBook,
} from './oldp.ts';
import { writeDecision } from './store-decision.ts';
import type { DecisionRecord } from './decision-record.ts';
import { isZip, zipMembers } from './zip.ts';
import { tarEntries } from './tar.ts';
import { sql } from '../db/statements.ts';
import { resolvePendingEdges } from '../graph/resolve.ts';
import { syncSearchIndex } from '../search/index-sync.ts';

export interface ImportProgress {
  /** Documents handled so far (written, skipped or failed). */
  done: number;
  total?: number;
  /** The document (file, archive member or JSONL line) just handled. */
  current: string;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** Documents per transaction (default 500). */
  batchSize?: number;
}

export interface ImportSummary {
  /** Documents (decisions and laws) new to the corpus. */
  imported: number;
  /** Documents already held (same id) whose content changed and was rewritten in place. */
  updated: number;
  /**
   * Documents held unchanged, and files of a readable kind that hold no document (INDEX.json, meta.json, a GII
   * table of contents, old revisions in fixtures). Files of other kinds inside folders and archives are not counted.
   */
  skipped: number;
  /** Files, archive members or lines that could not be imported, with the reason. */
  failed: { path: string; reason: string }[];
  /** Corpus totals after the import: decisions, laws whose text is held, and their units. */
  decisions: number;
  laws: number;
  law_units: number;
  /** Decision-to-decision citation edges held after the import, and how many of them name a decision of the corpus. */
  citation_edges: number;
  citation_edges_resolved: number;
  /** Edges left unresolved by earlier imports (or earlier batches) that this import's decisions resolved. */
  edges_resolved: number;
}

/** Size above which a single (non-archive, non-JSONL) file is refused rather than read into memory. */
const FILE_LIMIT = 256 * 1024 * 1024;
/** Characters of text buffered before a batch is written even if it holds fewer than batchSize documents. */
const BATCH_CHARS = 8 * 1024 * 1024;
/** Extensions the walker reads inside folders and archives; other files there are passed over. */
const KNOWN = /\.(?:xml|json|jsonl|ndjson|zip|gz|tgz|tar)$/iu;

interface Pending {
  name: string;
  chars: number;
  write: () => WriteOutcome;
}

class Importer {
  private batch: Pending[] = [];
  private chars = 0;
  private done = 0;
  readonly importedAt = new Date().toISOString();
  readonly summary: ImportSummary = {
    imported: 0, updated: 0, skipped: 0, failed: [], decisions: 0, laws: 0, law_units: 0,
    citation_edges: 0, citation_edges_resolved: 0, edges_resolved: 0,
  };
  private readonly db: CorpusDb;
  private readonly options: ImportOptions;

  constructor(db: CorpusDb, options: ImportOptions) {
    this.db = db;
    this.options = options;
  }

  private progress(current: string): void {
    this.done++;
    this.options.onProgress?.({ done: this.done, current });
  }

  fail(path: string, reason: string): void {
    this.summary.failed.push({ path, reason });
    this.progress(path);
  }

  skip(path: string): void {
    this.summary.skipped++;
    this.progress(path);
  }

  async add(p: Pending): Promise<void> {
    this.batch.push(p);
    this.chars += p.chars;
    if (this.batch.length >= (this.options.batchSize ?? 500) || this.chars >= BATCH_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.chars = 0;
    const db = this.db;
    const results: [string, WriteOutcome | Error][] = [];
    db.transaction(() => {
      for (const p of batch) {
        try {
          results.push([p.name, db.transaction(p.write)()]);
        } catch (error) {
          results.push([p.name, error as Error]);
        }
      }
    })();
    for (const [name, r] of results) {
      if (r instanceof Error) this.summary.failed.push({ path: name, reason: r.message });
      else this.summary[r]++;
      this.progress(name);
    }
    // Let the event loop breathe between batches (a server may share the process).
    await new Promise((resolve) => setImmediate(resolve));
  }

  decision(rec: DecisionRecord): Promise<void> {
    const chars = rec.sections.reduce((n, s) => n + s.blocks.reduce((m, b) => m + b.text.length, 0), 0);
    return this.add({ name: rec.sourceName, chars, write: () => writeDecision(this.db, rec, this.importedAt).outcome });
  }

  law(rec: LawRecord, options: { mergeUnits?: boolean; yieldToOtherSources?: boolean } = {}): Promise<void> {
    const chars = rec.units.reduce((n, u) => n + (u.text?.length ?? 0), 0);
    return this.add({
      name: rec.source_name ?? rec.abbreviation,
      chars,
      write: () => {
        if (options.yieldToOtherSources) {
          const held = sql(this.db, 'SELECT source_format FROM laws WHERE abbreviation = ?').get(rec.abbreviation) as
            | { source_format: string | null } | undefined;
          if (held && held.source_format !== rec.source_format) return 'skipped';
        }
        return writeLaw(this.db, rec, this.importedAt, { mergeUnits: options.mergeUnits }).outcome;
      },
    });
  }

  finish(): ImportSummary {
    // Decisions imported now may answer citations that earlier decisions (or earlier batches) could not resolve.
    this.summary.edges_resolved = this.db.transaction(() => resolvePendingEdges(this.db))();
    // The search indexes follow the chunks and law units this import wrote or replaced.
    syncSearchIndex(this.db);
    const count = (query: string) => (sql<[], { n: number }>(this.db, query).get()!).n;
    this.summary.decisions = count('SELECT count(*) AS n FROM decisions');
    this.summary.laws = count('SELECT count(*) AS n FROM laws WHERE text_available = 1');
    this.summary.law_units = count('SELECT count(*) AS n FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.text_available = 1');
    this.summary.citation_edges = count(`SELECT count(*) AS n FROM citation_edges WHERE reference_type = 'case'`);
    this.summary.citation_edges_resolved = count(
      `SELECT count(*) AS n FROM citation_edges WHERE reference_type = 'case' AND resolution_status = 'resolved'`);
    const { failed, ...counts } = this.summary;
    setMeta(this.db, 'last_import_at', this.importedAt);
    setMeta(this.db, 'last_import_summary', JSON.stringify({ ...counts, failed: failed.length }));
    return this.summary;
  }
}

function decodeText(data: Buffer): string {
  const head = data.subarray(0, 200).toString('latin1');
  const declared = /<\?xml[^>]*encoding=["']([^"']+)["']/iu.exec(head)?.[1]?.toLowerCase();
  if (declared && /^(?:iso-8859-1|latin-?1|windows-1252|cp1252)$/u.test(declared)) {
    return new TextDecoder(declared.startsWith('windows') || declared === 'cp1252' ? 'windows-1252' : 'latin1').decode(data);
  }
  return data.toString('utf8').replace(/^\uFEFF/u, '');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Groups the law units of a JSON array or JSONL stream by book, writing each book as one law. */
class LawCollector {
  private book: string | null = null;
  private title: string | null = null;
  private units: LawUnitRecord[] = [];
  private readonly written = new Set<string>();
  private readonly importer: Importer;
  private readonly sourceName: string;

  constructor(importer: Importer, sourceName: string) {
    this.importer = importer;
    this.sourceName = sourceName;
  }

  async add(book: string, title: string | null, unit: LawUnitRecord): Promise<void> {
    if (book !== this.book) await this.flush();
    this.book = book;
    this.title ??= title;
    this.units.push(unit);
  }

  async flush(): Promise<void> {
    if (this.book === null || this.units.length === 0) return;
    const rec = oldpLawRecord(this.book, this.title, this.units, `${this.sourceName}#${this.book}`);
    // A book that comes back later in the same dump adds to what was written, never replaces it.
    const merge = this.written.has(this.book);
    this.written.add(this.book);
    this.book = null;
    this.title = null;
    this.units = [];
    await this.importer.law(rec, { mergeUnits: merge, yieldToOtherSources: true });
  }
}

async function handleJsonValues(imp: Importer, name: string, values: unknown[], explicit: boolean): Promise<void> {
  const books: Map<string, OldpBook> = lawbooksOf(values);
  const laws = new LawCollector(imp, name);
  let found = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const kind = classifyRecord(v);
    const itemName = values.length > 1 ? `${name}[${i}]` : name;
    if (kind === 'case') {
      found++;
      try {
        await imp.decision(parseOldpCase(v as Record<string, unknown>, itemName));
      } catch (error) {
        imp.fail(itemName, message(error));
      }
    } else if (kind === 'law') {
      found++;
      try {
        const u = parseOldpLaw(v as Record<string, unknown>, books);
        if (!u.latest) {
          imp.skip(itemName);
          continue;
        }
        await laws.add(u.book, u.bookTitle, u.unit);
      } catch (error) {
        imp.fail(itemName, message(error));
      }
    } else if (kind === 'openjur') {
      found++;
      imp.fail(itemName, openJurReason(v as Record<string, unknown>));
    }
  }
  await laws.flush();
  if (found === 0) {
    if (explicit) imp.fail(name, 'JSON holds no decision or law record of a known format');
    else imp.skip(name);
  }
}

async function handleJsonLines(imp: Importer, name: string, input: Readable): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  const laws = new LawCollector(imp, name);
  let n = 0;
  for await (const line of lines) {
    n++;
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const itemName = `${name}:${n}`;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      imp.fail(itemName, `invalid JSON: ${message(error)}`);
      continue;
    }
    const kind = classifyRecord(value);
    try {
      if (kind === 'case') await imp.decision(parseOldpCase(value as Record<string, unknown>, itemName));
      else if (kind === 'law') {
        const u = parseOldpLaw(value as Record<string, unknown>, new Map());
        await laws.add(u.book, u.bookTitle, u.unit);
      } else if (kind === 'openjur') imp.fail(itemName, openJurReason(value as Record<string, unknown>));
      else imp.fail(itemName, 'JSON line is no Open Legal Data case or law record');
    } catch (error) {
      imp.fail(itemName, message(error));
    }
  }
  await laws.flush();
}

/** Handles one document held in memory: a file, an archive member, or a decompressed .gz. */
async function handleBuffer(imp: Importer, name: string, data: Buffer, explicit: boolean): Promise<void> {
  if (isZip(data)) {
    for await (const m of zipMembers(data)) await handleMember(imp, `${name}!/${m.name}`, m);
    return;
  }
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    let inner: Buffer;
    try {
      inner = gunzipSync(data, { maxOutputLength: FILE_LIMIT });
    } catch (error) {
      imp.fail(name, `unreadable gzip: ${message(error)}`);
      return;
    }
    const innerName = name.replace(/\.gz$/iu, '');
    if (/\.tar$/iu.test(innerName)) {
      for await (const e of tarEntries(Readable.from([inner]))) await handleMember(imp, `${innerName}!/${e.name}`, e);
      return;
    }
    await handleBuffer(imp, innerName, inner, explicit);
    return;
  }
  if (/\.(?:jsonl|ndjson)$/iu.test(name)) {
    await handleJsonLines(imp, name, Readable.from([data]));
    return;
  }
  const text = decodeText(data);
  const start = text.trimStart();
  if (start.startsWith('<')) {
    const head = start.slice(0, 4096);
    try {
      if (looksLikeGii(head)) await imp.law(parseGiiXml(text, name));
      else if (looksLikeRii(head)) await imp.decision(parseRiiXml(text, name));
      else if (/<items[\s>]/u.test(head) && /gii-toc|<link>/u.test(head)) imp.skip(name);
      else if (/^<(?:!doctype html|html)/iu.test(start.slice(0, 200).replace(/<\?xml[^>]*>\s*/iu, ''))) {
        if (explicit) imp.fail(name, 'unsupported format: HTML page (import the source XML or JSON instead)');
        else imp.skip(name);
      } else {
        const root = /<([A-Za-z][\w:-]*)/u.exec(head.replace(/<\?[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/giu, ''))?.[1] ?? '?';
        imp.fail(name, `unsupported XML: root element <${root}> is neither a rechtsprechung-im-internet.de decision nor a gesetze-im-internet.de law`);
      }
    } catch (error) {
      imp.fail(name, message(error));
    }
    return;
  }
  if (start.startsWith('{') || start.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(start);
    } catch (error) {
      imp.fail(name, `invalid JSON: ${message(error)}`);
      return;
    }
    await handleJsonValues(imp, name, Array.isArray(value) ? value : [value], explicit);
    return;
  }
  if (explicit) imp.fail(name, 'unsupported format: neither XML, JSON nor a zip or gzip archive');
  else imp.skip(name);
}

async function handleMember(imp: Importer, name: string, m: { data: Buffer } | { error: string }): Promise<void> {
  if ('error' in m) {
    imp.fail(name, m.error);
    return;
  }
  const base = name.slice(name.lastIndexOf('/') + 1);
  // Members of other kinds (READMEs, images, .md renderings) are no documents: passed over without a count.
  if (!KNOWN.test(base) && !isZip(m.data)) return;
  await handleBuffer(imp, name, m.data, false);
}

async function handlePath(imp: Importer, path: string, explicit: boolean): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    imp.fail(path, `cannot read: ${message(error)}`);
    return;
  }
  if (info.isDirectory()) {
    const entries = (await readdir(path)).filter((e) => !e.startsWith('.')).sort();
    for (const e of entries) await handlePath(imp, join(path, e), false);
    return;
  }
  if (!info.isFile()) return;
  const name = basename(path).toLowerCase();
  if (!explicit && !KNOWN.test(name)) return;
  try {
    if (/\.(?:tar\.gz|tgz)$/u.test(name)) {
      for await (const e of tarEntries(createReadStream(path).pipe(createGunzip()))) await handleMember(imp, `${path}!/${e.name}`, e);
    } else if (name.endsWith('.tar')) {
      for await (const e of tarEntries(createReadStream(path))) await handleMember(imp, `${path}!/${e.name}`, e);
    } else if (/\.(?:jsonl|ndjson)\.gz$/u.test(name)) {
      await handleJsonLines(imp, path, createReadStream(path).pipe(createGunzip()));
    } else if (/\.(?:jsonl|ndjson)$/u.test(name)) {
      await handleJsonLines(imp, path, createReadStream(path));
    } else if (name.endsWith('.zip')) {
      for await (const m of zipMembers(path)) await handleMember(imp, `${path}!/${m.name}`, m);
    } else {
      if (info.size > FILE_LIMIT) {
        imp.fail(path, `file larger than ${FILE_LIMIT} bytes (split it, or pack it as .jsonl.gz or .tar.gz)`);
        return;
      }
      await handleBuffer(imp, path, await readFile(path), explicit);
    }
  } catch (error) {
    imp.fail(path, message(error));
  }
}

/**
 * Imports files, folders and archives into the corpus and reports what happened. Formats are detected from content
 * and name: rechtsprechung-im-internet.de decision XML (and its jb-*.zip), gesetze-im-internet.de law XML (and its
 * xml.zip, and tarballs of laws/<BJNR>/source.xml), Open Legal Data cases/laws (.json, .jsonl, .jsonl.gz).
 * Re-importing updates in place and keeps ids; unchanged documents are skipped.
 *
 * @example
 * const summary = await importPaths(db, ['fixtures/decisions', 'fixtures/laws']);
 * // { imported: 44, updated: 0, skipped: 0, failed: [], decisions: 44, laws: 5, law_units: 812 }
 */
export async function importPaths(db: CorpusDb, paths: string[], options: ImportOptions = {}): Promise<ImportSummary> {
  const imp = new Importer(db, options);
  for (const path of paths) {
    await handlePath(imp, path, true);
    await imp.flush();
  }
  await imp.flush();
  return imp.finish();
}
