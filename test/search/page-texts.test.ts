// The decision texts kept for result pages (src/search/page-texts.ts): the stored texts, kept while the corpus file is
// unchanged, bounded, and read anew after any commit to the file (a decision re-imported with a new text shows it on
// the very next page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus } from '../../src/corpus/open.ts';
import { decisionText } from '../../src/corpus/stored-text.ts';
import { decisionId } from '../../src/corpus/ids.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { keptTexts, pageTexts } from '../../src/search/page-texts.ts';
import { riiXml } from '../ingest/helpers.ts';

test('page texts: the stored texts, kept until the file changes, bounded, never stale', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-page-texts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'corpus.db');
  const writer = openCorpus(path);
  t.after(() => writer.close());
  const write = async (n: number, text: string) => {
    const doknr = `TEXT${String(n).padStart(8, '0')}`;
    const file = join(dir, `${doknr}.xml`);
    writeFileSync(file, riiXml({ doknr, datum: '20240101', aktenzeichen: `VIII ZR ${n}/24`, gruende: [{ rn: 1, text }] }));
    await importPaths(writer, [file]);
    return decisionId({ doknr });
  };
  const first = await write(1, 'Der Schimmel in der Mietwohnung mindert die Miete um zehn Prozent.');
  const second = await write(2, 'Der Schimmel im Keller war dem Vermieter seit Jahren bekannt.');
  const served = openCorpus(path, { readonly: true });
  t.after(() => served.close());

  // Bounded: a limit below both texts keeps only the last one read.
  const size = decisionText(served, first)!.length + decisionText(served, second)!.length;
  pageTexts(served, [first, second], size - 1);
  assert.equal(keptTexts(served), 1);
  // A page whose text read anew pushes out a kept text the same page shows: the page still has both.
  const both = pageTexts(served, [first, second], size - 1);
  assert.deepEqual([...both.keys()], [first, second], 'a kept text pushed out by the same page');
  assert.equal(both.get(second), decisionText(served, second));
  const texts = served.transaction(() => pageTexts(served, [first, second, 'no-such-decision']))();
  assert.deepEqual([...texts.keys()], [first, second], 'an id naming no decision is absent');
  assert.equal(texts.get(first), decisionText(served, first));
  assert.equal(texts.get(second), decisionText(served, second));
  assert.equal(keptTexts(served), 2);

  // A page, then the decision re-imported with a new text through another connection (juralite sync): the next page
  // cuts its snippet from the new text.
  const args = { query: 'Schimmel', mode: 'keyword' as const, limit: 20, page: 1, bridge: false };
  const before = await searchDecisions(served, args);
  assert.match(before.results.find((item) => item.id === first)!.snippet, /zehn Prozent/u);
  await write(1, 'Der Schimmel in der Mietwohnung mindert die Miete um zwanzig Prozent.');
  const after = await searchDecisions(served, args);
  assert.match(after.results.find((item) => item.id === first)!.snippet, /zwanzig Prozent/u);
  assert.equal(pageTexts(served, [first]).get(first), decisionText(served, first));
});
