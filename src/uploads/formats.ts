// Which of the accepted formats a file is, from its first bytes (magic numbers) and its name: the content decides
// for binary formats, the extension tells Markdown from plain text. Anything else is refused at upload (422).
import { extname } from 'node:path';

export type UploadFormat = 'pdf' | 'docx' | 'markdown' | 'text';

/** What the first bytes say: a format, a ZIP still to be looked into, or why the file is refused. */
export type Sniffed = { format: UploadFormat } | { zip: true } | { refused: string };

export const ACCEPTED = 'accepted are PDF, DOCX, Markdown (.md) and plain text (.txt)';

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((byte, index) => head[index] === byte);

/** Binary formats people try to upload instead of the accepted ones, named so the refusal can say what it saw. */
const OTHER_BINARY: [string, number[]][] = [
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['a TIFF image', [0x49, 0x49, 0x2a, 0x00]],
  ['a TIFF image', [0x4d, 0x4d, 0x00, 0x2a]],
  ['a gzip archive', [0x1f, 0x8b]],
  ['an RTF document', [0x7b, 0x5c, 0x72, 0x74, 0x66]],
  ['a 7-Zip archive', [0x37, 0x7a, 0xbc, 0xaf]],
  ['a RAR archive', [0x52, 0x61, 0x72, 0x21]],
];

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const TEXT_EXTENSIONS = new Map<string, UploadFormat>([
  ['', 'text'], ['.txt', 'text'], ['.text', 'text'], ['.md', 'markdown'], ['.markdown', 'markdown'],
]);

/** UTF-32's byte-order marks (its little-endian one begins as UTF-16's does). */
const isUtf32 = (head: Buffer) => startsWith(head, [0xff, 0xfe, 0x00, 0x00]) || startsWith(head, [0x00, 0x00, 0xfe, 0xff]);

/** True when the head has a byte-order mark of UTF-16, the one accepted text encoding with NUL bytes in it. */
const isUtf16 = (head: Buffer) => !isUtf32(head) && (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff]));

/**
 * The format of a file from its first bytes (at least 1 KB when the file has it) and its name.
 *
 * @example sniffFormat(Buffer.from('%PDF-1.7 ...'), 'Schriftsatz.pdf') // { format: 'pdf' }
 */
export function sniffFormat(head: Buffer, filename: string): Sniffed {
  if (head.length === 0) return { refused: 'is empty' };
  // PDF readers accept the header anywhere in the first 1024 bytes; so do we.
  if (head.subarray(0, 1024).includes('%PDF-')) return { format: 'pdf' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { zip: true };
  const extension = extname(filename).toLowerCase();
  if (startsWith(head, OLE)) {
    // A password-protected DOCX is an OLE container; extraction reports it as `encrypted`.
    if (extension === '.docx') return { format: 'docx' };
    return { refused: `is a legacy Office file (${extension || 'OLE container'}); save it as DOCX or PDF (${ACCEPTED})` };
  }
  const other = OTHER_BINARY.find(([, magic]) => startsWith(head, magic));
  if (other) return { refused: `is ${other[0]}; ${ACCEPTED}` };
  if (isUtf32(head)) return { refused: `is text in UTF-32, which is not supported; save it as UTF-8 (${ACCEPTED})` };
  if (!isUtf16(head) && head.includes(0)) return { refused: `is a binary file of an unsupported format; ${ACCEPTED}` };
  const format = TEXT_EXTENSIONS.get(extension);
  if (!format) {
    // Text under the name of a binary format (`brief.pdf` holding plain text): the name is not the problem.
    const named = extension === '.pdf' || extension === '.docx';
    return { refused: named ? `is named ${extension} but its content is not a ${extension.slice(1).toUpperCase()} file; ${ACCEPTED}`
      : `has the extension ${extension || '(none)'}, which is not supported; ${ACCEPTED}` };
  }
  return { format };
}
