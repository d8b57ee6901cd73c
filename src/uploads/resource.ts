// The upload as the API shows it (api-v1.md "Citation-check upload"); the extracted text itself is never served.
import { CHECK_MAX_CHARS } from '../operations/check-citations.ts';
import type { UploadRow } from './store.ts';

/** Why an extraction failed, in words; `error_code` is the stable reason. */
function errorDetail(row: UploadRow): string | null {
  switch (row.error_code) {
    case null: return null;
    case 'too_long': return `the text has ${row.char_count} characters; a citation check takes at most ${CHECK_MAX_CHARS}: `
      + 'split the document and upload each part';
    case 'no_text': return row.page_count
      ? `no page of ${row.page_count} has a text layer (a scanned document?); text recognition (OCR) is not offered: `
        + 'upload a PDF with text, or the document it was made from'
      : 'the document contains no text';
    case 'encrypted': return 'the document is password-protected; upload it without a password';
    case 'unsupported_format': return 'the file looked like a supported format but is not one (e.g. a legacy .doc saved as .docx); '
      + 'save it as DOCX or PDF';
    case 'unreadable': return 'the document could not be read (damaged, or beyond the limits of time and memory for one document); '
      + 'check that it opens, or save it again as PDF or DOCX';
    case 'resource_limit': return 'the document needs more memory to read than one document may take (a compressed stream '
      + 'that inflates far beyond the file\'s size?); save it again as PDF, or print it to a new PDF';
    case 'too_complex': return 'reading the document took more computing than a file of its size may take (a page of '
      + 'hundreds of thousands of drawing operators?); print it to a new PDF, or save it again as PDF or DOCX';
  }
}

export interface UploadResource {
  id: string;
  filename: string;
  format: string;
  status: string;
  char_count: number | null;
  page_count: number | null;
  pages_without_text_layer: number | null;
  check_max_chars: number;
  quoted_credits: number | null;
  error_code: string | null;
  error_detail: string | null;
  expires_at: string;
  created_at: string;
}

export function uploadResource(row: UploadRow): UploadResource {
  return {
    id: row.id,
    filename: row.filename,
    format: row.format,
    status: row.status,
    char_count: row.char_count,
    page_count: row.page_count,
    pages_without_text_layer: row.pages_without_text_layer,
    check_max_chars: CHECK_MAX_CHARS,
    quoted_credits: row.quoted_credits,
    error_code: row.error_code,
    error_detail: errorDetail(row),
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}
