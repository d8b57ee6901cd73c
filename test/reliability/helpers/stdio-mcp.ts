/** `juralite mcp` in a child process, spoken to line by line as an MCP client does over stdio. */
import { spawn } from 'node:child_process';

const BIN = new URL('../../../bin/juralite', import.meta.url).pathname;

export interface StdioMcp {
  /** Initializes the session, then calls `tool` as request `id`; resolves with the JSON-RPC answer. */
  call(id: number, tool: string, args?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

/**
 * Starts `juralite mcp` with `args` (--db, --state) acting with `token`.
 *
 * @example const mcp = startStdioMcp(['--db', corpus, '--state', state], token); await mcp.call(2, 'get_corpus_coverage');
 */
export function startStdioMcp(args: string[], token: string): StdioMcp {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
    env: { PATH: process.env.PATH ?? '', JURALITE_TOKEN: token }, stdio: ['pipe', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  const answered = (id: number) => new Promise<any>((resolve) => {
    const look = () => {
      const line = stdout.split('\n').find((candidate) => candidate.includes(`"id":${id}`));
      if (line) resolve(JSON.parse(line));
      else setTimeout(look, 20);
    };
    look();
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    call: (id, tool, toolArgs = {}) => {
      send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: toolArgs } });
      return answered(id);
    },
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.on('close', resolve));
    },
  };
}
