import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  abbreviationKey, canonicalLawAbbreviation, citedAbbreviation, nameKey, registryAbbreviation,
} from '../../src/corpus/law-aliases.ts';
import { EU_CATALOGUE, catalogueArticles } from '../../src/corpus/eu-catalogue.ts';

test('citedAbbreviation: GII jurabk (and amtabk) to the form lawyers cite', () => {
  const table: [string, string | null, string][] = [
    ['AO 1977', 'AO', 'AO'],
    ['SGB 1', null, 'SGB I'], ['SGB 2', null, 'SGB II'], ['SGB 3', null, 'SGB III'], ['SGB 4', null, 'SGB IV'],
    ['SGB 5', null, 'SGB V'], ['SGB 6', null, 'SGB VI'], ['SGB 7', null, 'SGB VII'], ['SGB 8', null, 'SGB VIII'],
    ['SGB 9 2018', 'SGB IX', 'SGB IX'], ['SGB 10', 'SGB X', 'SGB X'], ['SGB 11', null, 'SGB XI'], ['SGB 12', null, 'SGB XII'],
    ['SGB 14', 'SGB XIV', 'SGB XIV'],
    ['UWG 2004', 'UWG', 'UWG'],
    ['WoEigG', 'WEG', 'WEG'],
    ['BBauG', 'BauGB', 'BauGB'],
    ['AsylVfG 1992', 'AsylG', 'AsylG'],
    ['BDSG 2018', 'BDSG', 'BDSG'],
    ['BGBEG', null, 'EGBGB'], ['GVGEG', null, 'EGGVG'], ['ZPOEG', null, 'EGZPO'], ['StGBEG', 'EGStGB', 'EGStGB'],
    ['KraftStG', 'KraftStG 2002', 'KraftStG'],
    ['EEG 2014', 'EEG 2023', 'EEG'],
    ['BGB', 'BGB', 'BGB'], ['GG', null, 'GG'], ['ZPO', null, 'ZPO'],
    ['AEG 1994', 'AEG', 'AEG'], ['AEG', null, 'AEG 1951'],
    ['KraftfAusbV 2001', 'BKV', 'KraftfAusbV 2001'],
    ['PKHB 2013', 'PKHB 2013', 'PKHB 2013'],
    ['SGB 10/Kap3', null, 'SGB 10/Kap3'],
  ];
  for (const [jurabk, amtabk, cited] of table) assert.equal(citedAbbreviation(jurabk, amtabk), cited, `${jurabk} / ${amtabk}`);
});

test('alias keys: abbreviations ignore case, spaces, dots and hyphens; names their inflection', () => {
  assert.equal(abbreviationKey('DS-GVO'), abbreviationKey('DSGVO'));
  assert.equal(abbreviationKey('SGB V'), abbreviationKey('sgbv'));
  assert.notEqual(abbreviationKey('Rom I-VO'), abbreviationKey('Rom II-VO'));
  assert.equal(nameKey('Bürgerliches Gesetzbuch'), nameKey('des Bürgerlichen Gesetzbuchs'));
  assert.equal(nameKey('Bürgerliches Gesetzbuch'), nameKey('dem Bürgerlichen Gesetzbuche'));
  assert.equal(nameKey('Grundgesetz'), nameKey('des Grundgesetzes'));
  assert.equal(nameKey('Strafprozeßordnung'), nameKey('Strafprozessordnung'));
  assert.equal(nameKey('Fünftes Buch Sozialgesetzbuch'), nameKey('des Fünften Buches Sozialgesetzbuch'));
  assert.notEqual(nameKey('Strafgesetzbuch'), nameKey('Handelsgesetzbuch'));
});

test('registryAbbreviation knows GII forms, long names, genitives, juris forms and EU acts', () => {
  const table: [string, string][] = [
    ['SGB 5', 'SGB V'], ['SGB V', 'SGB V'], ['sgb v', 'SGB V'], ['SGB XII', 'SGB XII'],
    ['Fünftes Buch Sozialgesetzbuch', 'SGB V'], ['Sozialgesetzbuch Zweites Buch', 'SGB II'],
    ['Bürgerliches Gesetzbuch', 'BGB'], ['des Bürgerlichen Gesetzbuchs', 'BGB'], ['Grundgesetz', 'GG'],
    ['Zivilprozessordnung', 'ZPO'], ['Strafgesetzbuch', 'StGB'], ['der Zivilprozeßordnung', 'ZPO'],
    ['Gesetz gegen den unlauteren Wettbewerb', 'UWG'], ['Wohnungseigentumsgesetz', 'WEG'],
    ['AO 1977', 'AO'], ['UWG 2004', 'UWG'], ['WoEigG', 'WEG'], ['BBauG', 'BauGB'], ['AsylVfG 1992', 'AsylG'],
    ['BDSG 2018', 'BDSG'], ['EStG 2002', 'EStG'], ['BGBEG', 'EGBGB'],
    ['DS-GVO', 'DSGVO'], ['EUV 2016/679', 'DSGVO'], ['Datenschutz-Grundverordnung', 'DSGVO'],
    ['EuGVVO', 'Brüssel Ia-VO'], ['Rom I', 'Rom I-VO'], ['Rom II-VO', 'Rom II-VO'], ['EMRK', 'EMRK'], ['MRK', 'EMRK'],
    ['AEUV', 'AEUV'], ['EUV', 'EUV'], ['GRCh', 'GRCh'], ['Genfer Flüchtlingskonvention', 'GFK'],
  ];
  for (const [text, cited] of table) assert.equal(registryAbbreviation(text), cited, text);
  assert.equal(registryAbbreviation('FooBarG'), undefined);
  assert.equal(canonicalLawAbbreviation('FooBarG 1999'), 'FooBarG');
  assert.equal(canonicalLawAbbreviation('FooBarG'), 'FooBarG');
});

test('the EU catalogue holds the acts resolutions.md requires, with article numbers', () => {
  const byAbbr = new Map(EU_CATALOGUE.map((a) => [a.abbreviation, a]));
  for (const required of ['DSGVO', 'AEUV', 'EUV', 'GRCh', 'EMRK', 'Rom I-VO', 'Rom II-VO', 'Brüssel Ia-VO']) {
    assert.ok(byAbbr.has(required), required);
  }
  assert.ok(byAbbr.get('DSGVO')!.aliases.includes('DS-GVO'));
  assert.ok(byAbbr.get('Brüssel Ia-VO')!.aliases.includes('EuGVVO'));
  assert.equal(catalogueArticles(byAbbr.get('DSGVO')!).length, 99);
  assert.equal(catalogueArticles(byAbbr.get('AEUV')!).at(-1), '358');
  assert.equal(byAbbr.get('EMRK')!.jurisdiction, 'XI');
  assert.equal(byAbbr.get('DSGVO')!.jurisdiction, 'EU');
});
