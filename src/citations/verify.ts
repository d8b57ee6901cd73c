// The resolver: one verdict per citation against the corpus, explained in `evidence` (resolutions.md, Citation check).
// verified: the decision, or the § / article of the law, is in the corpus. not_found: the court or law is covered but
// holds no such decision or unit. out_of_coverage: the court has no coverage range or the date lies outside it, or the
// law is not in the corpus. ambiguous: several decisions fit and the text does not say which.
// A wrong "verified" is the worst answer the product can give, so every doubt falls to the side of not verifying.
import type Database from 'better-sqlite3';
import { azKey } from '../corpus/ids.ts';
import { courtMatches } from '../corpus/find-decision.ts';
import { findLaw, type LawRow } from '../corpus/law-store.ts';
import { sql } from '../db/statements.ts';
import { canonicalStatute } from './statutes.ts';
import { heldUnderOtherSpelling } from './aktenzeichen.ts';
import type { CaseCitation, StatuteCitation, Subdivision } from './types.ts';

export type Verdict = 'verified' | 'not_found' | 'not_in_corpus' | 'out_of_coverage' | 'ambiguous';

export interface MatchedDecision {
  artifact_id: string;
  ecli: string | null;
  court: string;
  date: string | null;
}

export interface CourtCoverage {
  court: string;
  from: string | null;
  until: string | null;
  exhaustive: boolean;
  source: 'manifest' | 'holdings';
}

export interface Verification {
  verdict: Verdict;
  /** The canonical form, with the law as the corpus cites it. */
  canonical: string;
  target_artifact_id: string | null;
  matched_decision: MatchedDecision | null;
  subdivision_check: 'verified' | 'not_found' | 'not_checked';
  subdivision_advisory: string | null;
  check_scope: {
    subdivision: 'checked' | 'not_applicable' | 'not_checked';
    article_text_available: boolean | null;
    article_text_read: boolean;
    court: 'checked' | 'inferred_from_aktenzeichen' | 'not_named' | 'not_applicable';
  };
  ambiguity_advisory: string | null;
  coverage: CourtCoverage | null;
  coverage_boundary: 'before_start' | 'after_end' | null;
  coverage_advisory: string | null;
  reason: string;
  match_strength: 'exact' | 'strong' | 'none';
}

interface DecisionMatch { id: string; ecli: string | null; court: string; date: string | null }

const decisionOf = (row: DecisionMatch): MatchedDecision => ({ artifact_id: row.id, ecli: row.ecli, court: row.court, date: row.date });

function base(canonical: string): Verification {
  return {
    verdict: 'not_found', canonical, target_artifact_id: null, matched_decision: null, subdivision_check: 'not_checked',
    subdivision_advisory: null,
    check_scope: { subdivision: 'not_applicable', article_text_available: null, article_text_read: false, court: 'not_applicable' },
    ambiguity_advisory: null, coverage: null, coverage_boundary: null, coverage_advisory: null, reason: 'no_match', match_strength: 'none',
  };
}

/** A statute citation: the law by abbreviation, alias or name; the unit by kind and number; Absatz and Satz where held. */
export function verifyStatute(corpus: Database.Database, c: StatuteCitation): Verification {
  const law = (c.lawText ? findLaw(corpus, c.lawText) : undefined) ?? (c.law ? findLaw(corpus, c.law) : undefined);
  if (!law) {
    const v = base(c.canonical);
    v.verdict = 'out_of_coverage';
    v.reason = 'law_not_in_corpus';
    v.coverage_advisory = `The corpus holds no law cited as ${c.law ?? c.lawText}.`;
    return v;
  }
  const v = base(canonicalStatute(c.kind, c.number, c.subdivisions, law.abbreviation));
  v.check_scope.article_text_available = law.text_available === 1;
  const unit = sql<[string, string, string], { id: string; text: string | null; repealed: number }>(corpus,
    'SELECT id, text, repealed FROM law_units WHERE law_id = ? AND kind = ? AND number = ? COLLATE NOCASE',
  ).get(law.id, c.kind, c.number);
  if (!unit) {
    v.reason = 'unit_not_in_law';
    v.coverage_advisory = unitsHeldAdvisory(corpus, law, c);
    return v;
  }
  v.verdict = 'verified';
  v.reason = unit.repealed ? 'exact_match_repealed' : 'exact_match';
  v.match_strength = 'exact';
  v.target_artifact_id = unit.id;
  if (unit.repealed) v.subdivision_advisory = `${c.kind} ${c.number} ${law.abbreviation} is repealed ("weggefallen") in the version held.`;
  if (c.subdivisions.length === 0) return v;
  // Only Absatz, Satz, Nr. and lit. can be read from a unit's text; a citation of nothing else is not checked.
  const unchecked = c.subdivisions.filter((sub) => !CHECKED_LABELS.has(sub.label));
  if (unit.text === null || unchecked.length === c.subdivisions.length) {
    v.check_scope.subdivision = 'not_checked';
    return v;
  }
  v.check_scope.subdivision = 'checked';
  v.check_scope.article_text_read = true;
  const missing = missingSubdivision(unit.text, c.subdivisions);
  v.subdivision_check = missing ? 'not_found' : 'verified';
  if (missing) v.subdivision_advisory = `${c.kind} ${c.number} ${law.abbreviation} as held has no ${missing}.`;
  else if (unchecked.length > 0) {
    v.subdivision_advisory = `${unchecked.map((sub) => `${sub.label} ${sub.value}`).join(', ')} not checked (only Abs., Satz, Nr. and lit. are).`;
  }
  return v;
}

const CHECKED_LABELS: ReadonlySet<Subdivision['label']> = new Set(['Abs.', 'Satz', 'Nr.', 'lit.']);

/** A short statement of how much of a law the corpus holds, for a unit it does not hold. */
function unitsHeldAdvisory(corpus: Database.Database, law: LawRow, c: StatuteCitation): string {
  const count = sql<[string], { n: number }>(corpus, 'SELECT count(*) AS n FROM law_units WHERE law_id = ?').get(law.id)!.n;
  return `${law.abbreviation} is in the corpus (${count} units held) but has no ${c.kind} ${c.number}.`;
}

/** The Absätze of a unit's text: lines starting '(1)', '(2)', ...; a text without them is one Absatz. */
function absaetze(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let current: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^\((\d{1,2}[a-z]?)\)\s*/u.exec(line);
    if (m) {
      current = m[1];
      out.set(current, line.slice(m[0].length));
    } else if (current) {
      out.set(current, `${out.get(current)}\n${line}`);
    }
  }
  if (out.size === 0) out.set('1', text);
  return out;
}

const SENTENCE_ABBREVIATIONS = /(?:Abs|Nr|Nrn|S|Art|Buchst|lit|bzw|vgl|z\.\s?B|u\.\s?a|d\.\s?h|ggf|sog|Ziff|Anh|Anl|v|i\.\s?V\.\s?m|Satz)\.$/u;

/** Counts the sentences of an Absatz (numbered items do not end a sentence by their dots). */
function sentenceCount(absatz: string): number {
  // A sentence starts with a capital or §, or with its printed number glued to it ('2Einkünfte': EStG, AO, UStG).
  const parts = absatz.split(/(?<=[.;:?!])\s+(?=\p{Lu}|§|\d{1,2}\p{Lu})/u);
  let count = 0;
  let carry = '';
  for (const part of parts) {
    carry += (carry ? ' ' : '') + part;
    if (SENTENCE_ABBREVIATIONS.test(carry.trimEnd()) || /\d\.$/u.test(carry.trimEnd())) continue;
    count++;
    carry = '';
  }
  return Math.max(1, count + (carry ? 1 : 0));
}

/** The first cited subdivision the unit text does not have ('Abs. 7', 'Abs. 2 Nr. 9'), or null when Absatz, Satz, Nr. and lit. exist. */
function missingSubdivision(text: string, subdivisions: readonly Subdivision[]): string | null {
  const held = absaetze(text);
  const abs = subdivisions.find((s) => s.label === 'Abs.');
  let absatz = held.size === 1 ? [...held.values()][0] : undefined;
  if (abs) {
    absatz = held.get(abs.value);
    if (absatz === undefined) return `Abs. ${abs.value}`;
  }
  const prefix = abs ? `Abs. ${abs.value} ` : '';
  const satz = subdivisions.find((s) => s.label === 'Satz');
  if (satz && absatz !== undefined && /^\d+$/u.test(satz.value) && Number(satz.value) > sentenceCount(absatz)) {
    return `${prefix}Satz ${satz.value}`;
  }
  // Nr. and lit. are read from the list items of the Absatz (of any Absatz where none is cited): '1. ...', 'a) ...'.
  const nr = subdivisions.find((s) => s.label === 'Nr.');
  const lit = subdivisions.find((s) => s.label === 'lit.');
  if (!nr && !lit) return null;
  const scopes = absatz !== undefined ? [absatz] : [...held.values()];
  const inNr = nr ? scopes.map((a) => listItems(a, 'Nr.').get(nr.value)).find((item) => item !== undefined) : undefined;
  if (nr && inNr === undefined) return `${prefix}Nr. ${nr.value}`;
  if (lit && !(inNr !== undefined ? [inNr] : scopes).some((a) => listItems(a, 'lit.').has(lit.value))) {
    return `${prefix}${nr ? `Nr. ${nr.value} ` : ''}lit. ${lit.value}`;
  }
  return null;
}

/**
 * The items of a list in a provision's text, in sequence ('1.', '2.', '2a.', '3.' or 'a)', 'b)'): value -> the item's
 * text up to the next item. Numbers out of sequence ('vom 1. Januar') are no items.
 */
function listItems(text: string, kind: 'Nr.' | 'lit.'): Map<string, string> {
  const marker = kind === 'Nr.' ? /(?<=^|\s)(\d{1,3}[a-z]?)\.(?=\s)/gu : /(?<=^|\s)([a-z])\)(?=\s)/gu;
  const found: { value: string; at: number }[] = [];
  for (const m of text.matchAll(marker)) {
    const previous = found[found.length - 1]?.value;
    const next = kind === 'Nr.'
      ? String((previous ? parseInt(previous, 10) : 0) + 1)
      : String.fromCharCode((previous ?? '`').charCodeAt(0) + 1);
    const inserted = kind === 'Nr.' && previous !== undefined && new RegExp(`^${parseInt(previous, 10)}[a-z]$`, 'u').test(m[1]);
    if (m[1] === next || inserted) found.push({ value: m[1], at: m.index });
  }
  return new Map(found.map((item, i) => [item.value, text.slice(item.at, found[i + 1]?.at ?? text.length)]));
}

/** Coverage of a court: a manifest range if one is imported, else its holdings from earliest to latest decision. */
export function courtCoverage(corpus: Database.Database, court: string): CourtCoverage | null {
  const manifest = sql<[string], { from_date: string; until_date: string | null; exhaustive: number }>(corpus,
    'SELECT min(from_date) AS from_date, max(coalesce(until_date, \'9999\')) AS until_date, max(exhaustive) AS exhaustive FROM coverage_ranges WHERE court = ? HAVING count(*) > 0',
  ).get(court);
  if (manifest) {
    return { court, from: manifest.from_date, until: manifest.until_date === '9999' ? null : manifest.until_date, exhaustive: manifest.exhaustive === 1, source: 'manifest' };
  }
  const held = sql<[string], { earliest: string | null; latest: string | null; n: number }>(corpus,
    'SELECT min(date) AS earliest, max(date) AS latest, count(*) AS n FROM decisions WHERE court = ?',
  ).get(court)!;
  if (held.n === 0) return null;
  return { court, from: held.earliest, until: held.latest, exhaustive: false, source: 'holdings' };
}

/** The year an Aktenzeichen names ('VI ZR 496/18' -> 2018, '4 C 7.15' -> 2015), as a date range to test coverage. */
function yearOfAktenzeichen(aktenzeichen: string): string | null {
  const m = /[./](\d{2}|\d{4})(?:\s+\S+)*$/u.exec(aktenzeichen);
  if (!m) return null;
  let year = Number(m[1]);
  if (m[1].length === 2) year += year > 40 ? 1900 : 2000;
  return String(year);
}

/** A decision citation: by ECLI, else by Aktenzeichen narrowed by court and date. Reporter citations are not indexed. */
export function verifyCase(corpus: Database.Database, c: CaseCitation): Verification {
  const v = base(c.canonical);
  v.check_scope.court = c.court ? (c.courtFromRegister ? 'inferred_from_aktenzeichen' : 'checked') : 'not_named';
  if (c.ecli) {
    const row = sql<[string], DecisionMatch>(corpus, 'SELECT id, ecli, court, date FROM decisions WHERE ecli = ?').get(c.ecli);
    if (row) return matched(v, row, 'exact_match', 'exact');
  }
  if (c.aktenzeichen) return verifyAktenzeichen(corpus, c, v);
  // An ECLI names its court and year ('ECLI:DE:BGH:2015:...'): coverage is judged by them.
  if (c.ecli) return uncovered(corpus, v, c.court, c.date ?? c.ecli.split(':')[3] ?? null, 'ecli_not_in_corpus');
  v.verdict = 'out_of_coverage';
  v.reason = 'reporter_not_indexed';
  v.coverage_advisory = 'The corpus holds no index of reporter citations (BGHZ, NJW, ...); cite the decision by court, date '
    + 'and Aktenzeichen or ECLI to have it verified.';
  return v;
}

function verifyAktenzeichen(corpus: Database.Database, c: CaseCitation, v: Verification): Verification {
  const exact = sql<[string], DecisionMatch>(corpus,
    `SELECT DISTINCT d.id, d.ecli, d.court, d.date FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id
     WHERE f.az_key = +? ORDER BY d.date, d.court`,
  ).all(azKey(c.aktenzeichen!));
  // The named court may hold it under another spelling ('I-4 U 22/18' cited as '4 U 22/18'; aktenzeichen.ts).
  const all = exact.length > 0 || !c.court ? exact : heldUnderOtherSpelling<DecisionMatch>(corpus, c.aktenzeichen!, c.court);
  const sameCourt = c.court ? all.filter((row) => courtMatches(row.court, c.court!)) : all;
  const sameDate = c.date ? sameCourt.filter((row) => row.date === c.date) : sameCourt;
  const named = (rows: DecisionMatch[]) => rows.slice(0, 10).map((r) => `${r.court}, ${r.date ?? 'undated'}, ${c.aktenzeichen} (id ${r.id})`).join('; ');

  if (sameDate.length === 1 && (c.court || c.date)) {
    return matched(v, sameDate[0], 'exact_match', c.court && c.date ? 'exact' : 'strong');
  }
  if (sameDate.length > 1 || (sameDate.length === 1 && !c.court && !c.date)) {
    v.verdict = 'ambiguous';
    v.reason = c.court ? 'several_decisions_of_court' : 'court_not_named';
    v.ambiguity_advisory = `The text names ${c.court ? 'no date' : 'no court'}; ${sameDate.length} decision(s) fit: ${named(sameDate)}.`;
    return v;
  }
  if (c.date && sameCourt.length > 0) {
    // The court holds this Aktenzeichen, but under another date: another decision of the same proceedings, or a typo.
    v.reason = 'date_mismatch';
    v.ambiguity_advisory = `No decision of ${c.date}; the corpus holds ${named(sameCourt)}.`;
    return withCoverage(corpus, v, c.court, c.date, true);
  }
  if (!c.court && all.length === 0) {
    v.verdict = 'out_of_coverage';
    v.reason = 'court_not_named';
    v.coverage_advisory = 'The citation names no court and no decision of the corpus has this Aktenzeichen.';
    return v;
  }
  if (c.court && all.length > 0) v.ambiguity_advisory = `This Aktenzeichen is held by other courts: ${named(all)}.`;
  return uncovered(corpus, v, c.court, c.date ?? yearOfAktenzeichen(c.aktenzeichen!), 'no_decision_with_aktenzeichen');
}

function matched(v: Verification, row: DecisionMatch, reason: string, strength: 'exact' | 'strong'): Verification {
  v.verdict = 'verified';
  v.reason = reason;
  v.match_strength = strength;
  v.matched_decision = decisionOf(row);
  v.target_artifact_id = row.id;
  return v;
}

/** Nothing matched: not_found where the court is covered at that date, out_of_coverage otherwise. */
function uncovered(corpus: Database.Database, v: Verification, court: string | null, date: string | null, reason: string): Verification {
  v.reason = reason;
  return withCoverage(corpus, v, court, date, false);
}

function withCoverage(corpus: Database.Database, v: Verification, court: string | null, date: string | null, keepNotFound: boolean): Verification {
  const coverage = court ? courtCoverage(corpus, court) : null;
  v.coverage = coverage;
  if (!coverage) {
    v.verdict = 'out_of_coverage';
    v.coverage_advisory = court ? `The corpus holds no decisions of ${court}.` : 'The citation names no court.';
    return v;
  }
  const range = `${coverage.court} is covered from ${coverage.from ?? 'its first decision'} to ${coverage.until ?? 'today'}`;
  if (!date) {
    v.verdict = keepNotFound ? 'not_found' : 'out_of_coverage';
    v.coverage_advisory = `The citation gives no date; ${range}.`;
    return v;
  }
  const day = date.length === 4 ? null : date;
  const before = coverage.from && (day ? day < coverage.from : date < coverage.from.slice(0, 4));
  const after = coverage.until && (day ? day > coverage.until : date > coverage.until.slice(0, 4));
  if (before || after) {
    v.verdict = 'out_of_coverage';
    v.coverage_boundary = before ? 'before_start' : 'after_end';
    v.coverage_advisory = `${day ?? `The year ${date}`} lies outside the coverage: ${range}.`;
    return v;
  }
  if (!coverage.exhaustive && !keepNotFound) return notInCorpus(v, coverage, range);
  v.verdict = 'not_found';
  v.coverage_advisory = `${range}${coverage.exhaustive ? ' (exhaustively)' : ''}; no such decision is held.`;
  return v;
}

/**
 * Inside a range that lists the court's decisions only in part (derived from the holdings, or a manifest that does
 * not claim exhaustiveness), a decision not held may well exist: not_in_corpus says so, where not_found would read
 * as "invented" (docs/citations.md).
 */
function notInCorpus(v: Verification, coverage: CourtCoverage, range: string): Verification {
  v.verdict = 'not_in_corpus';
  const basis = coverage.source === 'holdings' ? 'derived from the decisions it holds' : 'not exhaustive';
  v.coverage_advisory = `${range}, but this coverage is ${basis}: no source lists every decision of ${coverage.court} here. `
    + 'The decision is not in the corpus, which does not mean it does not exist; check it in an official source '
    + '(rechtsprechung-im-internet.de) or complete the corpus with juralite sync.';
  return v;
}
