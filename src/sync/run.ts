// `juralite sync`: for each source, read its table of contents, fetch what changed (politely), and import each item in
// its own transaction together with its manifest row. The search index and late citation resolutions follow every
// few hundred items and at the end, so a served corpus (WAL: readers never wait for this writer) sees new decisions
// while the run goes on.
import type { CorpusDb } from '../corpus/open.ts';
import { setMeta } from '../corpus/open.ts';
import { resolveCourt } from '../corpus/courts.ts';
import { sql } from '../db/statements.ts';
import { resolvePendingEdges } from '../graph/resolve.ts';
import { syncSearchIndex } from '../search/index-sync.ts';
import { message } from '../ingest/parse-document.ts';
import { FetchError, PoliteFetcher, type FetcherOptions } from './fetcher.ts';
import { documentsOf, sha256, writeItem } from './item.ts';
import { manifestOf, recordFetched, type ManifestRow, type SyncSource } from './manifest.ts';
import { fetchUrl, TOC_URLS } from './sources.ts';
import { readGiiToc, readRiiToc, type TocItem } from './toc.ts';
import { writeRiiCoverage } from './rii-coverage.ts';
import { syncDumps } from './oldp.ts';

export interface SyncOptions {
  sources: SyncSource[];
  /** Open Legal Data dumps (URLs or files) for the oldp source. */
  dumps?: string[];
  /** rii: pass over items the table says were modified before this day (YYYY-MM-DD). */
  since?: string;
  /** Only these courts (rii) or laws (gii), comma-separated. */
  only?: string;
  /** At most this many items fetched in the run. */
  limit?: number;
  /** Read the tables of contents and say what would be fetched; fetch no item and write nothing. */
  dryRun?: boolean;
  /** A mirror serving the tables of contents and every link in them under the same paths. */
  baseUrl?: string;
  fetcher?: FetcherOptions;
  onProgress?: (progress: SyncProgress) => void;
  /** Search index and late resolutions every this many written items (default 500). */
  refreshEvery?: number;
}

export interface SyncProgress {
  source: SyncSource;
  /** Items handled of `total` (those the table lists after --only, --since and the manifest's stamps). */
  done: number;
  total: number;
  current: string;
}

export interface SourceSummary {
  /** Items the table of contents lists. */
  listed: number;
  /** Items passed over without a request: --only, --since, or the manifest holds their stamp (rii). */
  passed_over: number;
  /** Items requested; of them: unchanged (304 or the same bytes), imported (new documents), updated, failed. */
  requested: number;
  unchanged: number;
  imported: number;
  updated: number;
  failed: number;
  /** Items a dry run would request. */
  would_request?: number;
  /** Courts whose coverage range this run made exhaustive (a complete rii run). */
  exhaustive_courts?: string[];
}

export interface SyncSummary {
  sources: Partial<Record<SyncSource, SourceSummary>>;
  /** HTTP requests sent, retries included. */
  requests: number;
  failed: { item: string; reason: string }[];
  decisions: number;
  laws: number;
  dry_run: boolean;
}

const emptySource = (): SourceSummary =>
  ({ listed: 0, passed_over: 0, requested: 0, unchanged: 0, imported: 0, updated: 0, failed: 0 });

/**
 * Brings the corpus up to date from the sources. Never throws for one item: its failure is in `failed` and the
 * others go on; throws for what stops a source (its table of contents unreadable or of another format), after the
 * other sources ran.
 *
 * @example const summary = await syncCorpus(db, { sources: ['gii', 'rii'], baseUrl: 'http://127.0.0.1:8081' });
 */
export async function syncCorpus(db: CorpusDb, options: SyncOptions): Promise<SyncSummary> {
  const fetcher = new PoliteFetcher(options.fetcher);
  const summary: SyncSummary = { sources: {}, requests: 0, failed: [], decisions: 0, laws: 0, dry_run: options.dryRun === true };
  const run = new Run(db, options, fetcher, summary);
  try {
    for (const source of options.sources) {
      const counts = (summary.sources[source] = emptySource());
      try {
        if (source === 'oldp') await syncDumps(db, options.dumps ?? [], fetcher, counts, summary.failed, options.dryRun === true);
        else await run.source(source, counts);
      } catch (error) {
        counts.failed++;
        summary.failed.push({ item: source === 'oldp' ? 'oldp' : TOC_URLS[source], reason: message(error) });
      }
    }
  } finally {
    if (!options.dryRun) run.refresh(true);
    summary.requests = fetcher.requests;
    summary.decisions = (sql(db, 'SELECT count(*) AS n FROM decisions').get() as { n: number }).n;
    summary.laws = (sql(db, 'SELECT count(*) AS n FROM laws WHERE text_available = 1').get() as { n: number }).n;
  }
  return summary;
}

class Run {
  private readonly importedAt = new Date().toISOString();
  private written = 0;
  private lawsWritten = false;
  private fetchedItems = 0;
  private lastRefresh = Date.now();
  private readonly db: CorpusDb;
  private readonly options: SyncOptions;
  private readonly fetcher: PoliteFetcher;
  private readonly summary: SyncSummary;

  constructor(db: CorpusDb, options: SyncOptions, fetcher: PoliteFetcher, summary: SyncSummary) {
    this.db = db;
    this.options = options;
    this.fetcher = fetcher;
    this.summary = summary;
  }

  async source(source: 'gii' | 'rii', counts: SourceSummary): Promise<void> {
    const toc = await this.fetcher.get(fetchUrl(TOC_URLS[source], this.options.baseUrl));
    if (toc.status !== 'fresh') throw new FetchError(`${TOC_URLS[source]}: no table of contents`);
    const items = source === 'gii' ? readGiiToc(toc.body.toString('utf8')) : readRiiToc(toc.body.toString('utf8'));
    counts.listed = items.length;
    const held = manifestOf(this.db, source);
    const wanted = items.filter((item) => this.wanted(source, item, held.get(item.link)));
    counts.passed_over = items.length - wanted.length;
    if (this.options.dryRun) {
      counts.would_request = Math.min(wanted.length, this.options.limit ?? Infinity);
      return;
    }
    let done = 0;
    for (const item of wanted) {
      if (this.options.limit !== undefined && this.fetchedItems >= this.options.limit) break;
      this.options.onProgress?.({ source, done, total: wanted.length, current: item.label });
      this.fetchedItems++;
      counts.requested++;
      try {
        const outcome = await this.item(source, item, held.get(item.link));
        counts[outcome]++;
      } catch (error) {
        counts.failed++;
        this.summary.failed.push({ item: item.link, reason: message(error) });
      }
      done++;
      this.refresh(false);
    }
    this.options.onProgress?.({ source, done, total: wanted.length, current: '' });
    const complete = source === 'rii' && counts.failed === 0 && done === wanted.length
      && !this.options.only && !this.options.since && this.options.limit === undefined;
    if (complete) {
      this.refresh(true);
      counts.exhaustive_courts = writeRiiCoverage(this.db, items, new Date().toISOString().slice(0, 10));
    }
  }

  /** Whether an item needs a request: --only and --since first; a rii item whose stamp the manifest holds does not. */
  private wanted(source: 'gii' | 'rii', item: TocItem, row: ManifestRow | undefined): boolean {
    if (this.options.only && !matchesOnly(source, item, this.options.only)) return false;
    if (source === 'gii') return true;
    if (this.options.since && item.modified! < this.options.since) return false;
    return !row || row.modified === null || row.modified < item.modified!;
  }

  private async item(source: 'gii' | 'rii', item: TocItem, row: ManifestRow | undefined): Promise<'unchanged' | 'imported' | 'updated'> {
    const answer = await this.fetcher.get(fetchUrl(item.link, this.options.baseUrl),
      row ? { etag: row.etag, lastModified: row.last_modified } : {});
    if (answer.status === 'unchanged') {
      if (row && row.modified !== (item.modified ?? null)) this.record({ ...row, modified: item.modified ?? null });
      return 'unchanged';
    }
    const hash = sha256(answer.body);
    const fresh = { url: item.link, source, etag: answer.etag, last_modified: answer.lastModified,
      modified: item.modified ?? null, content_hash: hash, imported_at: this.importedAt };
    if (row && row.content_hash === hash) {
      this.record({ ...row, ...fresh, imported_at: row.imported_at });
      return 'unchanged';
    }
    const documents = await documentsOf(source, item.link, answer.body);
    const outcome = writeItem(this.db, documents, fresh);
    if (outcome !== 'unchanged') {
      this.written++;
      this.lawsWritten ||= source === 'gii';
    }
    return outcome;
  }

  private record(row: ManifestRow): void {
    this.db.transaction(() => recordFetched(this.db, row))();
  }

  /**
   * Every `refreshEvery` written items or minute, and at the end: earlier citations the new decisions answer are
   * resolved, and the search index takes in the new chunks and units (readers see them from then on).
   */
  refresh(final: boolean): void {
    const due = this.written >= (this.options.refreshEvery ?? 500) || Date.now() - this.lastRefresh > 60_000;
    if (this.written === 0 || (!final && !due)) return;
    const lawsWritten = this.lawsWritten;
    this.db.transaction(() => resolvePendingEdges(this.db, { statutes: lawsWritten }))();
    syncSearchIndex(this.db);
    setMeta(this.db, 'last_import_at', new Date().toISOString());
    this.written = 0;
    this.lawsWritten = false;
    this.lastRefresh = Date.now();
  }
}

/** --only: a court (its canonical code, `BGH`, or the table's name) or a law (its folder: `gg`, `baunvo`). */
function matchesOnly(source: 'gii' | 'rii', item: TocItem, only: string): boolean {
  const wanted = only.split(',').map((word) => word.trim()).filter(Boolean);
  if (source === 'gii') {
    const key = (text: string) => text.toLowerCase().replace(/[\s_-]+/gu, '');
    return wanted.some((word) => key(word) === key(item.label));
  }
  const court = resolveCourt(item.court!).code;
  return wanted.some((word) => resolveCourt(word).code === court || item.court!.startsWith(word));
}

