/** `juralite serve` in a child process (bin/juralite), for tests and benchmarks that need whole nodes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/juralite', import.meta.url));

/**
 * Starts `juralite serve ARGS --port 0` and resolves once it listens, with its base URL; rejects with the server's
 * output when it exits first or does not listen within a minute.
 *
 * @example const { child, url } = await startServeProcess(['--state', stateUrl, '--db', corpus, '--data', dir]);
 */
export function startServeProcess(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`juralite serve did not listen:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /serving (http:\/\/\S+)\/api\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', read);
        child.stderr!.off('data', read);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`juralite serve exited (${code}):\n${output}`)));
  });
}
