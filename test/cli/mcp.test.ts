/** `juralite mcp` started in a terminal says that it waits for a client, on stderr; stdout stays the protocol's. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { mcpCommand } from '../../src/mcp/command.ts';

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
