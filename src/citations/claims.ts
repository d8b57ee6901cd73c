// What a text claims about a cited decision or provision, checked against its held text: the Randnummern it pinpoints
// and the quotations it attributes to it. The verdict says whether the cited thing exists; claim_check says whether
// it says what the text claims (docs/citations.md, Claims). Each held text is read once per check, however often cited.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { decisionText } from '../corpus/stored-text.ts';
import { missingRandnummern, reach, readPinpoint, type Pinpoint, type RandnummerRange } from './pinpoint.ts';
import { closestMatch, findQuotations, heldText, occurrences, type HeldText, type Occurrence, type Quotation } from './quotation.ts';
import { sentenceAround } from './sentence.ts';
import type { Citation } from './types.ts';
import type { Verification } from './verify.ts';

export type PinpointCheck = 'verified' | 'not_found' | 'not_checked' | 'not_applicable';
export type ClaimCheck = 'supported' | 'not_supported' | 'not_checked' | 'not_applicable';

/** A quotation attributed to a finding (offsets in code points into the checked text, the marks included). */
export interface QuotationFinding {
  text: string;
  start_offset: number;
  end_offset: number;
  omissions: number;
  /** found: every word, in order (omissions honoured); not_found: checked against every citation it may belong to. */
  check: 'found' | 'not_found' | 'not_checked';
  /** 1 when found; else the share of the quotation's words the closest passage matches (0 to 1); null: no held text. */
  similarity: number | null;
  /** Where it was found, or the closest passage: Randnummern (null where the decision prints none, or a provision). */
  rn_from: number | null;
  rn_to: number | null;
  /** The decision's section there ('Leitsatz', 'Gründe', ...), or null. */
  section: string | null;
  /** The closest passage of the held text when not found (at most 500 characters), else null. */
  best_match: string | null;
  advisory: string | null;
}

/** The pinpoint as read, in the answer's shape. */
export interface PinpointFinding {
  text: string;
  start_offset: number;
  end_offset: number;
  randnummern: RandnummerRange[];
}

export interface Claims {
  pinpoint: PinpointFinding | null;
  pinpoint_check: PinpointCheck;
  pinpoint_advisory: string | null;
  quotations: QuotationFinding[];
  claim_check: ClaimCheck;
}

interface Held {
  label: string;
  /** The printed Randnummern, in order (all a pinpoint needs); a provision has none. */
  numbers: number[];
  /** The text, as words, with its Randnummern and sections (UTF-16 offsets): read on the first quotation looked up. */
  detail: () => HeldDetail;
}

interface HeldDetail {
  source: string;
  words: HeldText;
  randnummern: { rn: number; start: number; end: number }[];
  sections: { name: string; start: number; end: number }[];
}

// Between a quotation and the citation right after it, across a sentence end: '“ (BGH ...', '“. Vgl. BGH ...'.
const BRIDGE = /^[\s\p{P}]*(?:(?:vgl|so|siehe|s|ebenso|ähnlich|auch|etwa|dazu|zuletzt|bereits|schon|insbesondere|grundlegend)\.?[\s\p{P}]*)*$/iu;
// From a citation to a quotation it introduces: the rest of the clause, a colon, perhaps a Randnummer line.
const INTRODUCED = /^[^;„“"»«\n]{0,160}:[\s\d]*$/u;
const BEST_MATCH_CHARS = 500;
/** Below this share of its words, a quotation near only statute citations quotes something else (a party, a commentary). */
const STATUTE_QUOTATION_SIMILARITY = 0.5;

/** Reads and checks the claims of every citation; `verifications[i]` belongs to `citations[i]`. */
export function checkClaims(corpus: Database.Database, text: string, citations: readonly Citation[],
  verifications: readonly Verification[], toCodePoint: (utf16: number) => number): Claims[] {
  const cache = new Map<string, Held | null>();
  const heldOf = (i: number): Held | null => {
    const v = verifications[i];
    if (v.verdict !== 'verified' || !v.target_artifact_id) return null;
    const key = v.target_artifact_id;
    if (!cache.has(key)) cache.set(key, citations[i].type === 'case' ? loadDecision(corpus, key, v.canonical) : loadUnit(corpus, key, v.canonical));
    return cache.get(key)!;
  };
  const pinpoints = citations.map((c) => (c.type === 'case' ? readPinpoint(text, c.start, c.end) : null));
  const claims: Claims[] = citations.map(() => ({
    pinpoint: null, pinpoint_check: 'not_applicable', pinpoint_advisory: null, quotations: [], claim_check: 'not_applicable',
  }));
  const foundAt: Occurrence[][] = citations.map(() => []);

  for (const quotation of findQuotations(text)) {
    const candidates = candidatesOf(text, quotation, citations);
    if (candidates.length === 0) continue;
    const result = attribute(quotation, candidates, heldOf, pinpoints, citations, toCodePoint);
    claims[result.index].quotations.push(result.finding);
    if (result.occurrences) foundAt[result.index].push(...result.occurrences);
  }

  for (const [i, c] of citations.entries()) {
    const p = pinpoints[i];
    const claim = claims[i];
    if (p) {
      claim.pinpoint = { text: p.text, start_offset: toCodePoint(p.start), end_offset: toCodePoint(p.end), randnummern: p.ranges };
      [claim.pinpoint_check, claim.pinpoint_advisory] = checkPinpoint(p, heldOf(i), foundAt[i], verifications[i]);
    }
    claim.claim_check = claimCheck(claim, c.type === 'statute' ? verifications[i] : null);
  }
  return claims;
}

/**
 * The citations a quotation may quote: those in its sentence (quotations masked, so their full stops end nothing), the
 * one right after it, and the one whose clause it follows after a colon ('hat der Senat (... Rn. 25) ausgeführt:' and
 * the quotation on its own line). A citation inside the quotation is what the quoted text cites, not its source.
 */
function candidatesOf(text: string, q: Quotation, citations: readonly Citation[]): number[] {
  const masked = text.slice(0, q.start + 1) + 'x'.repeat(q.end - q.start - 2) + text.slice(q.end - 1);
  const [from, to] = sentenceAround(masked, q.start, q.end);
  const scored: [number, number][] = [];
  for (const [i, c] of citations.entries()) {
    if (c.start >= q.start && c.end <= q.end) continue;
    const inside = c.start < to && c.end > from;
    const next = c.start >= q.end && c.start - q.end <= 40 && BRIDGE.test(text.slice(q.end, c.start));
    const introduced = c.end <= q.start && q.start - c.end <= 160 && INTRODUCED.test(text.slice(c.end, q.start));
    if (!inside && !next && !introduced) continue;
    // Nearest first; a citation after the quotation (its usual source) before one as near before it.
    scored.push([i, c.start >= q.end ? c.start - q.end : q.start - c.end + 30]);
  }
  return scored.sort((a, b) => a[1] - b[1]).map(([i]) => i);
}

interface Attributed { index: number; finding: QuotationFinding; occurrences: Occurrence[] | null }

/**
 * Looks the quotation up in the held text of each candidate: found in one, it belongs to the nearest that holds it;
 * found in none, it is not_found where every candidate was checked (attached to the closest passage's citation), else
 * not_checked (attached to the nearest citation whose text the corpus does not hold).
 */
function attribute(q: Quotation, candidates: number[], heldOf: (i: number) => Held | null, pinpoints: readonly (Pinpoint | null)[],
  citations: readonly Citation[], toCodePoint: (utf16: number) => number): Attributed {
  const base = { text: q.text, start_offset: toCodePoint(q.start), end_offset: toCodePoint(q.end), omissions: q.omissions };
  const unheld: number[] = [];
  let closest: { index: number; held: Held; from: number; to: number; similarity: number } | null = null;
  for (const i of candidates) {
    const held = heldOf(i);
    if (!held) {
      unheld.push(i);
      continue;
    }
    const found = occurrences(wordsOf(held), q);
    if (found.length > 0) {
      const where = preferred(held, found, pinpoints[i]);
      return {
        index: i, occurrences: found,
        finding: { ...base, check: 'found', similarity: 1, ...locate(held, where), best_match: null, advisory: null },
      };
    }
    const near = closestMatch(wordsOf(held), q);
    if (near && (!closest || near.similarity > closest.similarity)) closest = { index: i, held, ...near };
  }
  const checked = candidates.filter((i) => !unheld.includes(i)).map((i) => labelOf(heldOf(i)!));
  const cases = candidates.filter((i) => citations[i].type === 'case');
  if (unheld.length > 0) {
    const index = unheld.find((i) => cases.includes(i)) ?? unheld[0];
    const notIn = checked.length ? `It is not in ${[...new Set(checked)].join(', ')}; ` : '';
    return {
      index, occurrences: null,
      finding: { ...base, check: 'not_checked', similarity: null, rn_from: null, rn_to: null, section: null, best_match: null,
        advisory: `${notIn}the corpus holds no text of the citation it may quote (${[...new Set(unheld.map((i) => citations[i].canonical))].join(', ')}).` },
    };
  }
  if (cases.length === 0 && (closest?.similarity ?? 0) < STATUTE_QUOTATION_SIMILARITY) {
    return {
      index: closest?.index ?? candidates[0], occurrences: null,
      finding: { ...base, check: 'not_checked', similarity: closest?.similarity ?? 0, rn_from: null, rn_to: null, section: null, best_match: null,
        advisory: `It shares too few words with ${[...new Set(checked)].join(', ')} to be a quotation of it; the text cites no other source for it.` },
    };
  }
  const index = closest?.index ?? cases[0] ?? candidates[0];
  const passage = closest ? passageOf(closest.held, closest.from, closest.to) : null;
  const where = closest ? locate(closest.held, closest) : { rn_from: null, rn_to: null, section: null };
  const at = where.rn_from !== null ? ` at Rn. ${where.rn_from}${where.rn_to !== where.rn_from ? `-${where.rn_to}` : ''}` : '';
  return {
    index, occurrences: null,
    finding: { ...base, check: 'not_found', similarity: closest?.similarity ?? 0, ...where, best_match: passage,
      advisory: closest
        ? `Not in ${[...new Set(checked)].join(', ')}${cases.length ? '' : ' as held (the current version)'}; the closest passage${at} matches ${Math.round(closest.similarity * 100)} % of its words.`
        : `Not in ${[...new Set(checked)].join(', ')}, and no passage there shares its words.` },
  };
}

/**
 * Of several occurrences, the shortest (an omission's parts closest together) of those the pinpoint names, else of
 * those inside the numbered reasons, else of all.
 */
function preferred(held: Held, found: Occurrence[], pinpoint: Pinpoint | null): Occurrence {
  const shortest = (list: Occurrence[]) => list.reduce((a, b) => (b.to - b.from < a.to - a.from ? b : a));
  const named = pinpoint ? found.filter((o) => withinPinpoint(held, o, pinpoint)) : [];
  const numbered = found.filter((o) => locate(held, o).rn_from !== null);
  return shortest(named.length ? named : numbered.length ? numbered : found);
}

function withinPinpoint(held: Held, o: Occurrence, pinpoint: Pinpoint): boolean {
  const { rn_from, rn_to } = locate(held, o);
  if (rn_from === null || rn_to === null) return false;
  return pinpoint.ranges.some((r) => {
    const [lo, hi] = reach(r);
    return rn_from <= hi && rn_to >= lo;
  });
}

function locate(held: Held, o: Occurrence): { rn_from: number | null; rn_to: number | null; section: string | null } {
  const d = held.detail();
  const start = d.words.starts[o.from];
  const end = d.words.ends[o.to];
  const rnAt = (offset: number) => {
    let found: number | null = null;
    for (const r of d.randnummern) {
      if (r.start > offset) break;
      if (offset < r.end) found = r.rn;
    }
    return found;
  };
  const section = d.sections.find((s) => s.start <= start && start < s.end)?.name ?? null;
  return { rn_from: rnAt(start), rn_to: rnAt(Math.max(start, end - 1)), section };
}

function passageOf(held: Held, from: number, to: number): string {
  const { source, words } = held.detail();
  const passage = source.slice(words.starts[from], words.ends[to]).replace(/\s+/gu, ' ');
  return passage.length > BEST_MATCH_CHARS ? `${passage.slice(0, BEST_MATCH_CHARS - 1)}…` : passage;
}

const labelOf = (held: Held) => held.label;
const wordsOf = (held: Held): HeldText => held.detail().words;

function checkPinpoint(p: Pinpoint, held: Held | null, found: Occurrence[], v: Verification): [PinpointCheck, string | null] {
  if (v.verdict !== 'verified') return ['not_checked', 'The decision is not verified, so its Randnummern cannot be checked.'];
  if (!held || held.numbers.length === 0) return ['not_checked', `${v.canonical} as held prints no Randnummern.`];
  const numbers = new Set(held.numbers);
  const missing = missingRandnummern(p, numbers);
  const first = held.numbers[0];
  const last = held.numbers[held.numbers.length - 1];
  if (missing.length > 0) {
    return ['not_found', `${v.canonical} has Rn. ${first} to ${last}; no Rn. ${missing.join(', ')}.`];
  }
  const elsewhere = found.length > 0 && !found.some((o) => withinPinpoint(held, o, p));
  if (elsewhere) {
    const at = locate(held, found[0]);
    const where = at.rn_from === null ? (at.section ? `in the ${at.section}` : 'before the first Randnummer') : `at Rn. ${at.rn_from}${at.rn_to !== at.rn_from ? `-${at.rn_to}` : ''}`;
    return ['not_found', `${p.text} exists, but the quotation attributed to it is ${where}.`];
  }
  return ['verified', null];
}

/** not_supported where any claim fails; supported where every claim was checked and holds; else not_checked. */
function claimCheck(claim: Claims, statute: Verification | null): ClaimCheck {
  const checks: string[] = [];
  if (claim.pinpoint) checks.push(claim.pinpoint_check);
  for (const q of claim.quotations) checks.push(q.check === 'found' ? 'verified' : q.check);
  if (statute && statute.check_scope.subdivision !== 'not_applicable') checks.push(statute.subdivision_check);
  if (checks.length === 0) return 'not_applicable';
  if (checks.includes('not_found')) return 'not_supported';
  return checks.every((c) => c === 'verified') ? 'supported' : 'not_checked';
}

/** Code point offsets (as stored) -> UTF-16 indices of `text`, for many lookups. */
function utf16Indexer(text: string): (offset: number) => number {
  if (!/[\ud800-\udbff][\udc00-\udfff]/u.test(text)) return (offset) => offset;
  const units: number[] = [];
  for (let i = 0; i < text.length; i++) {
    units.push(i);
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) i++;
  }
  units.push(text.length);
  return (offset) => units[Math.min(offset, units.length - 1)];
}

/** A decision: its Randnummer numbers now; its text (which may be long) only when a quotation is looked up in it. */
function loadDecision(corpus: Database.Database, id: string, label: string): Held {
  const numbers = sql<[string], { rn: number }>(corpus, 'SELECT rn FROM decision_randnummern WHERE decision_id = +? ORDER BY position')
    .all(id).map((r) => r.rn);
  let detail: HeldDetail | undefined;
  return {
    label, numbers, detail: () => (detail ??= decisionDetail(corpus, id)),
  };
}

function decisionDetail(corpus: Database.Database, id: string): HeldDetail {
  const source = decisionText(corpus, id)!;
  const at = utf16Indexer(source);
  const randnummern = sql<[string], { rn: number; start_offset: number; end_offset: number }>(corpus,
    'SELECT rn, start_offset, end_offset FROM decision_randnummern WHERE decision_id = +? ORDER BY position').all(id)
    .map((r) => ({ rn: r.rn, start: at(r.start_offset), end: at(r.end_offset) }));
  const sections = sql<[string], { name: string; start_offset: number; end_offset: number }>(corpus,
    'SELECT name, start_offset, end_offset FROM decision_sections WHERE decision_id = +? ORDER BY position').all(id)
    .map((s) => ({ name: s.name, start: at(s.start_offset), end: at(s.end_offset) }));
  return { source, words: heldText(source), randnummern, sections };
}

/** A provision whose text the corpus holds (null: none held, as for the EU catalogue's articles). */
function loadUnit(corpus: Database.Database, id: string, label: string): Held | null {
  const row = sql<[string], { text: string | null }>(corpus, 'SELECT text FROM law_units WHERE id = ?').get(id);
  if (!row?.text) return null;
  const source = row.text;
  let detail: HeldDetail | undefined;
  return { label, numbers: [], detail: () => (detail ??= { source, words: heldText(source), randnummern: [], sections: [] }) };
}
