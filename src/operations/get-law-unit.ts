import * as v from 'valibot';
import { requireCorpus } from '../corpus/find-decision.ts';
import { readLawUnit } from '../corpus/read-law-unit.ts';
import { defineOperation } from './operation.ts';
import { lawUnitAnswer } from './answers.ts';
import { text } from './schemas.ts';
import { inTransaction } from '../db/statements.ts';

export default defineOperation({
  name: 'get_law_unit',
  summary: 'Read one § or article of a law by abbreviation and number',
  description: 'The text of one provision (`/laws/BGB/units/823`, `/laws/DSGVO/units/Art. 6`): heading, text with '
    + 'its Absätze, place in the law, the provisions before and after it, and the decisions of the corpus citing it '
    + '(the 20 latest, with their total). A bare number is the § of a German law and the article of an EU or '
    + 'international act. Acts held only as a catalogue of article numbers answer with text null.',
  method: 'GET',
  path: '/laws/{law}/units/{unit}',
  ability: 'read',
  errors: [401, 403, 404, 409, 422, 429, 503],
  args: v.object({
    law: v.pipe(text(200), v.description('the law as cited (BGB, SGB V, DSGVO) or any name the corpus knows for it')),
    unit: v.pipe(text(40), v.description('the provision: 823, § 823, 613a, Art. 6')),
  }),
  answer: lawUnitAnswer,
  pricing: 'free',
  price: () => 0,
  handler: (args, { services }) => {
    const corpus = requireCorpus(services.corpus);
    return inTransaction(corpus, () => readLawUnit(corpus, args.law, args.unit));
  },
});
