/**
 * MCP clients against a real juralite: the REST server of `startApi()` and, on the same services, a second
 * node:http server that mounts `mcpHttpHandler` at /mcp the way the HTTP edge will; or a child process serving
 * stdio on the same database files (test/mcp/stdio-server.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { H3, toNodeHandler } from 'h3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startApi, type Api } from '../helpers/api.ts';
import type { Config } from '../../src/config.ts';
import { mcpHttpHandler, MCP_PATH } from '../../src/mcp/http.ts';

export interface McpApi {
  api: Api;
  /** The Streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  mcpUrl: string;
  /** An SDK client over Streamable HTTP with this bearer token; closed by close(). */
  connect(token: string): Promise<Client>;
  close(): Promise<void>;
}

export async function startMcpApi(options: { corpus?: 'small' | 'demo' | 'none' | string; config?: Partial<Config> } = {}): Promise<McpApi> {
  const api = await startApi(options);
  const app = new H3();
  const mcp = mcpHttpHandler(api.services);
  app.all(MCP_PATH, (event) => mcp(event.req));
  const server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const mcpUrl = `http://127.0.0.1:${port}${MCP_PATH}`;
  const clients: Client[] = [];
  return {
    api,
    mcpUrl,
    connect: async (token) => {
      const client = await connectHttp(mcpUrl, token);
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
      await closeServer(server);
      await api.close();
    },
  };
}

async function closeServer(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

const clientInfo = { name: 'juralite-test', version: '0.0.0' };

/** An MCP client over Streamable HTTP, sending `Authorization: Bearer <token>` with every request. */
export async function connectHttp(mcpUrl: string, token: string): Promise<Client> {
  const client = new Client(clientInfo);
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }));
  return client;
}

export const STDIO_SERVER = join(import.meta.dirname, 'stdio-server.ts');

/** What the stdio child needs: the API's database files and clock, and the token. */
export function stdioEnv(api: Api, token: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    JURALITE_TOKEN: token,
    JURALITE_TEST_CORPUS: join(api.dir, 'corpus.db'),
    JURALITE_TEST_STATE: join(api.dir, 'state.db'),
    JURALITE_TEST_NOW: api.now().toISOString(),
  };
}

/** An MCP client over stdio, spawning `node test/mcp/stdio-server.ts` on the API's database files. */
export async function connectStdio(api: Api, token: string): Promise<Client> {
  const client = new Client(clientInfo);
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: [STDIO_SERVER],
    env: stdioEnv(api, token),
    stderr: 'inherit',
  }));
  return client;
}

/** A tool result's structured content, typed loosely for assertions. */
export function structured(result: unknown): any {
  return (result as { structuredContent?: unknown }).structuredContent;
}

/** An answer without its `credits` (the one field REST and MCP answers may differ in). */
export function withoutCredits(body: Record<string, unknown>): Record<string, unknown> {
  const { credits: _credits, ...rest } = body;
  return rest;
}
