/**
 * Real PDF and DOCX files written by the tests themselves (no fixtures to trust, no generator library):
 * - `pdf(pages)`: a PDF 1.4 with a text layer, one content stream per page, Helvetica in WinAnsiEncoding (so
 *   `§`, umlauts and `ß` survive); a page given as `null` carries only an image, as a scan does;
 * - `docx({ paragraphs, footnotes, endnotes })`: a WordprocessingML package whose paragraphs may reference footnotes
 *   and endnotes by number (`[^1]` and `[^e1]` markers in the paragraph text);
 * - `zip(entries)`: the archive writer under both, also used to build zip bombs and corrupt archives.
 */
import { crc32, deflateRawSync } from 'node:zlib';

// --- PDF ---------------------------------------------------------------------------------------------------------

/** A PDF literal string in WinAnsiEncoding (Latin-1 covers every character the tests use). */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (char) => `\\${char}`)})`;
}

/** The content stream of a text page: one `Tj` per line, 14 points apart, from the top of an A4 page. */
function textContent(lines: string[]): string {
  return `BT /F1 11 Tf 14 TL 56 790 Td\n${lines.map((line) => `${pdfString(line)} Tj T*`).join('\n')}\nET`;
}

/** An image-only page: a 2x2 grey image scaled over the page, as a scanner writes it (no text operator at all). */
const SCAN_CONTENT = 'q 480 0 0 700 56 80 cm /Im1 Do Q';

/**
 * A PDF whose pages hold the given lines; `null` is a page without a text layer.
 *
 * @example pdf([['§ 823 Abs. 1 BGB'], null]) // two pages, the second a "scan"
 */
export function pdf(pages: (string[] | null)[]): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) ;
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, written once the page ids are known
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  add('<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x90\xa0\xb0\nendstream');
  const pageIds: number[] = [];
  for (const lines of pages) {
    const content = lines ? textContent(lines) : SCAN_CONTENT;
    add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    const contentId = objects.length;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${contentId} 0 R `
      + '/Resources << /Font << /F1 3 0 R >> /XObject << /Im1 4 0 R >> >> >>');
    pageIds.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// --- ZIP ---------------------------------------------------------------------------------------------------------

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** Stored uncompressed instead of deflated. */
  store?: boolean;
  /** Declares this uncompressed size in the headers instead of the real one (a lying archive). */
  declaredSize?: number;
}

/** A ZIP archive (deflate or stored members, central directory, end record). */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const packed = entry.store ? data : deflateRawSync(data);
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? data.length;
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(0x800, at + 2); // UTF-8 names
      header.writeUInt16LE(entry.store ? 0 : 8, at + 4);
      header.writeUInt32LE(0, at + 6); // time and date
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(packed.length, at + 14);
      header.writeUInt32LE(size, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    common(central, 6);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// --- DOCX --------------------------------------------------------------------------------------------------------

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
  + 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (char) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot' }[char]};`);

const run = (text: string) => `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;

/** A body paragraph: `[^n]` marks a footnote reference, `[^en]` an endnote reference. */
function paragraph(text: string): string {
  const parts = text.split(/(\[\^e?\d+\])/);
  const runs = parts.map((part) => {
    const note = /^\[\^(e?)(\d+)\]$/.exec(part);
    if (!note) return part ? run(part) : '';
    const kind = note[1] ? 'endnote' : 'footnote';
    return `<w:r><w:rPr><w:rStyle w:val="${kind === 'footnote' ? 'FootnoteReference' : 'EndnoteReference'}"/><w:vertAlign w:val="superscript"/></w:rPr>`
      + `<w:${kind}Reference w:id="${note[2]}"/></w:r>`;
  });
  return `<w:p>${runs.join('')}</w:p>`;
}

function notesPart(kind: 'footnote' | 'endnote', notes: string[]): string {
  // Ids -1 and 0 are Word's separator notes; real notes start at 1.
  const separators = [-1, 0].map((id) => `<w:${kind} w:type="${id < 0 ? 'separator' : 'continuationSeparator'}" w:id="${id}"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}>`);
  const bodies = notes.map((text, index) => `<w:${kind} w:id="${index + 1}"><w:p>`
    + `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:${kind}Ref/></w:r>${run(` ${text}`)}</w:p></w:${kind}>`);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:${kind}s ${W}>${[...separators, ...bodies].join('')}</w:${kind}s>`;
}

export interface DocxContent {
  paragraphs: string[];
  /** A table after the paragraphs: rows of cells, each cell of paragraphs. */
  table?: string[][][];
  footnotes?: string[];
  endnotes?: string[];
}

const table = (rows: string[][][]) => `<w:tbl>${rows.map((cells) =>
  `<w:tr>${cells.map((paragraphs) => `<w:tc>${paragraphs.map(paragraph).join('')}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;

/** The parts of a DOCX package, for tests that want to tamper with one before zipping. */
export function docxEntries(content: DocxContent): ZipEntry[] {
  const body = content.paragraphs.map(paragraph).join('') + (content.table ? table(content.table) : '');
  return [
    { name: '[Content_Types].xml', data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
      + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      + '<Default Extension="xml" ContentType="application/xml"/>'
      + '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
      + '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>'
      + '<Override PartName="/word/endnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"/>'
      + '</Types>' },
    { name: '_rels/.rels', data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
      + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
      + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
      + '</Relationships>' },
    { name: 'word/_rels/document.xml.rels', data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
      + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
      + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>'
      + '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes" Target="endnotes.xml"/>'
      + '</Relationships>' },
    { name: 'word/document.xml', data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>${body}</w:body></w:document>` },
    { name: 'word/footnotes.xml', data: notesPart('footnote', content.footnotes ?? []) },
    { name: 'word/endnotes.xml', data: notesPart('endnote', content.endnotes ?? []) },
  ];
}

/**
 * A DOCX file.
 *
 * @example docx({ paragraphs: ['Der Anspruch folgt aus § 823 Abs. 1 BGB.[^1]'], footnotes: ['BGH, Urteil vom ...'] })
 */
export function docx(content: DocxContent): Buffer {
  return zip(docxEntries(content));
}
