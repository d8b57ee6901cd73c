// The files the pages load, each under a fixed name at /assets/<name>: the pages' own modules from src/web/client/,
// and the libraries they use straight from node_modules (ESM, no build step). Nothing is looked up by a name the
// request chooses, so no path outside this table can be served. Inside the standalone executable the same URLs are
// answered from the bundle: scripts/exe-bundle.ts carries webAssetFiles() (src/runtime/embedded-files.ts).
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

interface AssetSource {
  url: URL;
  type: string;
  /** Changes the text once when loaded (a bare import made relative, for a browser without an import map). */
  rewrite?: (text: string) => string;
  /**
   * Kept gzip-compressed, in memory and inside the executable (Scalar's 4.8 MB: the executable must stay under
   * 140 MB), and sent compressed to every browser (all accept gzip).
   */
  compressed?: boolean;
}

/** The text as served: source maps are not shipped (their comments would only make browsers ask for them). */
function prepared(source: AssetSource, text: string): string {
  const withoutSourceMap = text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/u, '\n');
  return source.rewrite ? source.rewrite(withoutSourceMap) : withoutSourceMap;
}

const client = (name: string, type = JS): AssetSource => ({ url: new URL(`./client/${name}`, import.meta.url), type });

/** Every asset by the name it is served under. */
export const WEB_ASSETS: Readonly<Record<string, AssetSource>> = {
  'preact.js': { url: new URL('../../node_modules/preact/dist/preact.mjs', import.meta.url), type: JS },
  'preact-hooks.js': { url: new URL('../../node_modules/preact/hooks/dist/hooks.mjs', import.meta.url), type: JS,
    rewrite: (text) => text.replace(/from\s*(["'])preact\1/gu, 'from"./preact.js"') },
  'htm.js': { url: new URL('../../node_modules/htm/dist/htm.mjs', import.meta.url), type: JS },
  'uplot.js': { url: new URL('../../node_modules/uplot/dist/uPlot.esm.js', import.meta.url), type: JS },
  'uplot.css': { url: new URL('../../node_modules/uplot/dist/uPlot.min.css', import.meta.url), type: CSS },
  'scalar.js': { url: new URL('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url),
    // Its stylesheet names web fonts on fonts.scalar.com: the system's fonts instead, so no request leaves.
    type: JS, compressed: true, rewrite: (text) => text.replace(/url\(https:\/\/fonts\.scalar\.com\/[^)]*\)/gu, 'local("Inter")') },
  'app.js': client('app.js'),
  'api.js': client('api.js'),
  'ui.js': client('ui.js'),
  'router.js': client('router.js'),
  'account.js': client('account.js'),
  'search.js': client('search.js'),
  'decision.js': client('decision.js'),
  'graph.js': client('graph.js'),
  'basket.js': client('basket.js'),
  'check.js': client('check.js'),
  'coverage.js': client('coverage.js'),
  'law.js': client('law.js'),
  'mcp.js': client('mcp.js'),
  'reference.js': client('reference.js'),
  'style.css': client('style.css', CSS),
  'favicon.svg': client('favicon.svg', 'image/svg+xml'),
};

/** Where the executable carries a compressed asset: its path with this suffix, the gzip bytes in base64. */
const COMPRESSED_SUFFIX = '.gz.base64';

export interface LoadedAsset {
  type: string;
  body: Buffer;
  /** The body is gzip-compressed. */
  gzip: boolean;
  etag: string;
}

function load(source: AssetSource): LoadedAsset {
  let body: Buffer;
  if (source.compressed) {
    let packed: string | undefined;
    try {
      packed = readFileSync(new URL(source.url.href + COMPRESSED_SUFFIX), 'utf8');
    } catch { /* not the executable: compress the file from node_modules once */ }
    body = packed === undefined ? gzipSync(prepared(source, readFileSync(source.url, 'utf8')), { level: 9 }) : Buffer.from(packed, 'base64');
  } else {
    body = Buffer.from(prepared(source, readFileSync(source.url, 'utf8')));
  }
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { type: source.type, body, gzip: source.compressed === true, etag };
}

const loaded = new Map<string, LoadedAsset>();

/** The asset served under `name`, read once; undefined for a name not in the table. */
export function webAsset(name: string): LoadedAsset | undefined {
  const source = Object.hasOwn(WEB_ASSETS, name) ? WEB_ASSETS[name] : undefined;
  if (!source) return undefined;
  let asset = loaded.get(name);
  if (!asset) loaded.set(name, (asset = load(source)));
  return asset;
}

/** A gzip body for a client that does not accept gzip (none of today's browsers; curl without --compressed). */
export const gunzipped = (asset: LoadedAsset) => gunzipSync(asset.body);

/**
 * The asset files as the executable's bundle carries them, keyed by their path in the repository (`root`): text as
 * is, compressed assets as base64 of their gzip bytes under the path plus `.gz.base64`.
 */
export function webAssetFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const source of Object.values(WEB_ASSETS)) {
    const path = relative(root, fileURLToPath(source.url)).split(sep).join('/');
    const text = readFileSync(source.url, 'utf8');
    if (source.compressed) files[path + COMPRESSED_SUFFIX] = gzipSync(prepared(source, text), { level: 9 }).toString('base64');
    else files[path] = text;
  }
  return files;
}
