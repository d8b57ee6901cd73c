/**
 * An extraction worker for tests (config.uploads.workerScript): the real worker, except for documents that carry a
 * marker, on which it behaves as a worker meeting a hostile file does, inside the same watchdog: it exits, it hangs,
 * or it runs out of memory.
 */
import { readFileSync } from 'node:fs';
import { guarded, type PoolTask } from '../../src/uploads/extract/worker.ts';
import { extractDocument } from '../../src/uploads/extract/extract-document.ts';

export default function hostileExtract(task: PoolTask) {
  return guarded(task, async () => {
    const content = readFileSync(task.path, 'latin1');
    if (content.includes('WORKER-EXIT')) process.exit(3);
    if (content.includes('WORKER-HANG')) for (;;);
    if (content.includes('WORKER-OOM')) {
      const hoard: string[] = [];
      for (;;) hoard.push(`${Math.random()}`.repeat(100_000));
    }
    return extractDocument(task);
  });
}
