// Sentence bounds in a checked text, for what a citation's sentence says: a date (check.ts), a quotation (claims.ts).

/** A sentence end: a full stop (not after a number as in '1. März', nor after an abbreviation) before a capital, or a line break. */
const SENTENCE_END = /(?<![\d\s.](?:Abs|Nr|Nrn|Art|vgl|Rn|Urt|Beschl|gem|bzw|ca|ff|Aufl|Bd|Az)|\b[SvfdaAuz]|\d)\.\s+(?=[\p{Lu}„"§])|\n/gu;

/** The sentence around [start, end): from the last sentence end before it to the first one after it. */
export function sentenceAround(text: string, start: number, end: number): [number, number] {
  let from = 0;
  let to = text.length;
  const window = Math.max(0, start - 600);
  SENTENCE_END.lastIndex = window;
  for (let m = SENTENCE_END.exec(text); m && m.index < end + 600; m = SENTENCE_END.exec(text)) {
    if (m.index + m[0].length <= start) from = m.index + m[0].length;
    else if (m.index >= end) {
      to = m.index;
      break;
    }
  }
  return [from, to];
}
