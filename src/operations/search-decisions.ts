import * as v from 'valibot';
import { backendUnavailable } from '../errors.ts';
import { effectiveMode, searchDecisions } from '../search/decision-search.ts';
import { decisionSearchAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { DATES_IN_ORDER, datesInOrder, int, searchFilters } from './schemas.ts';

export default defineOperation({
  name: 'search_decisions',
  summary: 'Search court decisions',
  description: 'Keyword, semantic or hybrid search over decisions with filters on court, branch, document type, cited '
    + 'norm and date; 20 results a page, up to page 10.',
  method: 'GET',
  path: '/decisions/search',
  ability: 'search',
  errors: [401, 402, 403, 409, 422, 429, 503],
  answer: decisionSearchAnswer,
  args: v.pipe(
    v.object({ ...searchFilters, limit: v.optional(int(1, 20), 20), page: v.optional(int(1, 10), 1) }),
    v.forward(v.partialCheck([['date_from'], ['date_to']], datesInOrder, DATES_IN_ORDER), ['date_to']),
  ),
  // A mode left out is the mode it resolves to: the same result as that mode written out, paid for once.
  normalize: (args) => ({ ...args, mode: effectiveMode(args) }),
  pricing: '1 credit; the same call again in the same month costs nothing',
  price: () => 1,
  volume: { unit: 'rows', amount: (result: { results?: unknown[] }) => result.results?.length ?? 0 },
  handler: (args, ctx) => {
    if (!ctx.services.corpus) throw backendUnavailable('No corpus is open.');
    return searchDecisions(ctx.services.corpus, args, ctx.services.config.embeddings);
  },
});
