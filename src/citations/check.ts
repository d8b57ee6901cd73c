// The citation check: extraction + verification + the run object of the contract (api-v1.md, Citation check run).
// Shared by POST /citation-checks, the MCP tool and `juralite check`. Offsets leave here as code points.
import type Database from 'better-sqlite3';
import { codePointIndexer } from '../text/code-points.ts';
import { checkClaims, type ClaimCheck, type PinpointCheck, type PinpointFinding, type QuotationFinding } from './claims.ts';
import { extractCitations, type ExtractionReport } from './extract.ts';
import { corpusLawNames } from './law-names.ts';
import { renumberingAdvisory } from './renumbered.ts';
import { parseGermanDate } from './cases.ts';
import { sentenceAround } from './sentence.ts';
import type { Citation } from './types.ts';
import { verifyCase, verifyStatute, type MatchedDecision, type Verification } from './verify.ts';

/** More findings than this are cut from the answer (`payload_truncated`); counts and unique citations stay whole. */
export const MAX_FINDINGS = 1000;

export interface Finding {
  id: string;
  raw_text: string;
  canonical: string;
  type: 'case' | 'statute';
  role: string | null;
  verdict: Verification['verdict'];
  external_status: 'skipped';
  start_offset: number;
  end_offset: number;
  occurrence_index: number;
  confidence: number;
  matched_decision: MatchedDecision | null;
  subdivision_check: Verification['subdivision_check'];
  subdivision_advisory: string | null;
  check_scope: Verification['check_scope'];
  ambiguity_advisory: string | null;
  numbering_advisory: string | null;
  coverage: Verification['coverage'];
  coverage_boundary: Verification['coverage_boundary'];
  coverage_advisory: string | null;
  evidence: {
    reason: string;
    match_strength: Verification['match_strength'];
    citation_date_source: 'sentence' | 'reference_date' | 'none';
    citation_date: string | null;
    law_source?: 'written' | 'context';
    court_source?: 'written' | 'aktenzeichen' | 'none';
  };
  disputed_at: null;
  /** The Randnummer pinpoint as read ('Rn. 12 ff.'), or null (docs/citations.md, Claims). */
  pinpoint: PinpointFinding | null;
  pinpoint_check: PinpointCheck;
  pinpoint_advisory: string | null;
  /** Quotations attributed to this citation, each looked up in its held text. */
  quotations: QuotationFinding[];
  /** Whether what the text claims (pinpoint, subdivision, quotations) is in what it cites; the verdict is unchanged. */
  claim_check: ClaimCheck;
}

export interface UniqueCitation {
  key_basis: 'matched_decision' | 'canonical';
  target_artifact_id: string | null;
  canonical: string;
  spellings: string[];
  occurrences: number;
  verdict: Verification['verdict'];
  reference_type: 'case' | 'statute';
}

export interface CheckRun {
  id: string;
  status: 'complete';
  source: string;
  progress: { citations_total: number; citations_checked: number; unique_citations_total: number };
  verdict_counts: Record<string, number>;
  partial: boolean;
  unverified_count: number;
  reason_counts: { category: string; count: number }[];
  unique_citations: UniqueCitation[];
  extraction: ExtractionReport;
  notes: { code: string; message: string }[];
  findings_unavailable_reason: string | null;
  findings_purged_at: string | null;
  findings: Finding[];
  submitted_at: string;
  completed_at: string;
  created_at: string;
  payload_truncated: boolean;
  /** Findings by claim_check (not_applicable left out). */
  claim_counts: Record<Exclude<ClaimCheck, 'not_applicable'>, number>;
}

export interface CheckInput {
  id: string;
  text: string;
  reference_date?: string | null;
  source: string;
  submittedAt: Date;
  clock?: () => Date;
}

const NOTES = [
  { code: 'offline', message: 'Checked against the local corpus only; no external source was consulted (external_status skipped).' },
  { code: 'fortgeltung', message: 'A verified decision exists in the corpus; whether it has been quashed or superseded was not checked.' },
];

/** A date written in the sentence around a citation ('am 1. März 2019', '01.03.2019'), outside any decision citation. */
const SENTENCE_DATE = /\b(\d{1,2}\.\s?(?:\d{1,2}\.\s?\d{4}|(?:Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember)\s\d{4}))\b/gu;

/** The date that applies to a statute citation: one written in its sentence, else the reference date. */
function citationDate(text: string, c: Citation, cases: readonly Citation[], referenceDate: string | null):
  { date: string | null; source: 'sentence' | 'reference_date' | 'none' } {
  if (c.type === 'statute' && c.versionDate) return { date: parseGermanDate(c.versionDate), source: 'sentence' };
  const [from, to] = sentenceAround(text, c.start, c.end);
  for (const m of text.slice(from, to).matchAll(SENTENCE_DATE)) {
    const at = from + m.index;
    if (cases.some((k) => k.start <= at && at < k.end)) continue;
    const date = parseGermanDate(m[1]);
    if (date) return { date, source: 'sentence' };
  }
  return referenceDate ? { date: referenceDate, source: 'reference_date' } : { date: null, source: 'none' };
}

/** Runs the whole check over `text` against `corpus` and returns the run (without the per-call envelope). */
export function runCheck(corpus: Database.Database, input: CheckInput): CheckRun {
  const { text } = input;
  const { citations, report } = extractCitations(text, { lawNames: corpusLawNames(corpus), backReferences: true });
  const toCodePoint = codePointIndexer(text);
  const cases = citations.filter((c) => c.type === 'case');
  const occurrences = new Map<string, number>();
  const verifications = new Map<string, Verification>();
  const targets: (string | null)[] = [];
  const verified: Verification[] = [];

  const findings: Finding[] = citations.map((c, index) => {
    const memo = c.type === 'statute' ? `s|${c.canonical}|${c.lawText}` : `c|${c.canonical}|${c.date}|${c.ecli}`;
    let v = verifications.get(memo);
    if (!v) {
      v = c.type === 'statute' ? verifyStatute(corpus, c) : verifyCase(corpus, c);
      verifications.set(memo, v);
    }
    targets.push(v.target_artifact_id);
    verified.push(v);
    const occurrence = occurrences.get(v.canonical) ?? 0;
    occurrences.set(v.canonical, occurrence + 1);
    const dated = c.type === 'statute' ? citationDate(text, c, cases, input.reference_date ?? null) : { date: c.date, source: 'none' as const };
    return {
      id: `f${index + 1}`,
      raw_text: text.slice(c.start, c.end),
      canonical: v.canonical,
      type: c.type,
      role: c.type === 'case' ? c.role : null,
      verdict: v.verdict,
      external_status: 'skipped',
      start_offset: toCodePoint(c.start),
      end_offset: toCodePoint(c.end),
      occurrence_index: occurrence,
      confidence: confidenceOf(c),
      matched_decision: v.matched_decision,
      subdivision_check: v.subdivision_check,
      subdivision_advisory: v.subdivision_advisory,
      check_scope: v.check_scope,
      ambiguity_advisory: v.ambiguity_advisory,
      numbering_advisory: c.type === 'statute' ? renumberingAdvisory(v.canonical, dated.date) : null,
      coverage: v.coverage,
      coverage_boundary: v.coverage_boundary,
      coverage_advisory: v.coverage_advisory,
      evidence: {
        reason: v.reason,
        match_strength: v.match_strength,
        citation_date_source: c.type === 'statute' ? dated.source : (c.date ? 'sentence' : 'none'),
        citation_date: dated.date,
        ...(c.type === 'statute'
          ? { law_source: c.lawFromContext ? 'context' as const : 'written' as const }
          : { court_source: c.court ? (c.courtFromRegister ? 'aktenzeichen' as const : 'written' as const) : 'none' as const }),
      },
      disputed_at: null,
      pinpoint: null,
      pinpoint_check: 'not_applicable',
      pinpoint_advisory: null,
      quotations: [],
      claim_check: 'not_applicable',
    };
  });
  const claims = checkClaims(corpus, text, citations, verified, toCodePoint);
  const claimCounts = { supported: 0, not_supported: 0, not_checked: 0 };
  for (const [i, f] of findings.entries()) {
    Object.assign(f, claims[i]);
    if (f.claim_check !== 'not_applicable') claimCounts[f.claim_check]++;
  }

  const unique = uniqueCitations(findings, targets);
  const verdictCounts: Record<string, number> = {};
  const reasons = new Map<string, number>();
  for (const f of findings) {
    verdictCounts[f.verdict] = (verdictCounts[f.verdict] ?? 0) + 1;
    reasons.set(f.evidence.reason, (reasons.get(f.evidence.reason) ?? 0) + 1);
  }
  const completedAt = (input.clock ?? (() => input.submittedAt))().toISOString();
  return {
    id: input.id,
    status: 'complete',
    source: input.source,
    progress: { citations_total: findings.length, citations_checked: findings.length, unique_citations_total: unique.length },
    verdict_counts: verdictCounts,
    partial: false,
    unverified_count: findings.filter((f) => f.verdict !== 'verified').length,
    reason_counts: [...reasons].map(([category, count]) => ({ category, count })).sort((a, b) => b.count - a.count || a.category.localeCompare(b.category)),
    unique_citations: unique,
    extraction: report,
    notes: claimCounts.not_supported > 0 ? [...NOTES, claimsNote(claimCounts.not_supported)] : NOTES,
    findings_unavailable_reason: null,
    findings_purged_at: null,
    findings: findings.slice(0, MAX_FINDINGS),
    submitted_at: input.submittedAt.toISOString(),
    completed_at: completedAt,
    created_at: input.submittedAt.toISOString(),
    payload_truncated: findings.length > MAX_FINDINGS,
    claim_counts: claimCounts,
  };
}

/** The note a run carries when a cited decision or provision exists but does not hold what the text claims of it. */
function claimsNote(count: number) {
  return {
    code: 'claims_not_supported',
    message: `${count} finding(s) cite a decision or provision the corpus holds, but a Randnummer, subdivision or quotation `
      + 'the text attributes to it is not there (claim_check not_supported; the verdict says only that it exists).',
  };
}

/** How sure the extraction is that this is the citation meant (not the verdict): lower where something was inferred. */
function confidenceOf(c: Citation): number {
  if (c.type === 'statute') return c.lawFromContext ? 0.8 : 1;
  if (!c.aktenzeichen && !c.ecli) return 0.9;
  return c.courtFromRegister || !c.court ? 0.9 : 1;
}

/** Findings grouped by the decision they matched, else by canonical form, in order of first occurrence. */
function uniqueCitations(findings: readonly Finding[], targets: readonly (string | null)[]): UniqueCitation[] {
  const groups = new Map<string, UniqueCitation>();
  for (const [index, f] of findings.entries()) {
    const key = f.matched_decision ? `d|${f.matched_decision.artifact_id}` : `c|${f.type}|${f.canonical}`;
    const group = groups.get(key);
    if (group) {
      group.occurrences++;
      if (!group.spellings.includes(f.raw_text)) group.spellings.push(f.raw_text);
      continue;
    }
    groups.set(key, {
      key_basis: f.matched_decision ? 'matched_decision' : 'canonical',
      target_artifact_id: targets[index],
      canonical: f.canonical,
      spellings: [f.raw_text],
      occurrences: 1,
      verdict: f.verdict,
      reference_type: f.type,
    });
  }
  return [...groups.values()];
}
