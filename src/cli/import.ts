import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openCorpus } from '../corpus/open.ts';
import { importPaths, type ImportProgress, type ImportSummary } from '../ingest/import-paths.ts';
import { plainFileError, requireDatabaseOrNothing } from './files.ts';

/** A one-line progress display on a terminal (stderr); nothing when stderr is not a terminal. */
function progressLine(): ((progress: ImportProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return (progress) => {
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    const of = progress.total ? `/${progress.total}` : '';
    process.stderr.write(`\r\x1b[2Kimporting ${progress.done}${of}  ${progress.current.slice(-60)}`);
  };
}

/**
 * `juralite import --db CORPUS PATH...`: imports files, folders and archives; prints the summary. Exit 0 unless
 * nothing could be imported. A mistyped PATH or CORPUS is refused before the corpus is made or opened.
 */
export async function importCommand(corpusPath: string, paths: string[]): Promise<{ summary: ImportSummary; code: number }> {
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
    const onProgress = progressLine();
    const summary = await importPaths(db, paths, { onProgress });
    if (onProgress) process.stderr.write('\r\x1b[2K');
    const nothing = summary.imported + summary.updated + summary.skipped === 0;
    return { summary, code: nothing ? 1 : 0 };
  } finally {
    db.close();
  }
}

/** Prose for a person; --json prints the summary object instead. */
export function describeSummary(summary: ImportSummary, seconds: number): string {
  const lines = [
    `imported ${summary.imported}, updated ${summary.updated}, skipped ${summary.skipped} (unchanged), failed ${summary.failed.length} in ${seconds.toFixed(1)} s`,
    `corpus now holds ${summary.decisions} decisions, ${summary.laws} laws, ${summary.law_units} law units`,
    `citation graph: ${summary.citation_edges} decision citations, ${summary.citation_edges_resolved} of them to decisions `
      + `of the corpus (${summary.edges_resolved} resolved by this import's decisions)`,
    ...summary.failed.map((failure) => `  failed: ${failure.path}: ${failure.reason}`),
  ];
  return lines.join('\n');
}
