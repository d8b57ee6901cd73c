import * as v from 'valibot';
import { notFound } from '../errors.ts';
import { uploadAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { text } from './schemas.ts';
import { uploadResource } from '../uploads/resource.ts';

export default defineOperation({
  name: 'get_citation_document',
  summary: 'Read an upload\'s state',
  description: 'Reads an upload of the caller\'s organization: its status (uploaded, ready, failed, consumed, expired), '
    + 'extracted size, pages and quoted price, or why extraction failed (error_code). Free. The extracted text is never served.',
  method: 'GET',
  path: '/citation-check-documents/{document}',
  ability: 'citation-check',
  errors: [401, 403, 404, 409, 422, 429],
  answer: uploadAnswer,
  args: v.object({ document: v.pipe(text(100), v.description('upload id')) }),
  pricing: 'free',
  price: () => 0,
  handler: async (args, ctx) => {
    const { store } = ctx.services;
    const organizationId = ctx.caller.organization.id;
    let row = await store.findUpload(organizationId, args.document);
    if (!row) throw notFound(`No upload ${args.document} for this organization.`);
    // Expiry happens on read as well as in the periodic sweep: an upload past expires_at is never shown as live.
    if (row.status !== 'expired' && row.expires_at <= ctx.now.toISOString()) {
      await store.expireDue(ctx.now, row.id);
      row = (await store.findUpload(organizationId, args.document))!;
    }
    return uploadResource(row);
  },
});
