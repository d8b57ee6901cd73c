import { RELEASE } from '../config.ts';
import { runAdmin } from './admin.ts';
import { parseFlags, UsageError } from './flags.ts';
import { dataPaths } from './paths.ts';
import { serve } from './serve.ts';
import { mcpCommand } from '../mcp/command.ts';
import { describeSummary, importCommand } from './import.ts';
import { checkCommand } from './check.ts';
import { backupCommand } from './backup.ts';
import { IS_EXECUTABLE } from '../runtime/executable.ts';

const USAGE = `juralite ${RELEASE}: legal research over German decisions and statutes

Usage:
  juralite serve [--db CORPUS] [--state STATE] [--data DIR] [--host 127.0.0.1] [--port 8080]
  juralite import --db CORPUS PATH...
  juralite check --db CORPUS (--file PATH | --text STRING) [--reference-date YYYY-MM-DD]
  juralite org create --name N [--plan free|starter|professional|enterprise] [--require-2fa]
  juralite user create --org ID --name N [--email E]
  juralite user verify --user ID
  juralite user enable-2fa --user ID
  juralite token create --org ID [--user ID] --abilities a,b|all [--days N] [--name N]
  juralite token revoke --id ID
  juralite credits show --org ID
  juralite credits grant --org ID --amount N [--note TEXT]
  juralite mcp [--data DIR] [--db CORPUS] [--state STATE]   (token from $JURALITE_TOKEN; stdio)
  juralite backup [--data DIR] [--state STATE] DEST          (a consistent copy of the state, also while serving)
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

export async function main(argv: string[]): Promise<number> {
  const { words, flags } = parseFlags(argv);
  const [command, action] = words;
  if (flags.version) {
    console.log(RELEASE);
    return 0;
  }
  if (!command || flags.help) {
    console.log(USAGE);
    return command || flags.help ? 0 : 2;
  }
  const paths = dataPaths(flags as { data?: string; db?: string; state?: string });
  switch (command) {
    case 'serve':
      // With no --db, a missing corpus is built from the demo fixtures (npm start on a fresh clone); the executable
      // ships its corpus beside it instead.
      await serve({
        ...paths, host: (flags.host as string) ?? '127.0.0.1', port: Number(flags.port ?? 8080), demo: flags.db === undefined && !IS_EXECUTABLE,
      });
      return -1; // keeps running
    case 'org':
    case 'user':
    case 'token':
    case 'credits':
      print(runAdmin(command, action, flags, paths.statePath), flags.json === true);
      return 0;
    case 'import': {
      const sources = words.slice(1);
      if (sources.length === 0) throw new UsageError('import needs at least one PATH');
      const started = performance.now();
      const { summary, code } = await importCommand(paths.corpusPath, sources);
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
    case 'backup': {
      if (words.length !== 2) throw new UsageError('backup needs exactly one DEST');
      print(backupCommand(paths.statePath, words[1]), flags.json === true);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

export async function run(argv: string[]): Promise<void> {
  try {
    const code = await main(argv);
    if (code >= 0) process.exitCode = code;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`juralite: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    console.error(`juralite: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
