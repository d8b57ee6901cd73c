import * as v from 'valibot';
import { requireCorpus } from '../corpus/find-decision.ts';
import { listFacet } from '../corpus/facets.ts';
import { facetsAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { text } from './schemas.ts';
import { inTransaction } from '../db/statements.ts';

export const FACET_FIELDS = ['court_name', 'cited_norms', 'document_type', 'branch', 'law_abbreviation', 'decision_year'] as const;

export default defineOperation({
  name: 'list_facets',
  summary: 'Filter values with their counts',
  description: 'The values of one facet field (court_name, cited_norms, document_type, branch, law_abbreviation, decision_year) with '
    + 'counts, at most 500; cited_norms lists the family of one norm.',
  method: 'GET',
  path: '/corpus/facets/{field}',
  ability: 'read',
  errors: [401, 403, 409, 422, 429, 503],
  answer: facetsAnswer,
  args: v.pipe(
    v.object({
      field: v.picklist(FACET_FIELDS, `must be one of ${FACET_FIELDS.join(', ')}`),
      type: v.optional(v.picklist(['decision', 'law'], 'must be decision or law')),
      norm: v.optional(v.pipe(text(200), v.description('required with cited_norms: the norm whose family is listed'))),
      prefix: v.optional(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'))),
    }),
    v.forward(v.partialCheck([['field'], ['norm']], (input) => input.field !== 'cited_norms' || input.norm !== undefined,
      'is required with the field cited_norms'), ['norm']),
  ),
  pricing: 'free',
  price: () => 0,
  handler: (args, { services }) => {
    const corpus = requireCorpus(services.corpus);
    return inTransaction(corpus, () => listFacet(corpus, args));
  },
});
