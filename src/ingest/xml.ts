// Safe XML parsing for the importers. Sources are untrusted files: the DOCTYPE (and with it every internal or
// external entity declaration) is cut out before parsing, fast-xml-parser expands no entities at all, and this
// module decodes only the five XML entities, numeric character references and a short list of HTML names.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A node of fast-xml-parser's preserveOrder tree: `{ tag: children, ':@': attributes }` or `{ '#text': string }`. */
export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
  cdataPropName: false,
  maxNestedTags: 400,
});

/** Where the DOCTYPE starting at `start` ends (after its '>'), quotes and the internal subset respected; -1 if never. */
function doctypeEnd(xml: string, start: number): number {
  let quote = '';
  let subset = false;
  for (let at = start + 9; at < xml.length; at++) {
    const char = xml[at];
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '[') subset = true;
    else if (char === ']') subset = false;
    else if (char === '>' && !subset) return at + 1;
  }
  return -1;
}

/**
 * The document without its DOCTYPE. Only the prolog may hold one (before the root element); one anywhere else is
 * malformed and left for the validator to refuse. One linear pass: hostile input cannot make it slow.
 */
function withoutDoctype(xml: string): string {
  let at = 0;
  for (;;) {
    while (at < xml.length && /\s/u.test(xml[at])) at++;
    const close = xml.startsWith('<?', at) ? '?>' : xml.startsWith('<!--', at) ? '-->' : null;
    if (close) {
      const end = xml.indexOf(close, at + 2);
      if (end < 0) return xml;
      at = end + close.length;
      continue;
    }
    if (xml.slice(at, at + 9).toUpperCase() !== '<!DOCTYPE') return xml;
    const end = doctypeEnd(xml, at);
    return end < 0 ? xml.slice(0, at) : xml.slice(0, at) + xml.slice(end);
  }
}

/** Parses an XML document into a preserveOrder tree, with the DOCTYPE removed first. Throws on malformed XML. */
export function parseXml(xml: string): XmlNode[] {
  const cleaned = withoutDoctype(xml.replace(/^\uFEFF/u, ''));
  // The parser itself is lenient (a truncated file would parse); the validator is strict and fast.
  const valid = XMLValidator.validate(cleaned, { allowBooleanAttributes: true });
  if (valid !== true) throw new Error(`malformed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  return parser.parse(cleaned) as XmlNode[];
}

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '\u00ad', sect: '§', para: '¶',
  ndash: '–', mdash: '—', bdquo: '„', ldquo: '“', rdquo: '”', lsquo: '‘', rsquo: '’', sbquo: '‚', laquo: '«',
  raquo: '»', hellip: '…', euro: '€', auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß',
  eacute: 'é', egrave: 'è', agrave: 'à', aacute: 'á', ccedil: 'ç', copy: '©', reg: '®', deg: '°', middot: '·',
  times: '×', frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³', bull: '•', thinsp: '\u2009', ensp: '\u2002',
  emsp: '\u2003', zwnj: '', zwj: '', lrm: '', rlm: '',
};

/** Decodes character references in one pass ('&amp;lt;' stays '&lt;'); unknown names are left as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/giu, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
      return String.fromCodePoint(code);
    }
    return NAMED[ref] ?? NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** The tag name of a preserveOrder node ('#text' for text). */
export function tagOf(node: XmlNode): string {
  for (const key of Object.keys(node)) if (key !== ':@') return key;
  return '';
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  const value = node[tag];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

export function attrsOf(node: XmlNode): Record<string, string> {
  return (node[':@'] as Record<string, string> | undefined) ?? {};
}

/** Concatenated, entity-decoded text of a node and its descendants (no whitespace normalization). */
export function textOf(node: XmlNode): string {
  const tag = tagOf(node);
  if (tag === '#text') return decodeEntities(String(node['#text'] ?? ''));
  let out = '';
  for (const child of childrenOf(node)) out += textOf(child);
  return out;
}

/** The first child element with this tag (case-sensitive). */
export function child(node: XmlNode, tag: string): XmlNode | undefined {
  return childrenOf(node).find((c) => tagOf(c) === tag);
}

/** Whitespace-collapsed text of the first child with this tag, or null when absent or empty. */
export function childText(node: XmlNode, tag: string): string | null {
  const c = child(node, tag);
  if (!c) return null;
  const t = collapse(textOf(c));
  return t === '' ? null : t;
}

export function collapse(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/gu, ' ').trim();
}

/** Events of a SAX-like walk: what the text renderer consumes, whether the source was XML or tolerant HTML. */
export type MarkupEvent =
  | { type: 'open'; tag: string; attrs: Record<string, string>; selfClosing: boolean }
  | { type: 'close'; tag: string }
  | { type: 'text'; text: string };

/** Walks a preserveOrder subtree as open / text / close events (tags lower-cased). */
export function* xmlEvents(nodes: XmlNode[]): Generator<MarkupEvent> {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === '#text') {
      yield { type: 'text', text: decodeEntities(String(node['#text'] ?? '')) };
      continue;
    }
    const kids = childrenOf(node);
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(attrsOf(node))) attrs[k.toLowerCase()] = decodeEntities(String(v));
    yield { type: 'open', tag: tag.toLowerCase(), attrs, selfClosing: kids.length === 0 };
    yield* xmlEvents(kids);
    yield { type: 'close', tag: tag.toLowerCase() };
  }
}

const HTML_TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<![^>]*>|<\?[^>]*>|<\/\s*([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s=>\/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+)|</gu;
const HTML_ATTR = /([^\s=>\/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/gu;

/**
 * Tolerant HTML tokenizer (court websites and Open Legal Data content are not well-formed XML): yields the same
 * events as xmlEvents. Unclosed tags are fine; script and style bodies are dropped.
 */
export function* htmlEvents(html: string): Generator<MarkupEvent> {
  let skipUntil: string | null = null;
  for (const m of html.matchAll(HTML_TOKEN)) {
    const [whole, cdata, closeTag, openTag, attrText, selfClose, text] = m;
    if (closeTag !== undefined) {
      const tag = closeTag.toLowerCase();
      if (skipUntil) {
        if (tag === skipUntil) skipUntil = null;
        continue;
      }
      yield { type: 'close', tag };
    } else if (openTag !== undefined) {
      if (skipUntil) continue;
      const tag = openTag.toLowerCase();
      const attrs: Record<string, string> = {};
      for (const a of (attrText ?? '').matchAll(HTML_ATTR)) attrs[a[1].toLowerCase()] = decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
      if (tag === 'script' || tag === 'style' || tag === 'head') {
        if (selfClose !== '/') skipUntil = tag;
        continue;
      }
      yield { type: 'open', tag, attrs, selfClosing: selfClose === '/' || VOID_TAGS.has(tag) };
      if (selfClose === '/' || VOID_TAGS.has(tag)) yield { type: 'close', tag };
    } else if (cdata !== undefined) {
      if (!skipUntil) yield { type: 'text', text: cdata };
    } else if (text !== undefined) {
      if (!skipUntil) yield { type: 'text', text: decodeEntities(text) };
    } else if (whole === '<') {
      if (!skipUntil) yield { type: 'text', text: '<' };
    }
  }
}

const VOID_TAGS = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'area', 'base', 'col', 'wbr', 'rd']);
