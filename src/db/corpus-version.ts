// The state of the corpus file as one connection reads it, for what a connection keeps while the file is unchanged
// (answers, decoded lists, law names and priors, the bit index, page texts).
import type Database from 'better-sqlite3';
import { sql } from './statements.ts';

/**
 * Changes whenever anything commits to the file: another connection (juralite sync or import: SQLite's data_version)
 * or this one (total_changes). Two statements: the pragma's table form (pragma_data_version) prepares the pragma
 * again on every run, some 2-3x the time of both (bench/README "Session 24").
 */
export function corpusVersion(db: Database.Database): string {
  const { data_version: dataVersion } = sql<[], { data_version: number }>(db, 'PRAGMA data_version').get()!;
  const { changes } = sql<[], { changes: number }>(db, 'SELECT total_changes() AS changes').get()!;
  return `${dataVersion}:${changes}`;
}
