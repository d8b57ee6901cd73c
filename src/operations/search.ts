import * as v from 'valibot';
import { backendUnavailable } from '../errors.ts';
import { searchCombined } from '../search/combined-search.ts';
import { combinedSearchAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { DATES_IN_ORDER, datesInOrder, int, searchFilters } from './schemas.ts';

export const JURISDICTIONS = ['DE', 'EU', 'XI'] as const;

export default defineOperation({
  name: 'search',
  summary: 'Search statutes and decisions together',
  description: 'Combined search: a laws section and a decisions section, each up to limit (default 5, at most 10). '
    + 'Decision filters act on the decisions section; jurisdiction narrows the laws section only.',
  method: 'GET',
  path: '/search',
  ability: 'search',
  errors: [401, 402, 403, 409, 422, 429, 503],
  answer: combinedSearchAnswer,
  args: v.pipe(
    v.object({
      ...searchFilters,
      // No exact-citation rule here: a mode left out is hybrid, and the same result as hybrid written out.
      mode: v.optional(searchFilters.mode.wrapped, 'hybrid'),
      jurisdiction: v.optional(v.picklist(JURISDICTIONS, `must be one of ${JURISDICTIONS.join(', ')}`)),
      // Hard-capped at 10 server-side: a larger limit narrows to 10 rather than failing.
      limit: v.optional(v.pipe(int(1), v.transform((value) => Math.min(value, 10))), 5),
    }),
    v.forward(v.partialCheck([['date_from'], ['date_to']], datesInOrder, DATES_IN_ORDER), ['date_to']),
  ),
  pricing: '1 credit; the same call again in the same month costs nothing',
  price: () => 1,
  volume: { unit: 'rows', amount: (result: { sections?: { laws?: unknown[]; decisions?: unknown[] } }) =>
    (result.sections?.laws?.length ?? 0) + (result.sections?.decisions?.length ?? 0) },
  handler: (args, ctx) => {
    if (!ctx.services.corpus) throw backendUnavailable('No corpus is open.');
    return searchCombined(ctx.services.corpus, args, ctx.services.config.embeddings);
  },
});
