// Text out of officeparser's AST (officeparser 8: PDF pages of paragraphs; DOCX paragraphs whose text nodes carry
// their footnotes and endnotes as `notes`). The layout of the extracted text is ours and documented in
// docs/uploads.md, because offsets of the citation check point into exactly this text.
import type { OfficeContentNode } from 'officeparser';

/** A node's own text: officeparser fills `text` on every block with the text of everything inside it. */
function textOf(node: OfficeContentNode): string {
  if (typeof node.text === 'string') return node.text;
  return (node.children ?? []).map(textOf).join('');
}

/** The notes hanging on the text nodes under `node`, in document order. */
function notesUnder(node: OfficeContentNode, found: OfficeContentNode[] = []): OfficeContentNode[] {
  for (const note of (node as { notes?: OfficeContentNode[] }).notes ?? []) found.push(note);
  for (const child of node.children ?? []) notesUnder(child, found);
  return found;
}

const noteType = (note: OfficeContentNode) => (note.metadata as { noteType?: string } | undefined)?.noteType;

export interface PdfText { text: string; pageCount: number; pagesWithoutText: number }

/** The lines of a PDF page as officeparser reads them (its text nodes), trimmed, without empty ones. */
function linesOf(node: OfficeContentNode): string[] {
  if (node.type === 'text') return typeof node.text === 'string' && node.text.trim() ? [node.text.trim()] : [];
  return (node.children ?? []).flatMap(linesOf);
}

/** A line as it repeats from page to page: page numbers and dates differ, so digits count alike. */
const repeating = (line: string) => line.replace(/\d+/gu, '#');

/** The lines that open (or close) at least three pages and three in five of the pages with text, digits aside. */
function runningLines(edges: (string | undefined)[], pagesWithText: number): Set<string> {
  const counts = new Map<string, number>();
  for (const line of edges) if (line !== undefined) counts.set(repeating(line), (counts.get(repeating(line)) ?? 0) + 1);
  const needed = Math.max(3, Math.ceil(pagesWithText * 0.6));
  return new Set([...counts].filter(([, count]) => count >= needed).map(([line]) => line));
}

/**
 * The pages' texts without their running header and footer: a first or last line that recurs on most pages
 * ('Az.: 7 U 123/18 - Schriftsatz vom 01.02.2024', 'Seite 3 von 12') would otherwise be checked once per page.
 */
function withoutRunningLines(texts: string[], lines: string[][]): string[] {
  const pagesWithText = texts.filter(Boolean).length;
  const headers = runningLines(lines.map((page) => page[0]), pagesWithText);
  const footers = runningLines(lines.map((page) => (page.length > 1 ? page[page.length - 1] : undefined)), pagesWithText);
  return texts.map((text, i) => {
    const [first, last] = [lines[i][0], lines[i].length > 1 ? lines[i][lines[i].length - 1] : undefined];
    let kept = text;
    if (first !== undefined && headers.has(repeating(first)) && kept.startsWith(first)) kept = kept.slice(first.length).trim();
    if (last !== undefined && footers.has(repeating(last)) && kept.endsWith(last)) kept = kept.slice(0, -last.length).trim();
    return kept;
  });
}

/**
 * A PDF's text, page after page (pages separated by a blank line), and how many pages have no text layer.
 *
 * @example pdfText(ast.content) // { text: 'Seite eins …\n\nSeite drei …', pageCount: 3, pagesWithoutText: 1 }
 */
export function pdfText(content: OfficeContentNode[]): PdfText {
  const pages = content.filter((node) => node.type === 'page');
  const texts = withoutRunningLines(pages.map((page) => textOf(page).trim()), pages.map(linesOf));
  return {
    text: texts.filter(Boolean).join('\n\n'),
    pageCount: pages.length,
    pagesWithoutText: texts.filter((text) => !text).length,
  };
}

/**
 * The paragraphs of a block: itself, or those inside a table, its rows and cells, or a list. A cell's own `text` runs
 * its paragraphs together ('§ 280 BGBBGH VI ZR 496/18'), so each paragraph is read by itself.
 */
function paragraphsOf(node: OfficeContentNode): OfficeContentNode[] {
  const children = node.children ?? [];
  return node.type === 'paragraph' || node.type === 'heading' || children.length === 0 ? [node] : children.flatMap(paragraphsOf);
}

/**
 * A DOCX's text in reading order: each body paragraph (a table cell's too) on its own line, followed by the footnotes
 * it references (as a printed page shows them below the text), the endnotes at the end of the document.
 *
 * @example docxText(ast.content) // 'Der Anspruch folgt aus § 823 BGB.\nBGH, Urteil vom …\nVgl. …'
 */
export function docxText(content: OfficeContentNode[]): string {
  const lines: string[] = [];
  const endnotes: string[] = [];
  for (const block of content.flatMap(paragraphsOf)) {
    const text = textOf(block).trim();
    if (text) lines.push(text);
    for (const note of notesUnder(block)) {
      const noteText = textOf(note).trim();
      if (!noteText) continue;
      if (noteType(note) === 'endnote') endnotes.push(noteText);
      else lines.push(noteText);
    }
  }
  return [...lines, ...endnotes].join('\n');
}
