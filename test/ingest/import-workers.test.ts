import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPaths } from '../../src/ingest/index.ts';
import type { CorpusDb } from '../../src/corpus/open.ts';
import { tempCorpus } from './helpers.ts';
import { searchIndexContents } from '../helpers/search-index.ts';

/** What an import leaves in the corpus, in a form two corpora can be compared by. */
function contents(db: CorpusDb) {
  const all = (query: string) => db.prepare(query).all();
  return {
    decisions: all('SELECT id, content_hash, text_length FROM decisions ORDER BY id'),
    chunks: all('SELECT decision_id, position, rn_from, rn_to, start_offset, end_offset FROM chunks ORDER BY decision_id, position'),
    edges: all(`SELECT from_decision_id, rn, reference_canonical, reference_type, reference_role, to_decision_id, resolution_status
                FROM citation_edges ORDER BY from_decision_id, reference_canonical, rn`),
    units: all('SELECT law_id, kind, number, heading FROM law_units ORDER BY law_id, kind, number'),
  };
}

test('documents parsed (and their chunks analysed) in worker threads are written as the main thread writes them, in the same order', async (t) => {
  const inline = tempCorpus(t);
  const threaded = tempCorpus(t);
  const broken = join(inline.dir, 'broken.xml');
  writeFileSync(broken, '<dokument><doknr>X</doknr><tenor>');
  const paths = ['fixtures/laws', 'fixtures/decisions', broken];
  const seen: string[][] = [[], []];
  const inlineSummary = await importPaths(inline.db, paths, { workers: 0, onProgress: (p) => seen[0].push(p.current) });
  // No document in the main thread: every one goes through the worker threads.
  const threadedSummary = await importPaths(threaded.db, paths,
    { workers: 2, inlineDocuments: 0, onProgress: (p) => seen[1].push(p.current) });
  assert.ok(inlineSummary.imported > 40, 'the fixtures imported');
  assert.equal(inlineSummary.failed.length, 1);
  assert.deepEqual(threadedSummary, inlineSummary);
  assert.deepEqual(seen[1], seen[0], 'documents are reported (and written) in the order they were found');
  assert.deepEqual(contents(threaded.db), contents(inline.db));
  const index = searchIndexContents(inline.db);
  assert.ok(index.vectors.length > 40, 'the fixtures are enough to train the embedder');
  assert.deepEqual(searchIndexContents(threaded.db), index, 'the search index, analysed by the threads at the end');
});
