/** Runs helpers/import-child.ts in its own process: an import that kills itself at `killAt` (see there). */
import { spawn } from 'node:child_process';

const CHILD = new URL('./import-child.ts', import.meta.url).pathname;

export function runImportChild(corpus: string, killAt: string, ...sources: string[]):
  Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [CHILD, corpus, killAt, ...sources], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  // A hang guard only.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(timer);
    resolve({ code, signal, stderr });
  }));
}
