// The decision scanner: finds court-decision citations (Aktenzeichen of every federal and Land court form, ECLIs,
// reporter citations, EuGH/EuG case numbers) and assembles each with the court, decision type and date written before
// it and the ECLI and parallel reporter citations written after it: one citation per cited decision.
import { courtFromEcli, resolveCourt } from '../corpus/courts.ts';
import { alternation, at, COURT_SOURCE, DECISION_TYPES, FEDERAL_REGISTERS, JOURNALS, LAND_REGISTERS, MONTHS, OFFICIAL_REPORTERS,
  SELF_COURT_SOURCE, SOCIAL_REGISTERS } from './lexicon.ts';
import type { CaseCitation, ReporterCitation } from './types.ts';

export interface CaseScanOptions {
  /** The court of the text being scanned (for 'Senatsurteil vom ...' in a decision); unknown in a check. */
  citingCourt?: string | null;
}

const SP = String.raw`[ \u00a0]`;
const NUM_YEAR = String.raw`\d{1,5}[./]\d{2,4}`;
const reg = (words: readonly string[]) => alternation(words).replace(/\\s\?/gu, `${SP}?`);

const ARABIC_REGISTERS = reg([
  ...FEDERAL_REGISTERS.BGH_ARABIC, ...FEDERAL_REGISTERS.BVerfG, ...FEDERAL_REGISTERS.BAG, ...FEDERAL_REGISTERS.BVerwG,
  ...FEDERAL_REGISTERS.BPatG, ...LAND_REGISTERS,
]);
const AZ_SOURCES = [
  // BSG: 'B 4 AS 17/20 R'
  String.raw`B${SP}\d{1,2}[a-z]?${SP}(?:${reg(FEDERAL_REGISTERS.BSG)})${SP}\d{1,4}/\d{2}${SP}(?:[A-Z]{1,2})(?:${SP}ER)?`,
  // BSG before 2000: '12 RK 20/92'
  String.raw`\d{1,2}[a-z]?${SP}(?:${reg(FEDERAL_REGISTERS.BSG_OLD)})${SP}\d{1,4}/\d{2}`,
  // LSG and SG: 'L 5 KR 222/14 B ER', 'S 12 AS 1234/19'
  String.raw`[LS]${SP}\d{1,2}${SP}(?:${reg(SOCIAL_REGISTERS)})${SP}\d{1,5}/\d{2}(?:${SP}(?:B${SP})?ER|${SP}NZB|${SP}B(?![\p{L}\d]))?`,
  // EuGH / EuG: 'C-252/21', 'T-612/17 P'
  String.raw`[CTF]${SP}?-${SP}?\d{1,4}/\d{2}(?:${SP}P(?![\p{L}\d]))?`,
  // EGMR application numbers, only where the EGMR is named just before: 'EGMR, Urteil vom 4. September 2014 - 140/10 -'
  String.raw`(?<=EGMR[^;\n]{0,80}?(?:Nr\.|no\.|[-–])${SP}?)\d{1,6}/\d{2}`,
  // BGH civil senates and BFH: 'VI ZR 496/18', 'Ib ZR 60/62', 'IX R 12/18'
  String.raw`[IVX]{1,4}[a-z]?${SP}(?:${reg(FEDERAL_REGISTERS.BGH_ROMAN)}|${reg(FEDERAL_REGISTERS.BFH)})${SP}\d{1,4}/\d{2}`,
  // BGH special senates without a number: 'KZR 1/19', 'AnwZ (Brfg) 12/19'
  String.raw`(?:${reg(FEDERAL_REGISTERS.BGH_PLAIN)}|${reg(FEDERAL_REGISTERS.BFH_PLAIN)})${SP}\d{1,4}/\d{2}`,
  // BayObLG: '1Z BR 12/02', '2Z RR 5/99', '4St RR 12/20', '101 ZBR 1/20'
  String.raw`\d{1,3}${SP}?(?:Z|St|ObOWi)${SP}?(?:BR|RR|AR|Ws|Ss|Sch)${SP}\d{1,4}/\d{2}`,
  // Reichsgericht: 'III 77/05', a Roman senate and no register, only where the RG is named just before
  String.raw`(?=[IVX])(?<=(?:RG|Reichsgericht|Reichsgerichts|RGZ|RGSt)[^;\n]{0,80}?(?:[-–,(:]|Az\.)${SP}?)[IVX]{1,4}${SP}\d{1,4}/\d{2}(?![\d/])`,
  // Everything with an Arabic number in front: '1 BvR 2345/16', '2 AZR 345/15', '4 C 7.15', 'VG 3 K 123.16', 'I-20 U 118/17',
  // Frankfurt's chambers ('5/12 KLs 9/16', '2-24 O 123/19'),
  // Bavarian administrative courts with their seat first ('M 12 K 20.456', 'AN 4 K 19.00123'); a suffix the court
  // adds after the number stays ('33 Wx 12/22 e', '7 K 1234/19.F', '6 A 987/20.Z').
  String.raw`(?:(?:VG|OVG)${SP}|[IVX]{1,3}-|\d{1,2}[-/](?=\d{1,2}${SP}\p{Lu})|(?:M|AN|AU|Au|B|RN|RO|W)${SP}(?=\d{1,3}${SP}[A-Z]{1,2}${SP}\d{2}\.\d))?\d{1,3}[a-z]?${SP}(?:${ARABIC_REGISTERS})(?:${SP}\(${SP}?(?:pat|Kart|EP|OWi|Brfg|B|R)${SP}?\))?${SP}${NUM_YEAR}(?:\.[A-Z]{1,2}(?![\p{L}\d])|${SP}(?:[A-Z]{1,2}|ER)(?![\p{L}\d]|\.${SP}?\d))?(?:${SP}(?:Bau|Hei|Kart|Fam|WEG)(?![\p{L}\d]))?(?:${SP}[a-eg-z](?![\p{L}\d]|\.${SP}?\p{L}))?(?:${SP}\((?:A|\d{1,2})\))?`,
];
// A line break after a colon (read as a space) stays inside the ECLI: 'ECLI:DE:BGH:2019:\n120619UVIZR496.18.0'.
const ECLI = String.raw`[Ee][Cc][Ll][Ii]:${SP}?[A-Za-z]{2}:${SP}?[A-Za-z0-9]{1,7}:${SP}?\d{4}:${SP}?[A-Za-z0-9.\-]*[A-Za-z0-9]`;
const REPORTER_NAMES = alternation([...Object.keys(OFFICIAL_REPORTERS), ...JOURNALS]).replace(/\\\//gu, `${SP}?/${SP}?`);
const REPORTER = String.raw`(?:(${REPORTER_NAMES})\.?${SP}(?:(I{1,3})${SP})?(\d{1,4})(?:${SP}\(\d{1,4}\))?${SP}?,${SP}?(?:S\.${SP}?)?((?:I{1,2}-)?\d{1,5})`
  + String.raw`|(SozR)${SP}((?:\d${SP}?-${SP}?)?\d{4}|\d)${SP}§${SP}?(\d{1,4}[a-z]?)${SP}Nrn?\.?${SP}?(\d{1,4})`
  // Collections cited by provision: 'Buchholz 406.11 § 9 BauGB Nr. 74', 'AP Nr. 17 zu § 74 HGB', 'EzA BGB 2002 § 626 Nr. 12'
  + String.raw`|(Buchholz${SP}\d{3}(?:\.\d{1,3})*|AP${SP}Nr\.?${SP}?\d{1,4}(?:${SP}?(?:,|und)${SP}\d{1,4})*${SP}zu|AP|EzA)${SP}((?:[A-ZÄÖÜ][\p{L}]*(?:${SP}(?:19|20)\d\d)?${SP})?)(?:§|Art\.)${SP}?(\d{1,4}(?:[a-z]|${SP}[a-z](?![\p{L}.]))?)((?:${SP}[A-ZÄÖÜ][\p{L}]*)?(?:${SP}Nr\.?${SP}?\d{1,4})?))`;
const PINPOINT = String.raw`(?:${SP}?,${SP}?\d{1,5}(?:${SP}?ff?\.?)?|/\d{1,5}(?:${SP}?ff?\.?)?|${SP}?<[^<>\n]{1,24}>|${SP}?\(\d[^()\n]{0,16}\)|${SP}?\[[^\[\]\n]{1,40}\]|${SP}S\.?${SP}\d{1,5}(?:${SP}?ff?\.?)?|${SP}?ff?\.)*`;

const ANCHOR = new RegExp(String.raw`(?<![\p{L}\d/.-])(?<!(?:Raum|Saal|Zimmer|Sitzungssaal|Tel\.?|Telefon|Fax)${SP})(?:(${ECLI})|(${AZ_SOURCES.join('|')})(?!/\d)|${REPORTER})(?![\p{L}\d])`, 'gu');
const sticky = (source: string) => new RegExp(source, 'uy');
const PINPOINTS = sticky(PINPOINT);
const REPORTER_CONTINUATION = sticky(String.raw`${SP}?;${SP}?(\d{1,4}),${SP}?(\d{1,5})(?![\p{L}\d/])`);
// After the Aktenzeichen: '-', 'Rn. 12', ', ECLI:...', ', BGHZ 1, 2', ' = NJW ...', '[juris Rn. 9]'.
const RANDNUMMER = String.raw`(?:\[?juris${SP})?(?:Rn|Rdnr|RdNr|Rz|Tz|Randnr|Randnummer|Rnr)\.?${SP}?\d{1,4}(?:${SP}?ff?\.?)?(?:${SP}?(?:,|und|bis|-)${SP}?\d{1,4}(?:${SP}?ff?\.?)?)*\]?`;
const TRAIL_GLUE = sticky(String.raw`(?:${SP}*[-–—,=]${SP}*|${SP}+|${SP}*(?:${RANDNUMMER})${SP}*[-–—,=]?${SP}*)+`);
const ECLI_AT = sticky(ECLI);
const REPORTER_AT = sticky(REPORTER);

const MONTH_NAMES = Object.keys(MONTHS).map((m) => m[0].toUpperCase() + m.slice(1)).join('|');
const DATE = String.raw`(?:\d{1,2}\.${SP}?(?:\d{1,2}\.${SP}?(?:\d{4}|\d{2})(?!\d)|(?:${MONTH_NAMES})\.?${SP}\d{4})|\d{4}-\d{2}-\d{2})`;
const TYPES = alternation(Object.keys(DECISION_TYPES));
// A court named in the prose before its decision: 'Das Landgericht Hamburg hat mit Urteil vom 3. Mai 2012 (Az. ...)',
// 'der BGH hat in seinem Beschluss vom ...', 'das OLG entschied durch Urteil vom ...'.
const PROSE_VERB = String.raw`(?:(?:hat|hatte|hätte|entschied|entschieden|urteilte|stellte)${SP}(?:(?:bereits|schon|zuletzt|auch|jedoch|aber|dagegen|nun|insoweit)${SP})?(?:(?:mit|in|im|durch)${SP})?(?:(?:seinem|seiner|seinen|ihrem|einem|einer|dem|der)${SP})?)`;
// What may stand between a court and the Aktenzeichen, read backwards from the Aktenzeichen (anchored at the end).
const PREFIX = new RegExp(String.raw`(?<![\p{L}\d])(?:`
  // 'BVerfG (K)', 'BGH (GrS)': a chamber or the Great Senate of the court.
  + String.raw`(?<court>${COURT_SOURCE})(?:${SP}?\((?:K|Kammer|GrS|GSSt|GSZ|VGS)\))?(?:${SP}*[-,(]?${SP}*${PROSE_VERB}?(?<type>${TYPES}))?`
  + String.raw`|(?<self>${SELF_COURT_SOURCE})`
  + String.raw`|(?<type2>${TYPES})(?:${SP}(?:des|der)${SP}(?:(?<court2>${COURT_SOURCE})|(?<self2>${SELF_COURT_SOURCE})))?`
  + String.raw`)(?:${SP}(?:der|des)${SP}[^,;()\n]{3,60}?)??${SP}*,?${SP}*(?:(?:vom|v\.|am)${SP}*)?(?<date>${DATE})?`
  + String.raw`${SP}*[,:(]?${SP}*(?:[-–—]{1,2}${SP}*)?(?:(?:Az\.?|Aktenzeichen|Nr\.|no\.)${SP}*:?${SP}*)?(?:(?:verb\.${SP})?Rs\.${SP}|Rechtssache${SP})?$`, 'u');
const DATE_ONLY_PREFIX = new RegExp(String.raw`(?<![\p{L}\d])(?:vom|v\.)${SP}*(?<date>${DATE})${SP}*[,:(]?${SP}*(?:[-–—]{1,2}${SP}*)?(?:(?:Az\.?|Aktenzeichen)${SP}*:?${SP}*)?$`, 'u');
const AZ_LABEL_PREFIX = new RegExp(String.raw`(?<![\p{L}\d])(?:Az\.?|Aktenzeichen)${SP}*:?${SP}*$|(?:(?:verb\.${SP})?Rs\.|Rechtssache)${SP}$`, 'u');
const JOINED_PREFIX = new RegExp(String.raw`^${SP}*(?:,|und|sowie|bzw\.|;)${SP}*(?:[-–—]${SP}*)?$`, 'u');
const LEADING_ROLE = /(?:(?<![\p{L}])grundlegend(?:e[nrs]?)?|Leitentscheidung|ständige[rn]?\s+Rechtsprechung\s+seit|st\.\s?Rspr\.\s+seit|stRspr\s+seit)(?:\s+(?:so|etwa|bereits|schon|dazu|hierzu|zuletzt|vgl\.))?\s*[:,(]?\s*(?:(?:der|die|das|dem|den)\s+)?(?:\p{L}+\s+){0,2}?$/u;
const ROLE_TRAP = /(?:sich|sie|unterscheid\p{L}*|weich\p{L}*|änder\p{L}*)\s+(?:\p{L}+\s+){0,3}grundlegend\s+(?:von|vom|gegenüber)\b[^.;]*$/u;

const COURT_BY_REGISTER: [RegExp, string][] = [
  [/^B \d{1,2}[a-z]? [A-Z]{1,3} /u, 'BSG'],
  [new RegExp(`^\\d{1,2}[a-z]? (?:${reg(FEDERAL_REGISTERS.BSG_OLD)}) `, 'u'), 'BSG'],
  [/^[CF]-/u, 'EuGH'],
  [/^T-/u, 'EuG'],
  [new RegExp(`^[IVX]{1,4}[a-z]? (?:${reg(FEDERAL_REGISTERS.BGH_ROMAN)}) `, 'u'), 'BGH'],
  [new RegExp(`^[IVX]{1,4} (?:${reg(FEDERAL_REGISTERS.BFH)}) `, 'u'), 'BFH'],
  [new RegExp(`^(?:${reg(FEDERAL_REGISTERS.BGH_PLAIN)}) `, 'u'), 'BGH'],
  [new RegExp(`^(?:${reg(FEDERAL_REGISTERS.BFH_PLAIN)}) `, 'u'), 'BFH'],
  [new RegExp(`^\\d{1,2} (?:${reg(FEDERAL_REGISTERS.BGH_ARABIC)}) `, 'u'), 'BGH'],
  [new RegExp(`^\\d (?:${reg(FEDERAL_REGISTERS.BVerfG)}) `, 'u'), 'BVerfG'],
  [/^\d{1,2} (?:AZR|ABR|AZB|AZN|ABN|AZA|ABA) /u, 'BAG'],
  [/^\d{1,2} (?:W \(pat\)|Ni|ZA \(pat\)|LiQ|Li|Ni \(EP\)) /u, 'BPatG'],
  [/^\d{1,2} (?:C|CN|BN|NB|VR|WB|WD|PB|B|A|D|P|F) \d{1,4}\.\d{2}$/u, 'BVerwG'],
];

/** The court an Aktenzeichen belongs to by its form alone (VI ZR -> BGH, 1 BvR -> BVerfG, B 4 AS ... R -> BSG). */
export function courtOfAktenzeichen(aktenzeichen: string): string | null {
  const az = aktenzeichen.replace(/\s+/gu, ' ');
  for (const [re, court] of COURT_BY_REGISTER) if (re.test(az)) return court;
  return null;
}

/** 'YYYY-MM-DD' from '14. Januar 2020', '14.01.2020', '2.4.2009', '17. 10. 2017', '1963-09-26'; null if impossible. */
export function parseGermanDate(written: string): string | null {
  const w = written.replace(/\s+/gu, ' ').trim();
  let y: number; let m: number; let d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(w);
  const numeric = /^(\d{1,2})\. ?(\d{1,2})\. ?(\d{2}|\d{4})$/u.exec(w);
  const named = /^(\d{1,2})\. ?(\p{L}+)\.? (\d{4})$/u.exec(w);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (numeric) {
    [d, m, y] = [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])];
    if (numeric[3].length === 2) y += y > 40 ? 1900 : 2000;
  } else if (named) {
    const month = MONTHS[named[2].toLowerCase()];
    if (!month) return null;
    [d, m, y] = [Number(named[1]), month, Number(named[3])];
  } else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

function reporterOf(m: RegExpExecArray, offset: number): ReporterCitation {
  if (m[offset + 8]) {
    const written = m[0].slice(m[0].indexOf(m[offset + 8])).replace(/\s+/gu, ' ').trim();
    return { reporter: m[offset + 8].replace(/\s+/gu, ' '), volume: (m[offset + 9] ?? '').trim(), page: `§ ${m[offset + 10]}${m[offset + 11] ?? ''}`, canonical: written };
  }
  if (m[offset + 4]) {
    const [reporter, volume, section, number] = [m[offset + 4], m[offset + 5], m[offset + 6], m[offset + 7]];
    return { reporter: `${reporter} ${volume}`, volume, page: `§ ${section} Nr. ${number}`, canonical: `${reporter} ${volume} § ${section} Nr. ${number}` };
  }
  const name = m[offset].replace(/\s*\/\s*/gu, '/').replace(/\s+/gu, ' ');
  const series = m[offset + 1] ? ` ${m[offset + 1]}` : '';
  const volume = m[offset + 2];
  const page = m[offset + 3];
  return { reporter: name + series, volume, page, canonical: `${name}${series} ${volume}, ${page}` };
}

/** The Aktenzeichen as courts write it: single spaces, 'C-238/14' and '(pat)' without inner spaces. */
function normalAktenzeichen(written: string): string {
  return written.replace(/\s+/gu, ' ').replace(/^([CTF]) ?- ?/u, '$1-').replace(/\( ?(\w+) ?\)/gu, '($1)');
}

/** A word after a page number that still belongs to a reporter citation ('NJW 2019, 500 Rn. 12', '... Anm. Müller'). */
const PAGE_FOLLOWER = /^(?:Rn|Rdnr|RdNr|Randnr|Randnummer|Rz|Tz|Anm|Anmerkung|Leitsatz|Fn|Fußnote|Nr|Ziff|Sp|Bl|Heft)(?![\p{L}])/u;

/**
 * A journal's name, a year and a number in prose, followed by what they count: 'eine AG 2019, 500 Beschäftigte',
 * 'in der WM 2014, 7 Tore'. A cited page is followed by punctuation, a pinpoint or a label, not by a capitalized noun;
 * with a court, a date or a parallel citation written around it, it is a citation whatever follows. Read in the text
 * as written: a citation ending a line (a footnote of PDF text) is one whatever starts the next.
 */
function countedInProse(written: string, c: CaseCitation): boolean {
  // A collection cited by provision is followed by its keyword: 'AP Nr. 16 zu § 620 BGB Befristeter Arbeitsvertrag'.
  if (c.aktenzeichen || c.ecli || c.court || c.date || c.reporters.length !== 1 || c.reporters[0].page.startsWith('§')) return false;
  const next = /^[ \u00a0]+(\p{Lu}\p{Ll}+)/u.exec(written.slice(c.end, c.end + 40));
  return next !== null && !PAGE_FOLLOWER.test(next[1]);
}

/** Finds every decision citation in `text`, in order (offsets into `written`). */
export function scanCases(written: string, options: CaseScanOptions = {}): CaseCitation[] {
  const { text, origin } = compacted(written);
  const out: CaseCitation[] = [];
  let lastEnd = 0;
  ANCHOR.lastIndex = 0;
  for (let m = ANCHOR.exec(text); m; m = ANCHOR.exec(text)) {
    if (m.index < lastEnd) continue;
    const citation = assemble(text, m, lastEnd, out[out.length - 1], options);
    const first = citation[0];
    if (countedInProse(written, { ...first, end: origin(first.end - 1) + 1 })) continue;
    out.push(...citation);
    lastEnd = citation[citation.length - 1].end;
    ANCHOR.lastIndex = lastEnd;
  }
  for (const c of out) [c.start, c.end] = [origin(c.start), origin(c.end - 1) + 1];
  return out;
}

/** Spacing the scanner reads as one space: a single line break, a run of spaces or tabs, a thin space; a blank line stays. */
const SPACING = /(\r?\n(?:[ \t]*\r?\n)+)|[ \t\u00a0\u2009\u202f]*\r?\n(?![ \t]*\r?\n)[ \t\u00a0\u2009\u202f]*|[ \t\u00a0\u2009\u202f]{2,}|[\t\u2009\u202f]|([\u2010\u2011])/gu;
/** The same, and a letter with combining marks composed (NFD 'Mu\u0308nchen' -> 'München'), for a text that has them. */
const SPACING_NFD = new RegExp(`${SPACING.source}|(\\p{L}\\p{M}+)`, 'gu');

/**
 * The text as the scanner reads it, and where its offsets lie in the written text: a single line break (CRLF too), a
 * run of spaces or tabs and a thin space read as one space, a non-breaking hyphen as '-', so that a citation wrapped
 * across lines (PDF text), typed with doubled spaces or typeset with thin spaces ('VI\u202fZR\u202f496/18',
 * 'C\u2011673/17' from curia) reads as on one line; a blank line still ends a citation.
 */
function compacted(written: string): { text: string; origin: (offset: number) => number } {
  const parts: string[] = [];
  // From compact offset from[i] on, the written offset is larger by shift[i] (ascending; one entry per shortening).
  const from = [0];
  const shift = [0];
  let copied = 0;
  let removed = 0;
  for (const m of written.matchAll(/[\u0300-\u036f]/u.test(written) ? SPACING_NFD : SPACING)) {
    if (m[1]) continue;
    const read = m[3] ? m[3].normalize('NFC') : m[2] ? '-' : ' ';
    parts.push(written.slice(copied, m.index), read);
    copied = m.index + m[0].length;
    if (m[0].length > read.length) {
      removed += m[0].length - read.length;
      from.push(copied - removed);
      shift.push(removed);
    }
  }
  parts.push(written.slice(copied));
  const origin = (offset: number) => {
    let lo = 0;
    let hi = from.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (from[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return offset + shift[lo];
  };
  return { text: parts.join(''), origin };
}

/** Builds the citation around one anchor (and any reporter chain continuing it: 'BVerfGE 79, 292 <304>; 89, 1'). */
function assemble(text: string, m: RegExpExecArray, floor: number, previous: CaseCitation | undefined, options: CaseScanOptions): CaseCitation[] {
  const c: CaseCitation = {
    type: 'case', start: m.index, end: m.index + m[0].length, court: null, courtFromRegister: false, decisionType: null,
    date: null, aktenzeichen: null, ecli: null, reporters: [], role: null, canonical: '',
  };
  if (m[1]) c.ecli = ecliOf(m[1]);
  else if (m[2]) c.aktenzeichen = normalAktenzeichen(m[2]);
  else c.reporters.push(reporterOf(m, 3));
  let p = c.end;
  if (!m[2]) p = pinpoints(text, p);
  c.end = p;

  readPrefix(text, c, floor, previous, options);
  // Parallel citations after the Aktenzeichen: '- ECLI:..., Rn. 21', ', BGHZ 132, 105', ' - BVerfGE 108, 282 <301>'.
  for (;;) {
    const glue = at(TRAIL_GLUE, text, p);
    const from = glue ? TRAIL_GLUE.lastIndex : p;
    const ecli = !c.ecli ? at(ECLI_AT, text, from) : null;
    if (ecli) {
      c.ecli = ecliOf(ecli[0]);
      p = c.end = ECLI_AT.lastIndex;
      continue;
    }
    const rep = at(REPORTER_AT, text, from);
    if (rep && !/;/u.test(text.slice(p, from))) {
      c.reporters.push(reporterOf(rep, 1));
      p = c.end = pinpoints(text, REPORTER_AT.lastIndex);
      continue;
    }
    break;
  }
  // A trailing '-' closing the Aktenzeichen ('- 2 AZR 345/15 -') belongs to the citation; so does the parenthesis
  // closing one opened in the prefix ('BGH, Beschluss vom 3. Mai 2019 (VI ZR 496/18)').
  const close = /^[ \u00a0]?[-–](?![\p{L}\d])/u.exec(text.slice(c.end, c.end + 3));
  if (close && c.aktenzeichen && !c.reporters.length) c.end += close[0].length;
  else if (text[c.end] === ')' && unclosed(text.slice(c.start, m.index))) c.end += 1;

  finish(c);
  const result = [c];
  // 'BVerfGE 79, 292 <304 f.>; 89, 1 <9>': further decisions in the same reporter.
  const last = c.reporters[c.reporters.length - 1];
  if (last && !last.page.startsWith('§')) {
    let q = c.end;
    for (let cont = at(REPORTER_CONTINUATION, text, q); cont; cont = at(REPORTER_CONTINUATION, text, q)) {
      const start = cont.index + cont[0].indexOf(cont[1], 1);
      const end = pinpoints(text, REPORTER_CONTINUATION.lastIndex);
      const rep: ReporterCitation = { reporter: last.reporter, volume: cont[1], page: cont[2], canonical: `${last.reporter} ${cont[1]}, ${cont[2]}` };
      const next: CaseCitation = { ...c, start, end, aktenzeichen: null, ecli: null, date: null, decisionType: null, reporters: [rep], role: null, canonical: '' };
      next.court = OFFICIAL_REPORTERS[last.reporter] ?? null;
      finish(next);
      result.push(next);
      q = end;
    }
  }
  return result;
}

/** An ECLI as written, without the line breaks inside it, upper-cased. */
const ecliOf = (written: string) => written.replace(/[ \u00a0]/gu, '').toUpperCase();

/** Whether a text opens more parentheses than it closes. */
const unclosed = (text: string) => text.split('(').length > text.split(')').length;

function pinpoints(text: string, pos: number): number {
  const m = at(PINPOINTS, text, pos);
  return m ? PINPOINTS.lastIndex : pos;
}

/** Reads court, decision type and date written before the anchor and moves `start` back over them. */
function readPrefix(text: string, c: CaseCitation, floor: number, previous: CaseCitation | undefined, options: CaseScanOptions): void {
  const windowStart = Math.max(floor, c.start - 220);
  const before = text.slice(windowStart, c.start);
  // 'Urteile vom 17. Juni 2020 - VIII ZR 10/19 und VIII ZR 11/19': the second shares court and date with the first.
  if (previous && previous.end >= windowStart && JOINED_PREFIX.test(text.slice(previous.end, c.start)) && c.aktenzeichen && previous.aktenzeichen) {
    c.court = previous.court;
    c.courtFromRegister = previous.courtFromRegister;
    c.date = previous.date;
    c.decisionType = previous.decisionType;
    return;
  }
  const m = PREFIX.exec(before) ?? DATE_ONLY_PREFIX.exec(before) ?? AZ_LABEL_PREFIX.exec(before);
  if (!m || m[0].trim() === '') return;
  const g = m.groups ?? {};
  // An ECLI names court and date itself: words before it that name neither ('Entscheidung des Gerichtshofs') are prose.
  if (c.ecli && !(g.court ?? g.court2 ?? g.self ?? g.self2 ?? g.date)) return;
  c.start = windowStart + m.index;
  const courtText = g.court ?? g.court2;
  if (courtText) c.court = resolveCourt(courtText.replace(/-$/u, '')).code;
  else if (g.self ?? g.self2) c.court = options.citingCourt ?? null;
  const type = g.type ?? g.type2;
  if (type) c.decisionType = DECISION_TYPES[type.replace(/\s+/gu, '')] ?? null;
  else if (/^Senats(?:urteil|beschluss)/u.test(g.self ?? '')) c.decisionType = /urteil/u.test(g.self) ? 'Urteil' : 'Beschluss';
  if (g.date) c.date = parseGermanDate(g.date);
  const role = text.slice(Math.max(0, c.start - 90), c.start);
  if (LEADING_ROLE.test(role) && !ROLE_TRAP.test(role)) c.role = 'leitentscheidung';
}

/** The courts of the European Union by their ECLI code ('ECLI:EU:C:2019:1145'). */
const EU_ECLI_COURTS: Readonly<Record<string, string>> = { C: 'EuGH', T: 'EuG' };

function finish(c: CaseCitation): void {
  if (!c.court && c.aktenzeichen) {
    const implied = courtOfAktenzeichen(c.aktenzeichen);
    if (implied) {
      c.court = implied;
      c.courtFromRegister = true;
    }
  }
  if (!c.court && c.ecli) c.court = courtFromEcli(c.ecli)?.code ?? (c.ecli.startsWith('ECLI:EU:') ? EU_ECLI_COURTS[c.ecli.split(':')[2]] : undefined) ?? null;
  if (!c.court && c.reporters.length) c.court = OFFICIAL_REPORTERS[c.reporters[0].reporter] ?? null;
  if (c.aktenzeichen) c.canonical = c.court ? `${c.court}, ${c.aktenzeichen}` : c.aktenzeichen;
  else if (c.ecli) c.canonical = c.ecli;
  else c.canonical = c.reporters[0]?.canonical ?? '';
}

/** Whether the text holds anything citing a decision: an Aktenzeichen, an ECLI or a reporter citation. */
export function hasDecisionReference(text: string): boolean {
  ANCHOR.lastIndex = 0;
  const found = ANCHOR.test(compacted(text).text);
  ANCHOR.lastIndex = 0;
  return found;
}
