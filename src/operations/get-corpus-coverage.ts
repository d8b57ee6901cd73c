import * as v from 'valibot';
import { requireCorpus } from '../corpus/find-decision.ts';
import { corpusCoverage } from '../corpus/coverage.ts';
import { corpusCoverageAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { BRANCHES, int } from './schemas.ts';
import { inTransaction } from '../db/statements.ts';

export default defineOperation({
  name: 'get_corpus_coverage',
  summary: 'What the corpus holds: decisions per branch and court, coverage ranges, laws',
  description: 'Decision counts per jurisdiction branch (never capped) and per court (busiest first, capped by top), '
    + 'the coverage ranges against which out_of_coverage verdicts are decided, and the EU and international law held.',
  method: 'GET',
  path: '/corpus/coverage',
  ability: 'read',
  errors: [401, 403, 409, 422, 429, 503],
  answer: corpusCoverageAnswer,
  args: v.object({
    branch: v.optional(v.picklist(BRANCHES, `must be one of ${BRANCHES.join(', ')}`)),
    top: v.optional(int(1, 100), 20),
  }),
  pricing: 'free',
  price: () => 0,
  handler: (args, { services }) => {
    const corpus = requireCorpus(services.corpus);
    return inTransaction(corpus, () => corpusCoverage(corpus, args));
  },
});
