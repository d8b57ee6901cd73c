// A decision's chunks and Randnummern packed in its row for result pages (src/corpus/page-parts.ts, Session 19): the
// packed rows are the tables' rows; search answers are the same whether a page reads them packed or from the tables
// (parts missing, stale after an older juralite wrote the decision again, or a file older than the column, read-only);
// a writable open of such a file adds and fills the column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { corpusNeedsUpgrade, openCorpus } from '../../src/corpus/open.ts';
import { decodePageParts, encodePageParts, pagePartsOfRow, type PageParts } from '../../src/corpus/page-parts.ts';
import { searchDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { riiXml } from '../ingest/helpers.ts';

const HASH = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

test('page parts: packed and read back as written, nulls, gaps, overlaps and large ids included', () => {
  const parts: PageParts = {
    chunks: [
      { id: 5_300_001, section: 'Leitsatz', rn_from: null, rn_to: null, start_offset: 0, end_offset: 412 },
      { id: 5_300_002, section: 'Entscheidungsgründe', rn_from: 1, rn_to: 3, start_offset: 430, end_offset: 1_900 },
      { id: 5_300_007, section: 'Entscheidungsgründe', rn_from: 4, rn_to: 4, start_offset: 1_850, end_offset: 1_850 },
      { id: 12, section: null, rn_from: 0, rn_to: 2 ** 31, start_offset: 2 ** 33, end_offset: 2 ** 33 + 5 },
    ],
    randnummern: [{ rn: 1, start_offset: 430, end_offset: 900 }, { rn: 3, start_offset: 901, end_offset: 1_900 }, { rn: 2, start_offset: 10, end_offset: 20 }],
  };
  const packed = encodePageParts(HASH, parts);
  assert.deepEqual(decodePageParts(packed, HASH), parts);
  assert.deepEqual(decodePageParts(encodePageParts(HASH, { chunks: [], randnummern: [] }), HASH), { chunks: [], randnummern: [] });
  // Not to be trusted: packed for another content, cut short, of an unknown format, none at all.
  assert.equal(decodePageParts(packed, `0${HASH.slice(1)}`), undefined);
  assert.equal(decodePageParts(packed.subarray(0, packed.length - 3), HASH), undefined);
  assert.equal(decodePageParts(Buffer.concat([Buffer.from([9]), packed.subarray(1)]), HASH), undefined);
  assert.equal(decodePageParts(null, HASH), undefined);
});

test('page parts: section names read back as packed when many decisions share them and when they differ in one byte', () => {
  // More names than the unpacking keeps (64), of equal byte lengths, differing in their last byte or only as UTF-8
  // ('Gründe' and 'Grunde' + one letter are 7 bytes each), each decision with three of them, read in turn twice.
  const names = [...Array.from({ length: 150 }, (_, i) => `Abschnitt ${String(i).padStart(3, '0')}`), 'Gründe', 'Grundex', 'Gr\u00fcndf', 'Tenor', 'Tenos', 'Ä', 'Ö'];
  const packs = names.map((name, i) => {
    const chunks = [name, names[(i * 7 + 3) % names.length], names[(i * 13 + 5) % names.length]].map((section, k) =>
      ({ id: i * 10 + k, section, rn_from: null, rn_to: null, start_offset: k * 10, end_offset: k * 10 + 5 }));
    return { parts: { chunks, randnummern: [] }, packed: encodePageParts(HASH, { chunks, randnummern: [] }) };
  });
  for (let round = 0; round < 2; round++) {
    for (const { parts, packed } of packs) assert.deepEqual(decodePageParts(packed, HASH), parts);
  }
});

test('page parts: trusted for exactly the content hashes the parsed fingerprint trusted (case, non-hex, short hashes)', () => {
  // The fingerprint as Session 19 wrote and checked it: each byte parsed from two characters of the hash.
  const before = (hash: string, i: number) => Number.parseInt(hash.slice(2 * i, 2 * i + 2), 16) || 0;
  const trustedBefore = (packedFor: string, readFor: string) =>
    Array.from({ length: 8 }, (_, i) => i).every((i) => Buffer.from([before(packedFor, i)])[0] === before(readFor, i));
  const parts: PageParts = { chunks: [{ id: 1, section: 'Tenor', rn_from: null, rn_to: null, start_offset: 0, end_offset: 9 }], randnummern: [] };
  const odd = ['', '0', '9f8', '9F86D081884C7D65', 'g9f86d081884c7d6', '1g2h3i4j5k6l7m8n', '-1-2-3-4-5-6-7-8', ' 1 2 3 4 5 6 7 8', '+f+f+f+f+f+f+f+f', 'zzzzzzzzzzzzzzzz', '0x0x0x0x0x0x0x0x', '\u00e40\u00e40\u00e40\u00e40'];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const alphabet = '0123456789abcdefABCDEFgz -+x';
  const hashes = [HASH, HASH.toUpperCase(), ...odd, ...Array.from({ length: 300 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 20) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''))];
  let trusted = 0;
  for (const packedFor of hashes) {
    const packed = encodePageParts(packedFor, parts);
    for (const readFor of [packedFor, packedFor.toUpperCase(), packedFor.toLowerCase(), `0${packedFor.slice(1)}`, packedFor.slice(0, 15), hashes[Math.floor(random() * hashes.length)]]) {
      const expected = trustedBefore(packedFor, readFor);
      assert.equal(decodePageParts(packed, readFor) !== undefined, expected, `${JSON.stringify(packedFor)} read for ${JSON.stringify(readFor)}`);
      if (expected) trusted++;
    }
  }
  assert.ok(trusted > 300, `only ${trusted} trusted`);
});

/** A copy of the demo corpus, changed by `change` through a plain connection (nothing upgraded). */
function copyOf(source: string, dir: string, name: string, change: (db: Database.Database) => void): string {
  const path = join(dir, name);
  copyFileSync(source, path);
  const db = new Database(path);
  change(db);
  db.close();
  return path;
}

const QUERIES = ['Kündigung Mietverhältnis', 'Eigenbedarf', 'Schadensersatz', 'Verkehrssicherungspflicht Streupflicht',
  'Vermieter will mich rauswerfen', 'Mangel Nacherfüllung'];

test('page parts: the importer packs the tables\' rows; answers are the same read packed or from the tables', async (t) => {
  const demo = await demoCorpus();
  const dir = mkdtempSync(join(tmpdir(), 'juralite-page-parts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const packed = openCorpus(demo, { readonly: true });
  t.after(() => packed.close());
  const rows = packed.prepare('SELECT r.row, d.content_hash, d.page_parts FROM decisions d JOIN decision_rows r ON r.id = d.id')
    .all() as { row: number; content_hash: string; page_parts: Buffer | null }[];
  assert.equal(rows.length, 50);
  let randnummern = 0;
  for (const row of rows) {
    const parts = decodePageParts(row.page_parts, row.content_hash);
    assert.deepEqual(parts, pagePartsOfRow(packed, row.row), `decision row ${row.row}`);
    randnummern += parts!.randnummern.length;
  }
  assert.ok(randnummern > 100, `Randnummern packed: ${randnummern}`);

  const others = {
    'parts missing': copyOf(demo, dir, 'missing.db', (db) => db.exec('UPDATE decisions SET page_parts = NULL')),
    // An older juralite writing a decision anew (new content, new chunks) leaves the packed parts as they were.
    'parts stale': copyOf(demo, dir, 'stale.db', (db) => db.exec(`UPDATE decisions SET content_hash = 'f' || substr(content_hash, 2)`)),
    'a file older than the column': copyOf(demo, dir, 'older.db', (db) => db.exec(`ALTER TABLE decisions DROP COLUMN page_parts;
      DELETE FROM meta WHERE key = 'page_parts'`)),
  };
  const aktenzeichen = (packed.prepare('SELECT aktenzeichen FROM decisions WHERE aktenzeichen IS NOT NULL ORDER BY id LIMIT 1').pluck().get()) as string;
  let marked = 0;
  let numbered = 0;
  for (const [label, path] of Object.entries(others)) {
    const tables = openCorpus(path, { readonly: true });
    try {
      for (const mode of ['keyword', 'hybrid', 'semantic'] as SearchMode[]) {
        for (const query of [...QUERIES, aktenzeichen]) {
          const args = { query, mode, limit: 10, page: 1, bridge: true };
          const expected = await searchDecisions(tables, args);
          assert.deepEqual(await searchDecisions(packed, args), expected, `${label}: ${mode} ${query}`);
          marked += expected.results.filter((item) => item.snippet.includes('<mark>')).length;
          numbered += expected.results.flatMap((item) => item.snippets).filter((snippet) => snippet.rn !== null).length;
        }
      }
    } finally {
      tables.close();
    }
  }
  assert.ok(marked > 50 && numbered > 50, `snippets with query words ${marked}, with a Randnummer ${numbered}`);
});

test('page parts: a file older than the column needs the upgrade, reads read-only, and a writable open fills it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-page-parts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = copyOf(await demoCorpus(), dir, 'older.db', (db) => db.exec(`ALTER TABLE decisions DROP COLUMN page_parts;
    DELETE FROM meta WHERE key = 'page_parts'`));
  assert.equal(corpusNeedsUpgrade(path), true);
  openCorpus(path).close();
  assert.equal(corpusNeedsUpgrade(path), false);
  const db = openCorpus(path, { readonly: true });
  t.after(() => db.close());
  const rows = db.prepare('SELECT r.row, d.content_hash, d.page_parts FROM decisions d JOIN decision_rows r ON r.id = d.id')
    .all() as { row: number; content_hash: string; page_parts: Buffer | null }[];
  assert.equal(rows.length, 50);
  for (const row of rows) assert.deepEqual(decodePageParts(row.page_parts, row.content_hash), pagePartsOfRow(db, row.row));
});

test('page parts: a decision imported again with another text packs its new chunks, with the ids they were written with', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-page-parts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  const write = async (doknr: string, paragraphs: string[]) => {
    const file = join(dir, `${doknr}.xml`);
    writeFileSync(file, riiXml({ doknr, datum: '20240101', aktenzeichen: `VIII ZR ${doknr.slice(-1)}/24`,
      gruende: paragraphs.map((text, i) => ({ rn: i + 1, text })) }));
    await importPaths(db, [file]);
  };
  const long = (word: string) => Array.from({ length: 12 }, (_, i) => `${word} ${i}: ${'Die Kündigung des Mietverhältnisses ist wirksam. '.repeat(8)}`);
  await write('PART00000001', long('Erstens'));
  await write('PART00000002', long('Zweitens'));
  await write('PART00000001', long('Anders').slice(0, 7));
  const rows = db.prepare('SELECT r.row, d.content_hash, d.page_parts FROM decisions d JOIN decision_rows r ON r.id = d.id')
    .all() as { row: number; content_hash: string; page_parts: Buffer | null }[];
  assert.equal(rows.length, 2);
  for (const row of rows) {
    const parts = decodePageParts(row.page_parts, row.content_hash);
    assert.ok(parts && parts.chunks.length > 1 && parts.randnummern.length >= 7, `row ${row.row}`);
    assert.deepEqual(parts, pagePartsOfRow(db, row.row), `row ${row.row}`);
  }
});

test('page parts: a page reads the packed parts where they are trusted, not the tables', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-page-parts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const demo = await demoCorpus();
  // The tables changed behind the packed parts' back (no page reads them while the parts are trusted).
  const path = copyOf(demo, dir, 'tables-changed.db', (db) => db.exec(`UPDATE row_chunks SET section = 'geändert';
    UPDATE row_randnummern SET rn = rn + 1000`));
  const original = openCorpus(demo, { readonly: true });
  t.after(() => original.close());
  const changed = openCorpus(path, { readonly: true });
  t.after(() => changed.close());
  const args = { query: 'Kündigung Mietverhältnis', mode: 'keyword' as SearchMode, limit: 20, page: 1, bridge: true };
  const answer = await searchDecisions(original, args);
  assert.ok(answer.results.some((item) => item.snippets.some((snippet) => snippet.rn !== null)), 'a snippet with its Randnummer');
  assert.deepEqual(await searchDecisions(changed, args), answer);
});
