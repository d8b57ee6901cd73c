// The checks a stored upload passes before it is accepted (422 on `file` otherwise): its format, and for a DOCX
// what its ZIP directory declares, so that a zip bomb is refused before anything inflates it.
import { invalidArgument } from '../errors.ts';
import { ACCEPTED, sniffFormat, type UploadFormat } from './formats.ts';
import { readAt, readZipListing } from './zip-directory.ts';

/**
 * Largest total a DOCX may declare uncompressed. The text of a checkable brief (20,000 characters) takes well under
 * 1 MB of WordprocessingML; images are stored compressed already, so a 25 MB DOCX stays near 25 MB unpacked.
 */
export const DOCX_MAX_UNCOMPRESSED_BYTES = 100 * 1000 * 1000;

/** Bytes read to recognize a format. */
const HEAD_BYTES = 4096;

export const fileProblem = (message: string) => invalidArgument('file', message);

const megabytes = (bytes: number) => `${(bytes / 1e6).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

/**
 * The format of the stored file, or 422 on `file` saying why it is refused.
 *
 * @example await inspectUpload('/data/uploads/upl_….part', 'Klage.docx', 48_213) // 'docx'
 */
export async function inspectUpload(path: string, filename: string, bytes: number): Promise<UploadFormat> {
  const sniffed = sniffFormat(await readAt(path, 0, HEAD_BYTES), filename);
  if ('refused' in sniffed) throw fileProblem(sniffed.refused);
  if ('format' in sniffed) return sniffed.format;
  const listing = await readZipListing(path);
  // A ZIP whose directory cannot be read: a damaged DOCX is reported by extraction (unreadable), anything else refused.
  if (!listing) {
    if (filename.toLowerCase().endsWith('.docx')) return 'docx';
    throw fileProblem(`is a damaged ZIP archive; ${ACCEPTED}`);
  }
  if (listing.declaredBytes > DOCX_MAX_UNCOMPRESSED_BYTES) {
    throw fileProblem(`declares ${Number.isFinite(listing.declaredBytes) ? megabytes(listing.declaredBytes) : 'more than 4 GB'} `
      + `uncompressed (at most ${megabytes(DOCX_MAX_UNCOMPRESSED_BYTES)} are accepted); it is refused as a possible zip bomb`);
  }
  if (!listing.names.includes('word/document.xml')) {
    throw fileProblem(`is a ZIP archive but not a Word document (it has no word/document.xml); ${ACCEPTED}`);
  }
  return 'docx';
}
