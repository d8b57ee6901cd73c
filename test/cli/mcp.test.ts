/**
 * `juralite mcp` started in a terminal says that it waits for a client, on stderr; stdout stays the protocol's. An MCP
 * client that starts bin/juralite where the machine's Node is too old gets a working server (bin/juralite finds .node24).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpCommand } from '../../src/mcp/command.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
const juralite = (args: string[]) => JSON.parse(execFileSync(process.execPath, [BIN, ...args, '--json'], { encoding: 'utf8' }));

/** mcpCommand on `stdin` until it ends, with what it wrote to stdout and to stderr (console.error). */
async function mcpSession(statePath: string, token: string, stdin: PassThrough): Promise<{ stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk) => { written += chunk; });
  const notes: string[] = [];
  const savedError = console.error;
  console.error = (...args: unknown[]) => { notes.push(args.join(' ')); };
  try {
    const session = mcpCommand({ corpusPath: join(statePath, '..', 'no-corpus.db'), statePath }, { env: { JURALITE_TOKEN: token }, stdin, stdout });
    stdin.end();
    await session;
  } finally {
    console.error = savedError;
  }
  return { stdout: written, stderr: notes.join('\n') };
}

test('in a terminal, juralite mcp says on stderr that it waits for a client; from a pipe it says nothing of the kind', { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-mcp-'));
  try {
    const statePath = join(dir, 'state.db');
    const org = juralite(['org', 'create', '--name', 'Kanzlei', '--state', statePath]).organization.id;
    const { token } = juralite(['token', 'create', '--org', org, '--abilities', 'all', '--state', statePath]);
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    const inTerminal = await mcpSession(statePath, token, terminal);
    assert.match(inTerminal.stderr, /juralite mcp: serving MCP on stdin\/stdout; waiting for a client \(Ctrl-D to end\)/);
    assert.equal(inTerminal.stdout, '', 'stdout carries the protocol only');
    const piped = await mcpSession(statePath, token, new PassThrough());
    assert.doesNotMatch(piped.stderr, /waiting for a client/);
    assert.match(piped.stderr, /no corpus at .*placed there and juralite mcp started again/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an MCP client starting bin/juralite mcp with Node 20 first on PATH lists the tools and calls one', { timeout: 60_000 }, async (t) => {
  const oldPath = '/usr/bin';
  const version = spawnSync('node', ['--version'], { encoding: 'utf8', env: { PATH: oldPath } }).stdout?.trim() ?? '';
  if (!/^v(?:1\d|20|21|22\.(?:\d|1[0-7]))\./.test(version)) {
    t.skip(`the node in ${oldPath} is ${version || 'missing'}, not older than 22.18`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'juralite-mcp-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const statePath = join(dir, 'state.db');
  const org = juralite(['org', 'create', '--name', 'Kanzlei', '--plan', 'enterprise', '--state', statePath]).organization.id;
  const { token } = juralite(['token', 'create', '--org', org, '--abilities', 'all', '--state', statePath]);
  // As a client configuration names it: the script itself as the command, whose `env node` is the machine's Node 20.
  const client = new Client({ name: 'juralite-node20-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({
    command: BIN, args: ['mcp', '--state', statePath, '--db', await demoCorpus()], env: { PATH: `${oldPath}:/bin`, JURALITE_TOKEN: token }, stderr: 'pipe',
  }));
  try {
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'get_decision'));
    const answer = await client.callTool({ name: 'get_decision', arguments: { id: 'VIII ZR 214/12', max_chars: 500 } });
    assert.notEqual(answer.isError, true, JSON.stringify(answer));
    assert.match(JSON.stringify(answer.content), /VIII ZR 214\/12/);
  } finally {
    await client.close();
  }
});
