import * as v from 'valibot';
import { requireCorpus } from '../corpus/find-decision.ts';
import { assembleDatapackage, decisionIdsOf } from '../graph/datapackage.ts';
import { datapackageAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { decisionRef, int } from './schemas.ts';
import { inTransaction } from '../db/statements.ts';

/** The default cap of a full text in a datapackage. */
const FULL_TEXT_CHARS = 60_000;

export default defineOperation({
  name: 'create_datapackage',
  summary: 'Assemble up to ten decisions in one answer',
  description: 'Excerpts (about 700 characters) or full texts of 1 to 10 decisions, in the order given, optionally with '
    + 'their outgoing citation edges; a response budget drops decisions from the end and says so.',
  method: 'POST',
  path: '/datapackages',
  ability: 'datapackage',
  heavy: true,
  errors: [401, 402, 403, 409, 422, 429, 503],
  answer: datapackageAnswer,
  args: v.object({
    ids: v.pipe(v.array(decisionRef, 'must be an array of decision ids'),
      v.minLength(1, 'must hold 1 to 10 decision ids'), v.maxLength(10, 'must hold 1 to 10 decision ids')),
    include_citations: v.optional(v.boolean('must be true or false'), true),
    full_text: v.optional(v.boolean('must be true or false'), false),
    max_chars: v.optional(int(500, 200_000), FULL_TEXT_CHARS),
  }),
  // Every id as its decision's UUID (duplicates kept: the answer counts them); max_chars applies to full texts only.
  normalize: (args, { services }) => ({ ...args, ids: decisionIdsOf(requireCorpus(services.corpus), args.ids),
    max_chars: args.full_text ? args.max_chars : FULL_TEXT_CHARS }),
  // One price for up to ten decisions, excerpts or full texts alike (docs/decisions.md); full texts count against the
  // daily document cap instead.
  pricing: '5 credits a package of 1 to 10 decisions; the same call again in the same month costs nothing',
  price: () => 5,
  volume: { unit: 'documents', ahead: (args) => args.full_text,
    amount: (result: { included: number }, args) => (args.full_text ? result.included : 0) },
  handler: (args, { services, now }) => {
    const corpus = requireCorpus(services.corpus);
    return inTransaction(corpus, () => assembleDatapackage(corpus, services.config.publicUrl, args, now));
  },
});
