// `juralite check`: the citation check offline, printing exactly the body POST /citation-checks answers (envelope
// included, credits.metered false). The arguments pass the operation's own schema, so the refusals read the same.
import { readFileSync } from 'node:fs';
import { runCheck } from '../citations/check.ts';
import { loadConfig } from '../config.ts';
import { openCorpusReadonly } from '../server.ts';
import { ApiError, backendUnavailable, invalidArgument } from '../errors.ts';
import { problemBody } from '../http/responses.ts';
import { parseArgs } from '../operations/execute.ts';
import checkCitations from '../operations/check-citations.ts';
import { newRunId } from '../checks/runs.ts';
import { UsageError, type Flags } from './flags.ts';
import { plainFileError, requireDatabaseOrNothing } from './files.ts';

/** Reads a text file as UTF-8; anything else (a PDF, a DOCX) is refused until it is uploaded through the service. */
function readTextFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw plainFileError(error, `--file ${path}`);
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (bytes.includes(0) || text.includes('\ufffd')) throw invalidArgument('file', 'must be a UTF-8 text or Markdown file');
  return text.replace(/^\ufeff/u, '');
}

export function checkCommand(corpusPath: string, flags: Flags): { body: unknown; code: number } {
  const file = flags.file as string | undefined;
  const given = flags.text as string | undefined;
  if ((file === undefined) === (given === undefined)) throw new UsageError('check needs exactly one of --file PATH and --text STRING');
  const config = loadConfig();
  try {
    const text = file !== undefined ? readTextFile(file) : given!;
    const args = parseArgs(checkCitations, { text, reference_date: flags['reference-date'] ?? undefined });
    requireDatabaseOrNothing(corpusPath, 'a juralite corpus');
    const corpus = openCorpusReadonly(corpusPath);
    if (!corpus) throw backendUnavailable(`No corpus file at ${corpusPath}.`);
    try {
      const run = runCheck(corpus, { id: newRunId(), text: args.text!, reference_date: args.reference_date ?? null, source: 'cli', submittedAt: new Date() });
      return {
        body: { ...run, api_version: config.release, changelog_url: config.changelogUrl, credits: { metered: false, cost: 0, credits_remaining: 0 } },
        code: 0,
      };
    } finally {
      corpus.close();
    }
  } catch (error) {
    if (error instanceof ApiError) return { body: problemBody(error, config), code: 1 };
    throw error;
  }
}
