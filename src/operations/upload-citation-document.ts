import * as v from 'valibot';
import { uploadAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import type { ReceivedFile } from '../uploads/receive.ts';
import { uploadResource } from '../uploads/resource.ts';
import { uploadsOf } from '../uploads/service.ts';
import { newUploadRow } from '../uploads/store.ts';

/** What the HTTP edge hands over for `file`: the stored, recognized file (src/uploads/receive.ts). */
const receivedFile = v.custom<ReceivedFile>(
  (input) => typeof input === 'object' && input !== null && typeof (input as ReceivedFile).path === 'string',
  'is required: send the document in the multipart/form-data field "file"',
);

export default defineOperation({
  name: 'upload_citation_document',
  summary: 'Upload a document for a citation check',
  description: 'Accepts a PDF, DOCX, Markdown or plain-text file of at most 25 MB; its text is extracted in the '
    + 'background. Poll the upload until its status is ready, then check it with document_id. Free. At most 20 uploads '
    + 'per organization may be neither consumed nor expired; an upload expires 24 hours after it was made.',
  method: 'POST',
  path: '/citation-check-documents',
  ability: 'citation-check',
  heavy: true,
  status: 202,
  files: ['file'],
  errors: [401, 403, 409, 422, 429],
  answer: uploadAnswer,
  args: v.object({ file: v.pipe(receivedFile, v.description('the document (binary): PDF, DOCX, Markdown or plain text, at most 25 MB')) }),
  pricing: 'free (the check of the document costs its quoted_credits)',
  price: () => 0,
  handler: (args, ctx) => {
    const row = newUploadRow(args.file, ctx.caller.organization.id, ctx.now);
    const { quota } = ctx.services.config.uploads;
    ctx.onCommit({ kind: 'insert_upload', row, quota });
    // After the commit: extraction finds the row.
    ctx.afterCommit(() => uploadsOf(ctx.services).extract(row.id));
    return uploadResource(row);
  },
});
