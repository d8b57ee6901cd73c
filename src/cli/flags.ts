/** Command-line flags: `--name value`, `--name=value` and bare `--switch`. Positional words come back in order. */
export type Flags = Record<string, string | boolean | string[]>;

export class UsageError extends Error {}

/** Flags that take no value. */
const SWITCHES = new Set(['json', 'require-2fa', 'help', 'version']);

export function parseFlags(argv: string[]): { words: string[]; flags: Flags } {
  const words: string[] = [];
  const flags: Flags = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
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
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    if (inline === undefined) index++;
    flags[name] = value;
  }
  return { words, flags };
}
