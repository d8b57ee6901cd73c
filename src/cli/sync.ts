// `juralite sync`: keeps a corpus current from the official sources (src/sync, docs/sync.md). Writes the corpus in
// place (WAL): a server reading it answers throughout and sees each committed item.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openCorpus } from '../corpus/open.ts';
import { syncCorpus, type SyncProgress, type SyncSummary } from '../sync/run.ts';
import { checkBaseUrl } from '../sync/sources.ts';
import type { SyncSource } from '../sync/manifest.ts';
import { requireDatabaseOrNothing } from './files.ts';
import { UsageError, type Flags } from './flags.ts';

const SOURCES: Record<string, SyncSource[]> = { gii: ['gii'], rii: ['rii'], oldp: ['oldp'], all: ['gii', 'rii'] };

/** The command line's options, checked before the corpus is opened. */
function syncOptions(flags: Flags, dumps: string[]) {
  const source = typeof flags.source === 'string' ? flags.source : 'all';
  const sources = SOURCES[source];
  if (!sources) throw new UsageError(`--source must be gii, rii, oldp or all, not "${source}"`);
  const withDumps = source === 'all' && dumps.length > 0 ? [...sources, 'oldp' as const] : sources;
  if (dumps.length > 0 && !withDumps.includes('oldp')) throw new UsageError('dump files or URLs are read by --source oldp (or all)');
  const since = flags.since as string | undefined;
  if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/u.test(since)) throw new UsageError(`--since must be a date YYYY-MM-DD, not "${since}"`);
  const limit = flags.limit === undefined ? undefined : Number(flags.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a positive integer, not "${flags.limit}"`);
  const pause = flags.pause === undefined ? undefined : Number(flags.pause);
  if (pause !== undefined && (!Number.isInteger(pause) || pause < 0)) throw new UsageError(`--pause must be milliseconds (0 or more), not "${flags.pause}"`);
  let baseUrl: string | undefined;
  try {
    baseUrl = flags['base-url'] === undefined ? undefined : checkBaseUrl(String(flags['base-url']));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return {
    sources: withDumps, dumps, since, limit, baseUrl, only: flags.only as string | undefined, dryRun: flags['dry-run'] === true,
    fetcher: pause === undefined ? undefined : { pauseMs: pause },
  };
}

/** A progress bar with counts, rate and time left on a terminal (stderr); nothing otherwise. */
function progressBar(): ((progress: SyncProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let started = { source: '', at: 0 };
  let last = 0;
  return ({ source, done, total, current }) => {
    const now = Date.now();
    if (source !== started.source) started = { source, at: now };
    if (now - last < 200 && done < total) return;
    last = now;
    const seconds = (now - started.at) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const left = rate > 0 ? (total - done) / rate : NaN;
    const width = 24;
    const filled = total > 0 ? Math.round((done / total) * width) : 0;
    const eta = Number.isFinite(left) ? `${Math.floor(left / 3600)}h${String(Math.floor((left % 3600) / 60)).padStart(2, '0')}m${String(Math.floor(left % 60)).padStart(2, '0')}s left` : '';
    process.stderr.write(`\r\x1b[2K${source} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}  ${rate.toFixed(1)}/s  ${eta}  ${current.slice(0, 40)}`);
  };
}

/** One line per source, and one per failure. */
export function describeSync(summary: SyncSummary, seconds: number): string {
  const lines = Object.entries(summary.sources).map(([source, s]) => summary.dry_run
    ? `${source}: ${s.listed} listed, ${s.would_request} would be requested, ${s.passed_over} passed over (dry run: nothing fetched or written)`
    : `${source}: ${s.listed} listed, ${s.requested} requested (${s.imported} imported, ${s.updated} updated, `
      + `${s.unchanged} unchanged, ${s.failed} failed), ${s.passed_over} passed over`
      + (s.exhaustive_courts?.length ? `; coverage exhaustive for ${s.exhaustive_courts.join(', ')}` : ''));
  lines.push(`${summary.requests} requests in ${seconds.toFixed(1)} s; corpus now holds ${summary.decisions} decisions, ${summary.laws} laws`);
  for (const failure of summary.failed) lines.push(`  failed: ${failure.item}: ${failure.reason}`);
  return lines.join('\n');
}

/**
 * `juralite sync [--db CORPUS] [--source gii|rii|oldp|all] ...`: exit 0 when every item came in, 1 naming what failed.
 */
export async function syncCommand(corpusPath: string, flags: Flags, dumps: string[]): Promise<{ summary: SyncSummary; code: number }> {
  const options = syncOptions(flags, dumps);
  requireDatabaseOrNothing(corpusPath, 'a juralite corpus');
  mkdirSync(dirname(corpusPath), { recursive: true, mode: 0o700 });
  const db = openCorpus(corpusPath);
  try {
    const onProgress = progressBar();
    const summary = await syncCorpus(db, { ...options, onProgress });
    if (onProgress) process.stderr.write('\r\x1b[2K');
    return { summary, code: summary.failed.length > 0 ? 1 : 0 };
  } finally {
    db.close();
  }
}

/** What src/cli/main.ts runs for `sync`: the summary (JSON with --json) on stdout, the exit code back. */
export async function syncMain(corpusPath: string, flags: Flags, dumps: string[]): Promise<number> {
  const started = performance.now();
  const { summary, code } = await syncCommand(corpusPath, flags, dumps);
  console.log(flags.json ? JSON.stringify(summary) : describeSync(summary, (performance.now() - started) / 1000));
  return code;
}
