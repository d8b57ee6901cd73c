/** `juralite serve` in a child process (bin/juralite), for tests and benchmarks that need whole nodes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/juralite', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  /** The base URL from the "serving" line, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** All it printed (stdout and stderr) until it served. */
  output: string;
  /** All it has printed so far (stdout and stderr are two pipes: a line written to stderr before the "serving" line
   * may arrive after it). */
  printed(): string;
  /** The token in `--data`'s token.txt, which the first start writes. */
  token(): string;
}

/**
 * Starts `juralite serve ARGS --port 0` and resolves once it listens; rejects with the server's output (and stops
 * it) when it exits first or does not listen within a minute.
 *
 * @example const { child, url } = await startServeProcess(['--state', stateUrl, '--db', corpus, '--data', dir]);
 */
export function startServeProcess(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const data = args.includes('--data') ? args[args.indexOf('--data') + 1] : undefined;
  const token = () => {
    if (!data) throw new Error('juralite serve was started without --data: no token file to read');
    return readFileSync(join(data, 'token.txt'), 'utf8').trim();
  };
  let output = '';
  let serving = false;
  const served = new Promise<ServeProcess>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`juralite serve did not listen:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      // Read to the end (a pipe left unread would block the server once full); searched only until it serves.
      const match = serving ? null : /serving (http:\/\/\S+)\/api\/v1/.exec(output);
      if (match) {
        serving = true;
        clearTimeout(timer);
        resolve({ child, url: match[1], output, printed: () => output, token });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`juralite serve exited (${code}):\n${output}`)));
  });
  return served.catch((error: unknown) => {
    child.kill('SIGTERM');
    throw error;
  });
}
