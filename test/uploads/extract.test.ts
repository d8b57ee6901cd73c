/**
 * Extraction in this process (the function each worker process runs): PDF pages and their text layer, DOCX body
 * with footnotes and endnotes in reading order, plain text in legacy encodings, and every failure code.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractDocument, type ExtractionOutcome } from '../../src/uploads/extract/extract-document.ts';
import { decodeText } from '../../src/uploads/extract/decode-text.ts';
import type { UploadFormat } from '../../src/uploads/formats.ts';
import { docx, docxEntries, pdf, zip } from '../helpers/documents.ts';
import { BRIEF, BRIEF_TEXT } from './brief.ts';

let dir: string;
before(() => { dir = mkdtempSync(join(tmpdir(), 'juralite-extract-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function extract(data: Buffer | string, format: UploadFormat, maxChars = 20_000): Promise<ExtractionOutcome> {
  const path = join(dir, `file-${files++}`);
  writeFileSync(path, data);
  return extractDocument({ path, format, maxChars, maxUncompressedBytes: 100e6 });
}

function ready(outcome: ExtractionOutcome): Extract<ExtractionOutcome, { status: 'ready' }> {
  assert.equal(outcome.status, 'ready', JSON.stringify(outcome));
  return outcome as Extract<ExtractionOutcome, { status: 'ready' }>;
}

function failed(outcome: ExtractionOutcome, code: string): void {
  assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
  assert.equal((outcome as { error_code: string }).error_code, code);
}

test('DOCX: body paragraphs, each followed by its footnotes, endnotes at the end', async () => {
  const outcome = ready(await extract(docx(BRIEF), 'docx'));
  assert.equal(outcome.text, BRIEF_TEXT);
  assert.equal(outcome.char_count, Array.from(BRIEF_TEXT).length);
  assert.equal(outcome.page_count, null);
  assert.equal(outcome.pages_without_text_layer, null);
});

test('DOCX: every paragraph of a table cell on its own line, cells and rows in reading order', async () => {
  const outcome = ready(await extract(docx({
    paragraphs: ['Anspruchsgrundlagen:'],
    table: [[['Anspruch aus § 280 Abs. 1 BGB'], ['BGH VI ZR 496/18', 'mit Anmerkung[^1]']], [['§ 823 BGB'], ['']]],
    footnotes: ['Vgl. § 249 BGB.'],
  }), 'docx'));
  assert.equal(outcome.text,
    'Anspruchsgrundlagen:\nAnspruch aus § 280 Abs. 1 BGB\nBGH VI ZR 496/18\nmit Anmerkung\nVgl. § 249 BGB.\n§ 823 BGB');
});

test('PDF: the text of every page with a text layer, pages separated by a blank line; image-only pages counted', async () => {
  const outcome = ready(await extract(pdf([
    ['Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB.', 'Die Beklagte beantragt, die Klage abzuweisen.'],
    null,
    ['BGH, Urteil vom 14. Mai 2019 - VI ZR 496/18 (Straßenreinigung, ß und ä).'],
  ]), 'pdf'));
  assert.equal(outcome.text, 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB. Die Beklagte beantragt, die Klage abzuweisen.'
    + '\n\nBGH, Urteil vom 14. Mai 2019 - VI ZR 496/18 (Straßenreinigung, ß und ä).');
  assert.equal(outcome.page_count, 3);
  assert.equal(outcome.pages_without_text_layer, 1);
});

test('PDF: a running header and footer (first and last lines recurring on most pages, numbers aside) are left out', async () => {
  const header = 'Az.: 7 U 123/18 - Schriftsatz vom 01.02.2024';
  const pages = [1, 2, 3, 4].map((n) => [header, n === 2 ? 'Anspruch aus § 823 BGB.' : `Text der Seite ${n}.`, `Seite ${n} von 4`]);
  const outcome = ready(await extract(pdf(pages), 'pdf'));
  assert.equal(outcome.text, 'Text der Seite 1.\n\nAnspruch aus § 823 BGB.\n\nText der Seite 3.\n\nText der Seite 4.');
  // Two pages are too few to tell a running header from a repeated first line.
  const two = ready(await extract(pdf(pages.slice(0, 2)), 'pdf'));
  assert.ok(two.text.startsWith(header));
});

test('PDF without any text layer (a scan): no_text, pages still counted', async () => {
  const outcome = await extract(pdf([null, null]), 'pdf');
  failed(outcome, 'no_text');
  assert.equal(outcome.page_count, 2);
  assert.equal(outcome.pages_without_text_layer, 2);
});

test('plain text: UTF-8 with or without BOM, UTF-16 with BOM, windows-1252 detected', async () => {
  const sentence = 'Der Kläger stützt sich auf § 823 Abs. 1 BGB – und auf „Treu und Glauben“ (€).';
  assert.equal(ready(await extract(Buffer.from(sentence, 'utf8'), 'text')).text, sentence);
  assert.equal(ready(await extract(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sentence)]), 'text')).text, sentence);
  assert.equal(ready(await extract(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sentence, 'utf16le')]), 'markdown')).text, sentence);
  // windows-1252 bytes: § A7, ä E4, – 96, „ 84, “ 93, € 80.
  const legacy = Buffer.from([...Buffer.from('Der Kl'), 0xe4, ...Buffer.from('ger st'), 0xfc, ...Buffer.from('tzt sich auf '), 0xa7,
    ...Buffer.from(' 823 Abs. 1 BGB '), 0x96, ...Buffer.from(' und auf '), 0x84, ...Buffer.from('Treu und Glauben'), 0x93,
    ...Buffer.from(' ('), 0x80, ...Buffer.from(').')]);
  assert.deepEqual(decodeText(legacy), { text: sentence, encoding: 'windows-1252' });
  assert.equal(ready(await extract(legacy, 'text')).text, sentence);
});

test('text is composed (NFC): a decomposed umlaut reads as the umlaut', async () => {
  const outcome = ready(await extract('Die Kla\u0308gerin beruft sich auf § 823 BGB.', 'markdown'));
  assert.equal(outcome.text, 'Die Klägerin beruft sich auf § 823 BGB.');
});

test('too_long above the cap, counted in code points; exactly the cap is ready', async () => {
  const astral = '𝔄'; // one code point, two UTF-16 units
  const atCap = ready(await extract(astral.repeat(100), 'text', 100));
  assert.equal(atCap.char_count, 100);
  const over = await extract(astral.repeat(101), 'text', 100);
  failed(over, 'too_long');
  assert.equal(over.char_count, 101);
  assert.ok(!('text' in over));
});

test('an empty or blank text: no_text', async () => {
  failed(await extract(' \n\t ', 'text'), 'no_text');
  failed(await extract(docx({ paragraphs: ['', ' '] }), 'docx'), 'no_text');
});

test('corrupt files: unreadable', async () => {
  failed(await extract(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 0x41)]), 'pdf'), 'unreadable');
  failed(await extract(docx(BRIEF).subarray(0, 300), 'docx'), 'unreadable');
});

test('a ZIP without word/document.xml is no DOCX: unsupported_format', async () => {
  const entries = docxEntries(BRIEF).filter((entry) => entry.name !== 'word/document.xml');
  failed(await extract(zip(entries), 'docx'), 'unsupported_format');
});

test('a password-protected DOCX (an OLE container holding EncryptionInfo): encrypted', async () => {
  const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504),
    Buffer.from('EncryptionInfo', 'utf16le'), Buffer.alloc(1024)]);
  failed(await extract(ole, 'docx'), 'encrypted');
  failed(await extract(Buffer.concat([ole.subarray(0, 512), Buffer.alloc(1024)]), 'docx'), 'unsupported_format');
});

test('a DOCX inflating past the limit is refused while unpacking, whatever its headers declare', async () => {
  const entries = docxEntries(BRIEF);
  const bomb = entries.map((entry) => entry.name === 'word/document.xml'
    ? { ...entry, data: Buffer.concat([Buffer.from(String(entry.data)), Buffer.alloc(3_000_000, 0x20)]), declaredSize: 1000 }
    : entry);
  const path = join(dir, 'lying.docx');
  writeFileSync(path, zip(bomb));
  const outcome = await extractDocument({ path, format: 'docx', maxChars: 20_000, maxUncompressedBytes: 1_000_000 });
  failed(outcome, 'unreadable');
  assert.match((outcome as { error_detail: string }).error_detail, /size limit/);
});
