// Turns markup events (rii XML sections, Open Legal Data HTML, court pages) into sections of plain-text blocks:
// paragraphs with their printed Randnummer, if any. Markup is stripped, text kept, whitespace collapsed.
import type { MarkupEvent } from './xml.ts';

export interface Block {
  text: string;
  /** The printed Randnummer that starts here (rii `<a name="rd_N">`, OLDP `<rd nr="N"/>`, Markdown `N|`). */
  rn: number | null;
  /** A heading or a bare outline number ('II.', 'B.', '1.'), which belongs to the Randnummer that follows. */
  heading: boolean;
}

export interface SectionBlocks {
  name: string;
  blocks: Block[];
}

/** Section names as sources head them, and the name juralite keeps ('Leitsätze' is a 'Leitsatz' section). */
const SECTION_NAMES: Record<string, string> = {
  leitsatz: 'Leitsatz', 'leitsätze': 'Leitsatz', orientierungssatz: 'Orientierungssatz', 'orientierungssätze': 'Orientierungssatz',
  tenor: 'Tenor', tatbestand: 'Tatbestand', 'entscheidungsgründe': 'Entscheidungsgründe', 'gründe': 'Gründe',
  sachverhalt: 'Tatbestand', 'abweichende meinung': 'Abweichende Meinung',
};

/** The canonical section name for a heading text, or undefined when it names no section. */
export function sectionName(heading: string): string | undefined {
  const key = heading.replace(/[\s\u00a0:]+$/u, '').replace(/^[\s\u00a0]+/u, '').replace(/\s+/gu, ' ').toLowerCase();
  return SECTION_NAMES[key];
}

const OUTLINE = /^(?:[IVXLC]+|[A-Z]|\d{1,2}|[a-z]{1,3}|\([a-z0-9]{1,3}\))[.)]?$/u;
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const BLOCK_TAGS = new Set([
  'p', 'div', 'dl', 'li', 'ul', 'ol', 'table', 'tr', 'blockquote', 'pre', 'section', 'article', 'center', 'header',
  'footer', 'tbody', 'thead', 'main', 'body', 'form', 'fieldset', 'address', 'figure', 'figcaption', 'caption',
  'la', 'content', 'dokument',
]);

export interface RenderOptions {
  /** Start a new section at a heading (or a paragraph) that is just a section name ('Tenor', 'Gründe'). */
  detectSections?: boolean;
  /** Name of the section before the first detected one (or of the only one). */
  defaultSection: string;
}

const NEWLINE = '\u2028';

/** Renders markup events to sections of blocks. */
export function renderBlocks(events: Iterable<MarkupEvent>, options: RenderOptions): SectionBlocks[] {
  const sections: SectionBlocks[] = [{ name: options.defaultSection, blocks: [] }];
  let buffer = '';
  let pendingRn: number | null = null;
  let prefix = '';
  let inDt = 0;
  let dtText = '';
  let inAnchor = 0;
  let headingDepth = 0;

  const current = () => sections[sections.length - 1];
  const flush = (isHeading = false) => {
    const text = buffer
      .replace(/[ \t\r\n\f\v\u00a0\u202f\u2009]+/gu, ' ')
      .split(NEWLINE)
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('\n')
      .replace(/\u00ad/gu, '');
    buffer = '';
    const full = prefix && text ? `${prefix} ${text}` : prefix || text;
    if (full === '') return;
    prefix = '';
    const section = options.detectSections && pendingRn === null ? sectionName(full) : undefined;
    if (section) {
      if (current().blocks.length === 0) current().name = section;
      else sections.push({ name: section, blocks: [] });
      return;
    }
    current().blocks.push({ text: full, rn: pendingRn, heading: isHeading || (pendingRn === null && OUTLINE.test(full)) });
    pendingRn = null;
  };
  const startRn = (n: number) => {
    flush();
    pendingRn = n;
  };

  for (const ev of events) {
    if (ev.type === 'text') {
      if (inAnchor > 0) continue;
      if (inDt > 0) dtText += ev.text;
      else buffer += ev.text;
      continue;
    }
    const tag = ev.tag;
    if (ev.type === 'open') {
      if (tag === 'a' && /^rd_\d+$/u.test(ev.attrs.name ?? '')) {
        startRn(Number(ev.attrs.name.slice(3)));
        inAnchor++;
      } else if (tag === 'rd' && /^\d+$/u.test(ev.attrs.nr ?? '')) {
        startRn(Number(ev.attrs.nr));
      } else if (tag === 'dt') {
        flush();
        inDt++;
        dtText = '';
      } else if (tag === 'dd') {
        // dd continues the dt line: '1.' + text.
      } else if (tag === 'br') {
        if (inDt === 0) buffer += NEWLINE;
      } else if (tag === 'td' || tag === 'th') {
        buffer += ' ';
      } else if (HEADING_TAGS.has(tag)) {
        flush();
        headingDepth++;
      } else if (BLOCK_TAGS.has(tag)) {
        flush();
      }
      continue;
    }
    // close
    if (tag === 'a' && inAnchor > 0) {
      inAnchor--;
    } else if (tag === 'dt') {
      inDt = Math.max(0, inDt - 1);
      const t = dtText.replace(/\s+/gu, ' ').trim();
      if (t !== '' && !(pendingRn !== null && t === String(pendingRn))) prefix = t;
      dtText = '';
    } else if (HEADING_TAGS.has(tag)) {
      flush(true);
      headingDepth = Math.max(0, headingDepth - 1);
    } else if (BLOCK_TAGS.has(tag) || tag === 'dd') {
      flush();
    }
  }
  flush();
  return sections.filter((s) => s.blocks.length > 0);
}

/**
 * Renders the Markdown-like text that Open Legal Data keeps for some decisions: '## Tenor' opens a section,
 * 'N| text' is Randnummer N, '| text' and ':| text' are unnumbered lines, '\.' escapes are undone.
 */
export function renderMarkdownBlocks(markdown: string, defaultSection: string): SectionBlocks[] {
  const sections: SectionBlocks[] = [{ name: defaultSection, blocks: [] }];
  const current = () => sections[sections.length - 1];
  for (const rawLine of markdown.split(/\r?\n/u)) {
    const line = rawLine.replace(/\\([\\`*_{}\[\]()#+\-.!|])/gu, '$1').replace(/[ \t\u00a0]+/gu, ' ').trim();
    if (line === '') continue;
    const heading = /^#{1,6}\s*(.+)$/u.exec(line);
    if (heading) {
      const name = sectionName(heading[1]);
      if (name) {
        if (current().blocks.length === 0) current().name = name;
        else sections.push({ name, blocks: [] });
      } else {
        current().blocks.push({ text: heading[1].trim(), rn: null, heading: true });
      }
      continue;
    }
    const numbered = /^(\d{1,4})\s*\|\s*(.*)$/u.exec(line);
    if (numbered) {
      if (numbered[2] !== '') current().blocks.push({ text: numbered[2], rn: Number(numbered[1]), heading: false });
      continue;
    }
    const text = line.replace(/^:?\|\s*/u, '');
    if (text === '') continue;
    const name = sectionName(text);
    if (name && current().blocks.length > 0) {
      sections.push({ name, blocks: [] });
      continue;
    }
    current().blocks.push({ text, rn: null, heading: OUTLINE.test(text) });
  }
  return sections.filter((s) => s.blocks.length > 0);
}
