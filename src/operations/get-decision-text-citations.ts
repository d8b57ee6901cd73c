import * as v from 'valibot';
import { findDecision, namedByUuid, requireCorpus } from '../corpus/find-decision.ts';
import { FORTGELTUNG } from '../corpus/read-decision.ts';
import { decisionTextCitations } from '../graph/text-citations.ts';
import { defineOperation } from './operation.ts';
import { decisionTextCitationsAnswer } from './answers.ts';
import { courtFilter, decisionRef, isoDate } from './schemas.ts';
import { inTransaction } from '../db/statements.ts';

export default defineOperation({
  name: 'get_decision_text_citations',
  summary: 'Where a decision\'s text cites decisions and provisions, with offsets',
  description: 'Every citation in the text of one decision with its Unicode code-point offsets into the whole text '
    + '(full_text of GET /decisions/{id} read whole), its canonical form and its target: the cited decision where '
    + 'the corpus holds exactly one that fits, the law and provision for a statute (law_text_held says whether its '
    + 'text can be read at /laws/{law}/units/{unit}). Also the offsets of the Randnummern and sections.',
  method: 'GET',
  path: '/decisions/{id}/text-citations',
  ability: 'read',
  errors: [401, 402, 403, 404, 409, 422, 429, 503],
  args: v.object({
    id: decisionRef,
    court: v.optional(courtFilter),
    date: v.optional(isoDate),
  }),
  normalize: (args, { services }) => namedByUuid(services.corpus, args),
  answer: decisionTextCitationsAnswer,
  pricing: '1 credit; the same call again in the same month costs nothing',
  price: () => 1,
  handler: (args, { services }) => {
    const corpus = requireCorpus(services.corpus);
    return inTransaction(corpus, () => {
      const decision = findDecision(corpus, args.id, args);
      return { id: decision.id, text_length: decision.text_length, ...decisionTextCitations(corpus, decision), ...FORTGELTUNG };
    });
  },
});
