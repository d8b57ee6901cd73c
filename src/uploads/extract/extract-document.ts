// One document to text, inside an extraction worker process: the format's reader, then the rules every upload
// shares (Unicode NFC, no text → no_text, more than the check can take → too_long).
import { readFile } from 'node:fs/promises';
import type { OfficeParserConfig } from 'officeparser';
import { codePointLength } from '../../text/code-points.ts';
import type { UploadFormat } from '../formats.ts';
import { decodeText } from './decode-text.ts';
import { docxText, pdfText } from './office-text.ts';

export type ExtractionErrorCode = 'unreadable' | 'encrypted' | 'no_text' | 'too_long' | 'unsupported_format' | 'resource_limit'
  | 'too_complex';

export interface ExtractionTask {
  path: string;
  format: UploadFormat;
  /** Longest text accepted, in code points (the check's cap). */
  maxChars: number;
  /** Largest total a DOCX may inflate to. */
  maxUncompressedBytes: number;
}

interface Measures {
  char_count: number | null;
  page_count: number | null;
  pages_without_text_layer: number | null;
}

export type ExtractionOutcome =
  | ({ status: 'ready'; text: string } & Measures)
  | ({ status: 'failed'; error_code: ExtractionErrorCode; error_detail: string } & Measures);

interface Extracted { text: string; pageCount: number | null; pagesWithoutText: number | null }

const measuresOf = (extracted: Extracted | null) => ({
  page_count: extracted?.pageCount ?? null,
  pages_without_text_layer: extracted?.pagesWithoutText ?? null,
});

/** A document that cannot be turned into text, with the code the upload reports. */
class ExtractionFailure extends Error {
  readonly code: ExtractionErrorCode;
  /** What was learnt before failing (a scanned PDF still has pages). */
  readonly pages: Extracted | null;
  constructor(code: ExtractionErrorCode, detail: string, pages: Extracted | null = null) {
    super(detail);
    this.code = code;
    this.pages = pages;
  }
}

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** The stream every password-protected OOXML container holds (ECMA-376 part 2, agile and standard encryption). */
const ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le');

function parserConfig(task: ExtractionTask): OfficeParserConfig {
  return {
    ignoreComments: true,
    ignoreHeadersAndFooters: true,
    ignorePageGeometry: true,
    extractAttachments: false,
    ocr: false,
    decompressionLimits: { maxUncompressedBytes: task.maxUncompressedBytes },
    // This process is already the sandbox (a memory cap, a time limit, killed on hang): no second process for pdf.js.
    pdfParserConfig: { separateProcess: false, extractTextColor: false, maxTimeMs: Infinity },
  } as OfficeParserConfig;
}

/** officeparser's failures as upload error codes. */
function failureOf(error: unknown): ExtractionFailure {
  const code = (error as { officeIssue?: { code?: string } }).officeIssue?.code;
  const message = (error as Error)?.message ?? String(error);
  if (code === 'PASSWORD_REQUIRED' || code === 'PASSWORD_INCORRECT' || code === 'DOCUMENT_DECRYPTION_FAILED') {
    return new ExtractionFailure('encrypted', 'the document is password-protected; upload it without a password');
  }
  if (code === 'REQUIRED_PART_MISSING' || code === 'EXTENSION_UNSUPPORTED') {
    return new ExtractionFailure('unsupported_format', `the file is not a document of its format: ${message}`);
  }
  if (code?.startsWith('ZIP_') || code === 'XML_ELEMENT_LIMIT_EXCEEDED') {
    return new ExtractionFailure('unreadable', `the document exceeds a safety limit while unpacking: ${message}`);
  }
  return new ExtractionFailure('unreadable', `the document could not be read: ${message}`);
}

async function officeContent(bytes: Buffer, fileType: 'pdf' | 'docx', task: ExtractionTask) {
  // Loaded on first use: a worker that only ever reads text files starts faster without pdf.js.
  const { parseOffice } = await import('officeparser');
  try {
    return (await parseOffice(bytes, { ...parserConfig(task), fileType })).content;
  } catch (error) {
    throw failureOf(error);
  }
}

async function extractPdf(bytes: Buffer, task: ExtractionTask): Promise<Extracted> {
  const extracted = pdfText(await officeContent(bytes, 'pdf', task));
  if (!extracted.text) {
    throw new ExtractionFailure('no_text', `no page of ${extracted.pageCount} has a text layer (a scan?); `
      + 'text recognition (OCR) is not offered', extracted);
  }
  return extracted;
}

async function extractDocx(bytes: Buffer, task: ExtractionTask): Promise<Extracted> {
  if (bytes.subarray(0, OLE.length).equals(OLE)) {
    if (bytes.includes(ENCRYPTION_INFO)) throw new ExtractionFailure('encrypted', 'the DOCX is password-protected; save it without a password');
    throw new ExtractionFailure('unsupported_format', 'the file is a legacy Office document, not a DOCX; save it as DOCX or PDF');
  }
  return { text: docxText(await officeContent(bytes, 'docx', task)), pageCount: null, pagesWithoutText: null };
}

const READERS: Record<UploadFormat, (bytes: Buffer, task: ExtractionTask) => Promise<Extracted>> = {
  pdf: extractPdf,
  docx: extractDocx,
  markdown: async (bytes) => ({ text: decodeText(bytes).text, pageCount: null, pagesWithoutText: null }),
  text: async (bytes) => ({ text: decodeText(bytes).text, pageCount: null, pagesWithoutText: null }),
};

/**
 * The text of one stored upload and its measures, or why it has none. Never throws for a bad document.
 *
 * @example await extractDocument({ path: 'a.pdf', format: 'pdf', maxChars: 20_000, maxUncompressedBytes: 1e8 })
 */
export async function extractDocument(task: ExtractionTask): Promise<ExtractionOutcome> {
  try {
    const extracted = await READERS[task.format](await readFile(task.path), task);
    // Composed characters: a decomposed 'ä' from a Mac editor must read as the 'ä' the citation rules know.
    const text = extracted.text.normalize('NFC');
    if (!text.trim()) throw new ExtractionFailure('no_text', 'the document contains no text', extracted);
    const chars = codePointLength(text);
    if (chars > task.maxChars) {
      return { status: 'failed', error_code: 'too_long', char_count: chars, ...measuresOf(extracted),
        error_detail: `the text has ${chars} characters; a citation check takes at most ${task.maxChars}: split the document and upload each part` };
    }
    return { status: 'ready', text, char_count: chars, ...measuresOf(extracted) };
  } catch (error) {
    const failure = error instanceof ExtractionFailure ? error : failureOf(error);
    return { status: 'failed', error_code: failure.code, error_detail: failure.message, char_count: null, ...measuresOf(failure.pages) };
  }
}
