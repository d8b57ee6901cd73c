// Whether this process is the standalone executable (a Node single executable application built by
// scripts/build-exe.ts) and where its native files are. Outside the executable nothing here changes a path.
import { getRawAsset, isSea } from 'node:sea';
import { dirname } from 'node:path';
import { RELEASE } from '../config.ts';
import { NATIVE_MANIFEST_ASSET, unpackNativeFiles, type NativeManifest } from './native-cache.ts';

/** True inside the standalone executable, false when Node runs the sources. */
export const IS_EXECUTABLE: boolean = isSea();

/** The folder holding the executable (its corpus and, by default, its data directory). */
export function executableDir(): string {
  return dirname(process.execPath);
}

/** Native files the executable carries inside and unpacks to a cache directory (dlopen needs a real file). */
export const NATIVE_FILES = {
  /** better-sqlite3's addon (N-API, so one file serves every Node version of its platform). */
  betterSqlite3: 'better_sqlite3.node',
  /** The sqlite-vec loadable extension, named as its platform package names it (SQLite derives its entry point from the name). */
  vecExtension(platform: NodeJS.Platform = process.platform): string {
    return platform === 'win32' ? 'vec0.dll' : platform === 'darwin' ? 'vec0.dylib' : 'vec0.so';
  },
} as const;

let unpacked: Record<string, string> | undefined;

/** The executable's native files on disk, unpacked on first use (once per process; src/runtime/native-cache.ts). */
function nativeFile(name: string): string {
  if (!unpacked) {
    const manifest = JSON.parse(Buffer.from(getRawAsset(NATIVE_MANIFEST_ASSET)).toString('utf8')) as NativeManifest;
    unpacked = unpackNativeFiles(manifest, RELEASE, (key) => new Uint8Array(getRawAsset(key)));
  }
  const path = unpacked[name];
  if (!path) throw new Error(`the executable carries no ${name}`);
  return path;
}

/** Where better-sqlite3's addon is: unpacked from the executable, or undefined (the package finds its own). */
export function betterSqliteBinding(): string | undefined {
  return IS_EXECUTABLE ? nativeFile(NATIVE_FILES.betterSqlite3) : undefined;
}

/** Where the sqlite-vec extension is: unpacked from the executable, or undefined (`sqliteVec.load` finds its own). */
export function vecExtensionFile(): string | undefined {
  return IS_EXECUTABLE ? nativeFile(NATIVE_FILES.vecExtension()) : undefined;
}
