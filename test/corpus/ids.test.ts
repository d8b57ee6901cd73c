import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NAMESPACES, azKey, decisionId, isUuid, lawId, lawUnitId, uuidV5 } from '../../src/corpus/ids.ts';

test('uuidV5 matches the RFC test vector and sets version and variant', () => {
  assert.equal(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  const id = uuidV5(NAMESPACES.decision, 'x');
  assert.ok(isUuid(id));
  assert.equal(id[14], '5');
  assert.ok('89ab'.includes(id[19]));
});

test('the project namespaces derive from the URL namespace and never change', () => {
  const url = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';
  assert.equal(NAMESPACES.decision, uuidV5(url, 'https://juralite.invalid/ns/decision'));
  assert.equal(NAMESPACES.law, uuidV5(url, 'https://juralite.invalid/ns/law'));
  assert.equal(NAMESPACES.lawUnit, uuidV5(url, 'https://juralite.invalid/ns/law-unit'));
});

test('decisionId prefers the doknr, then the ECLI, then court + date + Aktenzeichen', () => {
  const byDoknr = decisionId({ doknr: 'KVRE427811801', ecli: 'ECLI:DE:BVerfG:2018:x' });
  assert.equal(byDoknr, decisionId({ doknr: 'kvre427811801' }));
  const byEcli = decisionId({ ecli: 'ECLI:DE:BGH:2018:abc', court: 'BGH', date: '2018-01-01', aktenzeichen: 'I ZR 1/18' });
  assert.equal(byEcli, decisionId({ ecli: 'ecli:de:bgh:2018:ABC' }));
  assert.notEqual(byEcli, byDoknr);
  const byCda = decisionId({ court: 'BGH', date: '2018-01-01', aktenzeichen: 'I  ZR 1/18' });
  assert.equal(byCda, decisionId({ court: 'BGH', date: '2018-01-01', aktenzeichen: 'i zr 1/18' }));
  assert.throws(() => decisionId({}));
});

test('azKey folds case and collapses whitespace including no-break spaces', () => {
  assert.equal(azKey('VI\u00a0ZR  496/18 '), 'vi zr 496/18');
  assert.equal(azKey('2 BvR 1/20'), '2 bvr 1/20');
});

test('law and unit ids are stable functions of abbreviation, kind and number', () => {
  assert.equal(lawId('BGB'), lawId('BGB'));
  assert.notEqual(lawId('BGB'), lawId('SGB V'));
  assert.equal(lawUnitId('BGB', '§', '823'), lawUnitId('BGB', '§', '823'));
  assert.notEqual(lawUnitId('BGB', '§', '823'), lawUnitId('BGB', 'Art.', '823'));
});
