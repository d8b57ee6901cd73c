// The tables of contents of the official sources, read strictly: a shape juralite does not know is refused whole,
// naming the first item that does not fit, before anything is fetched or imported (docs/sync.md, "Format changes").
import { childrenOf, childText, parseXml, tagOf, type XmlNode } from '../ingest/xml.ts';
import { parseDate } from '../ingest/decision-record.ts';

/** One item of a table of contents: what to fetch, and what the table says of it. */
export interface TocItem {
  /** The link as the official table gives it (the manifest's key; a mirror serves the same path). */
  link: string;
  /** What names the item in messages and for --only: a law's folder (`gg`), a decision's court (`BGH 1. Zivilsenat`). */
  label: string;
  /** rii: the court as listed, the decision's date (YYYY-MM-DD), its Aktenzeichen, and the `modified` stamp. */
  court?: string;
  date?: string | null;
  aktenzeichen?: string;
  modified?: string;
}

/** A table of contents that is not of the documented shape. */
export class TocFormatError extends Error {}

function itemsOf(xml: string, what: string): XmlNode[] {
  let nodes: XmlNode[];
  try {
    nodes = parseXml(xml);
  } catch (error) {
    throw new TocFormatError(`${what} is not readable XML (${error instanceof Error ? error.message : error}); nothing was imported`);
  }
  const root = nodes.find((node) => tagOf(node) !== '#text' && !tagOf(node).startsWith('?'));
  if (!root || tagOf(root) !== 'items') {
    throw new TocFormatError(`${what} has the root <${root ? tagOf(root) : 'none'}>, not <items>: its format has changed; nothing was imported`);
  }
  const items = childrenOf(root).filter((node) => tagOf(node) !== '#text');
  const stranger = items.findIndex((node) => tagOf(node) !== 'item');
  if (stranger >= 0) throw new TocFormatError(`${what} holds a <${tagOf(items[stranger])}> at position ${stranger + 1} where <item>s are expected; nothing was imported`);
  if (items.length === 0) throw new TocFormatError(`${what} lists no <item>; nothing was imported`);
  return items;
}

function refuse(what: string, index: number, item: string, problem: string): never {
  throw new TocFormatError(`${what} item ${index + 1} (${item}): ${problem}; has its format changed? Nothing was imported`);
}

/**
 * gesetze-im-internet.de's gii-toc.xml: `<items><item><title/><link>…/<abbr>/xml.zip</link></item>…</items>`.
 *
 * @example readGiiToc(xml)[0] // { link: 'http://www.gesetze-im-internet.de/gg/xml.zip', label: 'gg' }
 */
export function readGiiToc(xml: string): TocItem[] {
  const what = 'gii-toc.xml';
  return itemsOf(xml, what).map((node, index) => {
    const title = childText(node, 'title') ?? '';
    const link = childText(node, 'link');
    if (!link) refuse(what, index, title || 'untitled', 'no <link>');
    const folder = /^https?:\/\/[^/]+\/(?:.*\/)?([^/]+)\/xml\.zip$/iu.exec(link);
    if (!folder) refuse(what, index, title || link, `the link ${link} is not …/<law>/xml.zip`);
    return { link, label: folder[1] };
  });
}

/**
 * rechtsprechung-im-internet.de's rii-toc.xml: `<item>` with gericht, entsch-datum (YYYYMMDD), aktenzeichen, link
 * (a jb-<doknr>.zip) and modified (UTC).
 */
export function readRiiToc(xml: string): TocItem[] {
  const what = 'rii-toc.xml';
  return itemsOf(xml, what).map((node, index) => {
    const court = childText(node, 'gericht');
    const aktenzeichen = childText(node, 'aktenzeichen') ?? '';
    const name = [court, aktenzeichen].filter(Boolean).join(', ') || 'unnamed';
    const link = childText(node, 'link');
    const modified = childText(node, 'modified');
    if (!court) refuse(what, index, name, 'no <gericht>');
    if (!link) refuse(what, index, name, 'no <link>');
    if (!/^https?:\/\/[^/]+\/.*\.zip$/iu.test(link)) refuse(what, index, name, `the link ${link} is no zip`);
    if (!modified || Number.isNaN(Date.parse(modified))) refuse(what, index, name, `no readable <modified> stamp (${modified ?? 'none'})`);
    return { link, label: court, court, date: parseDate(childText(node, 'entsch-datum')), aktenzeichen, modified: new Date(modified).toISOString() };
  });
}
