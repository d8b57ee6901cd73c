// rechtsprechung-im-internet.de decision XML (rii-dok.dtd): metadata, all Aktenzeichen, the sections, and the
// printed Randnummern (<a name="rd_N"> in the RspDL lists).
import { renderBlocks, type SectionBlocks } from './blocks.ts';
import { parseDate, splitFileNumbers, type DecisionRecord } from './decision-record.ts';
import { child, childText, childrenOf, collapse, parseXml, tagOf, textOf, xmlEvents, type XmlNode } from './xml.ts';

/** The rii section elements in document order, with the names juralite gives them. */
const SECTIONS: [string, string][] = [
  ['leitsatz', 'Leitsatz'],
  ['sonstosatz', 'Orientierungssatz'],
  ['tenor', 'Tenor'],
  ['tatbestand', 'Tatbestand'],
  ['entscheidungsgruende', 'Entscheidungsgründe'],
  ['gruende', 'Gründe'],
  ['abwmeinung', 'Abweichende Meinung'],
  ['sonstlt', 'Sonstiger Langtext'],
];

/** True when an XML text looks like a rii decision (root <dokument> with rii fields). */
export function looksLikeRii(head: string): boolean {
  return /<dokument[\s>]/u.test(head) && (/rii-dok/u.test(head) || /<(?:doknr|gertyp|entsch-datum|aktenzeichen)>/u.test(head));
}

/** Parses one rii decision XML. Throws with a reason when the document is not one or is unusable. */
export function parseRiiXml(xml: string, sourceName: string): DecisionRecord {
  const root = parseXml(xml).find((n) => tagOf(n) === 'dokument');
  if (!root) throw new Error('not a rechtsprechung-im-internet.de document (no <dokument> root)');
  const doknr = childText(root, 'doknr');
  const fileNumbers = splitFileNumbers(childText(root, 'aktenzeichen'));
  if (!doknr && fileNumbers.length === 0) throw new Error('rii document without doknr and Aktenzeichen');
  const gertyp = childText(root, 'gertyp') ?? '';
  const gerort = childText(root, 'gerort') ?? '';
  const rawDate = childText(root, 'entsch-datum');
  const date = parseDate(rawDate);
  if (rawDate && !date) throw new Error(`invalid entsch-datum ${rawDate}`);

  const sections: SectionBlocks[] = [];
  for (const [tag, name] of SECTIONS) {
    const el = child(root, tag);
    if (!el || childrenOf(el).length === 0) continue;
    for (const s of renderBlocks(xmlEvents([el]), { defaultSection: name })) sections.push({ ...s, name });
  }

  const titel = child(root, 'titelzeile');
  return {
    doknr,
    ecli: childText(root, 'ecli'),
    courtRaw: collapse(`${gertyp} ${gerort}`),
    chamber: childText(root, 'spruchkoerper'),
    date,
    documentType: childText(root, 'doktyp'),
    title: titel ? collapse(textOf(titel)) || null : null,
    fileNumbers,
    norms: childText(root, 'norm'),
    sections: mergeSameName(sections),
    sourceFormat: 'rii-xml',
    sourceName,
  };
}

function mergeSameName(sections: SectionBlocks[]): SectionBlocks[] {
  const out: SectionBlocks[] = [];
  for (const s of sections) {
    const last = out[out.length - 1];
    if (last && last.name === s.name) last.blocks.push(...s.blocks);
    else out.push({ name: s.name, blocks: [...s.blocks] });
  }
  return out;
}

export type { XmlNode };
