// The extraction pool inside the executable. tinypool forks `process.execPath` with its own child script
// (tinypool/dist/entry/process.js) as the first argument; a single executable application runs its embedded script
// whatever the arguments say, so the executable recognises that call and runs tinypool's child side itself, bundled.
// The child loads its task function by URL with import(); inside the executable that URL is a data: module handing
// over to the bundled worker through a global, since no worker script exists on disk.

/** Where the bundled extraction function waits for the data: module (a process-wide symbol). */
const HANDLER = Symbol.for('juralite.extraction-worker');

/** The task module tinypool's child imports in the executable: it only forwards to the bundled worker. */
export const EMBEDDED_WORKER_URL = `data:text/javascript,${encodeURIComponent(
  `export default (task) => globalThis[Symbol.for(${JSON.stringify(HANDLER.description)})](task);`,
)}`;

/** True when tinypool started this process as an extraction worker (its child script is the first argument). */
export function isExtractionWorkerProcess(argv = process.argv, env = process.env): boolean {
  return env.TINYPOOL_WORKER_ID !== undefined
    && argv.slice(2).some((arg) => arg.replaceAll('\\', '/').endsWith('/tinypool/dist/entry/process.js'));
}

/**
 * pdf.js's notes, when it loads, that @napi-rs/canvas is missing. The executable does not carry that package: pdf.js
 * needs it to render pages, and extraction only reads their text.
 */
const CANVAS_WARNING = /^Warning: Cannot (?:load "@napi-rs\/canvas"|polyfill `\w+`, rendering may be broken)/;

function withoutCanvasWarnings(): void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && CANVAS_WARNING.test(args[0])) return;
    warn(...args);
  };
}

/** Becomes tinypool's child process: the bundled worker answers the tasks. */
export async function runExtractionWorker(): Promise<void> {
  withoutCanvasWarnings();
  const { default: extract } = await import('../uploads/extract/worker.ts');
  (globalThis as Record<symbol, unknown>)[HANDLER] = extract;
  // tinypool's child script (the build resolves this name to it): it listens for the pool's messages.
  await import('juralite-exe:tinypool-child');
}
