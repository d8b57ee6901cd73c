// The five legal-signal categories (resolutions.md): a text to check must show at least two, so that a lone statute
// sentence, a shopping list with a § sign or random prose is refused before any charge.
import { COURT_SOURCE } from './lexicon.ts';
import { hasDecisionReference } from './cases.ts';
import { scanStatutes } from './statutes.ts';

export const SIGNAL_CATEGORIES = ['statute_reference', 'decision_reference', 'court_or_authority', 'procedural_vocabulary', 'legal_writing_marks'] as const;
export type SignalCategory = (typeof SIGNAL_CATEGORIES)[number];

const COURT_OR_AUTHORITY = new RegExp(String.raw`(?<![\p{L}])(?:${COURT_SOURCE}|(?:Finanzamt|Jobcenter|Bundesagentur|Bundesamt|Landratsamt|Staatsanwaltschaft|Ausländerbehörde|Bauaufsichtsbehörde|Behörde|Ministerium|Regierungspräsidium|Bezirksamt|Gericht|Senat|Kammer)\p{L}*)(?![\p{L}])`, 'u');
const PROCEDURAL = /(?<![\p{L}])(?:Kläger\p{L}*|Beklagt\p{L}*|Revision\p{L}*|Berufung\p{L}*|Urteil\p{L}*|Beschluss\p{L}*|Beschlüss\p{L}*|Antrag\p{L}*|Anträge\p{L}*|Antragsteller\p{L}*|Antragsgegner\p{L}*|Anspruch\p{L}*|Ansprüche\p{L}*|Klage\p{L}*|Beschwerde\p{L}*|Widerspruch\p{L}*|Verfahren\p{L}*|Rechtsmittel\p{L}*|Rechtsstreit\p{L}*|Vollstreckung\p{L}*|Vorinstanz\p{L}*|Streitwert\p{L}*|Prozess\p{L}*)(?![\p{L}])/u;
/**
 * The same words as the last part of a compound ('Kündigungsschutzklage', 'Insolvenzantrag', 'Lohnanspruch',
 * 'Nichtzulassungsbeschwerde'); not 'verfahren' or 'prozess', which everyday compounds end in too
 * ('Produktionsprozess'), nor the 'Vorurteil'.
 */
const PROCEDURAL_COMPOUND = /\p{L}(?:klage|kläger|antrag|anträge|beschwerde|anspruch|ansprüche|berufung|revision|widerspruch|vollstreckung|(?<![Vv]or)urteil|beschluss|beschlüsse|rechtsmittel)\p{L}*/u;
const WRITING_MARKS = /(?<![\p{L}])(?:Rn\.|Rdnr\.?|RdNr\.?|Rz\.|Randnummer|Randnr\.|Tenor|Gründe|Entscheidungsgründe|vgl\.|a\.\s?a\.\s?O\.|aaO|ff\.|i\.\s?V\.\s?m\.|iVm|m\.\s?w\.\s?N\.|h\.\s?M\.|st\.\s?Rspr\.|stRspr|a\.\s?F\.|n\.\s?F\.)(?![\p{L}])/u;

const CHAIN_GAP = /^[\s,;]*(?:und|oder|sowie|bzw\.|i\.\s?V\.\s?m\.?|iVm\.?|in Verbindung mit)?[\s,;]*$/u;

/**
 * The categories that `text` shows. Words inside a statute citation ('i.V.m.' in '§ 280 i.V.m. § 241 BGB') count for
 * the statute alone, so a lone statute sentence stays one category however it is written.
 */
export function legalSignals(text: string): SignalCategory[] {
  const found: SignalCategory[] = [];
  const statutes = scanStatutes(text).citations;
  if (statutes.some((c) => c.law)) found.push('statute_reference');
  if (hasDecisionReference(text)) found.push('decision_reference');
  let prose = text;
  let maskFrom = -1;
  for (const [i, s] of statutes.entries()) {
    // A chain is masked whole, with the 'i.V.m.' and commas between its provisions.
    if (maskFrom < 0) maskFrom = s.start;
    const next = statutes[i + 1];
    if (next && CHAIN_GAP.test(text.slice(s.end, next.start))) continue;
    prose = prose.slice(0, maskFrom) + ' '.repeat(s.end - maskFrom) + prose.slice(s.end);
    maskFrom = -1;
  }
  if (COURT_OR_AUTHORITY.test(prose)) found.push('court_or_authority');
  if (PROCEDURAL.test(prose) || PROCEDURAL_COMPOUND.test(prose)) found.push('procedural_vocabulary');
  if (WRITING_MARKS.test(prose)) found.push('legal_writing_marks');
  return found;
}
