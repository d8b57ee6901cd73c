/**
 * A throwaway PostgreSQL (Debian's postgresql, 13 or newer) for the shared-state tests: initdb in a temp directory,
 * listening on 127.0.0.1 at a free port with its unix socket in that directory, stopped and deleted at the end.
 * Root may not run initdb, so as root it runs as the `postgres` user. Without PostgreSQL binaries the tests that
 * need it skip, saying why (`POSTGRES_MISSING`).
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where the binaries are: JURALITE_PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
function binDir(): string | null {
  if (process.env.JURALITE_PG_BIN) return process.env.JURALITE_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((name) => /^\d+$/.test(name) && Number(name) >= 13).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((version) => join(root, version, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  return found ?? null;
}

/** The path of one of PostgreSQL's programs (pg_restore, psql) beside the server's. */
export function postgresTool(name: string): string {
  return join(binDir() ?? '', name);
}

/** Why the PostgreSQL tests skip, or false when they can run. */
export const POSTGRES_MISSING: string | false = binDir()
  ? false
  : 'no PostgreSQL binaries (apt-get install postgresql, or set JURALITE_PG_BIN): the shared-state tests skip';

export interface TestPostgres {
  /** A URL of a new, empty database in this cluster (each caller gets its own). */
  newDatabase(): Promise<string>;
  /** Stops the server (immediate: as a crash would) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): void;
  start(): void;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a PostgreSQL cluster in a temp directory. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  if (!bin) throw new Error(POSTGRES_MISSING as string);
  const dir = mkdtempSync(join(tmpdir(), 'juralite-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => execFileSync(asRoot ? 'runuser' : join(bin, tool),
    asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'juralite', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  // fsync off: the machine does not crash in a test, only PostgreSQL (stop -m immediate), and a commit is in the WAL
  // before it is answered (synchronous_commit stays on: off would lose the last commits of such a crash).
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => { run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']); };
  const stop = (mode = 'fast') => { run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']); };
  start();
  const admin = `postgres://juralite@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    async newDatabase() {
      const name = `juralite_${process.pid}_${++databases}`;
      const client = new pg.Client(admin);
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return `postgres://juralite@127.0.0.1:${port}/${name}`;
    },
    async restart() {
      stop('immediate');
      start();
    },
    stop: () => stop('immediate'),
    start,
    async close() {
      try {
        stop('immediate');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
