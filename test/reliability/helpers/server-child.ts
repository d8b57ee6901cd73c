/**
 * A juralite server in its own process (what `juralite serve` runs: openServices, then listen), on database files
 * named by the test, that can be made to kill itself with SIGKILL at a chosen point, as `kill -9` at that moment
 * would:
 *
 * - JURALITE_TEST_CORPUS, JURALITE_TEST_STATE: the files; other JURALITE_* settings as usual (loadConfig);
 * - DIE_SQL: SQL run on the state connection, where `die()` kills the process (a TEMP trigger calling it fires inside
 *   the transaction that writes its table, before the commit);
 * - DIE_ON_BODY: kill the process when an answer whose body holds this text is about to be sent (after the commit).
 *
 * Prints one line, {"url": "...", "pid": ...}, once listening.
 */
import { ServerResponse } from 'node:http';
import { listen, openServices } from '../../../src/server.ts';

const env = process.env;
const services = openServices({ corpusPath: env.JURALITE_TEST_CORPUS!, statePath: env.JURALITE_TEST_STATE! });
const die = () => process.kill(process.pid, 'SIGKILL');
services.state.function('die', () => {
  die();
  return 0;
});
if (env.DIE_SQL) services.state.exec(env.DIE_SQL);
const marker = env.DIE_ON_BODY;
if (marker) {
  for (const method of ['write', 'end'] as const) {
    const original = ServerResponse.prototype[method] as (...args: unknown[]) => unknown;
    (ServerResponse.prototype as any)[method] = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      const text = typeof chunk === 'string' ? chunk
        : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8') : '';
      if (text.includes(marker)) die();
      return original.call(this, chunk, ...rest);
    };
  }
}
const { url } = await listen(services, '127.0.0.1', 0);
console.log(JSON.stringify({ url, pid: process.pid }));
