// Randnummer pinpoints of a decision citation ('Rn. 12', 'Rz. 12 ff.', 'Tz. 12-14', 'Rdnr. 12, 15', 'juris Rn. 9')
// and their check against the Randnummern the held decision prints.

/** A cited Randnummer or range: 'Rn. 12' {12, 12}, '12-14' {12, 14}, '12 f.' {12, 12, 'f.'}. */
export interface RandnummerRange {
  from: number;
  to: number;
  /** 'f.' (and the next), 'ff.' (and the following), else null. */
  following: 'f.' | 'ff.' | null;
}

/** A pinpoint as read: UTF-16 offsets into the checked text, the text as written and its ranges. */
export interface Pinpoint {
  start: number;
  end: number;
  text: string;
  ranges: RandnummerRange[];
}

/** How many Randnummern after the cited one 'ff.' may reach (a quotation found further on is not where cited). */
export const FOLLOWING_REACH = 10;

const SP = String.raw`[ \u00a0]`;
const LABEL = String.raw`(?:Rn|Rdn|Rdnr|RdNr|Randnr|Rnr|Rz|Tz|Randnummern?|Randziffern?|Textziffern?)(?![\p{L}])\.?`;
const ITEM = String.raw`\d{1,4}(?:${SP}?(?:-|–|bis)${SP}?\d{1,4})?(?:${SP}?ff?\.)?`;
const LIST = String.raw`${ITEM}(?:${SP}?(?:,|und|sowie)${SP}?${ITEM})*`;
const IN_SPAN = new RegExp(String.raw`(?<![\p{L}])${LABEL}${SP}?(${LIST})`, 'gu');
// Right after the citation: '-, Rn. 12', ', juris Rn. 9', ' [juris Rn. 9]', ' (Rz. 12)'; never across ';'.
const AFTER = new RegExp(String.raw`${SP}*(?:[-–—,:]${SP}*)?(?:[(\[]${SP}*)?(?:juris${SP}?,?${SP}*)?${LABEL}${SP}?(${LIST})`, 'uy');
const ITEM_PARTS = /(\d{1,4})(?:[ \u00a0]?(?:-|–|bis)[ \u00a0]?(\d{1,4}))?(?:[ \u00a0]?(ff?)\.)?/gu;

function ranges(list: string): RandnummerRange[] {
  return Array.from(list.matchAll(ITEM_PARTS), (m) => {
    const from = Number(m[1]);
    return { from, to: m[2] ? Math.max(from, Number(m[2])) : from, following: m[3] ? `${m[3]}.` as 'f.' | 'ff.' : null };
  });
}

/**
 * The Randnummer pinpoint of a decision citation spanning [start, end): labelled Randnummern inside the span (a
 * reporter's 'NJW 2010, 1068 Rn. 14' cites the decision's own numbers) or right after it; null when there is none.
 */
export function readPinpoint(text: string, start: number, end: number): Pinpoint | null {
  IN_SPAN.lastIndex = 0;
  const span = text.slice(start, end);
  const inside = [...span.matchAll(IN_SPAN)];
  if (inside.length > 0) {
    const first = inside[0];
    const last = inside[inside.length - 1];
    return {
      start: start + first.index, end: start + last.index + last[0].length, text: span.slice(first.index, last.index + last[0].length),
      ranges: inside.flatMap((m) => ranges(m[1])),
    };
  }
  AFTER.lastIndex = end;
  const after = AFTER.exec(text);
  if (!after) return null;
  const labelAt = after.index + after[0].search(new RegExp(LABEL, 'u'));
  return { start: labelAt, end: AFTER.lastIndex, text: text.slice(labelAt, AFTER.lastIndex), ranges: ranges(after[1]) };
}

/** The Randnummern a range admits: 'f.' one more, 'ff.' up to FOLLOWING_REACH more. */
export function reach(range: RandnummerRange): [number, number] {
  const extra = range.following === 'ff.' ? FOLLOWING_REACH : range.following === 'f.' ? 1 : 0;
  return [range.from, range.to + extra];
}

/** The cited Randnummern (the ends of each range) that are not among the decision's printed ones. */
export function missingRandnummern(pinpoint: Pinpoint, held: ReadonlySet<number>): number[] {
  const missing = new Set<number>();
  for (const r of pinpoint.ranges) for (const n of [r.from, r.to]) if (!held.has(n)) missing.add(n);
  return [...missing].sort((a, b) => a - b);
}
