// Short forms that point back to a decision cited before (issue 28, cause 5): 'BGH, aaO, Rn. 12', 'OLG München
// a.a.O.', '(ebenda)', 'vgl. ebd.'. Each becomes a citation of that decision with role 'back_reference', so the
// check verifies it as the decision it stands for. Forms after an author ('Grüneberg, aaO, § 280 Rn. 5') point to
// literature and are left alone.
import { resolveCourt } from '../corpus/courts.ts';
import { COURT_SOURCE } from './lexicon.ts';
import type { CaseCitation } from './types.ts';

// The first letter is tested before the look-behind: the scan then costs little more than a search for 'a' and 'e'.
const SHORT_FORM = /(?=[aEe])(?<![\p{L}.])(?:a\.[ \u00a0]?a\.[ \u00a0]?O\.|aaO\.?|[Ee]benda|[Ee]bd\.)(?![\p{L}])/gu;
/** A court written right before the short form: 'BGH, aaO', 'OLG München a.a.O.'. */
const COURT_BEFORE = new RegExp(String.raw`(?<![\p{L}])(${COURT_SOURCE})[ \u00a0]?,?[ \u00a0]?$`, 'u');
/**
 * What may stand before a bare short form: an opening, a sentence end, 'vgl.', 'so', 'siehe'. Anything else (an
 * author or a work: 'Grüneberg, aaO', 'MüKoBGB/Ernst aaO') makes it a reference to literature.
 */
const BARE_BEFORE = /(?:^|[(;:]|[.!?][ \u00a0]|(?<![\p{L}])(?:vgl\.|Vgl\.|so|So|siehe|s\.|auch|ebenso|dazu))[ \u00a0]*$/u;
/**
 * A bare 'aaO' repeats the citation before only when a pinpoint or the end follows ('aaO, Rn. 12', '(aaO)'); one
 * followed by a name ('; a. a. O. – for you') names another decision cited earlier, which the text does not say.
 */
const BARE_AAO_AFTER = /^[ \u00a0]*(?:,[ \u00a0]*)?(?:Rn\.|Rdnr\.|RdNr\.|Rz\.|Tz\.|Randnr\.|S\.[ \u00a0]?\d|\)|[.;](?![ \u00a0]?[–-]))/u;
const SHORT_FORM_IN = new RegExp(SHORT_FORM.source, 'u');
/** The rest of a citation after a short form: up to the next ';', ')' or line end (at most 120 characters). */
const SEGMENT_AFTER = /^[^;)\n]*/u;

/**
 * Whether a bare 'aaO' repeats the citation right before it: a pinpoint or the end follows, no name of another
 * decision ('(BGH GRUR 2014, 378 – OTTO Cap; a. a. O., Rn. 49 – TÜV II)'), and it is not one item of a list.
 */
function bareAaoRepeats(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 3), start);
  return !/;[ \u00a0]*$/u.test(before) && BARE_AAO_AFTER.test(text.slice(end, end + 12)) && !namesDecision(text, end);
}

/** Whether the rest of the citation names a decision ('aaO – OUI'): then it is that one, which the text does not resolve. */
function namesDecision(text: string, end: number): boolean {
  const segment = SEGMENT_AFTER.exec(text.slice(end, end + 120))?.[0] ?? '';
  return /[–—]|[ \u00a0]-[ \u00a0]/u.test(segment);
}
/** How far back a bare 'ebd.' or 'aaO' finds the decision it repeats: the citation right before it. */
const BARE_REACH = 300;
/** How far back 'BGH, aaO' finds the last decision of that court. */
const COURT_REACH = 20_000;

/**
 * The back-references in `text` to the decisions in `cases` (sorted, offsets into `text`), as citations of those
 * decisions spanning the short form (and the court written before it). `taken` are spans of other citations.
 */
export function backReferences(text: string, cases: readonly CaseCitation[], taken: readonly { start: number; end: number }[] = []): CaseCitation[] {
  const out: CaseCitation[] = [];
  if (cases.length === 0) return out;
  for (const m of text.matchAll(SHORT_FORM)) {
    const at = m.index;
    if (cases.some((c) => c.start <= at && at < c.end) || taken.some((t) => t.start <= at && at < t.end)) continue;
    const before = text.slice(Math.max(0, at - 80), at);
    const court = COURT_BEFORE.exec(before);
    let antecedent: CaseCitation | undefined;
    let start = at;
    if (court && !namesDecision(text, at + m[0].length)) {
      const code = resolveCourt(court[1]).code;
      antecedent = findLast(cases, (c) => c.end <= at - court[0].length && at - c.end <= COURT_REACH && c.court === code && !c.role);
      start = at - court[0].length;
    } else if (BARE_BEFORE.test(before) && (/^[Ee]b/u.test(m[0]) || bareAaoRepeats(text, at, at + m[0].length))) {
      const previous = findLast(cases, (c) => c.end <= at);
      const between = previous ? text.slice(previous.end, at) : '';
      // Only the citation right before: no § or other citation or short form between, no new paragraph.
      if (previous && !previous.role && at - previous.end <= BARE_REACH && !/§|Art\.|\n\s*\n/u.test(between)
        && !SHORT_FORM_IN.test(between) && !taken.some((t) => t.start >= previous.end && t.start < at)) antecedent = previous;
    }
    if (!antecedent) continue;
    out.push({ ...antecedent, start, end: at + m[0].length, role: 'back_reference' });
  }
  return out;
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return items[i];
  return undefined;
}
