// What a worker thread hands the importer's main thread for a document (prepare-worker.ts to prepare-pool.ts).
// postMessage clones with V8's serializer, which builds every object of the message property by property in the
// receiving thread, the importer's writer: a generated decision's ~66 citation edges, ~28 Randnummern and ~11 chunks
// as objects made most of the ~0.9 ms its hand-off cost; the same records as one flat array of values, their keys
// once, cost a quarter of it, packing and unpacking included (bench/README, "Session 23").
import type { EdgeCandidate } from '../graph/edges.ts';
import type { BuiltChunk, BuiltDecisionText, BuiltRandnummer, BuiltSection } from './decision-text.ts';
import type { ParsedItem } from './parse-document.ts';
import type { PreparedDecision } from './prepare-decision.ts';

/** Records of one shape (made by one object literal): their keys once, then their values record after record. */
export interface Columns<T> { keys: (keyof T)[]; values: unknown[] }

export function toColumns<T extends object>(records: readonly T[]): Columns<T> {
  const keys = records.length > 0 ? Object.keys(records[0]) as (keyof T)[] : [];
  const values: unknown[] = [];
  for (const record of records) for (const key of keys) values.push(record[key]);
  return { keys, values };
}

export function fromColumns<T extends object>({ keys, values }: Columns<T>): T[] {
  const records: T[] = [];
  for (let at = 0; at < values.length; at += keys.length) {
    const record = {} as T;
    for (let k = 0; k < keys.length; k++) record[keys[k]] = values[at + k] as T[keyof T];
    records.push(record);
  }
  return records;
}

interface HandedText extends Omit<BuiltDecisionText, 'sections' | 'randnummern' | 'chunks'> {
  sections: Columns<BuiltSection>;
  randnummern: Columns<BuiltRandnummer>;
  chunks: Columns<BuiltChunk>;
}
interface HandedDecision extends Omit<PreparedDecision, 'text' | 'edges'> { text: HandedText; edges: Columns<EdgeCandidate> }

/** A parsed item as a worker thread posts it. */
export type HandedItem = Exclude<ParsedItem, { kind: 'decision' }> | { kind: 'decision'; name: string; decision: HandedDecision };

export function handOff(item: ParsedItem): HandedItem {
  if (item.kind !== 'decision') return item;
  const { text, edges } = item.decision;
  return { ...item, decision: { ...item.decision, edges: toColumns(edges), text: { ...text,
    sections: toColumns(text.sections), randnummern: toColumns(text.randnummern), chunks: toColumns(text.chunks) } } };
}

/** The item handOff was given, as the main thread receives it. */
export function takeOver(item: HandedItem): ParsedItem {
  if (item.kind !== 'decision') return item;
  const { text, edges } = item.decision;
  return { ...item, decision: { ...item.decision, edges: fromColumns(edges), text: { ...text,
    sections: fromColumns(text.sections), randnummern: fromColumns(text.randnummern), chunks: fromColumns(text.chunks) } } };
}
