import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalNorm, parseNormenkette } from '../../src/corpus/norms.ts';

test('parseNormenkette reads the usual rii forms into canonical norms', () => {
  const norms = (text: string) => parseNormenkette(text).map((n) => n.norm);
  assert.deepEqual(norms('§ 573 Abs 2 Nr 2 BGB, § 574 BGB'), ['§ 573 Abs. 2 Nr. 2 BGB', '§ 574 BGB']);
  assert.deepEqual(norms('Art 12 Abs 1 GG'), ['Art. 12 Abs. 1 GG']);
  assert.deepEqual(norms('Art 19 Abs 4 GG, Art 38 Abs 1 S 1 GG, Art 41 GG, § 32 Abs 1 BVerfGG, § 48 BVerfGG'),
    ['Art. 19 Abs. 4 GG', 'Art. 38 Abs. 1 Satz 1 GG', 'Art. 41 GG', '§ 32 Abs. 1 BVerfGG', '§ 48 BVerfGG']);
  assert.deepEqual(norms('§§ 280, 281 BGB'), ['§ 280 BGB', '§ 281 BGB']);
  assert.deepEqual(norms('§ 31 SGB 5'), ['§ 31 SGB V']);
  assert.deepEqual(norms('§ 3 Nr 12 S 2 EStG 2002'), ['§ 3 Nr. 12 Satz 2 EStG']);
  assert.deepEqual(norms('Art 6 Abs 1 S 1 Buchst f EUV 2016/679'), ['Art. 6 Abs. 1 Satz 1 lit. f DSGVO']);
  assert.deepEqual(norms('BGB § 823 Abs. 1'), ['§ 823 Abs. 1 BGB']);
  assert.deepEqual(norms('§ 1 Alt 2 UWG; § 8 Abs 1 S 1 Halbs 2 UWG'), ['§ 1 Alt. 2 UWG', '§ 8 Abs. 1 Satz 1 Halbsatz 2 UWG']);
  assert.deepEqual(norms('§ 613a BGB'), ['§ 613a BGB']);
  assert.deepEqual(norms('EGRL 13/93, § 307 BGB'), ['§ 307 BGB']);
  assert.deepEqual(norms(''), []);
  assert.deepEqual(norms('kein Norm'), []);
});

test('parseNormenkette reads Roman Absätze with unlabelled Satz and litera, as the citation check does', () => {
  const norms = (text: string) => parseNormenkette(text).map((n) => n.norm);
  // The Roman numeral used to be read as part of the law ('II BGB').
  assert.deepEqual(parseNormenkette('§ 573 II BGB')[0], { norm: '§ 573 Abs. 2 BGB', law: 'BGB', unit: '§ 573' });
  assert.deepEqual(norms('§ 535 I 2 BGB, § 536 BGB'), ['§ 535 Abs. 1 Satz 2 BGB', '§ 536 BGB']);
  assert.deepEqual(norms('Art. 6 I f DSGVO'), ['Art. 6 Abs. 1 lit. f DSGVO']);
  assert.deepEqual(norms('§ 1 I Nr. 2 KSchG'), ['§ 1 Abs. 1 Nr. 2 KSchG']);
  assert.deepEqual(norms('§§ 280 I, 281 I 1 BGB'), ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB']);
  assert.deepEqual(norms('§§ 280 I, III, 281 I 1 BGB'), ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 Satz 1 BGB']);
  assert.deepEqual(norms('§ 3 Abs. IV UWG'), ['§ 3 Abs. 4 UWG']);
  // A Roman book of the SGB stays the law's.
  assert.deepEqual(norms('§ 31 I 1 SGB V, § 44 SGB X'), ['§ 31 Abs. 1 Satz 1 SGB V', '§ 44 SGB X']);
});

test('parsed norms carry the law and the unit for facets', () => {
  assert.deepEqual(parseNormenkette('§ 573 Abs 2 Nr 2 BGB')[0], { norm: '§ 573 Abs. 2 Nr. 2 BGB', law: 'BGB', unit: '§ 573' });
  assert.deepEqual(parseNormenkette('Art 3 Abs 1 GG')[0], { norm: 'Art. 3 Abs. 1 GG', law: 'GG', unit: 'Art. 3' });
});

test('duplicates collapse and canonicalNorm normalizes a single norm', () => {
  assert.equal(parseNormenkette('§ 574 BGB, § 574 BGB').length, 1);
  assert.equal(canonicalNorm('§ 573 Abs 2 BGB'), '§ 573 Abs. 2 BGB');
  assert.equal(canonicalNorm('nonsense'), undefined);
});
