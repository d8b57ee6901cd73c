import { join, resolve } from 'node:path';
import { isPostgresUrl } from '../state/location.ts';
import { executableDir, IS_EXECUTABLE } from '../runtime/executable.ts';

/** Where files go when no flag names them. */
export interface DefaultLocations {
  /** The data directory (state, token file, uploads). */
  dataDir: string;
  /** The corpus; undefined: corpus.db inside the data directory. */
  corpusPath?: string;
}

/**
 * From a checkout: ./data, with the corpus inside it. The standalone executable: its corpus.db and a data/ folder
 * beside it, wherever it is started from (an installation is the folder the executable sits in).
 */
export function defaultLocations(executable = IS_EXECUTABLE): DefaultLocations {
  if (!executable) return { dataDir: 'data' };
  return { dataDir: join(executableDir(), 'data'), corpusPath: join(executableDir(), 'corpus.db') };
}

/**
 * Where juralite keeps its files: `--data DIR`, else $JURALITE_DATA, else the default data directory. The corpus
 * defaults to DIR/corpus.db (beside the executable in the executable) and the state to DIR/state.db; `--db` and
 * `--state` (else $JURALITE_DB and $JURALITE_STATE) name them directly. An empty variable counts as unset.
 */
export function dataPaths(flags: { data?: string; db?: string; state?: string }, env = process.env, defaults = defaultLocations()) {
  const dataDir = resolve(flags.data ?? (env.JURALITE_DATA || defaults.dataDir));
  return {
    dataDir,
    corpusPath: resolve(flags.db ?? (env.JURALITE_DB || defaults.corpusPath || join(dataDir, 'corpus.db'))),
    statePath: stateLocation(flags.state ?? (env.JURALITE_STATE_URL || env.JURALITE_STATE), dataDir),
  };
}

/** --state (or $JURALITE_STATE_URL): a PostgreSQL URL as given, a file resolved; default DIR/state.db. */
function stateLocation(given: string | undefined, dataDir: string): string {
  if (given && isPostgresUrl(given)) return given;
  return resolve(given ?? join(dataDir, 'state.db'));
}

/**
 * Whether `dir` is the standalone executable's own data directory (data/ beside it, a fixed place): any command may
 * make it on first use, so the organization can be made before the first start. A missing directory elsewhere is a
 * mistyped --data or --state.
 */
export function isExecutableDataDir(dir: string, executable = IS_EXECUTABLE): boolean {
  return executable && resolve(dir) === resolve(defaultLocations(true).dataDir);
}
