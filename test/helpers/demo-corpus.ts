/**
 * The demo corpus built from fixtures/ (the project's own 50 decisions and 24 law excerpts), once per test process,
 * into a temp file that is removed when the process exits. Tests open it read-only or copy it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { decisionId } from '../../src/corpus/ids.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
let built: Promise<string> | undefined;

/** The id of fixture decision JURA0000000NN (fixtures/decisions/JURA0000000NN.xml). */
export function fixtureId(n: number): string {
  return decisionId({ doknr: `JURA${String(n).padStart(9, '0')}` });
}

/** Path of the demo corpus file (built on first call). */
export function demoCorpus(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'juralite-demo-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'corpus.db');
    const db = openCorpus(path);
    try {
      const summary = await importPaths(db, [join(FIXTURES, 'laws'), join(FIXTURES, 'decisions')]);
      if (summary.failed.length > 0) throw new Error(`demo corpus: ${JSON.stringify(summary.failed)}`);
    } finally {
      db.close();
    }
    return path;
  })();
  return built;
}
