// Whether this process is the standalone executable (a Node single executable application built by
// scripts/build-exe.ts) and which files it expects beside itself. Outside the executable nothing here changes a path.
import { isSea } from 'node:sea';
import { dirname, join } from 'node:path';

/** True inside the standalone executable, false when Node runs the sources. */
export const IS_EXECUTABLE: boolean = isSea();

/** The folder holding the executable (its corpus, its native files and, by default, its data directory). */
export function executableDir(): string {
  return dirname(process.execPath);
}

/** Native files the executable loads from beside itself: it cannot carry them inside (dlopen needs a real file). */
export const NATIVE_FILES = {
  /** better-sqlite3's addon (N-API, so one file serves every Node version of its platform). */
  betterSqlite3: 'better_sqlite3.node',
  /** The sqlite-vec loadable extension, named as its platform package names it. */
  vecExtension(platform: NodeJS.Platform = process.platform): string {
    return platform === 'win32' ? 'vec0.dll' : platform === 'darwin' ? 'vec0.dylib' : 'vec0.so';
  },
} as const;

/** Where better-sqlite3's addon is: beside the executable, or undefined (the package finds its own). */
export function betterSqliteBinding(): string | undefined {
  return IS_EXECUTABLE ? join(executableDir(), NATIVE_FILES.betterSqlite3) : undefined;
}

/** Where the sqlite-vec extension is: beside the executable, or undefined (`sqliteVec.load` finds its own). */
export function vecExtensionFile(): string | undefined {
  return IS_EXECUTABLE ? join(executableDir(), NATIVE_FILES.vecExtension()) : undefined;
}
