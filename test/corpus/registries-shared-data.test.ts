// The registries checked against the reference lists in ../shared/data (skipped when absent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolveCourt } from '../../src/corpus/courts.ts';
import { STATES } from '../../src/corpus/court-places.ts';
import { abbreviationKey, citedAbbreviation } from '../../src/corpus/law-aliases.ts';
import { EU_CATALOGUE } from '../../src/corpus/eu-catalogue.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';

const tsv = (path: string) => readFileSync(sharedData(path), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));

const TYPE_WORDS: Record<string, string> = {
  Oberlandesgericht: 'OLG', Landgericht: 'LG', Amtsgericht: 'AG', Verwaltungsgericht: 'VG', Oberverwaltungsgericht: 'OVG',
  Verwaltungsgerichtshof: 'VGH', Sozialgericht: 'SG', Landessozialgericht: 'LSG', Arbeitsgericht: 'ArbG',
  Landesarbeitsgericht: 'LAG', Finanzgericht: 'FG',
};

test('every court of the XJustiz list resolves to a branch; appellate and LG/VG courts to their Land', skipUnlessSharedData('courts/courts_gds_derived.tsv'), () => {
  const stateOf = Object.fromEntries(Object.entries(STATES).map(([code, info]) => [info.name, code]));
  // Courts shared by two Länder sit in one of them: the XJustiz list files their branch offices under the other.
  const shared = new Set(['Landessozialgericht Bremen', 'Landessozialgericht Berlin', 'Finanzgericht Berlin']);
  let checked = 0;
  const wrong: string[] = [];
  for (const [, name, state, , , dissolved] of tsv('courts/courts_gds_derived.tsv')) {
    if (dissolved === '1' || name.startsWith('aufgelöst') || / -[\p{L} ]+-$/u.test(name)) continue;
    const [first, second] = name.split(' ');
    // '<Type> <place>' or '<Land adjective> <Type>' ('Hessisches Finanzgericht'); not offices 'beim Landgericht'.
    const typeWord = Object.keys(TYPE_WORDS).find((w) => first === w || (second === w && /(?:isches|ischer|isch|er)$/u.test(first)));
    if (!typeWord) continue;
    checked++;
    const r = resolveCourt(name);
    if (r.branch === 'unbekannt') wrong.push(`${name}: unknown`);
    const type = TYPE_WORDS[typeWord];
    if (type !== 'AG' && type !== 'ArbG' && type !== 'SG' && !shared.has(name) && stateOf[state] && r.state !== stateOf[state]) {
      wrong.push(`${name}: state ${r.state}, expected ${stateOf[state]}`);
    }
  }
  assert.ok(checked > 1000, `checked ${checked}`);
  assert.deepEqual(wrong, []);
});

test('the federal courts of the reference list resolve by abbreviation and name', skipUnlessSharedData('courts/federal_courts.tsv'), () => {
  for (const [abbrev, name, branch] of tsv('courts/federal_courts.tsv')) {
    assert.equal(resolveCourt(abbrev).code, abbrev);
    assert.equal(resolveCourt(name).code, abbrev);
    assert.equal(resolveCourt(name).branch, branch);
  }
});

test('cited abbreviations of all 6,877 GII laws are unique, and the README quirks hold', skipUnlessSharedData('law_abbreviations/gii_jurabk_amtabk_title.tsv'), () => {
  const rows = tsv('law_abbreviations/gii_jurabk_amtabk_title.tsv');
  assert.ok(rows.length > 6800);
  const byKey = new Map<string, string[]>();
  for (const [bjnr, jurabk, amtabk] of rows) {
    const key = citedAbbreviation(jurabk, amtabk);
    byKey.set(key, [...(byKey.get(key) ?? []), bjnr]);
  }
  const duplicates = [...byKey].filter(([, v]) => v.length > 1);
  assert.deepEqual(duplicates, []);
  const catalogue = EU_CATALOGUE.map((a) => a.abbreviation).filter((a) => byKey.has(a));
  assert.deepEqual(catalogue, [], 'no German law takes the abbreviation of a catalogue act');
  const cited = (j: string) => {
    const row = rows.find((r) => r[1] === j)!;
    return citedAbbreviation(row[1], row[2]);
  };
  assert.equal(cited('AO 1977'), 'AO');
  assert.equal(cited('SGB 5'), 'SGB V');
  assert.equal(cited('UWG 2004'), 'UWG');
  assert.equal(cited('WoEigG'), 'WEG');
  assert.equal(cited('BBauG'), 'BauGB');
  assert.equal(cited('AsylVfG 1992'), 'AsylG');
  assert.equal(cited('BDSG 2018'), 'BDSG');
  // Keys that fold case may collide (GBV / GbV); the exact abbreviation still tells them apart.
  const folded = new Map<string, Set<string>>();
  for (const k of byKey.keys()) folded.set(abbreviationKey(k), new Set([...(folded.get(abbreviationKey(k)) ?? []), k]));
  assert.ok([...folded.values()].filter((s) => s.size > 1).length <= 3);
});
