// The executable's JavaScript: esbuild bundles the application (src/runtime/executable-main.ts and everything it
// imports, packages included) into one CommonJS file, then wraps it in the SEA main script
// (src/runtime/sea-bootstrap.ts), which carries the bundle as a string. Three things the sources take from their
// place on disk are settled here:
// - import.meta.url: CommonJS has none, so each module gets a URL naming its own path under embeddedRoot();
//   relative URLs built from it (tinypool's child script, the schema files) keep pointing where they did.
// - data files read by such URLs (schema/*.sql, the search lexicon): found by scanning src/ and carried in the
//   bundle (src/runtime/embedded-files.ts serves them).
// - juralite-exe:* modules (src/runtime/virtual-modules.d.ts): the embedded files, tinypool's child script, the
//   application bundle inside the bootstrap.
import { build, type Plugin } from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { embeddedRoot } from '../src/runtime/embedded-files.ts';
import { webAssetFiles } from '../src/web/assets.ts';

const CODE = /\.(?:[cm]?[jt]s|tsx?)$/;
const URL_BESIDE_SOURCE = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const repositoryPath = (root: string, path: string) => relative(root, path).split(sep).join('/');

/**
 * Every data file a module of src/ reads by `new URL('…', import.meta.url)`, keyed by its path in the repository.
 * Folders (the demo fixtures) and source files (the worker script) are not data files.
 */
export function embeddedFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const source of sourceFiles(join(root, 'src'))) {
    for (const [, , target] of readFileSync(source, 'utf8').matchAll(URL_BESIDE_SOURCE)) {
      const path = resolve(dirname(source), target);
      if (CODE.test(path) || !existsSync(path) || !statSync(path).isFile()) continue;
      files[repositoryPath(root, path)] = readFileSync(path, 'utf8');
    }
  }
  // The pages' assets (src/web/assets.ts): scripts and libraries the scan above leaves out as code.
  Object.assign(files, webAssetFiles(root));
  return files;
}

/** import.meta.url (and .filename, .dirname) of each module as its path under the target's embeddedRoot(). */
function importMetaPlugin(root: string, platform: NodeJS.Platform): Plugin {
  const embedded = embeddedRoot(platform);
  const separator = platform === 'win32' ? '\\' : '/';
  return {
    name: 'juralite-import-meta',
    setup(build) {
      build.onLoad({ filter: CODE }, ({ path }) => {
        const text = readFileSync(path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        const parts = repositoryPath(root, path).split('/');
        const filename = embedded.path + parts.join(separator);
        const contents = text
          .replaceAll('import.meta.url', JSON.stringify(embedded.url + parts.map(encodeURIComponent).join('/')))
          .replaceAll('import.meta.filename', JSON.stringify(filename))
          .replaceAll('import.meta.dirname', JSON.stringify(embedded.path + parts.slice(0, -1).join(separator)));
        // Only `new URL('…', import.meta.url)` targets are found and carried inside (embeddedFiles).
        const ours = repositoryPath(root, path).startsWith('src/') && /import\.meta\.(?:dirname|filename)/.test(text);
        const warnings = ours ? [{ text: `${repositoryPath(root, path)}: files read via import.meta.dirname or .filename are not carried into the executable; use new URL('…', import.meta.url)` }] : [];
        return { contents, loader: /\.[cm]?tsx?$/.test(path) ? 'ts' : 'js', warnings };
      });
    },
  };
}

/** The juralite-exe:* modules; `sources` gives the text of those that are generated. */
function virtualModulesPlugin(root: string, sources: Record<string, () => { contents: string; loader: 'js' | 'text' }>): Plugin {
  // tinypool exports only its index; its child script lies beside it.
  const tinypoolIndex = createRequire(join(root, 'package.json')).resolve('tinypool');
  const files: Record<string, string> = { 'tinypool-child': join(dirname(tinypoolIndex), 'entry', 'process.js') };
  return {
    name: 'juralite-exe-modules',
    setup(build) {
      build.onResolve({ filter: /^juralite-exe:/ }, ({ path }) => {
        const name = path.slice('juralite-exe:'.length);
        if (files[name]) return { path: files[name] };
        if (sources[name]) return { path: name, namespace: 'juralite-exe' };
        return { errors: [{ text: `unknown module ${path} in this build` }] };
      });
      build.onLoad({ filter: /.*/, namespace: 'juralite-exe' }, ({ path }) => sources[path]());
    },
  };
}

const COMMON = { bundle: true, platform: 'node', format: 'cjs', target: 'node24', write: false, logLevel: 'warning' } as const;

/** The application bundle (CommonJS source text) for an executable running on `platform`. */
export async function bundleApplication(root: string, platform: NodeJS.Platform): Promise<string> {
  const files = embeddedFiles(root);
  const result = await build({
    ...COMMON,
    entryPoints: [join(root, 'src', 'runtime', 'executable-main.ts')],
    outfile: 'juralite.cjs',
    plugins: [
      virtualModulesPlugin(root, { 'embedded-files': () => ({ contents: `module.exports = ${JSON.stringify(files)};`, loader: 'js' }) }),
      importMetaPlugin(root, platform),
    ],
  });
  return result.outputFiles[0].text;
}

/** The SEA main script: the bootstrap with the application bundle inside, written to `outfile`. */
export async function bundleSeaMain(root: string, applicationSource: string, outfile: string): Promise<void> {
  await build({
    ...COMMON,
    write: true,
    entryPoints: [join(root, 'src', 'runtime', 'sea-bootstrap.ts')],
    outfile,
    plugins: [virtualModulesPlugin(root, { 'app-source': () => ({ contents: applicationSource, loader: 'text' }) })],
  });
}
