/**
 * The executable's runtime pieces, without building it: default locations, the extraction workers' script and
 * environment, the embedded data files, and the recognition of tinypool's child. (executable.test.ts runs the real
 * thing.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { dataPaths, defaultLocations } from '../../src/cli/paths.ts';
import { loadConfig } from '../../src/config.ts';
import { embeddedRoot, serveEmbeddedFiles } from '../../src/runtime/embedded-files.ts';
import { IS_EXECUTABLE } from '../../src/runtime/executable.ts';
import { EMBEDDED_WORKER_URL, isExtractionWorkerProcess } from '../../src/runtime/extraction-worker.ts';
import { extractionWorkerEnv, extractionWorkerUrl } from '../../src/uploads/worker-path.ts';
import { embeddedFiles } from '../../scripts/exe-bundle.ts';
import { cacheBases, sha256, unpackNativeFiles, type NativeManifest } from '../../src/runtime/native-cache.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test('from a checkout nothing changes: ./data, the corpus inside it', () => {
  assert.equal(IS_EXECUTABLE, false);
  const paths = dataPaths({}, {});
  assert.equal(paths.dataDir, join(process.cwd(), 'data'));
  assert.equal(paths.corpusPath, join(process.cwd(), 'data', 'corpus.db'));
});

test('the executable: corpus.db and data/ beside itself; --db, --data and $JURALITE_DATA still win', () => {
  const beside = dirname(process.execPath);
  const defaults = defaultLocations(true);
  assert.deepEqual(dataPaths({}, {}, defaults), {
    dataDir: join(beside, 'data'), corpusPath: join(beside, 'corpus.db'), statePath: join(beside, 'data', 'state.db'),
  });
  const chosen = dataPaths({ data: '/srv/j', db: '/srv/c.db' }, {}, defaults);
  assert.deepEqual(chosen, { dataDir: '/srv/j', corpusPath: '/srv/c.db', statePath: '/srv/j/state.db' });
  assert.equal(dataPaths({}, { JURALITE_DATA: '/var/lib/juralite' }, defaults).statePath, '/var/lib/juralite/state.db');
  assert.equal(dataPaths({ data: '/srv/j' }, {}, defaults).corpusPath, join(beside, 'corpus.db'), 'the corpus stays beside');
});

test('extraction workers: the bundled worker and the heap cap in NODE_OPTIONS inside the executable only', () => {
  const uploads = { ...loadConfig({}).uploads, workerMemoryMb: 333 };
  assert.match(extractionWorkerUrl(uploads, false), /^file:.*\/src\/uploads\/extract\/worker\.ts$/);
  assert.equal(extractionWorkerEnv(uploads, false), undefined);
  assert.equal(extractionWorkerUrl(uploads, true), EMBEDDED_WORKER_URL);
  assert.deepEqual(extractionWorkerEnv(uploads, true), { NODE_OPTIONS: '--max-old-space-size=333' });
  assert.equal(extractionWorkerUrl({ ...uploads, workerScript: '/opt/w.js' }, true), 'file:///opt/w.js', 'a configured script wins');
});

test('the data: worker module hands the task to the function the worker process registered', async () => {
  const handler = Symbol.for('juralite.extraction-worker');
  (globalThis as Record<symbol, unknown>)[handler] = (task: { n: number }) => ({ doubled: task.n * 2 });
  const module = await import(EMBEDDED_WORKER_URL);
  assert.deepEqual(module.default({ n: 21 }), { doubled: 42 });
});

test("tinypool's child is recognised by its script argument and its worker id", () => {
  const argv = ['/opt/juralite/juralite', '/opt/juralite/juralite', '--max-old-space-size=1024', '/juralite-embedded/node_modules/tinypool/dist/entry/process.js'];
  assert.equal(isExtractionWorkerProcess(argv, { TINYPOOL_WORKER_ID: '1' }), true);
  assert.equal(isExtractionWorkerProcess(argv, {}), false);
  assert.equal(isExtractionWorkerProcess(['/opt/juralite/juralite', '/opt/juralite/juralite', 'serve'], { TINYPOOL_WORKER_ID: '1' }), false);
});

test('the data files modules read by URL are found and served under the embedded root, nothing else', () => {
  const files = embeddedFiles(ROOT);
  for (const path of ['schema/corpus.sql', 'schema/state.sql', 'src/search/bridge-lexicon.json']) {
    assert.equal(files[path], fs.readFileSync(join(ROOT, path), 'utf8'), path);
  }
  assert.ok(!Object.keys(files).some((path) => path.endsWith('.ts') || path.startsWith('fixtures')), Object.keys(files).join(', '));

  serveEmbeddedFiles({ 'schema/x.sql': 'CREATE TABLE x (y);' });
  const url = new URL('../../schema/x.sql', `${embeddedRoot().url}src/corpus/open.ts`);
  assert.equal(fs.readFileSync(url, 'utf8'), 'CREATE TABLE x (y);');
  assert.deepEqual(fs.readFileSync(`${embeddedRoot().path}schema/x.sql`), Buffer.from('CREATE TABLE x (y);'));
  assert.throws(() => fs.readFileSync(`${embeddedRoot().path}schema/missing.sql`), { code: 'ENOENT' });
  assert.equal(fs.readFileSync(join(ROOT, 'package.json'), 'utf8'), fs.readFileSync(join(ROOT, 'package.json')).toString(), 'real files as before');
});

test('native files: written once per release and build, rewritten when their hash differs, the next base where one fails', (t) => {
  const dir = fs.mkdtempSync(join(tmpdir(), 'juralite-native-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const content = Buffer.from('not really a shared object');
  const assets: Record<string, Uint8Array> = { 'native/x.so.gz': gzipSync(content) };
  const manifest: NativeManifest = { build: 'abcdef012345', files: [{ name: 'x.so', asset: 'native/x.so.gz', sha256: sha256(content) }] };
  let reads = 0;
  const read = (key: string) => (reads++, assets[key]);
  fs.writeFileSync(join(dir, 'a-file'), '');
  const bases = [join(dir, 'a-file', 'below'), join(dir, 'cache')];

  const { 'x.so': path } = unpackNativeFiles(manifest, '9.9.9', read, bases);
  assert.equal(path, join(dir, 'cache', '9.9.9-abcdef012345', 'x.so'));
  assert.deepEqual(fs.readFileSync(path), content);
  assert.equal(fs.statSync(path).mode & 0o777, 0o700);
  assert.equal(fs.statSync(dirname(path)).mode & 0o777, 0o700);
  unpackNativeFiles(manifest, '9.9.9', read, bases);
  assert.equal(reads, 1, 'a file with the recorded hash is used as it is');
  fs.writeFileSync(path, 'tampered');
  unpackNativeFiles(manifest, '9.9.9', read, bases);
  assert.equal(reads, 2);
  assert.deepEqual(fs.readFileSync(path), content, 'a file with another hash is written again');

  assert.throws(() => unpackNativeFiles(manifest, '9.9.9', read, [bases[0]]),
    /cannot write the executable's native files \(x\.so\) to any cache directory:\n  .*a-file\/below\/9\.9\.9-abcdef012345: ENOTDIR\nset JURALITE_CACHE_DIR/);
});

test('native files: the cache bases are JURALITE_CACHE_DIR, then XDG_CACHE_HOME or ~/.cache, then the temporary directory', () => {
  const bases = cacheBases({ JURALITE_CACHE_DIR: '/srv/c', XDG_CACHE_HOME: '/x' });
  assert.deepEqual(bases.slice(0, 2), ['/srv/c', '/x/juralite']);
  assert.match(bases[2], /juralite-\d+$/);
  assert.equal(cacheBases({})[0], join(homedir(), '.cache', 'juralite'));
});
