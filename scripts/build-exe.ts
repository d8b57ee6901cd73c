// `npm run build:exe`: the standalone executable, offline.
//   node scripts/build-exe.ts [--target linux-x64] [--out dist] [--no-demo]
// 1. esbuild bundles the application and wraps it in the SEA main script (scripts/exe-bundle.ts);
// 2. better-sqlite3's addon and the sqlite-vec extension become SEA assets, gzipped, with their hashes
//    (scripts/exe-native-files.ts; src/runtime/native-cache.ts unpacks them at run time), and so do the demo
//    corpus's sources (scripts/exe-assets.ts: `serve` imports them where no corpus is, as `npm start` does);
// 3. Node's own SEA tools make the blob (`node --experimental-sea-config`, with .node24's Node: blob and binary must
//    be of one version) and postject injects it into a copy of Node 24's binary from the npm registry
//    (scripts/exe-node-binary.ts). Nothing is downloaded from nodejs.org;
// docs/install.md describes the result and the other targets.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleApplication, bundleSeaMain } from './exe-bundle.ts';
import { dataAssets } from './exe-assets.ts';
import { nativeAssets } from './exe-native-files.ts';
import { hostNode, targetNode } from './exe-node-binary.ts';
import { executableName, hostTarget, isHost, parseTarget, targetName, TARGETS } from './exe-target.ts';

const root = resolve(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: {
    target: { type: 'string' },
    out: { type: 'string', default: 'dist' },
    'no-demo': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(`node scripts/build-exe.ts [--target ${TARGETS.join('|')}] [--out DIR] [--no-demo]`);
  process.exit(0);
}

const host = hostTarget();
if (!host) throw new Error(`build-exe: cannot build on ${process.platform}-${process.arch} (no Node package for it)`);
const target = options.target ? parseTarget(options.target) : host;
const outDir = resolve(root, options.out);
// The cache (the packages of other targets) stays between builds; each build's own files go in `run`, so
// that two builds at once (a test and a developer) do not write the same file.
const cache = join(root, '.tmp', 'exe-build', targetName(target));
mkdirSync(cache, { recursive: true });
const run = mkdtempSync(join(cache, 'run-'));
process.on('exit', () => rmSync(run, { recursive: true, force: true }));
mkdirSync(outDir, { recursive: true });
const started = performance.now();
/** The executable's size limit (issue 31): Node's binary is about 127 MB of it. */
const SIZE_LIMIT = 140e6;
const step = (text: string) => console.log(`build-exe: ${text} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

// 1. The JavaScript.
const seaMain = join(run, 'sea-main.cjs');
await bundleSeaMain(root, await bundleApplication(root, target.platform), seaMain);
step(`bundled ${relative(root, seaMain)}, ${(statSync(seaMain).size / 1e6).toFixed(1)} MB`);

// 2. The native files and the data, as assets.
const vecVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'sqlite-vec', 'package.json'), 'utf8')).version as string;
const native = nativeAssets(root, target, run, join(cache, 'packages'), vecVersion);
const assets = { ...native.assets, ...dataAssets(root, run, { demo: !options['no-demo'] }) };
step(`assets inside: ${Object.keys(assets).join(', ')}; native files ${(native.bytes / 1e6).toFixed(1)} MB gzipped`);

// 3. The executable: the blob made by .node24's Node (of exactly the target binary's version), injected into a copy
//    of the target's binary. The sentinel fuse is the one Node's binary carries (docs: single-executable-applications).
const node = hostNode(root, host);
const blob = join(run, 'sea-prep.blob');
const seaConfig = join(run, 'sea-config.json');
// execArgv: V8's young generation fixed at 16 MB, as bin/juralite runs a server (its comment says why); every
// command of the executable gets it, harmless where nothing is served.
writeFileSync(seaConfig, JSON.stringify({
  main: seaMain, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false, assets,
  execArgv: ['--min-semi-space-size=16', '--max-semi-space-size=16'],
}));
execFileSync(node.binary, ['--experimental-sea-config', seaConfig], { cwd: run, stdio: 'pipe' }); // its output is in the error if it fails
const built = join(run, executableName(target));
copyFileSync(targetNode(root, target, node, join(cache, 'packages')), built);
chmodSync(built, 0o755);
stripSymbols(built);
// postject is pkg's dependency (@yao-pkg/pkg, a devDependency), resolved through it.
const pkgRequire = createRequire(createRequire(join(root, 'package.json')).resolve('@yao-pkg/pkg/package.json'));
const { inject } = pkgRequire('postject') as {
  inject(file: string, resource: string, data: Buffer, options: { sentinelFuse: string; machoSegmentName?: string; overwrite: boolean }): Promise<void>;
};
// LIEF, inside postject, warns about the ELF note sections it renames while making room for the blob; harmless (pkg
// drops the same lines), so exactly those lines are dropped.
const write = process.stderr.write;
process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => /^warning: Can't find string offset for section name '\.note/.test(String(chunk))
  || Reflect.apply(write, process.stderr, [chunk, ...rest])) as typeof process.stderr.write;
try {
  await inject(built, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    machoSegmentName: target.platform === 'darwin' ? 'NODE_SEA' : undefined,
    overwrite: true,
  });
} finally {
  process.stderr.write = write;
}
const executable = join(outDir, executableName(target));
renameSync(built, executable);

/**
 * The registry's Linux binary carries its symbol table and debug information (18 MB of 127): binutils' strip takes
 * them out before the blob goes in (after, it would cut the blob). Native addons link against the dynamic symbol
 * table, which stays. Where strip is missing or the target is no ELF binary of this host's kind, the binary stays whole.
 */
function stripSymbols(file: string): void {
  if (target.platform !== 'linux' || !isHost(target)) return;
  try {
    execFileSync('strip', [file], { stdio: 'pipe' });
  } catch (error) {
    step(`strip failed or is missing (${(error as Error).message.split('\n')[0]}): the Node binary keeps its symbols`);
  }
}
const size = statSync(executable).size;
step(`${relative(root, executable)}: Node ${node.version} for ${targetName(target)}, ${(size / 1e6).toFixed(1)} MB (limit ${SIZE_LIMIT / 1e6} MB)`);
if (size > SIZE_LIMIT) throw new Error(`build-exe: ${executable} is ${(size / 1e6).toFixed(1)} MB, over the limit of ${SIZE_LIMIT / 1e6} MB`);

// The executable answers before it is called built (only where it can run).
if (isHost(target)) {
  const version = execFileSync(executable, ['--version'], { encoding: 'utf8' }).trim();
  const expected = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  if (version !== expected) throw new Error(`build-exe: ${executable} --version printed "${version}", not ${expected}`);
  step(`${relative(root, executable)} --version: ${version}`);
}
