// The citation engine's entry point: decisions first (their spans hide the § inside 'SozR 4-4200 § 22 Nr 88'), then
// statutes, then the law of a provision that names none is taken from the provision cited just before it.
// One caller is the citation check (src/citations/check.ts), the other the importer that turns decisions into edges.
import { scanCases, type CaseScanOptions } from './cases.ts';
import { backReferences } from './back-references.ts';
import { canonicalStatute, scanStatutes, type LawNameLookup } from './statutes.ts';
import { registryAbbreviation } from '../corpus/law-aliases.ts';
import type { CaseCitation, Citation, StatuteCitation } from './types.ts';

/** The run's `extraction` object: what was seen, what was dropped and why (api-v1.md, Citation check run). */
export interface ExtractionReport {
  detected: number;
  dropped: number;
  dropped_unreadable: number;
  dropped_truncation: number;
  dropped_trailing_noun: number;
  dropped_stacked_subdivision: number;
  dropped_refused_collision: number;
  not_verifiable: number;
  possible_citations_unparsed: number;
  dropped_by_token: { token: string; count: number }[];
  dropped_unreadable_texts: string[];
  refused_contract_collision: string[];
  not_verifiable_by_type: { type: string; count: number }[];
  possible_citations_unparsed_texts: string[];
}

export interface Extraction {
  /** Every citation found, in text order; statutes without any law are left out (counted in the report). */
  citations: Citation[];
  report: ExtractionReport;
}

/** How far back (UTF-16 units) a provision without a law looks for the law of the provision before it. */
const CONTEXT_WINDOW = 600;
/** A court, decision type and date with no Aktenzeichen, ECLI or reporter after it: a citation we cannot verify. */
const UNPARSED_DECISION = /(?<![\p{L}])(?:BGH|BVerfG|BVerwG|BAG|BSG|BFH|BPatG|EuGH|OLG\s\p{Lu}\p{L}+|LG\s\p{Lu}\p{L}+),?\s(?:Urt(?:eil|\.)|Beschl(?:uss|\.))\s(?:vom|v\.)\s\d{1,2}\.\s?(?:\d{1,2}\.\s?\d{2,4}|\p{L}+\s\d{4})(?![\s,-]*(?:[-–]\s*)?(?:Az\.?\s*)?[\dIVXBLSC]{1,4}[\s-])/gu;

export interface ExtractOptions extends CaseScanOptions {
  /** Law names beyond the registry (the corpus's laws: corpusLawNames in law-names.ts). */
  lawNames?: LawNameLookup;
  /**
   * Short forms repeating a decision cited before ('BGH, aaO', 'ebd.') as citations with role back_reference
   * (back-references.ts). The check reads them; the graph does not (the decision's edge stands already).
   */
  backReferences?: boolean;
}

export function extractCitations(text: string, options: ExtractOptions = {}): Extraction {
  const scanned = scanCases(text, options);
  const cases = options.backReferences ? [...scanned, ...backReferences(text, scanned)].sort((a, b) => a.start - b.start) : scanned;
  const statuteScan = scanStatutes(text, cases, options.lawNames);
  const { drops } = statuteScan;
  const statutes: StatuteCitation[] = [];
  const literature: string[] = [];
  for (const [i, s] of statuteScan.citations.entries()) {
    if (s.law) {
      // A provision with its law written stays a statute citation even inside a commentary reference
      // ('Köhler/Bornkamm, UWG, 28. Aufl., § 5 UWG Rdn. 2.92' names § 5 UWG, which exists).
      statutes.push(s);
      continue;
    }
    if (LITERATURE_BEFORE.test(text.slice(Math.max(0, s.start - 16), s.start)) || LITERATURE_AFTER.test(text.slice(s.end, s.end + 12))) {
      literature.push(text.slice(s.start, s.end));
      continue;
    }
    const named = lawNamedAfter(text, s);
    if (named?.own) {
      const canonical = canonicalStatute(s.kind, s.number, s.subdivisions, named.law);
      statutes.push({ ...s, end: named.end, law: named.law, lawText: named.law, canonical });
      continue;
    }
    const context = named ? null : lawAfter(statuteScan.citations, i, text) ?? lawBefore(statutes, s, text);
    if (context) statutes.push({ ...s, law: context, lawFromContext: true, canonical: canonicalStatute(s.kind, s.number, s.subdivisions, context) });
    else drops.withoutLaw.push(text.slice(s.start, s.end));
  }
  const citations: Citation[] = [...cases, ...statutes].sort((a, b) => a.start - b.start);

  const unparsed = [...text.matchAll(UNPARSED_DECISION)]
    .filter((m) => !cases.some((c) => c.start <= m.index && m.index < c.end))
    .map((m) => m[0]);
  const reporterOnly = cases.filter((c) => !c.aktenzeichen && !c.ecli).length;
  const notVerifiable = [
    { type: 'statute_without_law', count: drops.withoutLaw.length },
    { type: 'reporter_citation_only', count: reporterOnly },
    { type: 'literature_section', count: literature.length },
  ].filter((t) => t.count > 0);
  const tokens = new Map<string, number>();
  for (const t of [...drops.trailingNoun, ...drops.contractCollision]) {
    const token = t.split(' ').pop() ?? t;
    tokens.set(token, (tokens.get(token) ?? 0) + 1);
  }
  const dropped = drops.unreadable.length + drops.truncation + drops.trailingNoun.length + drops.stacked + drops.contractCollision.length;
  return {
    citations,
    report: {
      detected: citations.length + dropped + drops.withoutLaw.length + literature.length,
      dropped,
      dropped_unreadable: drops.unreadable.length,
      dropped_truncation: drops.truncation,
      dropped_trailing_noun: drops.trailingNoun.length,
      dropped_stacked_subdivision: drops.stacked,
      dropped_refused_collision: drops.contractCollision.length,
      not_verifiable: drops.withoutLaw.length + reporterOnly + literature.length,
      possible_citations_unparsed: unparsed.length,
      dropped_by_token: [...tokens].map(([token, count]) => ({ token, count })),
      dropped_unreadable_texts: drops.unreadable,
      refused_contract_collision: drops.contractCollision,
      not_verifiable_by_type: notVerifiable,
      possible_citations_unparsed_texts: unparsed,
    },
  };
}

/** A § in a commentary or textbook ('aaO, § 38 II', '2. Aufl., 1953, § 74 Anm. 13'), not a statute. */
const LITERATURE_BEFORE = /(?:a\.\s?a\.\s?O\.|aaO|Aufl\.|(?:1[89]|20)\d\d|Begründung zu|BT-Drucks\.?[^,;]{0,20})\s?,?\s*$/u;
const LITERATURE_AFTER = /^\s*(?:[IVX]{1,4}\b\s*\d*\s*)?(?:Anm\.|Rdn\.|Rn\.|Rz\.|Rdnr\.)/u;
/** How far ahead in the same sentence a provision without a law looks for the law of the next one ('des § 236 anstelle des § 240 SGB V'). */
const FORWARD_WINDOW = 60;
/** How far after a provision a law it names is looked for (lawNamedAfter). */
const LAW_NAMED_WITHIN = 40;
/** Subdivisions the scanner did not read ('a) und b)', ', Buchst. a , Var. 2 )'): all that may precede its own law. */
const UNREAD_SUBDIVISIONS = /^(?:[\s,.()]|\d{1,4}[a-z]?|[a-z]\)?|und|oder|bzw|Abs|Satz|S|Nr|Buchst|lit|Alt|Var|Halbs|Hs|Teils|Teilsatz|Ziff|UAbs)*$/u;

/**
 * A law named in the words right after a provision that the scanner could not attach to it. Past nothing but
 * subdivisions it did not read ('§ 543 Abs. 2 Satz 1 Nr. 3 a) und b) BGB') it is the provision's own (`own`, up to
 * `end`); otherwise ('Art. 1 A Nr. 2 GFK', 'Art. 7 der Brüssel-Ia-Verordnung') it only forbids borrowing a law from
 * the provisions around, which would verify another law's article.
 */
function lawNamedAfter(text: string, s: StatuteCitation): { law: string; own: boolean; end: number } | null {
  const clause = text.slice(s.end, s.end + LAW_NAMED_WITHIN).split(/[;§\n]|\bArt\.|\.\s+\p{Lu}/u)[0];
  for (const word of clause.matchAll(/\p{Lu}[\p{L}-]*\p{Lu}[\p{L}-]*/gu)) {
    const law = registryAbbreviation(word[0]);
    if (!law) continue;
    return { law, own: UNREAD_SUBDIVISIONS.test(clause.slice(0, word.index)), end: s.end + word.index + word[0].length };
  }
  const written = /^\s*(?:der|des)\s+(\p{Lu}[^\s,;]*)/u.exec(clause);
  return written ? { law: written[1], own: false, end: s.end } : null;
}

/** The written law of the next provision of the same kind, close behind in the same sentence. */
function lawAfter(scanned: readonly StatuteCitation[], index: number, text: string): string | null {
  const s = scanned[index];
  for (let j = index + 1; j < scanned.length; j++) {
    const next = scanned[j];
    if (next.start - s.end > FORWARD_WINDOW || /[.;:]\s|\n/u.test(text.slice(s.end, next.start))) return null;
    if (next.kind === s.kind && next.law) return next.law;
  }
  return null;
}

/** The law of the nearest earlier provision of the same kind in the same paragraph ('§ 184 SGG ... nach § 185'). */
function lawBefore(statutes: readonly StatuteCitation[], s: StatuteCitation, text: string): string | null {
  for (let i = statutes.length - 1; i >= 0; i--) {
    const prior = statutes[i];
    if (s.start - prior.end > CONTEXT_WINDOW) return null;
    if (prior.kind !== s.kind || !prior.law) continue;
    if (/\n\s*\n/u.test(text.slice(prior.end, s.start))) return null;
    return prior.law;
  }
  return null;
}

export type { CaseCitation, Citation, StatuteCitation };
