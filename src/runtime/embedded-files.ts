// Data files inside the executable. Modules read a few files beside their sources by URL (schema/*.sql, the search
// lexicon). The bundle gives every module an import.meta.url under embeddedRoot() (scripts/exe-bundle.ts), so those
// URLs name paths under that root, and readFileSync answers exactly those paths from the copies the bundle carries.
// Every other path goes to the disk untouched.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The root the bundle's import.meta.url values point under; no real file lives there. Windows file URLs need a
 * drive letter.
 */
export function embeddedRoot(platform: NodeJS.Platform = process.platform): { path: string; url: string } {
  return platform === 'win32'
    ? { path: 'C:\\juralite-embedded\\', url: 'file:///C:/juralite-embedded/' }
    : { path: '/juralite-embedded/', url: 'file:///juralite-embedded/' };
}

/** The embedded path a readFileSync argument names, as a repository path; undefined for anything else. */
function embeddedKey(path: unknown): string | undefined {
  let name: string | undefined;
  if (typeof path === 'string') name = path.startsWith('file:') ? fileURLToPath(path) : path;
  else if (path instanceof URL && path.protocol === 'file:') name = fileURLToPath(path);
  const root = embeddedRoot().path;
  return name?.startsWith(root) ? name.slice(root.length).replaceAll('\\', '/') : undefined;
}

function encodingOf(options: unknown): BufferEncoding | undefined {
  if (typeof options === 'string') return options as BufferEncoding;
  return (options as { encoding?: BufferEncoding | null } | undefined)?.encoding ?? undefined;
}

/**
 * Serves `files` (paths relative to the repository root, text contents) to readFileSync under the root. Called
 * once, before any module that reads such a file is evaluated.
 */
export function serveEmbeddedFiles(files: Readonly<Record<string, string>>): void {
  const readFromDisk = fs.readFileSync;
  const readFileSync = function (this: unknown, path: unknown, options?: unknown) {
    const key = embeddedKey(path);
    const text = key === undefined ? undefined : files[key];
    if (text === undefined) return Reflect.apply(readFromDisk, this, arguments);
    const encoding = encodingOf(options);
    return encoding ? Buffer.from(text).toString(encoding) : Buffer.from(text);
  };
  fs.readFileSync = readFileSync as typeof fs.readFileSync;
}
