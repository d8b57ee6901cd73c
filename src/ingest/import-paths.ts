// The import dispatcher: walks files, folders and archives, detects each document's format from its content (and
// name), parses it, and writes documents in batches: one transaction per batch (and, should a document fail, a
// savepoint per document), so an interrupted import never leaves a half-written document and one bad document never
// spoils its batch.
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import type { CorpusDb } from '../corpus/open.ts';
import { setMeta } from '../corpus/open.ts';
import { writeLaw, type LawRecord, type WriteOutcome } from '../corpus/law-store.ts';
import { writeDecision } from './store-decision.ts';
import { writeManifest } from '../corpus/coverage-manifest.ts';
import { failed, LawGrouper, message, parseJsonLine, skipped, type ParsedItem } from './parse-document.ts';
import { defaultImportWorkers, ImportWorkers } from './prepare-pool.ts';
import { isZip, zipMembers } from './zip.ts';
import { tarEntries } from './tar.ts';
import { sql } from '../db/statements.ts';
import { forgetResolutions, resolvePendingEdges } from '../graph/resolve.ts';
import { syncSearchIndex, syncSearchIndexThreaded } from '../search/index-sync.ts';
import { activeProfile, profileSteps, timed, timedAsync, type ImportProfile } from './import-profile.ts';

export interface ImportProgress {
  /** Documents handled so far (written, skipped or failed). */
  done: number;
  total?: number;
  /** The document (file, archive member or JSONL line) just handled. */
  current: string;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** Documents per transaction (default 2000). */
  batchSize?: number;
  /** Worker threads parsing documents beside the writing main thread (default: one per core, at most 4; 0: none). */
  workers?: number;
  /** Documents parsed in the main thread before the workers start (default 100: small imports need none). */
  inlineDocuments?: number;
  /** Times the import's steps into this profile (`juralite import --profile`). */
  profile?: ImportProfile;
}

export interface ImportSummary {
  /** Documents (decisions and laws) new to the corpus. */
  imported: number;
  /** Documents already held (same id) whose content changed and was rewritten in place. */
  updated: number;
  /** Documents already held with the same content (or a law held from a source that takes precedence): not written. */
  unchanged: number;
  /**
   * Files of a readable kind that hold no document (INDEX.json, meta.json, a GII table of contents, old revisions in
   * fixtures): passed over. Files of other kinds inside folders and archives are not counted.
   */
  not_documents: number;
  /** unchanged + not_documents (the older name for both together). */
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
const BATCH_CHARS = 32 * 1024 * 1024;
/**
 * The page cache of the import's connection while it writes (KiB), and its WAL checkpoint interval (pages). Every
 * decision adds rows at random places of a dozen indexes (UUID keys, cited decisions): with the connection's usual
 * 256 MB their pages are read again and again, and frequent checkpoints write each of them once per batch. Batches
 * of 2,000 documents with a checkpoint every 100,000 pages (a WAL of at most ~400 MB plus one batch) imported 10k
 * decisions into a 100k corpus in 49 s instead of 59 s (1,000 documents, every 10,000 pages; bench/README.md).
 */
const IMPORT_CACHE_KIB = 512 * 1024;
const IMPORT_CHECKPOINT_PAGES = 100_000;
/** Extensions the walker reads inside folders and archives; other files there are passed over. */
const KNOWN = /\.(?:xml|json|jsonl|ndjson|zip|gz|tgz|tar)$/iu;

interface Pending {
  name: string;
  chars: number;
  write: () => WriteOutcome;
}

/** Documents being parsed ahead of the writer, as a multiple of the batch: the workers parse the next batch while the
 * main thread writes one, so neither waits for the other. */
const PARSED_AHEAD_BATCHES = 2;

class Importer {
  private batch: Pending[] = [];
  private chars = 0;
  private done = 0;
  /** Items still being parsed (in worker threads), in document order: they are written in that order. */
  private readonly parsing: Promise<ParsedItem[]>[] = [];
  /** A law was written: statute edges written before it (by this import or earlier ones) may now resolve (finish). */
  private lawsWritten = false;
  private readonly maxParsing: number;
  readonly workers: ImportWorkers;
  readonly importedAt = new Date().toISOString();
  readonly summary: ImportSummary = {
    imported: 0, updated: 0, unchanged: 0, not_documents: 0, skipped: 0, failed: [], decisions: 0, laws: 0, law_units: 0,
    citation_edges: 0, citation_edges_resolved: 0, edges_resolved: 0,
  };
  private readonly db: CorpusDb;
  private readonly options: ImportOptions;

  constructor(db: CorpusDb, options: ImportOptions) {
    this.db = db;
    this.options = options;
    const workers = options.workers ?? defaultImportWorkers();
    this.workers = new ImportWorkers(workers, options.inlineDocuments);
    this.maxParsing = workers > 0 ? this.batchSize() * PARSED_AHEAD_BATCHES : 1;
  }

  private progress(current: string): void {
    this.done++;
    this.options.onProgress?.({ done: this.done, current });
  }

  /**
   * Queues what a document yields (or will yield, once a worker has parsed it). Items are written in the order they
   * were queued; waits while too many documents are being parsed, so memory stays bounded.
   */
  async enqueue(items: ParsedItem[] | Promise<ParsedItem[]>): Promise<void> {
    this.parsing.push(Array.isArray(items) ? Promise.resolve(items) : items);
    while (this.parsing.length > this.maxParsing) await this.takeParsed();
  }

  /** Writes everything queued, and the last batch. */
  async drain(): Promise<void> {
    while (this.parsing.length > 0) await this.takeParsed();
    await this.flush();
  }

  private async takeParsed(): Promise<void> {
    const next = this.parsing.shift()!;
    this.workers.sendFor(next);
    for (const item of await timedAsync('parse (waited for)', next)) await this.apply(item);
  }

  private async apply(item: ParsedItem): Promise<void> {
    if (item.kind === 'failed') {
      this.summary.failed.push({ path: item.name, reason: item.reason });
      this.progress(item.name);
    } else if (item.kind === 'skipped') {
      this.summary.not_documents++;
      this.summary.skipped++;
      this.progress(item.name);
    } else if (item.kind === 'decision') {
      const { decision } = item;
      await this.add({ name: item.name, chars: decision.row.text_length,
        write: () => writeDecision(this.db, decision, this.importedAt).outcome });
    } else if (item.kind === 'coverage') {
      await this.add({ name: item.name, chars: 0, write: () => writeManifest(this.db, item.manifest, item.name) });
    } else {
      await this.add({ name: item.name, chars: lawChars(item.law), write: () => this.writeLaw(item) });
    }
  }

  private writeLaw(item: Extract<ParsedItem, { kind: 'law' }>): WriteOutcome {
    if (item.yieldToOtherSources) {
      const held = sql(this.db, 'SELECT source_format FROM laws WHERE abbreviation = ?').get(item.law.abbreviation) as
        | { source_format: string | null } | undefined;
      if (held && held.source_format !== item.law.source_format) return 'skipped';
    }
    const { outcome } = writeLaw(this.db, item.law, this.importedAt, { mergeUnits: item.mergeUnits });
    this.lawsWritten ||= outcome !== 'skipped';
    return outcome;
  }

  private batchSize(): number {
    return this.options.batchSize ?? 2000;
  }

  private async add(p: Pending): Promise<void> {
    this.batch.push(p);
    this.chars += p.chars;
    if (this.batch.length >= this.batchSize() || this.chars >= BATCH_CHARS) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.chars = 0;
    const profile = activeProfile();
    profile?.beginBatch();
    const written = this.write(batch);
    profile?.endBatch(batch.length);
    for (const [name, r] of written) {
      if (r instanceof Error) this.summary.failed.push({ path: name, reason: r.message });
      else this.summary[r]++;
      if (r === 'skipped') this.summary.unchanged++;
      this.progress(name);
    }
    // Let the event loop breathe between batches (a server may share the process).
    await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Writes a batch in one transaction: first without a savepoint per document (a savepoint makes SQLite copy every
   * page a document touches that the batch had touched before); when a document fails, the batch is rolled back and
   * written again with one savepoint per document, so the others are kept and the failing one leaves no trace.
   */
  private write(batch: Pending[]): [string, WriteOutcome | Error][] {
    const db = this.db;
    try {
      return db.transaction(() => batch.map((p): [string, WriteOutcome] => [p.name, p.write()]))();
    } catch {
      // Citation targets looked up meanwhile may name a document the rollback took back.
      forgetResolutions(db);
    }
    return db.transaction(() => batch.map((p): [string, WriteOutcome | Error] => {
      try {
        return [p.name, db.transaction(p.write)()];
      } catch (error) {
        forgetResolutions(db);
        return [p.name, error as Error];
      }
    }))();
  }

  async finish(): Promise<ImportSummary> {
    // Decisions imported now may answer citations that earlier decisions (or earlier batches) could not resolve.
    this.summary.edges_resolved = timed('finish: pending edges', () =>
      this.db.transaction(() => resolvePendingEdges(this.db, { statutes: this.lawsWritten }))());
    const count = (query: string) => timed('finish: counts', () => (sql<[], { n: number }>(this.db, query).get()!).n);
    this.summary.decisions = count('SELECT count(*) AS n FROM decisions');
    this.summary.laws = count('SELECT count(*) AS n FROM laws WHERE text_available = 1');
    this.summary.law_units = count('SELECT count(*) AS n FROM law_units u JOIN laws l ON l.id = u.law_id WHERE l.text_available = 1');
    // Counted on the edges' table (the view would look up each edge's decision row): the case edges on their partial
    // index; the unresolved ones are few and indexed, counting the resolved ones would read every edge row.
    this.summary.citation_edges = count(`SELECT count(*) AS n FROM citation_links WHERE reference_type = 'case'`);
    this.summary.citation_edges_resolved = this.summary.citation_edges - count(
      `SELECT count(*) AS n FROM citation_links WHERE reference_type = 'case' AND resolution_status = 'unresolved'`);
    const { failed, ...counts } = this.summary;
    setMeta(this.db, 'last_import_at', this.importedAt);
    setMeta(this.db, 'last_import_summary', JSON.stringify({ ...counts, failed: failed.length }));
    // The search indexes follow the chunks and law units this import wrote or replaced. They come last: the documents
    // are written whatever happens here (an external embedder that fails, say), and the next import completes them.
    // The worker threads, idle by now, analyse the chunks when the import started them.
    const threads = this.workers.analysisThreads();
    try {
      if (threads) await syncSearchIndexThreaded(this.db, threads, { byImport: true });
      else syncSearchIndex(this.db, { byImport: true });
    } catch (error) {
      throw new Error(`the documents are imported, but the search index could not be brought up to date: ${message(error)}; `
        + 'run the import again to complete it');
    }
    return this.summary;
  }
}

const lawChars = (law: LawRecord) => law.units.reduce((n, u) => n + (u.text?.length ?? 0), 0);

async function handleJsonLines(imp: Importer, name: string, input: Readable): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  const laws = new LawGrouper(name);
  let n = 0;
  for await (const line of lines) {
    n++;
    const trimmed = line.trim();
    if (trimmed !== '') await imp.enqueue(parseJsonLine(`${name}:${n}`, trimmed, laws));
  }
  await imp.enqueue(laws.flush());
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
      await imp.enqueue([failed(name, `unreadable gzip: ${message(error)}`)]);
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
  await imp.enqueue(imp.workers.parse(name, data, explicit));
}

async function handleMember(imp: Importer, name: string, m: { data: Buffer } | { error: string }): Promise<void> {
  if ('error' in m) {
    await imp.enqueue([failed(name, m.error)]);
    return;
  }
  const base = name.slice(name.lastIndexOf('/') + 1);
  // Members of other kinds (READMEs, images, .md renderings) are no documents: passed over without a count.
  if (!KNOWN.test(base) && !isZip(m.data)) return;
  await handleBuffer(imp, name, m.data, false);
}

/**
 * Files of a folder read ahead of the one being handled: the main thread, which also writes, would otherwise wait for
 * every read (some 1 ms each from a cold disk: a tenth of a 100k import). Small plain files only, so memory stays
 * bounded; archives and JSONL are streamed when their turn comes.
 */
const READ_AHEAD_FILES = 32;
const READ_AHEAD_BYTES = 2 * 1024 * 1024;
/** Names whose files are streamed rather than read whole (handlePath). */
const STREAMED = /\.(?:tar\.gz|tgz|tar|jsonl|ndjson|jsonl\.gz|ndjson\.gz|zip)$/u;

/** A path's stat and, for a small plain file, its bytes (errors kept for handlePath to report). */
interface ReadAhead { info: Stats | Error; data?: Buffer | Error }

async function readAhead(path: string): Promise<ReadAhead> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    return { info: error as Error };
  }
  const name = basename(path).toLowerCase();
  if (!info.isFile() || info.size > READ_AHEAD_BYTES || !KNOWN.test(name) || STREAMED.test(name)) return { info };
  return { info, data: await readFile(path).catch((error: Error) => error) };
}

async function handleFolder(imp: Importer, path: string): Promise<void> {
  const paths = (await readdir(path)).filter((e) => !e.startsWith('.')).sort().map((e) => join(path, e));
  const ahead: Promise<ReadAhead>[] = [];
  let next = 0;
  for (const entry of paths) {
    while (next < paths.length && ahead.length < READ_AHEAD_FILES) ahead.push(readAhead(paths[next++]));
    await handlePath(imp, entry, false, await ahead.shift()!);
  }
}

async function handlePath(imp: Importer, path: string, explicit: boolean, read?: ReadAhead): Promise<void> {
  const { info, data } = read ?? await readAhead(path);
  if (info instanceof Error) {
    await imp.enqueue([failed(path, `cannot read: ${message(info)}`)]);
    return;
  }
  if (info.isDirectory()) {
    await handleFolder(imp, path);
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
        await imp.enqueue([failed(path, `file larger than ${FILE_LIMIT} bytes (split it, or pack it as .jsonl.gz or .tar.gz)`)]);
        return;
      }
      if (data instanceof Error) throw data;
      await handleBuffer(imp, path, data ?? await readFile(path), explicit);
    }
  } catch (error) {
    await imp.enqueue([failed(path, message(error))]);
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
  const profiled = profileSteps(options.profile ?? null);
  try {
    return await importInto(db, paths, options);
  } finally {
    profileSteps(profiled);
  }
}

async function importInto(db: CorpusDb, paths: string[], options: ImportOptions): Promise<ImportSummary> {
  const imp = new Importer(db, options);
  const cache = db.pragma('cache_size', { simple: true });
  const checkpoint = db.pragma('wal_autocheckpoint', { simple: true });
  db.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  db.pragma(`wal_autocheckpoint = ${IMPORT_CHECKPOINT_PAGES}`);
  try {
    try {
      for (const path of paths) {
        await handlePath(imp, path, true);
        await imp.drain();
      }
      return await imp.finish();
    } finally {
      await imp.workers.close();
    }
  } finally {
    db.pragma(`cache_size = ${cache}`);
    db.pragma(`wal_autocheckpoint = ${checkpoint}`);
  }
}
