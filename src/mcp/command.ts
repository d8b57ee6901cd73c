import type { Readable, Writable } from 'node:stream';
import { closeServices, openServices } from '../server.ts';
import { loadConfig } from '../config.ts';
import { requireDatabaseOrNothing, requireStateDatabase } from '../cli/files.ts';
import { isPostgresUrl } from '../state/location.ts';
import { openStateStore } from '../state/open.ts';
import { mcpTokenFromEnv, runStdioServer } from './stdio.ts';

/**
 * `juralite mcp`: the stdio MCP server on the data files, acting with $JURALITE_TOKEN, until the client disconnects.
 * stdout carries only JSON-RPC; notes go to stderr. A missing or refused token, or a state database that is not there
 * (a mistyped --data or --state), is an error before anything is served. A PostgreSQL state (`--state postgres://...`)
 * is opened as `serve` opens it, with the shared rate limits.
 *
 * @example case 'mcp': await mcpCommand(paths); return 0;
 */
export async function mcpCommand(
  paths: { corpusPath: string; statePath: string },
  options: { env?: NodeJS.ProcessEnv; clock?: () => Date; stdin?: Readable; stdout?: Writable } = {},
): Promise<void> {
  const env = options.env ?? process.env;
  const token = mcpTokenFromEnv(env);
  if (!isPostgresUrl(paths.statePath)) requireStateDatabase(paths.statePath);
  requireDatabaseOrNothing(paths.corpusPath, 'a juralite corpus');
  const { store, rates } = await openStateStore(paths.statePath);
  const services = openServices({ ...paths, store, rates, config: loadConfig(env), clock: options.clock });
  try {
    if (!services.corpus) {
      console.error(`juralite: no corpus at ${paths.corpusPath}; corpus tools answer 503 until one is placed there and `
        + 'juralite mcp started again');
    }
    const stdin = options.stdin ?? process.stdin;
    // Someone who starts it in a terminal sees it wait, not hang; a client's pipe is no terminal.
    if ((stdin as { isTTY?: boolean }).isTTY) {
      console.error('juralite mcp: serving MCP on stdin/stdout; waiting for a client (Ctrl-D to end)');
    }
    await runStdioServer(services, token, { stdin, stdout: options.stdout });
  } finally {
    closeServices(services);
  }
}
