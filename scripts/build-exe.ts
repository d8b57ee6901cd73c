// `npm run build:exe`: the standalone executable, offline.
//   node scripts/build-exe.ts [--target linux-x64] [--out dist] [--no-corpus]
// 1. esbuild bundles the application and wraps it in the SEA main script (scripts/exe-bundle.ts);
// 2. pkg's SEA mode injects that script into Node 24's binary from the npm registry: pkg's cache is filled with the
//    binary first (scripts/exe-node-binary.ts), in a home of the build's own, so pkg downloads nothing;
// 3. better-sqlite3's addon and the sqlite-vec extension go beside the executable (scripts/exe-native-files.ts);
// 4. the demo corpus is imported from fixtures/ into OUT/corpus.db, as `npm start` builds it.
// docs/install.md describes the result and the other targets.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { bundleApplication, bundleSeaMain } from './exe-bundle.ts';
import { copyNativeFiles } from './exe-native-files.ts';
import { fillPkgCache, hostNode, targetNode } from './exe-node-binary.ts';
import { executableName, hostTarget, isHost, parseTarget, pkgTarget, targetName, TARGETS } from './exe-target.ts';

const root = resolve(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: {
    target: { type: 'string' },
    out: { type: 'string', default: 'dist' },
    'no-corpus': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(`node scripts/build-exe.ts [--target ${TARGETS.join('|')}] [--out DIR] [--no-corpus]`);
  process.exit(0);
}

const host = hostTarget();
if (!host) throw new Error(`build-exe: cannot build on ${process.platform}-${process.arch} (no Node package for it)`);
const target = options.target ? parseTarget(options.target) : host;
const outDir = resolve(root, options.out);
// The caches (pkg's, the packages of other targets) stay between builds; each build's own files go in `run`, so
// that two builds at once (a test and a developer) do not write the same file.
const cache = join(root, '.tmp', 'exe-build', targetName(target));
mkdirSync(cache, { recursive: true });
const run = mkdtempSync(join(cache, 'run-'));
process.on('exit', () => rmSync(run, { recursive: true, force: true }));
mkdirSync(outDir, { recursive: true });
const started = performance.now();
const step = (text: string) => console.log(`build-exe: ${text} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

// 1. The JavaScript.
const seaMain = join(run, 'sea-main.cjs');
await bundleSeaMain(root, await bundleApplication(root, target.platform), seaMain);
step(`bundled ${relative(root, seaMain)}, ${(statSync(seaMain).size / 1e6).toFixed(1)} MB`);

// 2. The executable. pkg runs on .node24's binary: for a target other than the host, pkg makes the SEA blob with the
//    Node running it, which must be of exactly the target's version.
const node = hostNode(root, host);
const pkgHome = join(cache, 'pkg-home');
fillPkgCache(pkgHome, target, node.version, targetNode(root, target, node, join(cache, 'packages')));
const built = join(run, executableName(target));
const pkgBin = join(createRequire(join(root, 'package.json')).resolve('@yao-pkg/pkg/package.json'), '..', 'lib-es5', 'bin.js');
execFileSync(node.binary, [pkgBin, '--sea', '-t', pkgTarget(target, node.version), '-o', built, seaMain], {
  cwd: run,
  stdio: 'inherit',
  env: { ...process.env, HOME: pkgHome, USERPROFILE: pkgHome, PKG_CACHE_PATH: join(pkgHome, 'pkg-fetch') },
});
const executable = join(outDir, executableName(target));
chmodSync(built, 0o755);
renameSync(built, executable);
step(`${relative(root, executable)}: Node ${node.version} for ${targetName(target)}, ${(statSync(executable).size / 1e6).toFixed(1)} MB`);

// 3. The native files beside it.
const vecVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'sqlite-vec', 'package.json'), 'utf8')).version as string;
for (const file of copyNativeFiles(root, target, outDir, join(cache, 'packages'), vecVersion)) step(`${relative(root, file)}`);

// 4. The demo corpus, imported by the sources (any target) into a new file, then put in place. The rollback journal
//    makes it one self-contained file that read-only servers can open even where they cannot write beside it.
if (!options['no-corpus']) {
  const fresh = join(run, 'corpus.db');
  execFileSync(process.execPath, [join(root, 'bin', 'juralite'), 'import', '--db', fresh, join(root, 'fixtures', 'laws'), join(root, 'fixtures', 'decisions')], { stdio: 'inherit' });
  const db = new Database(fresh);
  db.pragma('journal_mode = DELETE');
  db.close();
  renameSync(fresh, join(outDir, 'corpus.db'));
  step(`${relative(root, join(outDir, 'corpus.db'))}: the demo corpus`);
}

// The executable answers before it is called built (only where it can run).
if (isHost(target)) {
  const version = execFileSync(executable, ['--version'], { encoding: 'utf8' }).trim();
  const expected = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  if (version !== expected) throw new Error(`build-exe: ${executable} --version printed "${version}", not ${expected}`);
  step(`${relative(root, executable)} --version: ${version}`);
}
