import * as v from 'valibot';
import { runCheck } from '../citations/check.ts';
import { legalSignals } from '../citations/signals.ts';
import { requireCorpus } from '../corpus/find-decision.ts';
import { newRunId } from '../checks/runs.ts';
import { invalidArgument } from '../errors.ts';
import { codePointLength } from '../text/code-points.ts';
import { checkRunAnswer } from './answers.ts';
import { defineOperation, type OperationContext } from './operation.ts';
import { isoDate, text } from './schemas.ts';
import { inTransaction } from '../db/statements.ts';

export const CHECK_MIN_CHARS = 50;
export const CHECK_MAX_CHARS = 20_000;
const MIN_SIGNALS = 2;

/** 2 credits up to 5,000 characters, one more per further started 5,000 (resolutions.md). */
export function checkPrice(chars: number): number {
  return 2 + Math.max(0, Math.ceil((chars - 5000) / 5000));
}

/** Why a text cannot be checked (length, legal signals), or null; the same rule for a text and an upload's text. */
export function textProblem(value: string): string | null {
  const length = codePointLength(value);
  if (length < CHECK_MIN_CHARS) return `must be at least ${CHECK_MIN_CHARS} characters (got ${length})`;
  if (length > CHECK_MAX_CHARS) return `must be at most ${CHECK_MAX_CHARS} characters (got ${length}); split the text and check each part`;
  const signals = legalSignals(value);
  if (signals.length < MIN_SIGNALS) {
    return `must show at least ${MIN_SIGNALS} of the five legal-signal categories (statute reference, decision reference, `
      + `court or authority name, procedural vocabulary, marks of legal writing); found ${signals.length === 0 ? 'none' : signals.join(', ').replaceAll('_', ' ')}`;
  }
  return null;
}

interface CheckArgs { text?: string; reference_date?: string | null; document_id?: string }

interface CheckedText { text: string; documentId: string | null; price: number }

// price, resultKey and the handler all need the checked text: read the upload (and test its text) once per call.
const checkedTexts = new WeakMap<CheckArgs, Promise<CheckedText>>();

/** The text a call checks: its own, or the extracted text of a ready upload of the caller's organization. */
function checkedText(args: CheckArgs, ctx: OperationContext): Promise<CheckedText> {
  let checked = checkedTexts.get(args);
  if (!checked) checkedTexts.set(args, (checked = readCheckedText(args, ctx)));
  return checked;
}

async function readCheckedText(args: CheckArgs, ctx: OperationContext): Promise<CheckedText> {
  if (args.text !== undefined) return { text: args.text, documentId: null, price: checkPrice(codePointLength(args.text)) };
  const upload = await ctx.services.store.readyUpload(ctx.caller.organization.id, args.document_id!, ctx.now);
  const problem = textProblem(upload.text);
  if (problem) throw invalidArgument('document_id', `the extracted text ${problem}`);
  return { text: upload.text, documentId: upload.id, price: upload.quoted_credits };
}

export default defineOperation({
  name: 'check_citations',
  summary: 'Check every citation in a German legal text against the corpus',
  description: 'Extracts every court-decision and statute citation from the text (or a ready upload) and verifies each '
    + 'against the corpus: one finding per cited provision with code-point offsets, one verdict each '
    + '(verified, not_found, not_in_corpus, out_of_coverage, ambiguous). Each finding also checks what the text claims of the cited '
    + 'decision or provision: its Randnummer pinpoint (pinpoint, pinpoint_check), the quotations attributed to it '
    + '(quotations: found, not_found or not_checked, with the Randnummer and the closest passage) and its subdivisions, '
    + 'summed up in claim_check (supported, not_supported, not_checked, not_applicable) and the run\'s claim_counts; '
    + 'the verdict says only whether the cited thing exists.',
  pricing: '2 credits up to 5,000 characters, +1 per further started 5,000 (a ready upload: its quoted_credits); the same '
    + 'text and reference_date again in the same month costs nothing',
  method: 'POST',
  path: '/citation-checks',
  ability: 'citation-check',
  heavy: true,
  errors: [401, 402, 403, 409, 422, 429, 503],
  answer: checkRunAnswer,
  args: v.pipe(
    v.object({
      text: v.optional(v.pipe(v.string(),
        v.rawCheck(({ dataset, addIssue }) => {
          const problem = dataset.typed ? textProblem(dataset.value) : null;
          if (problem) addIssue({ message: problem });
        }),
        v.description('the text to check, 50 to 20000 characters showing at least two legal-signal categories; '
          + 'offsets in the answer are code points into it'),
        v.metadata({ minLength: CHECK_MIN_CHARS, maxLength: CHECK_MAX_CHARS }))),
      reference_date: v.optional(v.nullable(v.pipe(isoDate, v.description('document date YYYY-MM-DD for statute citations whose sentence names none')))),
      document_id: v.optional(v.pipe(text(100), v.description('id of an upload with status ready; the check consumes it'))),
    }),
    v.forward(v.check((input) => (input.text === undefined) !== (input.document_id === undefined),
      'give exactly one of text and document_id'), ['text']),
  ),
  price: async (args, ctx) => (await checkedText(args, ctx)).price,
  // "The same text checked again in the same month costs nothing more": keyed on the text, however it arrived.
  resultKey: async (args, ctx) => JSON.stringify([(await checkedText(args, ctx)).text, args.reference_date ?? null]),
  handler: async (args, ctx) => {
    const corpus = requireCorpus(ctx.services.corpus);
    const { text: value, documentId } = await checkedText(args, ctx);
    // Every lookup of the check in one read transaction (inTransaction: one state of the file, the locks taken once).
    const run = inTransaction(corpus, () => runCheck(corpus, {
      id: newRunId(), text: value, reference_date: args.reference_date ?? null, source: 'api_v1',
      submittedAt: ctx.now, clock: ctx.services.clock,
    }));
    const organizationId = ctx.caller.organization.id;
    if (documentId) ctx.onCommit({ kind: 'consume_upload', id: documentId });
    ctx.onCommit({ kind: 'save_run', organizationId, run });
    return run;
  },
});
