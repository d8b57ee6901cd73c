import { RELEASE } from '../config.ts';
import { runAdmin } from './admin.ts';
import { COMMANDS, commandLine, type CommandLine } from './commands.ts';
import { parseFlags, UsageError, type Flags } from './flags.ts';
import { dataPaths } from './paths.ts';
import { listenAddress, serve } from './serve.ts';
import { mcpCommand } from '../mcp/command.ts';
import { describeSummary, importCommand } from './import.ts';
import { checkCommand } from './check.ts';
import { backupCommand } from './backup.ts';
import { IS_EXECUTABLE } from '../runtime/executable.ts';

const USAGE = `juralite ${RELEASE}: legal research over German decisions and statutes

Usage:
${Object.values(COMMANDS).map(({ usage }) => `  juralite ${usage}`).join('\n')}
  juralite --version

Administration commands take --state PATH (default DATA/state.db) and print one JSON object with --json.
${IS_EXECUTABLE
    ? 'DATA is --data DIR, else $JURALITE_DATA, else data/ beside the executable; CORPUS is corpus.db beside it.'
    : 'DATA is --data DIR, else $JURALITE_DATA, else ./data; CORPUS is DATA/corpus.db.'}`;

function print(result: unknown, json: boolean): void {
  if (json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(JSON.stringify(result, null, 2));
}

/** The exit code, or -1 for a command that keeps running (serve). Usage errors are thrown before any file is touched. */
export async function main(argv: string[]): Promise<number> {
  const { words, flags } = parseFlags(argv);
  if (flags.version) {
    console.log(RELEASE);
    return 0;
  }
  if (words.length === 0 || flags.help) {
    console.log(USAGE);
    return flags.help ? 0 : 2;
  }
  const command = commandLine(words, flags);
  try {
    return await runCommand(command, flags);
  } catch (error) {
    // A usage error found by the command itself (a required flag, a bad value) shows the command's usage line too.
    if (error instanceof UsageError) throw new UsageError(error.message, command.spec.usage);
    throw error;
  }
}

async function runCommand({ name, words }: CommandLine, flags: Flags): Promise<number> {
  const paths = dataPaths(flags as { data?: string; db?: string; state?: string });
  switch (name) {
    case 'serve':
      // With no --db, a missing corpus is built from the demo fixtures (npm start on a fresh clone); the executable
      // ships its corpus beside it instead.
      await serve({ ...paths, ...listenAddress(flags), demo: flags.db === undefined });
      return -1; // keeps running
    case 'import': {
      const started = performance.now();
      const { summary, code } = await importCommand(paths.corpusPath, words);
      console.log(flags.json ? JSON.stringify(summary) : describeSummary(summary, (performance.now() - started) / 1000));
      return code;
    }
    case 'check': {
      const { body, code } = checkCommand(paths.corpusPath, flags);
      console.log(JSON.stringify(body, null, flags.json ? undefined : 2));
      return code;
    }
    case 'mcp':
      await mcpCommand(paths);
      return 0;
    case 'backup':
      print(backupCommand(paths.statePath, words[0]), flags.json === true);
      return 0;
    default:
      print(runAdmin(name, words, flags, paths.statePath), flags.json === true);
      return 0;
  }
}

/** bin/juralite: runs the command line and sets the exit code (2: usage error, 1: the command failed). */
export async function run(argv: string[]): Promise<void> {
  try {
    const code = await main(argv);
    if (code >= 0) process.exitCode = code;
  } catch (error) {
    if (error instanceof UsageError) {
      const hint = error.usage ? `usage: juralite ${error.usage}` : 'run juralite --help for the usage';
      console.error(`juralite: ${error.message}\n${hint}`);
      process.exitCode = 2;
      return;
    }
    console.error(`juralite: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
