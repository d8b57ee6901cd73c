// The main script of the single executable application (scripts/build-exe.ts). Node runs a SEA's main script with
// an import() that reaches only built-in modules, and a require() of the same reach. The application needs more:
// tinypool's extraction processes load their task module with import() (extraction-worker.ts), and better-sqlite3
// requires its addon by path. So this script compiles the application bundle, carried as a string, as a CommonJS
// function whose import() is Node's default ESM loader, and hands it a require() for built-ins and native addons.
// Nothing else is required from disk: the bundle carries every package, and a node_modules folder near the
// executable must not change what runs.
import { createRequire, isBuiltin } from 'node:module';
import { dirname, isAbsolute } from 'node:path';
import { compileFunction, constants } from 'node:vm';
import appSource from 'juralite-exe:app-source';
import { embeddedRoot } from './embedded-files.ts';

/** The bundle's file name in stack traces (under the root of embedded-files.ts; no such file exists). */
const APP_FILENAME = `${embeddedRoot().path}juralite.cjs`;

const nodeRequire = createRequire(process.execPath);

function appRequire(id: string): unknown {
  if (isBuiltin(id) || (isAbsolute(id) && id.endsWith('.node'))) return nodeRequire(id);
  throw Object.assign(new Error(`Cannot find module '${id}': the executable carries its modules inside`), { code: 'MODULE_NOT_FOUND' });
}

// The default-loader constant is still marked experimental, and Node says so once, at the first import(): nothing
// a user of the executable can act on, so exactly that warning is dropped.
const emitWarning = process.emitWarning;
process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
  if ((typeof warning === 'string' ? warning : warning.message).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
  return Reflect.apply(emitWarning, this, [warning, ...rest]);
} as typeof process.emitWarning;

const app = compileFunction(appSource, ['exports', 'require', 'module', '__filename', '__dirname'], {
  filename: APP_FILENAME,
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const appModule = { exports: {} };
app(appModule.exports, appRequire, appModule, APP_FILENAME, dirname(APP_FILENAME));
