/**
 * The embedder recorded in the corpus, read once a connection while the file is unchanged (src/search/embedder.ts):
 * a serving connection sees a record another connection writes (an import retraining) and its own changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smallCorpus } from './small-corpus.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { recordEmbedder, recordedEmbedder, type EmbedderRecord } from '../../src/search/embedder.ts';

const external = (model: string): EmbedderRecord => ({ kind: 'external', model, dims: 8, endpoint: 'http://127.0.0.1:1/embed' });

test('the recorded embedder kept per connection follows what any connection commits', async (t) => {
  const writer = await smallCorpus(t, [{ doknr: 'KORE63000', aktenzeichen: 'VIII ZR 1/25', norm: '', text: 'Die Miete war gemindert.' }]);
  const reader = openCorpus(writer.name, { readonly: true });
  t.after(() => reader.close());
  recordEmbedder(writer, external('first'));
  assert.deepEqual(recordedEmbedder(reader), external('first'));
  assert.deepEqual(recordedEmbedder(reader), external('first'), 'asked again while the file is unchanged');
  recordEmbedder(writer, external('second'));
  assert.deepEqual(recordedEmbedder(reader), external('second'), 'another connection recorded a new embedder');
  recordEmbedder(writer, null);
  assert.equal(recordedEmbedder(reader), null, 'another connection removed it');
  recordEmbedder(writer, external('own'));
  assert.deepEqual(recordedEmbedder(writer), external('own'), 'the connection that wrote it');
  recordEmbedder(writer, external('own again'));
  assert.deepEqual(recordedEmbedder(writer), external('own again'), "the connection's own change, read on it");
});
