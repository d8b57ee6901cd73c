// The statute scanner: finds § and Art. citations in running German text and parses each chain into one citation per
// cited provision ('§§ 280 Abs. 1, 281 Abs. 1 Satz 1 BGB' -> two), with subdivisions, the law (abbreviation, long
// name, SGB book, EU act, or the law written first: 'HGB § 74'), a.F./n.F., and the counters of what it dropped.
import { registryAbbreviation } from '../corpus/law-aliases.ts';
import { EU_CATALOGUE } from '../corpus/eu-catalogue.ts';
import { alternation, at, JOURNALS, OFFICIAL_REPORTERS } from './lexicon.ts';
import type { StatuteCitation, Subdivision } from './types.ts';
import { romanToNumber } from '../text/roman.ts';

/** The cited abbreviation of a law by its name, from beyond the registry (the corpus's laws: law-names.ts). */
export type LawNameLookup = (name: string) => string | undefined;

/** Why a § or Art. that the scanner saw gave no citation; counted in the run's `extraction` object. */
export interface StatuteDrops {
  unreadable: string[];          // '§ ' with no number the scanner could read
  truncation: number;            // the text ends inside the citation
  trailingNoun: string[];        // '§ 3 des Gesetzes': the law is a generic noun
  contractCollision: string[];   // '§ 7 Nr. 2 des Mietvertrags': a contract clause, not a statute
  stacked: number;               // further subdivision paths of one provision
  withoutLaw: string[];          // no law written and none before it in the paragraph
}

function emptyDrops(): StatuteDrops {
  return { unreadable: [], truncation: 0, trailingNoun: [], contractCollision: [], stacked: 0, withoutLaw: [] };
}

// Whitespace inside a citation: spaces and at most one line break (a blank line ends it).
const S = String.raw`[ \t\u00a0\u2009\u202f]*(?:\r?\n[ \t\u00a0]*)?`;
// The same, but at least one white-space character: between words, where an empty gap would let a pattern split one
// long word at every letter and backtrack in polynomial time ('§ 1 AaAaAa…' took seconds).
const GAP = String.raw`(?=[ \t\u00a0\u2009\u202f\r\n])${S}`;
const sticky = (source: string) => new RegExp(S + source, 'uy');

const ANCHOR = /§§?|\b(?:Artt?\.|Artikel|Art(?=[ \u00a0]?\d))/gu;
const UNIT_NUMBER = sticky(String.raw`(\d{1,4})(?!\d)(?:(?!ff?\.)([a-z]{1,2})(?!\p{L})|[ \u00a0]([a-eg-z])(?![\p{L}.\d]))?`);
// 'Art. 229 § 5 EGBGB': a § inside an article (introductory and omnibus acts) belongs to the unit's number;
// 'Art. 229 §§ 5, 6 EGBGB': so do the further numbers of a §§.
const ARTICLE_SECTION = sticky(String.raw`(§§?)${S}(\d{1,4}[a-z]{0,2})(?![\p{L}\d])`);
const ROMAN_SIBLING = sticky(String.raw`(?:,|und|oder|sowie|bzw\.)`);
// 'I 2 f': Absatz in Roman, then Satz and a letter (litera), each unlabelled ('Art. 6 I f DSGVO'; 'f.' is 'following').
const ROMAN_ABSATZ = sticky(String.raw`([IVX]{1,4})(?![\p{L}\d.-])(?:[ \u00a0](\d{1,2})(?![\d/.,]\d|\p{L}))?(?:[ \u00a0]([a-z])(?![\p{L}\d.]))?`);
const LABELS: [Subdivision['label'], string][] = [
  ['UAbs.', String.raw`U[Aa]bs\.?|Unterabs\.|Unterabsatz`],
  ['Abs.', String.raw`Abs\.?|Absatz|Absätze|Abss\.`],
  ['Halbsatz', String.raw`Halbs\.?|Halbsatz|Hs\.?|HS\.?|Hbs\.|Eingangshalbs\.|Eingangshalbsatz`],
  ['Teilsatz', String.raw`Teils\.|Teilsatz|Teils(?=[ \u00a0]?\d)`],
  ['Fall', String.raw`Fall|Fallgr\.|Fallgruppe`],
  ['Satz', String.raw`Satz|Sätze|S\.|S(?=[ \u00a0]?\d)`],
  ['Nr.', String.raw`Nrn?\.?|Nummern?`],
  ['Ziff.', String.raw`Ziff\.?|Ziffer`],
  ['Doppelbuchst.', String.raw`Doppelbuchst\.|Doppelbuchstabe`],
  ['lit.', String.raw`lit\.?|Buchst\.?|Buchstaben?|Bst\.`],
  ['Alt.', String.raw`Alt\.?|Alternative|Altern\.`],
  ['Var.', String.raw`Var\.?|Variante`],
];
const SUBDIVISION = sticky(String.raw`(${LABELS.map(([, s]) => `(?:${s})`).join('|')})(?!\p{L})${S}(\d{1,4}[a-z]{0,2}|[a-z]{1,2}\)?|[IVX]{1,4})(?![\p{L}\d])`);
const ORDINAL_WORDS = ['erste', 'zweite', 'dritte', 'vierte', 'fünfte', 'sechste'];
const ORDINAL_SUBDIVISION = sticky(String.raw`(\d{1,2}\.|(?:${ORDINAL_WORDS.join('|')})[nrs]?)${S}(Halbsatz|Halbs\.|Hs\.|HS|Alt\.|Alternative|Var\.|Variante|Satz|Absatz|Abs\.|Fall)(?!\p{L})`);
const VALUE_LIST = sticky(String.raw`(?:,|und|oder|bzw\.|sowie|bis|[-–])${S}(\d{1,4}[a-z]{0,2}|[a-z]\)?)(?![\p{L}\d]|\.\d|\.${S}(?:Halbs|Hs|HS|Alt|Var|Satz|Abs)|${S}(?:[a-z]{3}|DM|EUR|Euro|€|%|Prozent|Tage|Monate|Jahre|Wochen))`);
const FOLLOWING = sticky(String.raw`(?:ff?\.|ff(?!\p{L}))`);
const RANGE = sticky(String.raw`(?:bis|[-–])${S}(?:§§?${S})?\d{1,4}[a-z]{0,2}(?![\p{L}\d])`);
const SEPARATOR = sticky(String.raw`(,|;|und|oder|sowie|bzw\.|i\.${S}V\.${S}m\.?|iVm\.?|i\.V\.m|in${S}Verbindung${S}mit|in${S}Verb\.${S}mit|i\.${S}S\.${S}[dv]\.|im${S}Sinne${S}(?:des|der|von))(?!\p{L})`);
const PATH_JOINT = sticky(String.raw`(?:,|und|oder|sowie|bzw\.|i\.${S}V\.${S}m\.?|iVm\.?)`);
const NEXT_ANCHOR = sticky(String.raw`(§§?|Artt?\.|Artikel|Art(?=[ \u00a0]?\d))`);
const VERSION = sticky(String.raw`\(?(a\.${S}F\.|aF\.?|n\.${S}F\.|nF\.?|alter${S}Fassung|neuer${S}Fassung|a\.F|n\.F)\)?(?![\p{L}])`);
const VERSION_DATE = sticky(String.raw`in${S}der${S}(?:bis${S}(?:zum|einschließlich)|ab${S}(?:dem)?|vom|am)?${S}(\d{1,2}\.${S}\d{1,2}\.${S}\d{2,4}|\d{1,2}\.${S}\p{L}+${S}\d{4})${S}geltenden${S}Fassung`);

const CONTRACT = sticky(String.raw`(?:des|der|dieses|jenes|seines|ihres|eines|einer|im|in${S}der)${S}(?:\p{L}+(?:en|er|es)${GAP})?(\p{L}*(?:[Vv]ertrag(?:e?s)?|[Ss]atzung|[Vv]ereinbarung|[Bb]edingungen|AGB|[Gg]eschäftsordnung|[Vv]ertragsbedingungen|[Pp]olice|[Ll]eistungsverzeichnis))(?!\p{L})`);
const GENERIC_NOUN = sticky(String.raw`(?:des|dieses|jenes|der|dieser)${S}(Gesetzes|Gesetzbuchs|Gesetzbuches|Abkommens|Übereinkommens|Verordnung|Richtlinie|Ordnung|Vorschrift|Bestimmung|Regelung|Norm)(?![\p{L}(])(?!${S}\()`);
// 'des Gesetzes über die Rechtsverhältnisse der Steuerberater ... (StBerG)': a title closed by its abbreviation.
const TITLED_LAW = sticky(String.raw`${S}(?:über|zur|zum|für|betreffend|vom)[^()§;.]{1,200}?\(([A-ZÄÖÜ][\p{L}-]*[A-ZÄÖÜ][\p{L}]*)\)`);
// 'des Gesetzes über Gebühren für die Fortführung des Liegenschaftskatasters': the title is the law's name.
const LAW_TITLE = sticky(String.raw`${S}((?:über|zur|zum|betreffend)${S}[^,;()§.\n]{3,120}?)(?=${S}(?:[,;()]|vom|in${S}der|i\.${S}d\.${S}F\.|$))`);
const EU_ACT = sticky(String.raw`(?:der${S}|des${S})?((?:Verordnung|VO)${S}\((?:EU|EG|EWG|Euratom)\)${S}(?:Nr\.${S})?\d{1,4}/\d{1,4}|(?:\p{Lu}\p{Ll}+en${S})?(?:Richtlinie|RL)${S}(?:\((?:EU|EG|EWG)\)${S})?(?:Nr\.${S})?\d{2,4}/\d{1,4}(?:/(?:EG|EU|EWG))?)`);
const NAME_HEAD = String.raw`(?:\p{Lu}\p{Ll}[\p{L}-]*${GAP}){0,3}\p{Lu}?[\p{L}-]*(?:[Gg]esetz(?:buch)?|[Oo]rdnung|[Vv]ertrag|[Üü]bereinkommen|[Aa]bkommen|[Kk]onvention|[Cc]harta|[Ss]tatut|[Vv]erordnung)(?:e?s|e|n)?(?!\p{L})`;
const LONG_NAME = sticky(String.raw`(?:(?:des|der|dem|den)${S})?(${NAME_HEAD})`);
const NAME_TAIL_WORD = sticky(String.raw`(\p{L}+|\(\p{L}+\))`);
const SGB = sticky(String.raw`(SGB)[ \u00a0-]?(XIV|XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I|\d{1,2})(?![\p{L}\d])`);
const SPACED_ABBREVIATIONS = sticky(`(?:(?:der|des)${S})?(${alternation(EU_CATALOGUE.flatMap((a) => [a.abbreviation, ...a.aliases]).filter((a) => /\s/u.test(a)))})(?![\\p{L}\\d])`);
const ABBREVIATION = sticky(String.raw`(?:(?:des|der)${S}(?=[A-ZÄÖÜ][\p{L}]*[A-ZÄÖÜ]))?((?:\d{1,2}\.${S})?[A-ZÄÖÜ][\p{L}&]*(?:[-/][\p{L}\d]+)*)(?![\p{L}\d])`);
const STATE_SUFFIX = sticky(String.raw`(NRW|NW|BW|Bln|BE|BY|Bay|RP|RhPf|SH|MV|LSA|SachsAnh|SN|TH|Thür|HE|Hess|NI|Nds|HB|Brem|HH|Hmb|SL|Saar|BB|Bbg|M-V)(?![\p{L}\d])`);
const LAW_YEAR = sticky(String.raw`((?:19|20)\d\d)(?![\d/.]|${S},${S}\d)`);
const LAW_BEFORE = /((?:SGB[ \u00a0](?:XIV|XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I|\d{1,2}))|[A-ZÄÖÜ][\p{L}]*[A-ZÄÖÜ][\p{L}]*)(?:[ \u00a0](?:19|20)\d\d)?[ \u00a0]?$/u;

/** Words that look like abbreviations but never name a law after a §. */
const NOT_LAWS = new Set([
  'Abs', 'Satz', 'Nr', 'Nrn', 'Rn', 'Rdnr', 'RdNr', 'Rz', 'Tz', 'Anm', 'Fn', 'Vorbem', 'Alt', 'Var', 'Hs', 'HS', 'UAbs', 'EUR', 'DM',
  'GmbH', 'KG', 'OHG', 'AG', 'BGH', 'BVerfG', 'BVerwG', 'BAG', 'BSG', 'BFH', 'BPatG', 'EuGH', 'EGMR', 'OLG', 'LG', 'VG', 'OVG', 'VGH',
  'LSG', 'LAG', 'ArbG', 'FG', 'ECLI', 'Az', 'BT-Drucks', 'BT-Drs', 'BR-Drs', 'BR-Drucks', 'BGBl', 'ABl', 'BStBl', 'II', 'III',
  'IV', 'VI', 'VII', 'VIII', 'IX', 'XI', 'XII', 'NJW', 'Bd', 'Aufl', 'StRspr', 'StRsp', 'Urt', 'Beschl', 'BVerfGE', 'BGHZ', 'BGHSt',
  ...JOURNALS, ...Object.keys(OFFICIAL_REPORTERS),
]);
const NOT_LAWS_FOLDED = new Set([...NOT_LAWS].map((w) => w.toLowerCase()));

const LABEL_MATCHERS = LABELS.map(([label, source]) => [label, new RegExp(`^(?:${source.replace(/\(\?=[^)]*\)/gu, '')})$`, 'u')] as const);
function labelOf(written: string): Subdivision['label'] {
  for (const [label, re] of LABEL_MATCHERS) if (re.test(written)) return label;
  return 'Abs.';
}
/** Depth of a subdivision: a sibling value may only be followed by deeper ones. */
const LEVEL: Record<Subdivision['label'], number> = {
  'Abs.': 1, 'UAbs.': 2, Satz: 3, Halbsatz: 4, Teilsatz: 4, 'Nr.': 5, 'Ziff.': 5, 'lit.': 6, 'Doppelbuchst.': 7, 'Alt.': 8, 'Var.': 8, Fall: 8,
};
const ORDINAL_LABEL: Record<string, Subdivision['label']> = {
  Halbsatz: 'Halbsatz', 'Halbs.': 'Halbsatz', 'Hs.': 'Halbsatz', HS: 'Halbsatz', 'Alt.': 'Alt.', Alternative: 'Alt.',
  'Var.': 'Var.', Variante: 'Var.', Satz: 'Satz', Absatz: 'Abs.', 'Abs.': 'Abs.', Fall: 'Fall',
};
/** One provision of a chain while its law is still open. */
type Item = Pick<StatuteCitation, 'start' | 'end' | 'kind' | 'number' | 'subdivisions' | 'stacked'>;

interface ParsedLaw {
  end: number;
  law: string | null;
  lawText: string | null;
  /** Set when the words after the provision are a contract or a generic noun: the chain gives no citation. */
  refused?: 'contract' | 'noun';
}

/**
 * One path of subdivisions being read. A further path of the same provision (', Abs. 2 Satz 1') or a sibling that
 * goes deeper ('Abs. 1 und 3 Nr. 1') is read as a path of its own whose subdivisions are not kept.
 */
interface PathFrame {
  subdivisions: Subdivision[];
  stacked: number;
  /** Set while the path reads siblings of its last subdivision ('Abs. 1 und 2'). */
  siblingsOf: Subdivision['label'] | null;
  /** A further path after a joint (', Abs. 2'): its own stacked paths count for the provision; a sibling's do not. */
  joint: boolean;
}

const newPath = (joint: boolean): PathFrame => ({ subdivisions: [], stacked: 0, siblingsOf: null, joint });

/**
 * Parses subdivisions after a unit number: 'Abs. 1 Satz 2 Nr. 3', 'I 2', 'Abs. 1 und 2' (stacked). Nested paths are
 * kept on an explicit stack, not the call stack: thousands of chained ',S1' once overflowed it.
 */
function parseSubdivisions(text: string, pos: number, item: Item, plural: boolean): number {
  let p = pos;
  const roman = at(ROMAN_ABSATZ, text, p);
  if (roman && !at(SGB, text, p - 4)) {
    item.subdivisions.push({ label: 'Abs.', value: String(romanToNumber(roman[1])) });
    if (roman[2]) item.subdivisions.push({ label: 'Satz', value: roman[2] });
    if (roman[3]) item.subdivisions.push({ label: 'lit.', value: roman[3] });
    p = ROMAN_ABSATZ.lastIndex;
    // '§§ 280 I, III, 281 I 1 BGB': further Absätze of the same provision, stacked.
    while (at(ROMAN_SIBLING, text, p) && at(ROMAN_ABSATZ, text, ROMAN_SIBLING.lastIndex)) {
      item.stacked++;
      p = ROMAN_ABSATZ.lastIndex;
    }
  }
  const suspended: PathFrame[] = [];
  let path: PathFrame = { subdivisions: item.subdivisions, stacked: 0, siblingsOf: null, joint: false };
  for (;;) {
    if (path.siblingsOf) {
      // 'Abs. 1 und 2', 'Nr. 1, 2 und 3': siblings of the last subdivision (stacked), unless a plural chain moves on.
      // A sibling may go deeper ('Abs. 1 und 3 Nr. 1', 'Satz 1 und 2 Nr. 1'); one followed by a label of the same or
      // a higher level ('§§ 3 Abs. 1, 5 Abs. 2') is the next provision.
      const label = path.siblingsOf;
      const list = at(VALUE_LIST, text, p);
      const after = VALUE_LIST.lastIndex;
      const deeper = list ? at(SUBDIVISION, text, after) : null;
      const sibling = list !== null && !(deeper && LEVEL[labelOf(deeper[1])] <= LEVEL[label])
        && !(!deeper && plural && !/^[a-z]/u.test(list[1]) && /^\s*,/u.test(text.slice(p, p + 3)));
      if (!sibling) {
        path.siblingsOf = null;
        continue;
      }
      path.stacked++;
      p = after;
      if (deeper) {
        suspended.push(path);
        path = newPath(false);
      }
      continue;
    }
    let m = at(SUBDIVISION, text, p);
    if (m) {
      const label = labelOf(m[1]);
      const value = label === 'Abs.' && /^[IVX]+$/u.test(m[2]) ? String(romanToNumber(m[2])) : m[2].replace(/\)$/u, '');
      path.subdivisions.push({ label, value });
      p = SUBDIVISION.lastIndex;
      path.siblingsOf = label;
      continue;
    }
    m = at(ORDINAL_SUBDIVISION, text, p);
    if (m) {
      const ordinal = /^\d/u.test(m[1]) ? m[1].slice(0, -1) : String(ORDINAL_WORDS.findIndex((w) => m![1].startsWith(w)) + 1);
      path.subdivisions.push({ label: ORDINAL_LABEL[m[2]] ?? 'Halbsatz', value: ordinal });
      p = ORDINAL_SUBDIVISION.lastIndex;
      continue;
    }
    if (at(FOLLOWING, text, p)) {
      p = FOLLOWING.lastIndex;
      continue;
    }
    // ', 1. Halbsatz' continues the same path; ', Abs. 2 Satz 1' stacks a second path onto the same provision.
    const joint = at(PATH_JOINT, text, p);
    if (joint) {
      const after = PATH_JOINT.lastIndex;
      if (at(ORDINAL_SUBDIVISION, text, after)) {
        p = after;
        continue;
      }
      if (at(SUBDIVISION, text, after)) {
        p = after;
        suspended.push(path);
        path = newPath(true);
        continue;
      }
    }
    // This path ends here: resume the one it was read from.
    const outer = suspended.pop();
    if (!outer) {
      item.stacked += path.stacked;
      return p;
    }
    if (path.joint) outer.stacked += 1 + path.stacked;
    path = outer;
  }
}

/** Tries every form of a law at `pos` (after the provision and its subdivisions). */
function parseLaw(text: string, pos: number, names: LawNameLookup | undefined): ParsedLaw | null {
  let m = at(EU_ACT, text, pos);
  if (m) {
    const written = m[1].replace(/\s+/gu, ' ');
    return { end: EU_ACT.lastIndex, law: registryAbbreviation(written) ?? written, lawText: written };
  }
  m = at(CONTRACT, text, pos);
  if (m && !registryAbbreviation(m[0].trim())) return { end: CONTRACT.lastIndex, law: null, lawText: m[1], refused: 'contract' };
  m = at(GENERIC_NOUN, text, pos);
  if (m) {
    // 'des Gesetzes gegen den unlauteren Wettbewerb': an official title the registry or the corpus knows.
    const official = knownTitle(text, m[1], GENERIC_NOUN.lastIndex, names);
    if (official) return official;
    const titled = at(TITLED_LAW, text, GENERIC_NOUN.lastIndex);
    if (titled) return { end: TITLED_LAW.lastIndex, law: registryAbbreviation(titled[1]) ?? titled[1], lawText: titled[1] };
    const title = /^Gesetz/u.test(m[1]) ? at(LAW_TITLE, text, GENERIC_NOUN.lastIndex) : null;
    if (title) {
      const name = `Gesetz ${title[1].replace(/\s+/gu, ' ')}`;
      return { end: LAW_TITLE.lastIndex, law: registryAbbreviation(name) ?? name, lawText: name };
    }
    return { end: GENERIC_NOUN.lastIndex, law: null, lawText: m[1], refused: 'noun' };
  }
  m = at(SGB, text, pos);
  if (m) {
    const written = `SGB ${m[2]}`;
    return { end: SGB.lastIndex, law: registryAbbreviation(written) ?? written, lawText: m[0].trim() };
  }
  m = at(SPACED_ABBREVIATIONS, text, pos);
  if (m) return { end: SPACED_ABBREVIATIONS.lastIndex, law: registryAbbreviation(m[1]) ?? m[1], lawText: m[1] };
  m = at(LONG_NAME, text, pos);
  if (m) return longName(text, m, LONG_NAME.lastIndex, names);
  m = at(ABBREVIATION, text, pos);
  if (m && isLawAbbreviation(m[1])) {
    let end = ABBREVIATION.lastIndex;
    let written = m[1];
    const state = at(STATE_SUFFIX, text, end);
    if (state) {
      written += ` ${state[1]}`;
      end = STATE_SUFFIX.lastIndex;
    }
    const year = at(LAW_YEAR, text, end);
    if (year) {
      written += ` ${year[1]}`;
      end = LAW_YEAR.lastIndex;
    }
    return { end, law: registryAbbreviation(written) ?? stripYear(written), lawText: written };
  }
  return null;
}

function stripYear(written: string): string {
  return written.replace(/ (?:19|20)\d\d$/u, '');
}

/** A long name ('des Bürgerlichen Gesetzbuchs'); extended by following words while the registry knows the longer name. */
function longName(text: string, m: RegExpExecArray, end: number, names: LawNameLookup | undefined): ParsedLaw {
  const written = m[1].replace(/\s+/gu, ' ');
  let best = { end, written, law: lawOfName(written, names) };
  let p = end;
  let extended = written;
  for (let words = 0; words < 8; words++) {
    const w = at(NAME_TAIL_WORD, text, p);
    if (!w) break;
    extended += ` ${w[1]}`;
    p = NAME_TAIL_WORD.lastIndex;
    const law = lawOfName(extended, names);
    if (law) best = { end: p, written: extended, law };
  }
  return { end: best.end, law: best.law ?? best.written, lawText: best.written };
}

/** The cited abbreviation of a law named in words: the registry's, else the corpus's (its laws' official titles). */
function lawOfName(name: string, names: LawNameLookup | undefined): string | undefined {
  return registryAbbreviation(name) ?? names?.(name);
}

/** How many words an official title may run to after its noun ('Gesetz über ... für das Jahr 2019'). */
const TITLE_WORDS = 16;
const TITLE_WORD = sticky(String.raw`(-?[\p{L}\d][\p{L}\d-]*)`);

/**
 * The longest official title a generic noun starts that the registry or the corpus knows: 'des Gesetzes gegen den
 * unlauteren Wettbewerb' (UWG), 'der Verordnung über die Vergabe öffentlicher Aufträge'. Null when none is known:
 * the noun alone names no law.
 */
function knownTitle(text: string, noun: string, end: number, names: LawNameLookup | undefined): ParsedLaw | null {
  let name = noun;
  let p = end;
  let best: ParsedLaw | null = null;
  for (let words = 0; words < TITLE_WORDS; words++) {
    const w = at(TITLE_WORD, text, p);
    if (!w) break;
    name += ` ${w[1]}`;
    p = TITLE_WORD.lastIndex;
    const law = lawOfName(name, names);
    if (law) best = { end: p, law, lawText: name };
  }
  return best;
}

function isLawAbbreviation(word: string): boolean {
  if (NOT_LAWS.has(word) || NOT_LAWS_FOLDED.has(word.toLowerCase())) return false;
  if (registryAbbreviation(word)) return true;
  const letters = word.replace(/^\d{1,2}\.\s*/u, '');
  const capitals = letters.match(/\p{Lu}/gu)?.length ?? 0;
  return capitals >= 2 && !/^[IVX]+$/u.test(letters);
}

/** Canonical form: '§ 823 Abs. 1 BGB', 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'. */
export function canonicalStatute(kind: string, number: string, subdivisions: readonly Subdivision[], law: string | null): string {
  const parts = [`${kind} ${number}`];
  for (const s of subdivisions) parts.push(`${s.label} ${s.value}`);
  if (law) parts.push(law);
  return parts.join(' ');
}

export interface StatuteScan {
  citations: StatuteCitation[];
  drops: StatuteDrops;
}

/**
 * Finds every statute citation in `text`. `skip` holds ranges already taken by decision citations
 * ('SozR 4-4200 § 22 Nr 88'), whose § is no statute citation.
 */
export function scanStatutes(text: string, skip: readonly { start: number; end: number }[] = [], names?: LawNameLookup): StatuteScan {
  const citations: StatuteCitation[] = [];
  const drops = emptyDrops();
  let lastEnd = 0;
  let skipIndex = 0;
  ANCHOR.lastIndex = 0;
  for (let anchor = ANCHOR.exec(text); anchor; anchor = ANCHOR.exec(text)) {
    const start = anchor.index;
    if (start < lastEnd) continue;
    while (skipIndex < skip.length && skip[skipIndex].end <= start) skipIndex++;
    if (skipIndex < skip.length && skip[skipIndex].start <= start) continue;
    const end = scanChain(text, start, anchor[0], citations, drops, lastEnd, names);
    lastEnd = Math.max(end, start + anchor[0].length);
    ANCHOR.lastIndex = lastEnd;
  }
  return { citations, drops };
}

/** Parses one chain starting at an anchor; pushes its citations and returns where it ends. */
function scanChain(text: string, start: number, mark: string, out: StatuteCitation[], drops: StatuteDrops, lastEnd: number,
  names: LawNameLookup | undefined): number {
  let kind: '§' | 'Art.' = mark.startsWith('§') ? '§' : 'Art.';
  let plural = mark === '§§' || mark.startsWith('Artt');
  let p = start + mark.length;
  let pending: Item[] = [];
  let chainEnd = p;
  let itemStart: number | null = start;
  /** The article whose §§ the bare numbers of the chain continue ('Art. 229 §§ 5, 6'). */
  let sectionsOf: string | null = null;
  const emitted: StatuteCitation[] = [];

  const flush = (law: ParsedLaw | null, version: { value: 'a.F.' | 'n.F.' | null; date: string | null }, lawEnd: number) => {
    for (const [i, item] of pending.entries()) {
      const last = i === pending.length - 1;
      emitted.push({
        type: 'statute', start: item.start, end: last && law ? lawEnd : item.end, kind: item.kind, number: item.number,
        subdivisions: item.subdivisions, stacked: item.stacked, law: law?.law ?? null, lawText: law?.lawText ?? null,
        lawFromContext: false, version: version.value, versionDate: version.date,
        canonical: canonicalStatute(item.kind, item.number, item.subdivisions, law?.law ?? null),
      });
    }
    pending = [];
  };

  for (;;) {
    const num = at(UNIT_NUMBER, text, p);
    if (!num) {
      if (pending.length === 0 && emitted.length === 0) {
        if (text.slice(p).trim() === '') drops.truncation++;
        else drops.unreadable.push(text.slice(start, Math.min(text.length, p + 12)).trim());
      }
      break;
    }
    const item: Item = {
      start: itemStart ?? num.index + (num[0].length - num[0].trimStart().length),
      end: UNIT_NUMBER.lastIndex, kind, number: num[1] + (num[2] ?? num[3] ?? ''), subdivisions: [], stacked: 0,
    };
    const section = kind === 'Art.' ? at(ARTICLE_SECTION, text, item.end) : null;
    if (section) {
      if (section[1] === '§§') {
        sectionsOf = item.number;
        plural = true;
      }
      item.number += ` § ${section[2]}`;
      item.end = ARTICLE_SECTION.lastIndex;
    } else if (sectionsOf && itemStart === null) {
      item.number = `${sectionsOf} § ${item.number}`;
    }
    p = parseSubdivisions(text, item.end, item, plural);
    const range = at(RANGE, text, p);
    if (range) p = RANGE.lastIndex;
    if (at(FOLLOWING, text, p)) p = FOLLOWING.lastIndex;
    item.end = p;
    itemStart = null;
    pending.push(item);
    chainEnd = p;

    // a.F. may stand before or after the law.
    let version = readVersion(text, p);
    if (version.value || version.date) p = version.end;
    const law = parseLaw(text, p, names);
    if (law?.refused) {
      (law.refused === 'contract' ? drops.contractCollision : drops.trailingNoun)
        .push(text.slice(pending[0].start, law.end).replace(/\s+/gu, ' '));
      pending = [];
      chainEnd = law.end;
      break;
    }
    if (law) {
      p = law.end;
      const after = readVersion(text, p);
      if (after.value || after.date) {
        version = after;
        p = after.end;
      }
      flush(law, version, p);
      chainEnd = p;
    } else if (version.value || version.date) {
      chainEnd = p;
    }

    // Does the chain go on?
    const sep = at(SEPARATOR, text, p);
    if (!sep) break;
    const afterSep = SEPARATOR.lastIndex;
    const next = at(NEXT_ANCHOR, text, afterSep);
    if (next) {
      kind = next[1].startsWith('§') ? '§' : 'Art.';
      plural = next[1] === '§§' || next[1].startsWith('Artt');
      sectionsOf = null;
      itemStart = NEXT_ANCHOR.lastIndex - next[1].length;
      p = NEXT_ANCHOR.lastIndex;
      continue;
    }
    // A bare number continues a §§ chain ('§§ 280, 281 BGB'; after a law: '§§ 167 VwGO, 708 Nr. 11, 711 ZPO'),
    // and a § chain only when the group ends in a law ('§ 3, 5 UWG').
    const bare = at(UNIT_NUMBER, text, afterSep);
    if (!bare) break;
    if (!plural && !continuationEndsInLaw(text, afterSep, names)) break;
    if (plural && law && !continuationEndsInLaw(text, afterSep, names)) break;
    p = afterSep;
  }

  if (pending.length > 0) {
    // 'HGB § 74': the law written before the anchor.
    const before = LAW_BEFORE.exec(text.slice(Math.max(lastEnd, start - 16), start));
    const beforeLaw = before && isLawAbbreviation(before[1]) && emitted.length === 0 ? before[1] : null;
    if (beforeLaw && pending[0].start === start) {
      pending[0].start = start - before![0].length;
      flush({ end: start, law: registryAbbreviation(beforeLaw) ?? beforeLaw, lawText: beforeLaw }, { value: null, date: null }, pending[pending.length - 1].end);
    } else {
      flush(null, { value: null, date: null }, chainEnd);
    }
  }
  for (const c of emitted) drops.stacked += c.stacked;
  out.push(...emitted);
  return Math.max(chainEnd, p);
}

function readVersion(text: string, pos: number): { value: 'a.F.' | 'n.F.' | null; date: string | null; end: number } {
  const m = at(VERSION, text, pos);
  if (m) return { value: /^a/u.test(m[1]) ? 'a.F.' : 'n.F.', date: null, end: VERSION.lastIndex };
  const d = at(VERSION_DATE, text, pos);
  if (d) return { value: null, date: d[1].replace(/\s+/gu, ' '), end: VERSION_DATE.lastIndex };
  return { value: null, date: null, end: pos };
}

/** Whether the numbers after a separator lead to a law ('5 Abs. 1 UWG') rather than to prose ('2 Tage später'). */
function continuationEndsInLaw(text: string, pos: number, names: LawNameLookup | undefined): boolean {
  let p = pos;
  for (let i = 0; i < 6; i++) {
    const num = at(UNIT_NUMBER, text, p);
    if (!num) return false;
    const probe: Item = { start: p, end: p, kind: '§', number: num[1], subdivisions: [], stacked: 0 };
    p = parseSubdivisions(text, UNIT_NUMBER.lastIndex, probe, true);
    if (at(FOLLOWING, text, p)) p = FOLLOWING.lastIndex;
    const law = parseLaw(text, p, names);
    if (law && !law.refused) return true;
    const sep = at(SEPARATOR, text, p);
    if (!sep) return false;
    p = SEPARATOR.lastIndex;
  }
  return false;
}
