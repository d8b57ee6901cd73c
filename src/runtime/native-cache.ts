// Native files the executable carries inside (SEA assets) and writes to disk once, because dlopen needs a real file:
// better-sqlite3's addon and the sqlite-vec extension. They go to a cache directory per release and build
// (`<base>/<release>-<build hash>/`), the first of these bases where this user may write:
//   $JURALITE_CACHE_DIR, then $XDG_CACHE_HOME/juralite (default ~/.cache/juralite), then <tmp>/juralite-<uid>.
// A file already there is used only when its SHA-256 is the one the build recorded; otherwise it is written again
// (to a temporary name, then renamed, so that a process starting at the same time never loads half a file).
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One native file in the executable: its name on disk, the SEA asset holding it gzipped, its SHA-256 (hex). */
export interface NativeAsset {
  name: string;
  asset: string;
  sha256: string;
}

/** What the build records in the executable (the SEA asset NATIVE_MANIFEST_ASSET, JSON). */
export interface NativeManifest {
  /** A hash over every file: a directory name that changes with any of them. */
  build: string;
  files: NativeAsset[];
}

/** The SEA asset key of the manifest. */
export const NATIVE_MANIFEST_ASSET = 'native/manifest.json';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The bases to try, in order (each gets a juralite folder of its own where it is a shared place). */
export function cacheBases(env: NodeJS.ProcessEnv = process.env): string[] {
  const bases: string[] = [];
  if (env.JURALITE_CACHE_DIR) bases.push(env.JURALITE_CACHE_DIR);
  let home: string | undefined;
  try {
    home = homedir();
  } catch {
    home = undefined; // a user without a home directory (a system account): the next base
  }
  const xdg = env.XDG_CACHE_HOME || (home ? join(home, '.cache') : undefined);
  if (xdg) bases.push(join(xdg, 'juralite'));
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  bases.push(join(tmpdir(), uid === undefined ? 'juralite' : `juralite-${uid}`));
  return bases;
}

/** A directory this user owns and nobody else may write to: a place whose files may be loaded as code. */
function requireOwnDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new Error('is not a directory');
  if (process.platform === 'win32') return;
  if (stat.uid !== process.getuid!()) throw new Error('belongs to another user');
  if ((stat.mode & 0o022) !== 0) throw new Error('may be written by other users');
}

function hasContent(path: string, expected: string): boolean {
  try {
    return sha256(readFileSync(path)) === expected;
  } catch {
    return false;
  }
}

/** Makes sure each file is in `dir` with its recorded content; returns their paths by name. */
function writeInto(dir: string, manifest: NativeManifest, readAsset: (key: string) => Uint8Array): Record<string, string> {
  requireOwnDirectory(dir);
  const paths: Record<string, string> = {};
  for (const file of manifest.files) {
    const path = join(dir, file.name);
    if (!hasContent(path, file.sha256)) {
      const bytes = gunzipSync(readAsset(file.asset));
      if (sha256(bytes) !== file.sha256) throw new Error(`the executable's copy of ${file.name} is damaged (hash mismatch)`);
      const temporary = `${path}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, bytes, { mode: 0o700 });
        chmodSync(temporary, 0o700);
        renameSync(temporary, path);
      } finally {
        rmSync(temporary, { force: true });
      }
      if (!hasContent(path, file.sha256)) throw new Error(`${file.name} read back differently after writing it`);
    }
    paths[file.name] = path;
  }
  return paths;
}

/**
 * The native files on disk, written where needed into the first usable cache directory; a clear error naming every
 * place tried (and why each failed) when there is none.
 *
 * @example unpackNativeFiles(manifest, '0.1.0', (key) => new Uint8Array(sea.getRawAsset(key)))['vec0.so']
 */
export function unpackNativeFiles(
  manifest: NativeManifest, release: string, readAsset: (key: string) => Uint8Array, bases = cacheBases(),
): Record<string, string> {
  const failures: string[] = [];
  for (const base of bases) {
    const dir = join(base, `${release}-${manifest.build}`);
    try {
      return writeInto(dir, manifest, readAsset);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      failures.push(`${dir}: ${reason}`);
    }
  }
  throw new Error(`cannot write the executable's native files (${manifest.files.map((file) => file.name).join(', ')}) to `
    + `any cache directory:\n  ${failures.join('\n  ')}\nset JURALITE_CACHE_DIR to a directory this user may write`);
}
