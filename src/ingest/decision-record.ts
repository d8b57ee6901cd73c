// The parsed form of one decision, whatever its source format, before it is written.
import type { SectionBlocks } from './blocks.ts';

export interface DecisionRecord {
  doknr: string | null;
  ecli: string | null;
  /** The court as the source writes it ('BGH', 'OLG München', 'Bundesgerichtshof'). */
  courtRaw: string;
  /** The chamber as the source gives it separately ('6. Zivilsenat'), else null. */
  chamber: string | null;
  /** 'YYYY-MM-DD' or null. */
  date: string | null;
  documentType: string | null;
  title: string | null;
  /** Every Aktenzeichen as the court writes it, first the leading one. */
  fileNumbers: string[];
  /** The Normenkette as written. */
  norms: string | null;
  sections: SectionBlocks[];
  sourceFormat: string;
  sourceName: string;
}

const MONTHS: Record<string, number> = {
  januar: 1, jänner: 1, februar: 2, märz: 3, maerz: 3, april: 4, mai: 5, juni: 6, juli: 7, august: 8, september: 9,
  oktober: 10, november: 11, dezember: 12,
};

/** Normalizes '20180822', '2018-08-22', '22.08.2018' and '22. August 2018' to 'YYYY-MM-DD'; null when invalid. */
export function parseDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  let y: number, m: number, d: number;
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})(\d{2})(\d{2})$/u.exec(v))) [y, m, d] = [+match[1], +match[2], +match[3]];
  else if ((match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/u.exec(v))) [y, m, d] = [+match[1], +match[2], +match[3]];
  else if ((match = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$/u.exec(v))) [d, m, y] = [+match[1], +match[2], +match[3]];
  else if ((match = /^(\d{1,2})\.\s*([A-Za-zäÄ]+)\s+(\d{4})$/u.exec(v)) && MONTHS[match[2].toLowerCase()]) {
    [d, m, y] = [+match[1], MONTHS[match[2].toLowerCase()], +match[3]];
  } else return null;
  if (y < 1800 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Splits an Aktenzeichen list ('2 BvQ 53/18, 2 BvQ 54/18') into its file numbers, whitespace collapsed. */
export function splitFileNumbers(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .replace(/[\s\u00a0\u202f]+/gu, ' ')
    .split(/\s*[,;]\s*|\s+und\s+/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The search filter's document kinds, from what a source calls the decision. */
export function documentKind(type: string | null | undefined): string | null {
  if (!type) return null;
  const t = type.toLowerCase();
  if (t.includes('schlussantr')) return 'Schlussanträge';
  if (t.includes('gerichtsbescheid')) return 'Gerichtsbescheid';
  if (t.includes('urteil')) return 'Urteil';
  if (t.includes('beschluss') || t.includes('anordnung') || t.includes('nichtannahme') || t.includes('ablehnung')) return 'Beschluss';
  if (t.includes('verfügung')) return 'Verfügung';
  return 'Sonstige';
}
