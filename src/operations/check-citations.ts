import * as v from 'valibot';
import { notYetAvailable } from '../errors.ts';
import { defineOperation } from './operation.ts';
import { isoDate, text } from './schemas.ts';

export const CHECK_MIN_CHARS = 50;
export const CHECK_MAX_CHARS = 20_000;

/** 2 credits up to 5,000 characters, one more per further started 5,000 (resolutions.md). */
export function checkPrice(chars: number): number {
  return 2 + Math.max(0, Math.ceil((chars - 5000) / 5000));
}

export default defineOperation({
  name: 'check_citations',
  summary: 'Check every citation in a German legal text against the corpus',
  description: 'Extracts every court-decision and statute citation from the text (or a ready upload) and verifies each '
    + 'against the corpus: one finding per cited provision with code-point offsets, one verdict each.',
  method: 'POST',
  path: '/citation-checks',
  ability: 'citation-check',
  heavy: true,
  errors: [401, 402, 403, 409, 422, 429, 503],
  args: v.pipe(
    v.object({
      text: v.optional(v.pipe(v.string(),
        v.check((value) => [...value].length >= CHECK_MIN_CHARS, `must be at least ${CHECK_MIN_CHARS} characters`),
        v.check((value) => [...value].length <= CHECK_MAX_CHARS, `must be at most ${CHECK_MAX_CHARS} characters`),
        v.description('the text to check, 50 to 20000 characters; offsets in the answer are code points into it'))),
      reference_date: v.optional(v.nullable(isoDate)),
      document_id: v.optional(v.pipe(text(100), v.description('id of an upload with status ready'))),
    }),
    v.forward(v.check((input) => (input.text === undefined) !== (input.document_id === undefined),
      'give exactly one of text and document_id'), ['text']),
  ),
  price: (args) => checkPrice(args.text ? [...args.text].length : 0),
  handler: () => {
    throw notYetAvailable('The citation check');
  },
});
