// The demo corpus's sources: fixtures/ in a checkout; inside the executable, the same files carried as a SEA asset
// (DEMO_FIXTURES_ASSET, written by scripts/exe-assets.ts) and unpacked into a temporary folder for the import.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { getRawAsset } from 'node:sea';
import { IS_EXECUTABLE } from './executable.ts';

/** The SEA asset: gzipped JSON of { 'laws/X.xml': text, 'decisions/Y.xml': text }. */
export const DEMO_FIXTURES_ASSET = 'demo/fixtures.json.gz';

/** The folders of fixtures/ the demo corpus is imported from, in this order. */
export const DEMO_FOLDERS = ['laws', 'decisions'] as const;

const CHECKOUT_FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

function unpackFixtures(): string {
  const files = JSON.parse(gunzipSync(new Uint8Array(getRawAsset(DEMO_FIXTURES_ASSET))).toString('utf8')) as Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'juralite-demo-'));
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text, { mode: 0o600 });
  }
  return dir;
}

/**
 * Runs `work` with the demo's source folders (those that exist), or returns undefined where there are none (a
 * checkout without fixtures/, an executable built with --no-demo).
 */
export async function withDemoFixtures<T>(work: (folders: string[], where: string) => Promise<T>): Promise<T | undefined> {
  if (!IS_EXECUTABLE) {
    if (!existsSync(CHECKOUT_FIXTURES)) return undefined;
    return work(DEMO_FOLDERS.map((folder) => join(CHECKOUT_FIXTURES, folder)).filter((folder) => existsSync(folder)), CHECKOUT_FIXTURES);
  }
  let dir: string;
  try {
    dir = unpackFixtures();
  } catch {
    return undefined; // built without the demo
  }
  try {
    return await work(DEMO_FOLDERS.map((folder) => join(dir, folder)), 'the demo files inside the executable');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
