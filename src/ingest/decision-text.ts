// Assembles a decision's plain text from its sections of blocks and cuts it into chunks. All offsets that leave this
// module are Unicode code points into full_text.
import type { SectionBlocks } from './blocks.ts';
import { codePointIndexer } from '../text/code-points.ts';

export const CHUNK_MIN = 400;
export const CHUNK_MAX = 1600;

export interface TextSpan { start: number; end: number }

export interface BuiltSection extends TextSpan { name: string }
export interface BuiltRandnummer extends TextSpan { rn: number }
export interface BuiltChunk extends TextSpan {
  position: number;
  section: string;
  rn_from: number | null;
  rn_to: number | null;
  text: string;
}

export interface BuiltDecisionText {
  fullText: string;
  textLength: number;
  sections: BuiltSection[];
  randnummern: BuiltRandnummer[];
  chunks: BuiltChunk[];
  hasRnAnchors: boolean;
  rnFrom: number | null;
  rnTo: number | null;
}

interface PlacedBlock {
  start: number; // UTF-16 offsets into the full text
  end: number;
  rn: number | null;
  heading: boolean;
}

interface Unit {
  start: number;
  end: number;
  rnFrom: number | null;
  rnTo: number | null;
}

/**
 * Joins sections into full_text (each headed by its name, separated by a blank line; blocks one per line, a
 * Randnummer block opening with its number and a tab) and derives sections, Randnummern and chunks.
 */
export function buildDecisionText(input: SectionBlocks[]): BuiltDecisionText {
  const parts: string[] = [];
  let length = 0;
  const append = (s: string) => {
    parts.push(s);
    length += s.length;
  };
  const placedSections: { name: string; start: number; end: number; blocks: PlacedBlock[] }[] = [];
  for (const section of input) {
    const blocks = section.blocks.filter((b) => b.text.trim() !== '');
    if (blocks.length === 0) continue;
    if (placedSections.length > 0) append('\n\n');
    const start = length;
    append(section.name);
    const placed: PlacedBlock[] = [];
    for (const b of blocks) {
      append('\n');
      const bStart = length;
      append(b.rn !== null ? `${b.rn}\t${b.text}` : b.text);
      placed.push({ start: bStart, end: length, rn: b.rn, heading: b.heading });
    }
    placedSections.push({ name: section.name, start, end: length, blocks: placed });
  }
  const fullText = parts.join('');
  const cp = codePointIndexer(fullText);

  const sections: BuiltSection[] = [];
  const randnummern: BuiltRandnummer[] = [];
  const chunks: BuiltChunk[] = [];
  let rnFrom: number | null = null;
  let rnTo: number | null = null;

  for (const s of placedSections) {
    sections.push({ name: s.name, start: cp(s.start), end: cp(s.end) });
    const units = unitsOf(s.start, s.blocks, randnummern, cp);
    for (const u of units) {
      if (u.rnFrom !== null) rnFrom = rnFrom === null ? u.rnFrom : Math.min(rnFrom, u.rnFrom);
      if (u.rnTo !== null) rnTo = rnTo === null ? u.rnTo : Math.max(rnTo, u.rnTo);
    }
    for (const c of groupUnits(units, fullText)) {
      chunks.push({
        position: chunks.length,
        section: s.name,
        rn_from: c.rnFrom,
        rn_to: c.rnTo,
        start: cp(c.start),
        end: cp(c.end),
        text: fullText.slice(c.start, c.end),
      });
    }
  }

  return {
    fullText,
    textLength: cp(fullText.length),
    sections,
    randnummern,
    chunks,
    hasRnAnchors: randnummern.length > 0,
    rnFrom,
    rnTo,
  };
}

/**
 * The indivisible units of a section: one per Randnummer (with the outline headings before it and the unnumbered
 * paragraphs after it), one per paragraph elsewhere. The section's heading line joins the first unit.
 */
function unitsOf(sectionStart: number, blocks: PlacedBlock[], rns: BuiltRandnummer[], cp: (o: number) => number): Unit[] {
  // Owner of each block: the index of the Randnummer block it belongs to, or -1.
  const owner = new Array<number>(blocks.length).fill(-1);
  let last = -1;
  for (let i = 0; i < blocks.length; i++) {
    if (blocks[i].rn !== null) {
      last = i;
      owner[i] = i;
      continue;
    }
    // Headings directly before a Randnummer belong to it; other paragraphs to the Randnummer before them.
    let j = i;
    while (j < blocks.length && blocks[j].rn === null && blocks[j].heading) j++;
    if (blocks[i].heading && j < blocks.length && blocks[j].rn !== null) owner[i] = j;
    else if (last >= 0) owner[i] = last;
    else {
      let k = i;
      while (k < blocks.length && blocks[k].rn === null) k++;
      owner[i] = k < blocks.length && blocks[i].heading ? k : -1;
    }
  }

  const units: Unit[] = [];
  for (let i = 0; i < blocks.length; ) {
    const o = owner[i];
    let j = i + 1;
    if (o >= 0) while (j < blocks.length && owner[j] === o) j++;
    const rn = o >= 0 ? blocks[o].rn : null;
    units.push({ start: blocks[i].start, end: blocks[j - 1].end, rnFrom: rn, rnTo: rn });
    if (o >= 0) {
      // The Randnummer spans its own block and the paragraphs that continue it (not the headings before it).
      const ownEnd = blocks[j - 1].end;
      rns.push({ rn: rn!, start: cp(blocks[o].start), end: cp(Math.max(ownEnd, blocks[o].end)) });
    }
    i = j;
  }
  if (units.length > 0) units[0].start = sectionStart;
  return units;
}

/** Greedy grouping of whole units into chunks of about CHUNK_MIN..CHUNK_MAX; long unnumbered paragraphs are split. */
function groupUnits(units: Unit[], text: string): Unit[] {
  const pieces: Unit[] = [];
  for (const u of units) {
    if (u.rnFrom === null && u.end - u.start > CHUNK_MAX) pieces.push(...splitLong(u, text));
    else pieces.push(u);
  }
  const out: Unit[] = [];
  let cur: Unit | null = null;
  const len = (u: Unit) => u.end - u.start;
  const stretch = CHUNK_MAX * 1.25;
  // A chunk below CHUNK_MIN joins a neighbour when that stays within CHUNK_MAX * 1.25; else it stays small
  // (better a short chunk than a long one that serves more than was asked for).
  const close = (c: Unit, next?: Unit): Unit | null => {
    const prev = out[out.length - 1];
    if (len(c) < CHUNK_MIN && prev && len(prev) + len(c) <= stretch) {
      out[out.length - 1] = merge(prev, c);
      return null;
    }
    if (len(c) < CHUNK_MIN && next && len(c) + len(next) <= stretch) return merge(c, next);
    out.push(c);
    return null;
  };
  for (const p of pieces) {
    if (!cur) {
      cur = { ...p };
      continue;
    }
    if (len(cur) + len(p) + 1 <= CHUNK_MAX) {
      cur = merge(cur, p);
    } else {
      cur = close(cur, p) ?? { ...p };
    }
  }
  if (cur) close(cur);
  return out;
}

function merge(a: Unit, b: Unit): Unit {
  const rns = [a.rnFrom, a.rnTo, b.rnFrom, b.rnTo].filter((x): x is number => x !== null);
  return {
    start: a.start,
    end: b.end,
    rnFrom: rns.length ? Math.min(...rns) : null,
    rnTo: rns.length ? Math.max(...rns) : null,
  };
}

/** Splits an unnumbered paragraph longer than CHUNK_MAX at sentence ends (else at spaces). */
function splitLong(u: Unit, text: string): Unit[] {
  const out: Unit[] = [];
  let start = u.start;
  while (u.end - start > CHUNK_MAX) {
    const window = text.slice(start, start + CHUNK_MAX);
    let cut = -1;
    for (const m of window.matchAll(/[.!?;:]["“”)]?\s+(?=\S)/gu)) {
      const at = m.index + m[0].length;
      if (at >= CHUNK_MIN) cut = at;
    }
    if (cut < 0) cut = window.lastIndexOf(' ') + 1;
    if (cut <= 0) cut = CHUNK_MAX;
    // Never cut between the halves of a surrogate pair.
    const c = text.charCodeAt(start + cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut++;
    out.push({ start, end: start + cut, rnFrom: null, rnTo: null });
    start += cut;
  }
  out.push({ start, end: u.end, rnFrom: null, rnTo: null });
  // Trailing spaces stay with the piece before; chunks then start on a word.
  return out.map((p) => {
    let end = p.end;
    while (end > p.start && text[end - 1] === ' ') end--;
    return { ...p, end };
  });
}
