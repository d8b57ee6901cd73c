// The native files the executable carries inside as SEA assets (src/runtime/native-cache.ts unpacks them once to a
// cache directory, since dlopen needs real files): better-sqlite3's addon and the sqlite-vec extension, for the
// target, gzipped, with a manifest of their names and SHA-256 hashes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { NATIVE_FILES } from '../src/runtime/executable.ts';
import { NATIVE_MANIFEST_ASSET, sha256, type NativeManifest } from '../src/runtime/native-cache.ts';
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

/**
 * Writes the gzipped native files and their manifest into `runDir`; returns the SEA assets (key -> file) and the
 * total size of the gzipped files.
 */
export function nativeAssets(root: string, target: ExeTarget, runDir: string, cacheDir: string, vecVersion: string): { assets: Record<string, string>; bytes: number } {
  const sources: [string, string][] = [
    [NATIVE_FILES.betterSqlite3, betterSqliteAddon(root, target)],
    [NATIVE_FILES.vecExtension(target.platform), vecExtension(root, target, cacheDir, vecVersion)],
  ];
  const assets: Record<string, string> = {};
  const files: NativeManifest['files'] = [];
  let bytes = 0;
  for (const [name, source] of sources) {
    const content = readFileSync(source);
    const packed = gzipSync(content, { level: 9 });
    const asset = `native/${name}.gz`;
    const path = join(runDir, `${name}.gz`);
    writeFileSync(path, packed);
    assets[asset] = path;
    bytes += packed.length;
    files.push({ name, asset, sha256: sha256(content) });
  }
  const manifest: NativeManifest = { build: sha256(Buffer.from(files.map((file) => file.sha256).join())).slice(0, 12), files };
  const manifestPath = join(runDir, 'native-manifest.json');
  writeFileSync(manifestPath, JSON.stringify(manifest));
  assets[NATIVE_MANIFEST_ASSET] = manifestPath;
  return { assets, bytes };
}
