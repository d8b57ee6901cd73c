import * as v from 'valibot';
import { findDecision, namedByUuid, requireCorpus } from '../corpus/find-decision.ts';
import { readDecision } from '../corpus/read-decision.ts';
import { defineOperation } from './operation.ts';
import { courtFilter, decisionRef, int, isoDate } from './schemas.ts';

export const DECISION_SECTIONS = ['Tenor', 'Leitsatz', 'Tatbestand', 'Gründe', 'Entscheidungsgründe'] as const;

export default defineOperation({
  name: 'get_decision',
  summary: 'Read a decision, whole or by Randnummer or section',
  description: 'The text of one decision by UUID, ECLI or Aktenzeichen (court and date disambiguate), whole up to '
    + 'max_chars, by Randnummer range (whole chunks) or by named section.',
  method: 'GET',
  path: '/decisions/{id}',
  ability: 'read',
  errors: [401, 402, 403, 404, 409, 422, 429, 503],
  args: v.pipe(
    v.object({
      id: decisionRef,
      max_chars: v.optional(int(500), 40_000),
      rn_from: v.optional(int(1)),
      rn_to: v.optional(int(1)),
      // Any case: `tenor` is read as `Tenor`.
      section: v.optional(v.pipe(v.string(),
        v.transform((value) => DECISION_SECTIONS.find((name) => name.toLowerCase() === value.trim().toLowerCase()) ?? value),
        v.picklist(DECISION_SECTIONS, `must be one of ${DECISION_SECTIONS.join(', ')}`))),
      court: v.optional(courtFilter),
      date: v.optional(isoDate),
    }),
    v.forward(v.partialCheck([['rn_from'], ['rn_to']],
      (input) => input.rn_from === undefined || input.rn_to === undefined || input.rn_to >= input.rn_from,
      'must be >= rn_from'), ['rn_to']),
  ),
  normalize: (args, { services }) => namedByUuid(services.corpus, args),
  price: () => 1,
  // A text served from its start (no Randnummer range, no section) counts as a full text against the daily cap.
  volume: { unit: 'documents', applies: (args) => args.rn_from === undefined && args.rn_to === undefined && !args.section,
    amount: () => 1 },
  handler: (args, { services }) => {
    const corpus = requireCorpus(services.corpus);
    return readDecision(corpus, findDecision(corpus, args.id, args), args);
  },
});
