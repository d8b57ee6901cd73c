// Every command line juralite accepts, in one table: the usage text is printed from it, and a command line is checked
// against it (command, action, flags, words) before any file is opened or created.
import { isSwitch, UsageError, type Flags } from './flags.ts';

export interface CommandSpec {
  /** The usage line, after `juralite `. */
  usage: string;
  /** What it does, in one line (the help). */
  summary: string;
  /** The flags it takes (--help and --version are answered before any command). */
  flags: readonly string[];
  /** The words after the command (import's PATHs, backup's DEST, token revoke's ID); none when absent. */
  words?: { name: string; min: number; max: number };
}

/** Where the files are. Every command takes all three, so that a script can pass the same locations to each. */
const LOCATIONS = ['data', 'db', 'state'];
/** A command that prints a result prints it as one JSON object with --json. */
const RESULT = [...LOCATIONS, 'json'];

/** Keyed by command, or by `group action` for the administration commands; the help lists them in this order. */
export const COMMANDS: Record<string, CommandSpec> = {
  serve: {
    usage: 'serve [--db CORPUS] [--state STATE] [--data DIR] [--host 127.0.0.1] [--port 8080] [--metrics off|on|[HOST:]PORT]',
    summary: 'Serves the REST API (/api/v1), MCP (/mcp) and the pages (/) over HTTP; builds the demo corpus on a first start without one.',
    flags: [...LOCATIONS, 'host', 'port', 'metrics'],
  },
  import: {
    usage: 'import --db CORPUS [--profile] PATH...',
    summary: 'Imports laws and decisions (XML files, folders, ZIP archives) into a corpus, made if missing; --profile prints where its time went.',
    flags: [...RESULT, 'profile'],
    words: { name: 'PATH', min: 1, max: Infinity },
  },
  sync: {
    usage: 'sync [--db CORPUS] [--source gii|rii|oldp|all] [--since DATE] [--only COURT|LAW] [--limit N] [--dry-run] '
      + '[--base-url URL] [--pause MS] [DUMP...]',
    summary: 'Keeps a corpus current from the official sources (gesetze-im-internet.de, rechtsprechung-im-internet.de, Open Legal Data dumps); docs/sync.md.',
    flags: [...RESULT, 'source', 'since', 'only', 'limit', 'dry-run', 'base-url', 'pause'],
    words: { name: 'DUMP', min: 0, max: Infinity },
  },
  check: {
    usage: 'check --db CORPUS (--file PATH | --text STRING) [--reference-date YYYY-MM-DD]',
    summary: 'Checks the citations of a text or a file (PDF, DOCX, Markdown, text) offline; prints the answer POST /citation-checks gives.',
    flags: [...RESULT, 'file', 'text', 'reference-date'],
  },
  mcp: {
    usage: 'mcp [--data DIR] [--db CORPUS] [--state STATE]   (token from $JURALITE_TOKEN; stdio)',
    summary: 'Serves MCP over stdin/stdout for a client that starts juralite itself.',
    flags: LOCATIONS,
  },
  backup: {
    usage: 'backup [--data DIR] [--state STATE] DEST          (a consistent copy of the state, also while serving)',
    summary: 'Copies the state (accounts, ledger, runs) into DEST, a new file, also while the server runs; on PostgreSQL with pg_dump.',
    flags: RESULT,
    words: { name: 'DEST', min: 1, max: 1 },
  },
  'org create': {
    usage: 'org create --name N [--plan free|starter|professional|enterprise] [--require-2fa]',
    summary: 'Creates an organization with its first user.',
    flags: [...RESULT, 'name', 'plan', 'require-2fa'],
  },
  'org list': { usage: 'org list', summary: 'Lists the organizations.', flags: RESULT },
  'user create': { usage: 'user create --org ID --name N [--email E]', summary: 'Adds a user to an organization.', flags: [...RESULT, 'org', 'name', 'email'] },
  'user list': { usage: 'user list --org ID', summary: 'Lists the users of an organization.', flags: [...RESULT, 'org'] },
  'user verify': { usage: 'user verify --user ID', summary: 'Marks a user as verified.', flags: [...RESULT, 'user'] },
  'user enable-2fa': { usage: 'user enable-2fa --user ID', summary: 'Turns on two-factor authentication for a user.', flags: [...RESULT, 'user'] },
  'token create': {
    usage: 'token create --org ID [--user ID] --abilities a,b|all [--days N] [--name N]',
    summary: 'Creates an API token; it is shown once and stored only as a hash.',
    flags: [...RESULT, 'org', 'user', 'abilities', 'days', 'name'],
  },
  'token list': {
    usage: 'token list [--org ID]',
    summary: 'Lists tokens (id, organization, abilities, name, dates; never the secret), revoked and expired ones marked.',
    flags: [...RESULT, 'org'],
  },
  'token revoke': {
    usage: 'token revoke (ID | --id ID)', summary: 'Revokes a token at once.', flags: [...RESULT, 'id'], words: { name: 'ID', min: 0, max: 1 },
  },
  'credits show': { usage: 'credits show --org ID', summary: "Shows an organization's credits.", flags: [...RESULT, 'org'] },
  'credits grant': {
    usage: 'credits grant --org ID --amount N [--note TEXT]', summary: 'Grants bonus credits (they do not expire).', flags: [...RESULT, 'org', 'amount', 'note'],
  },
};

/** The spec names of a command or group word (`token` -> token create, token list, token revoke), or none. */
export function commandsOf(word: string): string[] {
  if (!word.includes(' ') && Object.hasOwn(COMMANDS, word)) return [word];
  return Object.keys(COMMANDS).filter((name) => name.startsWith(`${word} `));
}

export interface CommandLine {
  /** The key in COMMANDS: `serve`, `token revoke`, ... */
  name: string;
  spec: CommandSpec;
  /** The words after the command. */
  words: string[];
}

/**
 * The command a command line names, checked against its spec: a usage error (with the command's usage line once the
 * command is known) for an unknown command or action, an unknown flag, a flag without its value, or missing or extra
 * words.
 *
 * @example const { name, words } = commandLine(['token', 'revoke', 'ID'], flags);
 */
export function commandLine(words: string[], flags: Flags): CommandLine {
  const command = resolveCommand(words);
  checkFlags(command, flags);
  checkWords(command);
  return command;
}

function resolveCommand(words: string[]): CommandLine {
  const [first, action] = words;
  // Only a group's name with its action names an administration command, never one word holding a space.
  if (!first.includes(' ') && Object.hasOwn(COMMANDS, first)) return { name: first, spec: COMMANDS[first], words: words.slice(1) };
  const actions = commandsOf(first).map((name) => name.slice(first.length + 1));
  if (actions.length === 0) throw new UsageError(`unknown command "${first}"`);
  const choices = actions.length === 1 ? actions[0] : `${actions.slice(0, -1).join(', ')} or ${actions.at(-1)}`;
  if (action === undefined) throw new UsageError(`${first} needs an action: ${choices}`);
  if (!actions.includes(action)) throw new UsageError(`unknown action "${action}" for ${first}; choose ${choices}`);
  const name = `${first} ${action}`;
  return { name, spec: COMMANDS[name], words: words.slice(2) };
}

function checkFlags({ name, spec }: CommandLine, flags: Flags): void {
  const given = Object.keys(flags);
  const unknown = given.find((flag) => !spec.flags.includes(flag));
  if (unknown !== undefined) throw new UsageError(`unknown flag --${unknown} for "${name}"`, spec.usage);
  const valueless = given.find((flag) => !isSwitch(flag) && typeof flags[flag] !== 'string');
  if (valueless !== undefined) throw new UsageError(`--${valueless} needs a value`, spec.usage);
}

function checkWords({ name, spec, words }: CommandLine): void {
  const { name: word, min, max } = spec.words ?? { name: '', min: 0, max: 0 };
  if (words.length < min) {
    throw new UsageError(`${name} needs ${max === Infinity ? `at least one ${word}` : word}`, spec.usage);
  }
  if (words.length > max) throw new UsageError(`unexpected argument "${words[max]}" for "${name}"`, spec.usage);
}
