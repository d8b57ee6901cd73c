/**
 * The reference data beside the project (`../shared/data`, see its README): tests that need it skip with a message
 * when it is absent, so the suite runs from a fresh clone.
 *
 * @example
 * test('imports gii/core', skipUnlessSharedData(), async () => { ... sharedData('gii/core') ... });
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** `../shared/data`, relative to the repository root (override with JURALITE_SHARED_DATA). */
export const SHARED_DATA = process.env.JURALITE_SHARED_DATA ?? resolve(REPO_ROOT, '../shared/data');

export const hasSharedData = existsSync(join(SHARED_DATA, 'README.md'));

/** A path inside the shared data folder. */
export function sharedData(...parts: string[]): string {
  return join(SHARED_DATA, ...parts);
}

/** node:test options that skip the test, with the reason, when the shared data (or one of `paths` in it) is absent. */
export function skipUnlessSharedData(...paths: string[]): { skip: string | false } {
  if (!hasSharedData) return { skip: `shared data not found at ${SHARED_DATA}` };
  const missing = paths.find((p) => !existsSync(sharedData(p)));
  return { skip: missing ? `shared data file missing: ${missing}` : false };
}
