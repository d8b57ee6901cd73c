// The vector arm. Until a corpus holds passage vectors (src/search/embedder.ts), semantic mode answers 503 and hybrid
// runs without this arm (lexical + bridge norms): never a fake neighbour list.
import type Database from 'better-sqlite3';
import { backendUnavailable } from '../errors.ts';
import type { FilterSql } from './filters.ts';
import type { ArmEntry } from './fusion.ts';

export interface VectorArm { entries: ArmEntry[]; candidates: number; exhaustive: boolean; available: boolean }

export function semanticArm(_db: Database.Database, _query: string, _filters: FilterSql): VectorArm {
  return { entries: [], candidates: 0, exhaustive: true, available: false };
}

/** Semantic mode needs vectors; without them the answer is 503, nothing charged. */
export function requireVectors(arm: VectorArm): VectorArm {
  if (!arm.available) throw backendUnavailable('Semantic search needs passage vectors, which this corpus does not hold yet.');
  return arm;
}
