// `juralite check`: the citation check offline, printing exactly the body POST /citation-checks answers (envelope
// included, credits.metered false). The arguments pass the operation's own schema, so the refusals read the same.
// A --file is read as an upload is: its format recognised by the same checks (PDF, DOCX, Markdown, text) and its text
// extracted by the same code, here in this process (the operator's own file needs no sandbox).
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { runCheck } from '../citations/check.ts';
import { loadConfig } from '../config.ts';
import { openCorpus } from '../corpus/open.ts';
import { ApiError, backendUnavailable, invalidArgument } from '../errors.ts';
import { problemBody } from '../http/responses.ts';
import { parseArgs } from '../operations/execute.ts';
import checkCitations, { CHECK_MAX_CHARS } from '../operations/check-citations.ts';
import { newRunId } from '../checks/runs.ts';
import { DOCX_MAX_UNCOMPRESSED_BYTES, inspectUpload } from '../uploads/inspect.ts';
import { extractDocument } from '../uploads/extract/extract-document.ts';
import { UsageError, type Flags } from './flags.ts';
import { plainFileError, requireDatabaseOrNothing } from './files.ts';

/** The text of a PDF, DOCX, Markdown or text file; what an upload would refuse is a 422 problem on `file`. */
async function readDocument(path: string): Promise<string> {
  let bytes: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    bytes = stat.size;
  } catch (error) {
    throw plainFileError(error, `--file ${path}`);
  }
  const format = await inspectUpload(path, basename(path), bytes);
  const outcome = await extractDocument({ path, format, maxChars: CHECK_MAX_CHARS, maxUncompressedBytes: DOCX_MAX_UNCOMPRESSED_BYTES });
  if (outcome.status === 'failed') throw invalidArgument('file', outcome.error_detail);
  return outcome.text;
}

export async function checkCommand(corpusPath: string, flags: Flags): Promise<{ body: unknown; code: number }> {
  const file = flags.file as string | undefined;
  const given = flags.text as string | undefined;
  if ((file === undefined) === (given === undefined)) throw new UsageError('check needs exactly one of --file PATH and --text STRING');
  const config = loadConfig();
  try {
    const text = file !== undefined ? await readDocument(file) : given!;
    const args = parseArgs(checkCitations, { text, reference_date: flags['reference-date'] ?? undefined });
    requireDatabaseOrNothing(corpusPath, 'a juralite corpus');
    if (!existsSync(corpusPath)) throw backendUnavailable(`No corpus file at ${corpusPath}.`);
    const corpus = openCorpus(corpusPath, { readonly: true });
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
