// Decision result items (api-v1.md, "Search result items"): the decision's row, its best passage as snippet with
// Randnummer, up to three passages as snippets, and a confidence read off how much of the query the passages hold.
import { FORTGELTUNG } from '../corpus/read-decision.ts';
import { tokenize, type Token } from './analyze.ts';
import type { PageChunks, Paragraph, Passage } from './page-chunks.ts';
import { termMatcher, type TermGroup, type TermMatcher } from './query.ts';
import { snippetAround, snippetOfMatches, type Snippet } from './snippets.ts';

export type Confidence = 'high' | 'medium' | 'low';

/** A decision ranked by an arm or by fusion, with the passages that earned it its place (best first). */
export interface RankedDecision {
  decision_id: string;
  chunks: number[];
  /** Set by the exact-citation rule: the citation is the match, confidence is high. */
  exact?: RegExp;
}

export interface DecisionItem {
  id: string;
  artifact_type?: 'DECISION';
  aktenzeichen: string | null;
  court: string;
  date: string | null;
  document_type: string;
  title: string | null;
  snippet: string;
  snippets: { text: string; rn: number | null }[];
  chunk_title: string | null;
  rn_range: string | null;
  fundstelle: null;
  fortgeltung_checked: false;
  fortgeltung_note: string;
  confidence: Confidence;
}

/** Share of the query's groups that the passages answer: all (high), at least half (medium), fewer (low). */
export function confidenceOf(groups: TermGroup[], texts: string[]): Confidence {
  return confidenceOfWords(groupMatchers(groups), texts.map(tokenize));
}

/** A matcher per query group, as confidence counts them. */
const groupMatchers = (groups: TermGroup[]): TermMatcher[] => groups.map((group) => termMatcher([group]));

/** The same from the words the passages hold (those matching the query suffice: PageChunks.matches finds them). */
function confidenceOfWords(matchers: TermMatcher[], words: Token[][]): Confidence {
  if (matchers.length === 0) return 'low';
  const share = matchers.filter((isMatch) => words.some((list) => list.some((token) => isMatch(token.stem)))).length / matchers.length;
  return share === 1 ? 'high' : share >= 0.5 ? 'medium' : 'low';
}

/** The Randnummer whose paragraph holds a code-point offset of the decision text, or null (none printed there). */
function rnAt(paragraphs: Paragraph[], offset: number): number | null {
  return paragraphs.find((p) => p.start_offset <= offset && p.end_offset > offset)?.rn ?? null;
}

function passageSnippet(page: PageChunks, paragraphs: Paragraph[], chunk: Passage, snippet: Snippet): { text: string; rn: number | null } {
  const at = snippet.firstMatch === null ? 0 : page.codePointsTo(chunk, snippet.firstMatch);
  return { text: snippet.text, rn: rnAt(paragraphs, chunk.start_offset + at) ?? chunk.rn_from };
}

/** A decision item as the combined search shows it: its type named second, where answers have always had it. */
const combinedItem = ({ id, ...rest }: DecisionItem): DecisionItem => ({ id, artifact_type: 'DECISION', ...rest });

/**
 * Builds the result items for ranked decisions (already paged), their passages read from `page`.
 *
 * @example decisionItems([{ decision_id, chunks: [12, 14] }], groups, false, new PageChunks(db, [decision_id], groups))
 */
export function decisionItems(ranked: RankedDecision[], groups: TermGroup[], combined: boolean, page: PageChunks): DecisionItem[] {
  const matchers = groupMatchers(groups);
  const items: DecisionItem[] = [];
  for (const entry of ranked) {
    const row = page.decision(entry.decision_id);
    const held = page.of(entry.decision_id);
    const passages = entry.chunks.map((id) => held.find((chunk) => chunk.id === id)).filter((c) => c !== undefined);
    if (!row || passages.length === 0) continue;
    const cut = passages.map((c) => (entry.exact ? snippetAround(c.text, entry.exact) : snippetOfMatches(c.text, page.matches(c))));
    // The page's decisions' printed paragraphs as PageChunks read them (packed in the decision's row).
    const printed = passages.some((c) => c.rn_from !== null) ? page.paragraphs(row.row) : [];
    const snippets = passages.map((c, i) => passageSnippet(page, printed, c, cut[i]));
    const best = passages[0];
    // Every field written out: a spread within the literal (FORTGELTUNG's, a combined search's artifact_type) made
    // each item some 3 µs, 0.05-0.1 ms a page (Session 24).
    const item: DecisionItem = {
      id: row.id,
      aktenzeichen: row.aktenzeichen,
      court: row.court,
      date: row.date,
      document_type: row.document_kind ?? 'Sonstige',
      title: row.title,
      snippet: snippets[0].text,
      snippets,
      chunk_title: best.section,
      rn_range: best.rn_from !== null ? `${best.rn_from}-${best.rn_to ?? best.rn_from}` : null,
      fundstelle: null,
      fortgeltung_checked: FORTGELTUNG.fortgeltung_checked,
      fortgeltung_note: FORTGELTUNG.fortgeltung_note,
      confidence: entry.exact ? 'high' : confidenceOfWords(matchers, passages.map((c) => page.matches(c))),
    };
    items.push(combined ? combinedItem(item) : item);
  }
  return items;
}

/** The confidence of the best result, or 'none' when there is no result. */
export function topConfidence(items: { confidence: Confidence }[]): Confidence | 'none' {
  return items[0]?.confidence ?? 'none';
}
