// The Node binary the executable is made of.
// The binary comes from the npm registry (the only source reachable here): the `node` package installs
// `node-<os>-<arch>` with bin/node inside, which scripts/node24.sh already does into .node24/. Other targets' binaries
// are the same packages, fetched with `npm pack`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isHost, nodePackage, type ExeTarget } from './exe-target.ts';

/** The binary a node-<os>-<arch> package declares (`bin.node`: bin/node, bin/node.exe on Windows). */
function binaryIn(packageDir: string): string {
  const { bin } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin?: { node?: string } };
  const path = join(packageDir, bin?.node ?? 'bin/node');
  if (!existsSync(path)) throw new Error(`no Node binary at ${path}`);
  return path;
}

/** Node 24 from the registry's `node` package in .node24/ (installed as scripts/node24.sh does when missing). */
export function hostNode(root: string, host: ExeTarget): { binary: string; version: string } {
  const prefix = join(root, '.node24');
  const packageDir = join(prefix, 'node_modules', 'node', 'node_modules', nodePackage(host));
  if (!existsSync(join(packageDir, 'package.json'))) {
    console.log('build-exe: installing Node 24 from the npm registry into .node24/ ...');
    execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', 'node@24'], { stdio: 'inherit' });
  }
  const binary = binaryIn(packageDir);
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  return { binary, version };
}

/** Fetches an npm package's tarball with `npm pack` and unpacks it under `dir`; returns the package folder. */
export function unpackNpmPackage(spec: string, dir: string): string {
  const unpacked = join(dir, spec.replace(/[@/]/g, '_'));
  if (existsSync(join(unpacked, 'package', 'package.json'))) return join(unpacked, 'package');
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  const tarball = execFileSync('npm', ['pack', spec, '--pack-destination', unpacked, '--silent'], { encoding: 'utf8' }).trim().split('\n').pop()!;
  execFileSync('tar', ['-xzf', join(unpacked, tarball), '-C', unpacked, '--no-same-owner']);
  return join(unpacked, 'package');
}

/** The target's Node binary of exactly `version`: .node24's for the host, the registry's package otherwise. */
export function targetNode(root: string, target: ExeTarget, host: { binary: string; version: string }, cacheDir: string): string {
  if (isHost(target)) return host.binary;
  return binaryIn(unpackNpmPackage(`${nodePackage(target)}@${host.version}`, cacheDir));
}
