// Parses a Normenkette as rechtsprechung-im-internet.de and other sources write it ("§ 573 Abs 2 Nr 2 BGB,
// § 574 BGB", "Art 12 Abs 1 GG", "§§ 280, 281 BGB", "BGB § 573 Abs. 2") into canonical norms: '§ 573 Abs. 2 Nr. 2 BGB'.
// A light parser for metadata lists, not the citation engine that reads running text.
import { canonicalLawAbbreviation } from './law-aliases.ts';
import { romanToNumber } from '../text/roman.ts';

export interface ParsedNorm {
  /** Canonical form: '§ 573 Abs. 2 Nr. 2 BGB', 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'. */
  norm: string;
  /** Cited abbreviation of the law: 'BGB', 'SGB V', 'DSGVO'. */
  law: string;
  /** The unit: '§ 573', 'Art. 12'. */
  unit: string;
}

const SUBDIVISIONS: [RegExp, string][] = [
  [/^(?:UAbs\.?|Unterabs\.?|Unterabsatz)$/iu, 'UAbs.'],
  [/^(?:Abs\.?|Absatz)$/iu, 'Abs.'],
  [/^(?:S\.?|Satz)$/u, 'Satz'],
  [/^(?:Nr\.?|Nummer|Nrn\.?)$/iu, 'Nr.'],
  [/^(?:Buchst\.?|Buchstabe|lit\.?)$/iu, 'lit.'],
  [/^(?:Alt\.?|Alternative)$/iu, 'Alt.'],
  [/^(?:Halbs\.?|Hs\.?|HS\.?|Halbsatz)$/u, 'Halbsatz'],
  [/^(?:Var\.?|Variante)$/iu, 'Var.'],
  [/^(?:Ziff\.?|Ziffer)$/iu, 'Ziff.'],
  [/^(?:Doppelbuchst\.?|Doppelbuchstabe)$/iu, 'Doppelbuchst.'],
];

const UNIT_MARK = /^(§§?|Art\.?|Artikel|Artt\.?)$/iu;
const UNIT_NUMBER = /^\d+[a-z]{0,2}$/iu;
const SUB_VALUE = /^(?:\d+[a-z]{0,2}|[a-z]{1,2}\)?|[IVX]+)$/u;
const ROMAN = /^[IVX]{1,4}$/u;

function kindOf(mark: string): '§' | 'Art.' {
  return mark.startsWith('§') ? '§' : 'Art.';
}

interface PendingNorm {
  kind: '§' | 'Art.';
  number: string;
  subs: string[];
}

/** Parses one comma-free item: '§ 573 Abs 2 Nr 2 BGB', 'Art 12 Abs 1 GG', '281 BGB' (kind inherited), 'BGB § 573'. */
function parseItem(item: string, inheritedKind: '§' | 'Art.' | null): { norm?: PendingNorm; law?: string } {
  let tokens = item.replace(/(§§?)(\d)/gu, '$1 $2').replace(/\b(Art\.?)(\d)/gu, '$1 $2').split(/\s+/u).filter(Boolean);
  if (tokens.length === 0) return {};
  let lawBefore: string | undefined;
  // 'BGB § 573 Abs. 2': the law first.
  const markAt = tokens.findIndex((t) => UNIT_MARK.test(t));
  if (markAt > 0) {
    lawBefore = tokens.slice(0, markAt).join(' ');
    tokens = tokens.slice(markAt);
  }
  let kind: '§' | 'Art.';
  let i = 0;
  if (UNIT_MARK.test(tokens[0])) {
    kind = kindOf(tokens[0]);
    i = 1;
  } else if (inheritedKind && UNIT_NUMBER.test(tokens[0])) {
    kind = inheritedKind;
  } else {
    return {};
  }
  if (i >= tokens.length || !UNIT_NUMBER.test(tokens[i])) return {};
  const number = tokens[i++];
  const subs: string[] = [];
  // '§ 535 I 2 BGB', 'Art. 6 I f DSGVO': an unlabelled Roman Absatz, then Satz and litera, each unlabelled.
  if (i < tokens.length && ROMAN.test(tokens[i])) {
    subs.push(`Abs. ${romanToNumber(tokens[i++])}`);
    if (i < tokens.length && /^\d{1,2}$/u.test(tokens[i])) subs.push(`Satz ${tokens[i++]}`);
    if (i < tokens.length && /^[a-z]$/u.test(tokens[i])) subs.push(`lit. ${tokens[i++]}`);
  }
  while (i < tokens.length) {
    const t = tokens[i];
    const rule = SUBDIVISIONS.find(([re]) => re.test(t));
    if (rule && i + 1 < tokens.length && SUB_VALUE.test(tokens[i + 1])) {
      const value = tokens[i + 1].replace(/\)$/u, '');
      subs.push(`${rule[1]} ${rule[1] === 'Abs.' && ROMAN.test(value) ? romanToNumber(value) : value}`);
      i += 2;
      continue;
    }
    if (/^(?:ff?\.?|ff\.)$/u.test(t)) {
      i++;
      continue;
    }
    break;
  }
  const lawAfter = tokens.slice(i).join(' ').replace(/^(?:des|der|vom)\s+/iu, '').trim();
  const law = lawBefore ?? (lawAfter === '' ? undefined : lawAfter);
  return { norm: { kind, number, subs }, law };
}

/**
 * Parses a Normenkette into canonical norms, in order, without duplicates. Items without a law take the law of the
 * next item that names one ('§§ 280, 281 BGB'). `resolveLaw` maps the law as written to its cited abbreviation
 * (default: the registry, e.g. 'SGB 5' -> 'SGB V', 'EStG 2002' -> 'EStG').
 *
 * @example
 * parseNormenkette('§ 573 Abs 2 Nr 2 BGB, § 574 BGB').map((n) => n.norm)
 * // ['§ 573 Abs. 2 Nr. 2 BGB', '§ 574 BGB']
 */
export function parseNormenkette(
  text: string | null | undefined,
  resolveLaw: (law: string) => string = canonicalLawAbbreviation,
): ParsedNorm[] {
  if (!text) return [];
  const items = text.replace(/[\s\u00a0]+/gu, ' ').split(/\s*[,;]\s*|\s+(?:und|i\.\s?V\.\s?m\.|iVm)\s+/u);
  const out: ParsedNorm[] = [];
  const seen = new Set<string>();
  let pending: PendingNorm[] = [];
  let lastKind: '§' | 'Art.' | null = null;
  for (const item of items) {
    // '§§ 280 I, III, 281 I 1 BGB': a further Absatz of the provision before, which keeps its first.
    if (pending.length > 0 && ROMAN.test(item.trim())) continue;
    const { norm, law } = parseItem(item.trim(), lastKind);
    if (!norm) {
      pending = [];
      lastKind = null;
      continue;
    }
    lastKind = norm.kind;
    pending.push(norm);
    if (!law) continue;
    const abbreviation = resolveLaw(law);
    for (const p of pending) {
      const unit = `${p.kind} ${p.number}`;
      const canonical = [unit, ...p.subs, abbreviation].join(' ');
      if (seen.has(canonical)) continue;
      seen.add(canonical);
      out.push({ norm: canonical, law: abbreviation, unit });
    }
    pending = [];
    lastKind = null;
  }
  return out;
}

/** The canonical form of a single norm ('§ 573 Abs 2 BGB' -> '§ 573 Abs. 2 BGB'), or undefined if unparseable. */
export function canonicalNorm(text: string): string | undefined {
  const parsed = parseNormenkette(text);
  return parsed.length === 1 ? parsed[0].norm : undefined;
}
