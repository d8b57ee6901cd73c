// The native files that go beside the executable (dlopen needs real files): better-sqlite3's addon and the
// sqlite-vec extension, for the target, under the names src/runtime/executable.ts looks for.
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { NATIVE_FILES } from '../src/runtime/executable.ts';
import { unpackNpmPackage } from './exe-node-binary.ts';
import { betterSqlitePrebuild, isHost, sqliteVecPackage, targetName, type ExeTarget } from './exe-target.ts';

/** better-sqlite3's addon: its prebuild for the target (N-API, any Node version), or a local build on the host. */
function betterSqliteAddon(root: string, target: ExeTarget): string {
  const dir = join(root, 'node_modules', 'better-sqlite3');
  const candidates = [join(dir, betterSqlitePrebuild(target)), ...(isHost(target) ? [join(dir, 'build', 'Release', 'better_sqlite3.node')] : [])];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`no better-sqlite3 addon for ${targetName(target)} (looked for ${candidates.join(', ')})`);
  return found;
}

/** sqlite-vec's extension: the installed platform package on the host, the registry's package for other targets. */
function vecExtension(root: string, target: ExeTarget, cacheDir: string, version: string): string {
  const file = NATIVE_FILES.vecExtension(target.platform);
  const installed = join(root, 'node_modules', sqliteVecPackage(target), file);
  if (existsSync(installed)) return installed;
  return join(unpackNpmPackage(`${sqliteVecPackage(target)}@${version}`, cacheDir), file);
}

/** Copies both files into `outDir`; returns their paths there. */
export function copyNativeFiles(root: string, target: ExeTarget, outDir: string, cacheDir: string, vecVersion: string): string[] {
  const copies: [string, string][] = [
    [betterSqliteAddon(root, target), join(outDir, NATIVE_FILES.betterSqlite3)],
    [vecExtension(root, target, cacheDir, vecVersion), join(outDir, NATIVE_FILES.vecExtension(target.platform))],
  ];
  for (const [from, to] of copies) copyFileSync(from, to);
  return copies.map(([, to]) => to);
}
