// Data the executable carries as SEA assets (besides the native files of exe-native-files.ts): each entry writes its
// file into the build's folder and names its asset key. To carry more (static pages, say), add an entry here and read
// it at run time with node:sea's getRawAsset(key) (src/runtime/demo-fixtures.ts shows how).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEMO_FIXTURES_ASSET, DEMO_FOLDERS } from '../src/runtime/demo-fixtures.ts';

/** The demo corpus's sources, as one gzipped JSON object of path -> text (about 160 KB). */
function demoFixtures(root: string, runDir: string): string {
  const files: Record<string, string> = {};
  for (const folder of DEMO_FOLDERS) {
    for (const name of readdirSync(join(root, 'fixtures', folder)).sort()) {
      files[`${folder}/${name}`] = readFileSync(join(root, 'fixtures', folder, name), 'utf8');
    }
  }
  const path = join(runDir, 'demo-fixtures.json.gz');
  writeFileSync(path, gzipSync(JSON.stringify(files), { level: 9 }));
  return path;
}

/** The data assets (key -> file written under `runDir`); `demo: false` leaves the demo corpus out. */
export function dataAssets(root: string, runDir: string, options: { demo: boolean }): Record<string, string> {
  return options.demo ? { [DEMO_FIXTURES_ASSET]: demoFixtures(root, runDir) } : {};
}
