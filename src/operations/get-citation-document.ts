import * as v from 'valibot';
import { notYetAvailable } from '../errors.ts';
import { defineOperation } from './operation.ts';
import { text } from './schemas.ts';

export default defineOperation({
  name: 'get_citation_document',
  summary: 'Read an upload\'s state',
  description: 'Reads an upload of the caller\'s organization: its status, extracted size and quoted price. Free.',
  method: 'GET',
  path: '/citation-check-documents/{document}',
  ability: 'citation-check',
  errors: [401, 403, 404, 409, 422, 429],
  args: v.object({ document: v.pipe(text(100), v.description('upload id')) }),
  price: () => 0,
  handler: () => {
    throw notYetAvailable('Document uploads');
  },
});
