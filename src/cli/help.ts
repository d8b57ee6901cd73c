// The help texts: `juralite --help` (every command) and `juralite COMMAND --help` (that command or group), printed
// from the command table so that they cannot drift from what the command line accepts.
import { RELEASE } from '../config.ts';
import { IS_EXECUTABLE } from '../runtime/executable.ts';
import { COMMANDS, commandsOf } from './commands.ts';

const LOCATIONS_TEXT = IS_EXECUTABLE
  ? 'DATA is --data DIR, else $JURALITE_DATA, else data/ beside the executable; CORPUS is corpus.db beside it.'
  : 'DATA is --data DIR, else $JURALITE_DATA, else ./data; CORPUS is DATA/corpus.db.';

const SETTINGS = `Settings: a flag wins over its environment variable, which wins over the default.
  --data DIR     JURALITE_DATA    the data directory (state.db, token.txt, uploads/)
  --db CORPUS    JURALITE_DB      the corpus database
  --state STATE  JURALITE_STATE   the state database (default DATA/state.db)
  --host HOST    JURALITE_HOST    serve: the address to listen on (default 127.0.0.1)
  --port PORT    JURALITE_PORT    serve: the port (default 8080; 0 picks a free one)
${LOCATIONS_TEXT}`;

const EXIT_CODES = 'Exit status: 0 done; 1 the command failed (the reason on stderr, or the problem on stdout for check); 2 usage error.';

/** `juralite --help`: every command line, the settings and the exit codes. */
export function globalHelp(): string {
  return `juralite ${RELEASE}: legal research over German decisions and statutes

Usage:
${Object.values(COMMANDS).map(({ usage }) => `  juralite ${usage}`).join('\n')}
  juralite help [COMMAND]          (or juralite COMMAND --help, -h)
  juralite version                 (or --version, -v)

Administration commands (org, user, token, credits) and backup print one JSON object with --json.
${SETTINGS}
${EXIT_CODES}`;
}

/**
 * `juralite COMMAND --help` or `juralite help COMMAND [ACTION]`: that command's usage and what it does (every action
 * of a group); undefined for an unknown command.
 */
export function commandHelp(words: string[]): string | undefined {
  const [first, action] = words;
  const names = action !== undefined && Object.hasOwn(COMMANDS, `${first} ${action}`) ? [`${first} ${action}`] : commandsOf(first);
  if (names.length === 0) return undefined;
  const entries = names.map((name) => `usage: juralite ${COMMANDS[name].usage}\n  ${COMMANDS[name].summary}`);
  return `${entries.join('\n')}\n\n${SETTINGS}\n${EXIT_CODES}`;
}
