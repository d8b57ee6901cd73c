/** A decision's stored text: compressed and decompressed; the size a zstd frame (as an older juralite wrote texts) states. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants, zstdCompressSync } from 'node:zlib';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compressText, decompressText, frameContentSize } from '../../src/corpus/stored-text.ts';
import { isLzText } from '../../src/corpus/lz-text.ts';
import { corpusNeedsUpgrade, openCorpus } from '../../src/corpus/open.ts';
import { searchDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { findDecision } from '../../src/corpus/find-decision.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

// Sizes around each width of the frame's size field (1, 2, 4 bytes) and the default output chunk (16 KB).
const SIZES = [0, 1, 255, 256, 257, 16_383, 16_384, 16_385, 65_791, 65_792, 200_000, 1_500_000];
const textOf = (bytes: number) => 'Rn. 1 Die Klägerin begehrt 𝔘mlaute. '.repeat(Math.ceil(bytes / 30)).slice(0, bytes);
/** A text as juralite wrote it before Session 20: a zstd frame at level 3. */
const zstdOf = (text: string) => zstdCompressSync(Buffer.from(text, 'utf8'), { params: { [constants.ZSTD_c_compressionLevel]: 3 } });

test('frameContentSize reads the decompressed size every zstd-stored text states', () => {
  for (const size of SIZES) {
    const text = textOf(size);
    assert.equal(frameContentSize(zstdOf(text)), Buffer.byteLength(text, 'utf8'), `${size}`);
  }
});

test('decompressText gives back every text whole, whatever its size', () => {
  for (const size of SIZES) {
    const text = textOf(size);
    assert.equal(decompressText(compressText(text)), text, `${size}`);
    assert.equal(decompressText(zstdOf(text)), text, `${size}`);
  }
});

test('a frame stating no size, or bytes that are no frame: no size, and such a frame still decompresses', () => {
  const text = textOf(40_000);
  const sizeless = zstdCompressSync(Buffer.from(text), { params: { [constants.ZSTD_c_contentSizeFlag]: 0 } });
  assert.equal(frameContentSize(sizeless), undefined);
  assert.equal(decompressText(sizeless), text);
  assert.equal(frameContentSize(Buffer.from('not a zstd frame')), undefined);
  assert.equal(frameContentSize(new Uint8Array(0)), undefined);
});

test('a file whose texts are zstd frames is served as it is read-only, and a writable open recodes them once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-texts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const demo = await demoCorpus();
  const path = join(dir, 'zstd.db');
  copyFileSync(demo, path);
  const plain = new Database(path);
  plain.function('as_zstd', (stored: unknown) => zstdOf(decompressText(stored as Uint8Array)));
  plain.exec(`UPDATE decisions SET text_zstd = as_zstd(text_zstd); DELETE FROM meta WHERE key = 'text_codec'`);
  plain.close();
  const codecs = (db: Database.Database) => (db.prepare('SELECT text_zstd FROM decisions').pluck().all() as Buffer[]).map(isLzText);

  const current = openCorpus(demo, { readonly: true });
  t.after(() => current.close());
  const answers = async (db: Database.Database) => {
    const all = [];
    for (const mode of ['keyword', 'hybrid'] as SearchMode[]) {
      for (const query of ['Kündigung Mietverhältnis', 'Verkehrssicherungspflicht', 'Vermieter will mich rauswerfen']) {
        all.push(await searchDecisions(db, { query, mode, limit: 10, page: 1, bridge: true }));
      }
    }
    const ids = current.prepare('SELECT id FROM decisions ORDER BY id').pluck().all() as string[];
    return { all, texts: ids.map((id) => findDecision(db, id)?.full_text) };
  };
  const expected = await answers(current);
  assert.ok(codecs(current).every(Boolean), 'the import writes the LZ codec');
  assert.equal(expected.texts.filter((text) => (text?.length ?? 0) > 1_000).length, 50);

  assert.equal(corpusNeedsUpgrade(path), true);
  const older = openCorpus(path, { readonly: true });
  assert.ok(codecs(older).every((lz) => !lz));
  assert.deepEqual(await answers(older), expected, 'zstd texts read as they are');
  older.close();
  openCorpus(path).close();
  assert.equal(corpusNeedsUpgrade(path), false);
  const recoded = openCorpus(path, { readonly: true });
  t.after(() => recoded.close());
  assert.ok(codecs(recoded).every(Boolean), 'every text recoded');
  assert.deepEqual(await answers(recoded), expected, 'recoded texts read the same');
});
