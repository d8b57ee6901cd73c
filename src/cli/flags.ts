/** Command-line flags: `--name value`, `--name=value`, bare `--switch`, `-h` and `-v`. Positional words come back in order. */
export type Flags = Record<string, string | boolean | string[]>;

/** A command line juralite does not accept: exit 2, with the usage line of the command when it is known. */
export class UsageError extends Error {
  /** The command's usage line (after `juralite `), when the command was recognized. */
  usage?: string;

  constructor(message: string, usage?: string) {
    super(message);
    this.usage = usage;
  }
}

/** Flags that take no value. */
const SWITCHES = new Set(['json', 'require-2fa', 'help', 'version', 'dry-run', 'profile']);

/** The short forms every command-line tool knows. */
const SHORT: Record<string, string> = { '-h': 'help', '-v': 'version' };

export function isSwitch(name: string): boolean {
  return SWITCHES.has(name);
}

/**
 * A flag that needs a value but has none is kept as `true`: the command checks it (commands.ts), so that a mistyped
 * flag at the end of the line is reported as unknown rather than as lacking a value.
 */
export function parseFlags(argv: string[]): { words: string[]; flags: Flags } {
  const words: string[] = [];
  // No prototype: `--__proto__ x` is a flag like any other (and reported as unknown), not a prototype change.
  const flags: Flags = Object.create(null);
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (Object.hasOwn(SHORT, arg)) {
      flags[SHORT[arg]] = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (SWITCHES.has(name)) {
      flags[name] = true;
      continue;
    }
    const value = inline ?? argv[index + 1];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      flags[name] = true;
      continue;
    }
    if (inline === undefined) index++;
    flags[name] = value;
  }
  return { words, flags };
}
