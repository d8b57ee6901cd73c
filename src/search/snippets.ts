// Snippets are cut from the stored passage text (the index holds stems only): the window around the densest run of
// matching words, the matches wrapped in <mark>. The text is HTML-escaped first, so <mark> is the only markup.
import { tokenize, tokensStartingWith, type Token } from './analyze.ts';

export const SNIPPET_CHARS = 280;

export interface Snippet {
  /** Escaped text with <mark> around matched words; '…' where the passage was cut. */
  text: string;
  /** UTF-16 index of the first marked word in the passage, or null when nothing matched. */
  firstMatch: number | null;
}

// Tested first: most slices hold nothing to escape (or to collapse), and are then used as they are, not copied.
const escapeHtml = (text: string) => (/[&<>]/u.test(text) ? text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;') : text);
/**
 * White space other than the space, or two spaces: `[^\S ]| {2}` with JS's \s written out and without the u flag (the
 * same code points; a lone surrogate is white space in neither), tested in 0.73x the time on a page's pieces (Session 24).
 */
const TO_COLLAPSE = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;
/** Runs of white space as one space. */
const collapseSpaces = (text: string) => (TO_COLLAPSE.test(text) ? text.replace(/\s+/gu, ' ') : text);

/**
 * text[start, end) as a snippet shows it: escaped, <mark> around each of `marks` (spans in order; one not wholly in
 * the window left out), each run of white space one space, none at either end. Each piece between the tags (and
 * each marked span) is escaped and collapsed on its own, as no run of white space reaches across a tag, the first
 * trimmed at its start and the last at its end: the same string as collapsing and trimming the joined snippet,
 * without copying it twice more (Session 21).
 *
 * @example shownText(' Die  Kündigung ', 0, 16, [{ start: 6, end: 15 }]) // 'Die <mark>Kündigung</mark>'
 */
export function shownText(text: string, start: number, end: number, marks: Iterable<{ start: number; end: number }>): string {
  let out = '';
  let at = start;
  for (const mark of marks) {
    if (mark.start < start || mark.end > end) continue;
    const piece = collapseSpaces(escapeHtml(text.slice(at, mark.start)));
    out += `${out === '' ? piece.trimStart() : piece}<mark>${collapseSpaces(escapeHtml(text.slice(mark.start, mark.end)))}</mark>`;
    at = mark.end;
  }
  const last = collapseSpaces(escapeHtml(text.slice(at, end))).trimEnd();
  return out === '' ? last.trimStart() : out + last;
}

type Matcher = ((stem: string) => boolean) & { starts?: readonly string[] };

/**
 * The words of `text` that answer the matcher, in order. A matcher that names the stems its words begin with
 * (termMatcher) has only those words analysed.
 */
export function wordsMatching(text: string, isMatch: Matcher): Token[] {
  return isMatch.starts ? tokensStartingWith(text, isMatch.starts, isMatch) : tokenize(text).filter((token) => isMatch(token.stem));
}

/** The best window of `text` for the matcher, with marks. */
export function snippetOf(text: string, isMatch: Matcher, chars = SNIPPET_CHARS): Snippet {
  return snippetOfMatches(text, wordsMatching(text, isMatch), chars);
}

/** The best window of `text` around `matches` (the words answering the query, in order), with marks. */
export function snippetOfMatches(text: string, matches: Token[], chars = SNIPPET_CHARS): Snippet {
  // The window starting shortly before the match after which most matches follow within `chars` (the first such):
  // matches end in order, so the last one within reach of match i is never before that of match i - 1.
  let best = 0;
  let bestCount = -1;
  for (let i = 0, reach = 0; i < matches.length; i++) {
    reach = Math.max(reach, i);
    while (reach < matches.length && matches[reach].end - matches[i].start <= chars) reach++;
    if (reach - i > bestCount) {
      best = i;
      bestCount = reach - i;
    }
  }
  let start = matches.length > 0 ? Math.max(0, matches[best].start - 60) : 0;
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    start = space > start - 30 && space >= 0 ? space + 1 : start;
  }
  let end = Math.min(text.length, start + chars);
  if (end < text.length) {
    const space = text.indexOf(' ', end);
    end = space >= 0 && space < end + 30 ? space : end;
  }
  return {
    text: `${start > 0 ? '… ' : ''}${shownText(text, start, end, matches)}${end < text.length ? ' …' : ''}`,
    firstMatch: matches.length > 0 ? matches[best].start : null,
  };
}

/** Marks the spans a regular expression finds (exact citation queries: the citation itself is the match). */
export function snippetAround(text: string, pattern: RegExp, chars = SNIPPET_CHARS): Snippet {
  const found = [...text.matchAll(pattern)];
  if (found.length === 0) return snippetOfMatches(text, [], chars);
  const first = found[0].index;
  let start = Math.max(0, first - 80);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  const end = Math.min(text.length, start + chars);
  const marks = found.map((match) => ({ start: match.index, end: match.index + match[0].length }));
  return {
    text: `${start > 0 ? '… ' : ''}${shownText(text, start, end, marks)}${end < text.length ? ' …' : ''}`,
    firstMatch: first,
  };
}
