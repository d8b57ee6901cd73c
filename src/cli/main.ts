// The command line's dispatcher. It loads only the table of commands; each command's code is imported when that
// command runs, so that `juralite check` or `juralite token list` does not first load the HTTP server, the MCP SDK
// and the upload pool (docs/cli.md has the figures).
import { RELEASE } from '../config.ts';
import { commandLine, type CommandLine } from './commands.ts';
import { parseFlags, UsageError, type Flags } from './flags.ts';
import { commandHelp, globalHelp } from './help.ts';
import { dataPaths } from './paths.ts';

function print(result: unknown, json: boolean): void {
  console.log(json ? JSON.stringify(result) : JSON.stringify(result, null, 2));
}

/** The exit code, or -1 for a command that keeps running (serve). Usage errors are thrown before any file is touched. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { words, flags } = parseFlags(argv);
  // `help` and `version` as words too, as git and npm take them.
  if (words[0] === 'help') return help(words.slice(1));
  if (flags.version || (words[0] === 'version' && words.length === 1)) {
    console.log(RELEASE);
    return 0;
  }
  if (flags.help) return help(words);
  if (words.length === 0) {
    console.log(globalHelp());
    return 2;
  }
  const command = commandLine(words, flags);
  try {
    return await runCommand(command, flags, env);
  } catch (error) {
    // A usage error found by the command itself (a required flag, a bad value) shows the command's usage line too.
    if (error instanceof UsageError) throw new UsageError(error.message, command.spec.usage);
    throw error;
  }
}

function help(words: string[]): number {
  if (words.length === 0) {
    console.log(globalHelp());
    return 0;
  }
  const text = commandHelp(words);
  if (text === undefined) throw new UsageError(`unknown command "${words[0]}"`);
  console.log(text);
  return 0;
}

async function runCommand({ name, words }: CommandLine, flags: Flags, env: NodeJS.ProcessEnv): Promise<number> {
  const paths = dataPaths(flags as { data?: string; db?: string; state?: string }, env);
  switch (name) {
    case 'serve': {
      const { listenAddress, serve } = await import('./serve.ts');
      // With no corpus named, a missing corpus is built from the demo fixtures (npm start on a fresh clone; the
      // executable carries them).
      await serve({ ...paths, ...listenAddress(flags, env), demo: flags.db === undefined && !env.JURALITE_DB,
        metrics: flags.metrics === undefined ? undefined : String(flags.metrics) });
      return -1; // keeps running
    }
    case 'import': {
      const { describeSummary, importCommand } = await import('./import.ts');
      const started = performance.now();
      const { summary, code } = await importCommand(paths.corpusPath, words, { profile: flags.profile === true });
      console.log(flags.json ? JSON.stringify(summary) : describeSummary(summary, (performance.now() - started) / 1000));
      return code;
    }
    case 'sync': {
      const { syncMain } = await import('./sync.ts');
      return syncMain(paths.corpusPath, flags, words);
    }
    case 'check': {
      const { checkCommand } = await import('./check.ts');
      const { body, code } = await checkCommand(paths.corpusPath, flags);
      console.log(JSON.stringify(body, null, flags.json ? undefined : 2));
      return code;
    }
    case 'mcp': {
      const { mcpCommand } = await import('../mcp/command.ts');
      await mcpCommand(paths);
      return 0;
    }
    case 'backup': {
      const { backupCommand } = await import('./backup.ts');
      print(await backupCommand(paths.statePath, words[0]), flags.json === true);
      return 0;
    }
    default: {
      const { runAdmin } = await import('./admin.ts');
      print(await runAdmin(name, words, flags, paths.statePath), flags.json === true);
      return 0;
    }
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
