import * as v from 'valibot';
import { checkRunAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { text } from './schemas.ts';

export default defineOperation({
  name: 'get_citation_check',
  summary: 'Read back a citation check run',
  description: 'Reads a run made through the API by the caller\'s organization. Free. Another organization\'s run: 404.',
  method: 'GET',
  path: '/citation-checks/{run}',
  ability: 'citation-check',
  errors: [401, 403, 404, 409, 422, 429],
  answer: checkRunAnswer,
  args: v.object({ run: v.pipe(text(100), v.description('run id')) }),
  pricing: 'free',
  price: () => 0,
  handler: (args, ctx) => ctx.services.store.readRun(ctx.caller.organization.id, args.run),
});
