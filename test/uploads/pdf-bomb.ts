/**
 * A PDF stream bomb, built in memory: one page whose content stream (FlateDecode) is about 1/1000 of what it inflates
 * to, all spaces. Fast to build at any size: the deflate of one MiB is repeated (each piece ends with a full flush,
 * so pieces follow each other byte-aligned with no shared dictionary), then closed with an empty final block.
 */
import { deflateRawSync, deflateSync, constants } from 'node:zlib';

const MIB = 2 ** 20;

/** Adler-32 of `length` bytes of `byte`, in closed form (the zlib trailer; computing it over a GiB would take seconds). */
function adler32OfRun(byte: number, length: number): number {
  const mod = 65521n;
  const n = BigInt(length);
  const v = BigInt(byte);
  const a = (1n + n * v) % mod;
  const b = (n + v * n * (n + 1n) / 2n) % mod;
  return Number((b << 16n) | a);
}

/** A zlib stream that inflates to `mebibytes` MiB of spaces. */
export function zlibBomb(mebibytes: number): Buffer {
  const piece = deflateRawSync(Buffer.alloc(MIB, 0x20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler32OfRun(0x20, mebibytes * MIB) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: mebibytes }, () => piece), end, trailer]);
}

/** A one-page PDF whose content stream is `stream` (deflated unless `deflated` is false), with Helvetica as /F1. */
function onePagePdf(stream: Buffer, deflated = true): Buffer {
  const parts: (string | Buffer)[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Buffer) => { parts.push(part); length += typeof part === 'string' ? Buffer.byteLength(part, 'latin1') : part.length; };
  const object = (body: (string | Buffer)[]) => { offsets.push(length); push(`${offsets.length} 0 obj\n`); body.forEach(push); push('\nendobj\n'); };
  push('%PDF-1.4\n');
  object(['<< /Type /Catalog /Pages 2 0 R >>']);
  object(['<< /Type /Pages /Kids [3 0 R] /Count 1 >>']);
  object(['<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>']);
  object([`<< /Length ${stream.length}${deflated ? ' /Filter /FlateDecode' : ''} >>\nstream\n`, stream, '\nendstream']);
  object(['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>']);
  const xref = length;
  push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part)));
}

/** A one-page PDF whose content stream inflates to `mebibytes` MiB (then draws one line of text). */
export function pdfBomb(mebibytes: number): Buffer {
  return onePagePdf(zlibBomb(mebibytes));
}

/**
 * A one-page PDF of `count` nested `q` operators (each saves the graphics state; none is restored), then one line of
 * text: pdf.js's work grows with the square of the nesting (20,000 took 33 s of CPU), its memory hardly. Deflated,
 * a million operators are a file of a few KB; `deflated: false` writes them as they are (2 bytes each).
 */
export function pdfOperatorBomb(count: number, { deflated = true } = {}): Buffer {
  const content = Buffer.from(`${'q\n'.repeat(count)}BT /F1 12 Tf 56 790 Td (Hallo Welt) Tj ET\n`, 'latin1');
  return deflated ? onePagePdf(deflateSync(content)) : onePagePdf(content, false);
}
