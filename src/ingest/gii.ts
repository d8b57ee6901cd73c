// gesetze-im-internet.de law XML (gii-norm.dtd, with or without DOCTYPE): one <dokumente> per law, one <norm> per
// structural heading (gliederungseinheit) or unit (§, Art., Anlage).
import { citedAbbreviation } from '../corpus/law-aliases.ts';
import type { LawRecord, LawUnitRecord } from '../corpus/law-store.ts';
import {
  attrsOf, child, childText, childrenOf, collapse, decodeEntities, parseXml, tagOf, type XmlNode,
} from './xml.ts';

/** True when an XML text looks like a GII law. */
export function looksLikeGii(head: string): boolean {
  return /<dokumente[\s>]/u.test(head) || /gii-norm\.dtd/u.test(head);
}

interface UnitRef { kind: string; number: string }

const REPEALED = /^\(?\s*weggefallen\s*\)?\.?$/iu;

/**
 * Units named by an enbez: '§ 823' -> one, '(XXXX) §§ 3 bis 6' -> four (a placeholder for repealed §§ 3 to 6),
 * 'Art 229' with a '§ 5' inside -> 'Art. 229 § 5'; table-of-contents and formula norms -> none.
 */
export function unitsOfEnbez(enbez: string, articleContext?: string): { units: UnitRef[]; placeholder: boolean } {
  const e = collapse(enbez);
  const placeholder = /^\(X+\)/u.test(e);
  const body = e.replace(/^\(X+\)\s*/u, '');
  let m: RegExpExecArray | null;
  if ((m = /^§\s*(\d+[a-z]*)$/iu.exec(body))) {
    if (articleContext) return { units: [{ kind: 'Art.', number: `${articleContext} § ${m[1]}` }], placeholder };
    return { units: [{ kind: '§', number: m[1] }], placeholder };
  }
  if ((m = /^Art(?:ikel|\.)?\s*(\d+[a-z]*)$/iu.exec(body))) return { units: [{ kind: 'Art.', number: m[1] }], placeholder };
  if ((m = /^(§§|Art(?:ikel|\.)?|Artt\.?)\s*(\d+[a-z]*)\s*(bis|und|u\.|,)\s*(\d+[a-z]*)$/iu.exec(body))) {
    const kind = m[1].startsWith('§') ? '§' : 'Art.';
    const numbers = m[3] === 'bis' ? expandRange(m[2], m[4]) : [m[2], m[4]];
    return { units: numbers.map((number) => ({ kind, number })), placeholder };
  }
  if ((m = /^Anlage\b\s*(.*)$/iu.exec(body))) return { units: [{ kind: 'Anlage', number: m[1].trim() }], placeholder };
  if (/^Präambel$/iu.test(body)) return { units: [{ kind: 'Präambel', number: '' }], placeholder };
  return { units: [], placeholder };
}

/** '3' bis '6' -> 3, 4, 5, 6; '10a' bis '10c' -> 10a, 10b, 10c; anything else: the two ends. */
function expandRange(from: string, to: string): string[] {
  const a = /^(\d+)([a-z]?)$/u.exec(from);
  const b = /^(\d+)([a-z]?)$/u.exec(to);
  if (a && b && a[2] === '' && b[2] === '') {
    const [x, y] = [Number(a[1]), Number(b[1])];
    if (y >= x && y - x <= 500) return Array.from({ length: y - x + 1 }, (_, i) => String(x + i));
  }
  if (a && b && a[1] === b[1] && a[2] !== '' && b[2] !== '' && b[2] >= a[2]) {
    const out: string[] = [];
    for (let c = a[2].charCodeAt(0); c <= b[2].charCodeAt(0); c++) out.push(`${a[1]}${String.fromCharCode(c)}`);
    return out;
  }
  if (a && b && a[1] === b[1] && a[2] === '' && b[2] !== '') {
    const out = [a[1]];
    for (let c = 'a'.charCodeAt(0); c <= b[2].charCodeAt(0); c++) out.push(`${a[1]}${String.fromCharCode(c)}`);
    return out;
  }
  return [from, to];
}

// Elements whose boundaries separate words (list items, table cells) inside one Absatz.
const SPACED = new Set(['DT', 'DD', 'LA', 'entry', 'row', 'BR', 'br', 'Title', 'Subtitle', 'Ident', 'TOC', 'table', 'tgroup', 'tbody', 'thead', 'pre', 'P', 'Citation', 'SP']);
// Elements that carry no statute text.
const SKIP = new Set(['FnR', 'FnArea', 'Footnotes', 'Footnote', 'IMG', 'img', 'noindex_placeholder']);

function inlineText(node: XmlNode): string {
  const tag = tagOf(node);
  if (tag === '#text') return decodeEntities(String(node['#text'] ?? ''));
  if (SKIP.has(tag)) return '';
  let out = '';
  for (const c of childrenOf(node)) out += inlineText(c);
  return SPACED.has(tag) ? ` ${out} ` : out;
}

/** The Absätze of a norm's <Content>: one line per <P> (lists and tables inside stay on their Absatz's line). */
function contentLines(content: XmlNode): string[] {
  const lines: string[] = [];
  let loose = '';
  const flushLoose = () => {
    const t = collapse(loose);
    if (t) lines.push(t);
    loose = '';
  };
  for (const c of childrenOf(content)) {
    const tag = tagOf(c);
    if (tag === 'P' || tag === 'table' || tag === 'DL' || tag === 'pre') {
      flushLoose();
      const t = collapse(inlineText(c));
      if (t) lines.push(t);
    } else {
      loose += inlineText(c);
    }
  }
  flushLoose();
  return lines;
}

function lawType(title: string | null, jurabk: string): string {
  const t = (title ?? '').toLowerCase();
  if (t.startsWith('bekanntmachung')) return 'Bekanntmachung';
  if (t.includes('verordnung') || /V(?:O)?(?: \d{4})?$/u.test(jurabk)) return 'Verordnung';
  if (t.startsWith('anordnung') || t.startsWith('allgemeine anordnung')) return 'Anordnung';
  if (t.startsWith('erlass') || t.includes('organisationserlass')) return 'Erlass';
  if (t.startsWith('satzung')) return 'Satzung';
  if (t.startsWith('geschäftsordnung')) return 'Geschäftsordnung';
  return 'Gesetz';
}

/**
 * Parses one GII law XML into a law record with its units. Throws with a reason when it is not a GII law.
 * The cited abbreviation comes from the alias registry (jurabk 'SGB 5' -> 'SGB V').
 */
export function parseGiiXml(xml: string, sourceName: string): LawRecord {
  const root = parseXml(xml).find((n) => tagOf(n) === 'dokumente');
  if (!root) throw new Error('not a gesetze-im-internet.de law (no <dokumente> root)');
  const norms = childrenOf(root).filter((n) => tagOf(n) === 'norm');
  if (norms.length === 0) throw new Error('GII law without <norm> elements');
  const bjnr = attrsOf(root).doknr ?? (attrsOf(norms[0]).doknr ?? '').slice(0, 13);

  let jurabk: string | null = null;
  let amtabk: string | null = null;
  let title: string | null = null;
  let stand: string | null = null;
  const units: LawUnitRecord[] = [];
  const crumbs: string[] = [];

  for (const norm of norms) {
    const meta = child(norm, 'metadaten');
    if (!meta) continue;
    jurabk ??= childText(meta, 'jurabk');
    amtabk ??= childText(meta, 'amtabk');
    title ??= childText(meta, 'langue') ?? childText(meta, 'kurzue');
    if (stand === null) {
      for (const s of childrenOf(meta).filter((n) => tagOf(n) === 'standangabe')) {
        const typ = childText(s, 'standtyp');
        const kommentar = childText(s, 'standkommentar');
        if (typ === 'Stand' && kommentar) stand = kommentar.replace(/;$/u, '');
      }
    }

    const enbez = childText(meta, 'enbez');
    const gliederung = child(meta, 'gliederungseinheit');
    let articleContext: string | undefined;
    if (gliederung) {
      const kennzahl = childText(gliederung, 'gliederungskennzahl') ?? '';
      const bez = childText(gliederung, 'gliederungsbez') ?? '';
      const titel = childText(gliederung, 'gliederungstitel');
      const level = Math.max(1, Math.ceil(kennzahl.length / 3));
      const label = collapse([bez, titel].filter(Boolean).join(' '));
      if (!enbez || !crumbs[level - 1]?.startsWith(bez)) {
        crumbs.length = level - 1;
        crumbs[level - 1] = label;
      }
      const art = /^Art(?:ikel|\.)?\s*(\d+[a-z]*)$/iu.exec(bez);
      if (enbez && art) articleContext = art[1];
    }
    if (!enbez) continue;

    const { units: refs, placeholder } = unitsOfEnbez(enbez, articleContext);
    if (refs.length === 0) continue;
    const heading = childText(meta, 'titel');
    const textEl = child(child(norm, 'textdaten') ?? {}, 'text');
    const content = textEl ? child(textEl, 'Content') : undefined;
    let lines = content ? contentLines(content) : [];
    if (lines.length === 1 && /^-$/u.test(lines[0])) lines = [];
    const repealed = placeholder || (heading !== null && REPEALED.test(heading)) || (lines.length === 1 && REPEALED.test(lines[0]))
      || (lines.length === 0 && heading !== null && /weggefallen/iu.test(heading));
    if (repealed && lines.length === 0) lines = ['(weggefallen)'];
    const text = lines.length ? lines.join('\n') : null;
    const numbered = lines.filter((l) => /^\(\d+[a-z]?\)/u.test(l)).length;
    const absatzCount = repealed ? 0 : numbered > 0 ? numbered : text ? 1 : 0;
    const breadcrumb = crumbs.filter(Boolean).join(' > ') || null;
    for (const ref of refs) {
      units.push({
        kind: ref.kind,
        number: ref.number,
        heading,
        text,
        absatz_count: absatzCount,
        breadcrumb,
        repealed,
      });
    }
  }
  if (!jurabk) throw new Error('GII law without jurabk');
  return {
    abbreviation: citedAbbreviation(jurabk, amtabk),
    gii_jurabk: jurabk,
    amtabk,
    title,
    law_type: lawType(title, jurabk),
    jurisdiction: 'DE',
    stand: stand ?? (attrsOf(root).builddate ? `Stand der Quelle: ${attrsOf(root).builddate.slice(0, 8)}` : null),
    source_id: bjnr || null,
    text_available: true,
    source_format: 'gii-xml',
    source_name: sourceName,
    units,
  };
}
