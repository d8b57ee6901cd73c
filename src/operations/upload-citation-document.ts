import * as v from 'valibot';
import { notYetAvailable } from '../errors.ts';
import { defineOperation } from './operation.ts';

export const UPLOAD_MAX_BYTES = 25 * 1000 * 1000;

export default defineOperation({
  name: 'upload_citation_document',
  summary: 'Upload a document for a citation check',
  description: 'Accepts a PDF, DOCX, Markdown or plain-text file of at most 25 MB; its text is extracted in the '
    + 'background. Poll the upload until its status is ready, then check it with document_id. Free.',
  method: 'POST',
  path: '/citation-check-documents',
  ability: 'citation-check',
  heavy: true,
  status: 202,
  files: ['file'],
  errors: [401, 403, 409, 422, 429],
  args: v.object({ file: v.pipe(v.any(), v.description('the document (binary)')) }),
  price: () => 0,
  handler: () => {
    throw notYetAvailable('Document uploads');
  },
});
