import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openCorpus } from '../corpus/open.ts';
import { importPaths, type ImportProgress, type ImportSummary } from '../ingest/import-paths.ts';
import { ImportProfile } from '../ingest/import-profile.ts';
import { plainFileError, requireDatabaseOrNothing } from './files.ts';

/** Seconds between progress lines in a log (stderr not a terminal); JURALITE_PROGRESS_SECONDS changes it. */
function logInterval(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.JURALITE_PROGRESS_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 10_000;
}

/**
 * Progress on stderr: on a terminal one line rewritten in place; in a log (systemd's journal, a file, a pipe) a line
 * every 10 seconds, so that a long import shows it is alive and how fast it goes.
 */
function progressReporter(env: NodeJS.ProcessEnv = process.env): { onProgress: (progress: ImportProgress) => void; end(): void } {
  const started = Date.now();
  let last = 0;
  if (process.stderr.isTTY) {
    return {
      onProgress(progress) {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        const of = progress.total ? `/${progress.total}` : '';
        process.stderr.write(`\r\x1b[2Kimporting ${progress.done}${of}  ${progress.current.slice(-60)}`);
      },
      end: () => process.stderr.write('\r\x1b[2K'),
    };
  }
  const interval = logInterval(env);
  last = started;
  return {
    onProgress(progress) {
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      const seconds = (now - started) / 1000;
      process.stderr.write(`juralite import: ${progress.done} documents handled in ${seconds.toFixed(0)} s `
        + `(${Math.round(progress.done / seconds)}/s), now ${progress.current}\n`);
    },
    end() {},
  };
}

/** Where the import's time went, step by step, longest first (stderr, after the import). */
function printProfile(profile: ImportProfile, wallMs: number): void {
  const rows = [['step', 's', 'calls', 'of the import'], ...profile.rows(wallMs)];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  process.stderr.write(`juralite import: where ${(wallMs / 1000).toFixed(1)} s went (steps may overlap the workers' parsing)\n`);
  for (const row of rows) process.stderr.write(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()}\n`);
}

/**
 * `juralite import --db CORPUS [--profile] PATH...`: imports files, folders and archives; prints the summary (and with
 * --profile where the time went). Exit 0 unless nothing could be imported. A mistyped PATH or CORPUS is refused before
 * the corpus is made or opened.
 */
export async function importCommand(corpusPath: string, paths: string[], options: { profile?: boolean } = {}):
Promise<{ summary: ImportSummary; code: number }> {
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`nothing imported: no such file or directory: ${missing.join(', ')}`);
  requireDatabaseOrNothing(corpusPath, 'a juralite corpus');
  try {
    mkdirSync(dirname(corpusPath), { recursive: true });
  } catch (error) {
    throw plainFileError(error, `the corpus's directory ${dirname(corpusPath)}`);
  }
  const db = openCorpus(corpusPath);
  try {
    const progress = progressReporter();
    const profile = options.profile ? new ImportProfile() : undefined;
    const started = performance.now();
    const summary = await importPaths(db, paths, { onProgress: progress.onProgress, profile });
    progress.end();
    if (profile) printProfile(profile, performance.now() - started);
    const nothing = summary.imported + summary.updated + summary.skipped === 0;
    return { summary, code: nothing ? 1 : 0 };
  } finally {
    db.close();
  }
}

/** Prose for a person; --json prints the summary object instead. */
export function describeSummary(summary: ImportSummary, seconds: number): string {
  const lines = [
    `documents: ${summary.imported} new, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed.length} failed `
      + `in ${seconds.toFixed(1)} s`,
    ...(summary.not_documents > 0
      ? [`passed over ${summary.not_documents} files that hold no document (meta.json, INDEX.json, tables of contents)`]
      : []),
    `corpus now holds ${summary.decisions} decisions, ${summary.laws} laws, ${summary.law_units} law units`,
    `citation graph: ${summary.citation_edges} decision citations, ${summary.citation_edges_resolved} of them to decisions `
      + `of the corpus (${summary.edges_resolved} resolved by this import's decisions)`,
    ...summary.failed.map((failure) => `  failed: ${failure.path}: ${failure.reason}`),
  ];
  return lines.join('\n');
}
