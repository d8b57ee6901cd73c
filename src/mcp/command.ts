import { closeServices, openServices } from '../server.ts';
import { loadConfig } from '../config.ts';
import { mcpTokenFromEnv, runStdioServer } from './stdio.ts';

/**
 * `juralite mcp`: the stdio MCP server on the data files, acting with $JURALITE_TOKEN, until the client disconnects.
 * stdout carries only JSON-RPC; notes go to stderr. A missing or refused token is an error before anything is served.
 *
 * @example case 'mcp': await mcpCommand(paths); return 0;
 */
export async function mcpCommand(
  paths: { corpusPath: string; statePath: string },
  options: { env?: NodeJS.ProcessEnv; clock?: () => Date } = {},
): Promise<void> {
  const env = options.env ?? process.env;
  const token = mcpTokenFromEnv(env);
  const services = openServices({ ...paths, config: loadConfig(env), clock: options.clock });
  try {
    if (!services.corpus) console.error(`juralite: no corpus at ${paths.corpusPath}; corpus tools answer 503 until one is there`);
    await runStdioServer(services, token);
  } finally {
    closeServices(services);
  }
}
