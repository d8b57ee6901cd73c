// The executable's entry point (bundled by scripts/exe-bundle.ts, run by sea-bootstrap.ts): the command line, or an
// extraction worker when the upload pool started this process.
import embeddedFiles from 'juralite-exe:embedded-files';
import { serveEmbeddedFiles } from './embedded-files.ts';
import { isExtractionWorkerProcess, runExtractionWorker } from './extraction-worker.ts';

// First, before any module that reads a schema while it loads: the modules below are imported lazily for that reason.
serveEmbeddedFiles(embeddedFiles);

const started = isExtractionWorkerProcess()
  ? runExtractionWorker()
  // A single executable application's argv is [executable, executable, ...arguments], as under `node script`.
  : import('../cli/main.ts').then(({ run }) => run(process.argv.slice(2)));

started.catch((error: unknown) => {
  console.error(`juralite: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
});
