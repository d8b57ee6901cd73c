import { join, resolve } from 'node:path';

/**
 * Where juralite keeps its files: `--data DIR`, else $JURALITE_DATA, else ./data. The corpus defaults to
 * DIR/corpus.db and the state to DIR/state.db; `--db` and `--state` name them directly.
 */
export function dataPaths(flags: { data?: string; db?: string; state?: string }, env = process.env) {
  const dataDir = resolve(flags.data ?? env.JURALITE_DATA ?? 'data');
  return {
    dataDir,
    corpusPath: resolve(flags.db ?? join(dataDir, 'corpus.db')),
    statePath: resolve(flags.state ?? join(dataDir, 'state.db')),
  };
}
