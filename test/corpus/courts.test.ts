import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BRANCHES, FEDERAL_COURTS, LEVELS, courtFromEcli, resolveCourt } from '../../src/corpus/courts.ts';

// raw spelling -> [code, branch, court_type, level, state, chamber]
const TABLE: [string, string, string, string | null, string, string | null, string | null][] = [
  ['BGH', 'BGH', 'ordentlich', 'BGH', 'federal', null, null],
  ['BGH 6. Zivilsenat', 'BGH', 'ordentlich', 'BGH', 'federal', null, '6. Zivilsenat'],
  ['Bundesgerichtshof', 'BGH', 'ordentlich', 'BGH', 'federal', null, null],
  ['Bundesgerichtshof, VIII. Zivilsenat', 'BGH', 'ordentlich', 'BGH', 'federal', null, 'VIII. Zivilsenat'],
  ['BVerfG', 'BVerfG', 'verfassung', 'BVerfG', 'federal', null, null],
  ['Bundesverfassungsgericht 1. Senat 2. Kammer', 'BVerfG', 'verfassung', 'BVerfG', 'federal', null, '1. Senat 2. Kammer'],
  ['BVerwG 8. Senat', 'BVerwG', 'verwaltung', 'BVerwG', 'federal', null, '8. Senat'],
  ['Bundesverwaltungsgericht', 'BVerwG', 'verwaltung', 'BVerwG', 'federal', null, null],
  ['BSG', 'BSG', 'sozial', 'BSG', 'federal', null, null],
  ['Bundessozialgericht 12. Senat', 'BSG', 'sozial', 'BSG', 'federal', null, '12. Senat'],
  ['BAG', 'BAG', 'arbeit', 'BAG', 'federal', null, null],
  ['Bundesarbeitsgericht', 'BAG', 'arbeit', 'BAG', 'federal', null, null],
  ['BFH', 'BFH', 'finanz', 'BFH', 'federal', null, null],
  ['Bundesfinanzhof IX. Senat', 'BFH', 'finanz', 'BFH', 'federal', null, 'IX. Senat'],
  ['BPatG', 'BPatG', 'patent', 'BPatG', 'federal', null, null],
  ['Bundespatentgericht 4. Senat', 'BPatG', 'patent', 'BPatG', 'federal', null, '4. Senat'],
  ['OLG München', 'OLG München', 'ordentlich', 'OLG', 'appellate', 'BY', null],
  ['Oberlandesgericht München', 'OLG München', 'ordentlich', 'OLG', 'appellate', 'BY', null],
  ['OLG Frankfurt am Main', 'OLG Frankfurt', 'ordentlich', 'OLG', 'appellate', 'HE', null],
  ['Oberlandesgericht Frankfurt a.M. 6. Zivilsenat', 'OLG Frankfurt', 'ordentlich', 'OLG', 'appellate', 'HE', '6. Zivilsenat'],
  ['OLG Hamm', 'OLG Hamm', 'ordentlich', 'OLG', 'appellate', 'NW', null],
  ['Schleswig-Holsteinisches Oberlandesgericht', 'OLG Schleswig', 'ordentlich', 'OLG', 'appellate', 'SH', null],
  ['Thüringer Oberlandesgericht', 'OLG Jena', 'ordentlich', 'OLG', 'appellate', 'TH', null],
  ['Hanseatisches Oberlandesgericht', 'OLG Hamburg', 'ordentlich', 'OLG', 'appellate', 'HH', null],
  ['Hanseatisches Oberlandesgericht in Bremen', 'OLG Bremen', 'ordentlich', 'OLG', 'appellate', 'HB', null],
  ['Saarländisches Oberlandesgericht', 'OLG Saarbrücken', 'ordentlich', 'OLG', 'appellate', 'SL', null],
  ['Brandenburgisches Oberlandesgericht', 'OLG Brandenburg', 'ordentlich', 'OLG', 'appellate', 'BB', null],
  ['Pfälzisches Oberlandesgericht Zweibrücken', 'OLG Zweibrücken', 'ordentlich', 'OLG', 'appellate', 'RP', null],
  ['Kammergericht', 'KG', 'ordentlich', 'OLG', 'appellate', 'BE', null],
  ['KG Berlin 21. Zivilsenat', 'KG', 'ordentlich', 'OLG', 'appellate', 'BE', '21. Zivilsenat'],
  ['KG', 'KG', 'ordentlich', 'OLG', 'appellate', 'BE', null],
  ['BayObLG', 'BayObLG', 'ordentlich', 'BayObLG', 'appellate', 'BY', null],
  ['Bayerisches Oberstes Landesgericht', 'BayObLG', 'ordentlich', 'BayObLG', 'appellate', 'BY', null],
  ['LG München I', 'LG München I', 'ordentlich', 'LG', 'first_instance_and_regional', 'BY', null],
  ['Landgericht München I 15. Zivilkammer', 'LG München I', 'ordentlich', 'LG', 'first_instance_and_regional', 'BY', '15. Zivilkammer'],
  ['Landgericht Berlin', 'LG Berlin', 'ordentlich', 'LG', 'first_instance_and_regional', 'BE', null],
  ['Landgericht Berlin, Zivilkammer 27', 'LG Berlin', 'ordentlich', 'LG', 'first_instance_and_regional', 'BE', 'Zivilkammer 27'],
  ['LG Frankfurt (Oder)', 'LG Frankfurt (Oder)', 'ordentlich', 'LG', 'first_instance_and_regional', 'BB', null],
  ['Landgericht Frankfurt an der Oder', 'LG Frankfurt (Oder)', 'ordentlich', 'LG', 'first_instance_and_regional', 'BB', null],
  ['Landgericht Freiburg i. Br.', 'LG Freiburg', 'ordentlich', 'LG', 'first_instance_and_regional', 'BW', null],
  ['AG Hamburg', 'AG Hamburg', 'ordentlich', 'AG', 'first_instance_and_regional', 'HH', null],
  ['Amtsgericht Berlin-Mitte', 'AG Berlin-Mitte', 'ordentlich', 'AG', 'first_instance_and_regional', 'BE', null],
  ['Amtsgericht Biberach an der Riß', 'AG Biberach an der Riß', 'ordentlich', 'AG', 'first_instance_and_regional', null, null],
  ['VG Berlin', 'VG Berlin', 'verwaltung', 'VG', 'first_instance_and_regional', 'BE', null],
  ['VG Berlin 3. Kammer', 'VG Berlin', 'verwaltung', 'VG', 'first_instance_and_regional', 'BE', '3. Kammer'],
  ['Verwaltungsgericht Neustadt an der Weinstraße', 'VG Neustadt an der Weinstraße', 'verwaltung', 'VG', 'first_instance_and_regional', 'RP', null],
  ['Verwaltungsgericht des Saarlandes Saarlouis', 'VG Saarlouis', 'verwaltung', 'VG', 'first_instance_and_regional', 'SL', null],
  ['OVG Berlin-Brandenburg', 'OVG Berlin-Brandenburg', 'verwaltung', 'OVG', 'appellate', 'BE', null],
  ['Oberverwaltungsgericht für das Land Nordrhein-Westfalen', 'OVG Nordrhein-Westfalen', 'verwaltung', 'OVG', 'appellate', 'NW', null],
  ['OVG NRW', 'OVG Nordrhein-Westfalen', 'verwaltung', 'OVG', 'appellate', 'NW', null],
  ['OVG Münster', 'OVG Nordrhein-Westfalen', 'verwaltung', 'OVG', 'appellate', 'NW', null],
  ['Niedersächsisches Oberverwaltungsgericht', 'OVG Niedersachsen', 'verwaltung', 'OVG', 'appellate', 'NI', null],
  ['OVG Lüneburg 5. Senat', 'OVG Niedersachsen', 'verwaltung', 'OVG', 'appellate', 'NI', '5. Senat'],
  ['Bayerischer Verwaltungsgerichtshof', 'VGH Bayern', 'verwaltung', 'VGH', 'appellate', 'BY', null],
  ['BayVGH', 'VGH Bayern', 'verwaltung', 'VGH', 'appellate', 'BY', null],
  ['VGH München', 'VGH Bayern', 'verwaltung', 'VGH', 'appellate', 'BY', null],
  ['VGH Baden-Württemberg', 'VGH Baden-Württemberg', 'verwaltung', 'VGH', 'appellate', 'BW', null],
  ['VGH Mannheim', 'VGH Baden-Württemberg', 'verwaltung', 'VGH', 'appellate', 'BW', null],
  ['Hessischer Verwaltungsgerichtshof', 'VGH Hessen', 'verwaltung', 'VGH', 'appellate', 'HE', null],
  ['Oberverwaltungsgericht des Saarlandes', 'OVG Saarland', 'verwaltung', 'OVG', 'appellate', 'SL', null],
  ['Sächsisches Oberverwaltungsgericht', 'OVG Sachsen', 'verwaltung', 'OVG', 'appellate', 'SN', null],
  ['SG Berlin', 'SG Berlin', 'sozial', 'SG', 'first_instance_and_regional', 'BE', null],
  ['Sozialgericht Dortmund', 'SG Dortmund', 'sozial', 'SG', 'first_instance_and_regional', 'NW', null],
  ['Schleswig-Holsteinisches Landessozialgericht', 'LSG Schleswig-Holstein', 'sozial', 'LSG', 'appellate', 'SH', null],
  ['LSG Nordrhein-Westfalen', 'LSG Nordrhein-Westfalen', 'sozial', 'LSG', 'appellate', 'NW', null],
  ['Landessozialgericht für das Land Nordrhein-Westfalen', 'LSG Nordrhein-Westfalen', 'sozial', 'LSG', 'appellate', 'NW', null],
  ['LSG Essen', 'LSG Nordrhein-Westfalen', 'sozial', 'LSG', 'appellate', 'NW', null],
  ['Bayerisches Landessozialgericht', 'LSG Bayern', 'sozial', 'LSG', 'appellate', 'BY', null],
  ['BayLSG', 'LSG Bayern', 'sozial', 'LSG', 'appellate', 'BY', null],
  ['LSG Berlin-Brandenburg', 'LSG Berlin-Brandenburg', 'sozial', 'LSG', 'appellate', 'BB', null],
  ['Landessozialgericht Niedersachsen-Bremen', 'LSG Niedersachsen-Bremen', 'sozial', 'LSG', 'appellate', 'NI', null],
  ['Landessozialgericht für das Saarland', 'LSG Saarland', 'sozial', 'LSG', 'appellate', 'SL', null],
  ['Hessisches Landessozialgericht', 'LSG Hessen', 'sozial', 'LSG', 'appellate', 'HE', null],
  ['ArbG Köln', 'ArbG Köln', 'arbeit', 'ArbG', 'first_instance_and_regional', 'NW', null],
  ['Arbeitsgericht Berlin', 'ArbG Berlin', 'arbeit', 'ArbG', 'first_instance_and_regional', 'BE', null],
  ['Hessisches Landesarbeitsgericht', 'LAG Hessen', 'arbeit', 'LAG', 'appellate', 'HE', null],
  ['LAG Hamm', 'LAG Hamm', 'arbeit', 'LAG', 'appellate', 'NW', null],
  ['Landesarbeitsgericht Düsseldorf', 'LAG Düsseldorf', 'arbeit', 'LAG', 'appellate', 'NW', null],
  ['LAG München', 'LAG München', 'arbeit', 'LAG', 'appellate', 'BY', null],
  ['LAG Berlin-Brandenburg', 'LAG Berlin-Brandenburg', 'arbeit', 'LAG', 'appellate', 'BE', null],
  ['Landesarbeitsgericht Schleswig-Holstein', 'LAG Schleswig-Holstein', 'arbeit', 'LAG', 'appellate', 'SH', null],
  ['Sächsisches Landesarbeitsgericht', 'LAG Sachsen', 'arbeit', 'LAG', 'appellate', 'SN', null],
  ['FG Münster', 'FG Münster', 'finanz', 'FG', 'first_instance_and_regional', 'NW', null],
  ['Finanzgericht Köln 2. Senat', 'FG Köln', 'finanz', 'FG', 'first_instance_and_regional', 'NW', '2. Senat'],
  ['FG München', 'FG München', 'finanz', 'FG', 'first_instance_and_regional', 'BY', null],
  ['Niedersächsisches Finanzgericht', 'FG Niedersachsen', 'finanz', 'FG', 'first_instance_and_regional', 'NI', null],
  ['Finanzgericht Berlin-Brandenburg', 'FG Berlin-Brandenburg', 'finanz', 'FG', 'first_instance_and_regional', 'BB', null],
  ['Finanzgericht des Landes Sachsen-Anhalt', 'FG Sachsen-Anhalt', 'finanz', 'FG', 'first_instance_and_regional', 'ST', null],
  ['FG Hamburg', 'FG Hamburg', 'finanz', 'FG', 'first_instance_and_regional', 'HH', null],
  ['Bayerischer Verfassungsgerichtshof', 'VerfGH Bayern', 'verfassung', 'VerfGH', 'other', 'BY', null],
  ['Verfassungsgerichtshof des Landes Berlin', 'VerfGH Berlin', 'verfassung', 'VerfGH', 'other', 'BE', null],
  ['Staatsgerichtshof des Landes Hessen', 'StGH Hessen', 'verfassung', 'StGH', 'other', 'HE', null],
  ['Verfassungsgericht des Landes Brandenburg', 'VerfG Brandenburg', 'verfassung', 'VerfG', 'other', 'BB', null],
  ['Hamburgisches Verfassungsgericht', 'VerfG Hamburg', 'verfassung', 'VerfG', 'other', 'HH', null],
  ['Landesverfassungsgericht Sachsen-Anhalt', 'LVerfG Sachsen-Anhalt', 'verfassung', 'LVerfG', 'other', 'ST', null],
  ['VerfGH NRW', 'VerfGH Nordrhein-Westfalen', 'verfassung', 'VerfGH', 'other', 'NW', null],
  ['Thüringer Verfassungsgerichtshof', 'VerfGH Thüringen', 'verfassung', 'VerfGH', 'other', 'TH', null],
  ['Schiedsgericht Hamburg', 'Schiedsgericht Hamburg', 'unbekannt', null, 'other', null, null],
  ['EuGH', 'EuGH', 'unbekannt', 'EuGH', 'other', null, null],
];

test('resolveCourt turns source spellings into canonical courts (table)', () => {
  for (const [raw, code, branch, type, level, state, chamber] of TABLE) {
    const r = resolveCourt(raw);
    assert.deepEqual(
      [r.code, r.branch, r.court_type, r.level, r.state, r.chamber],
      [code, branch, type, level, state, chamber],
      `resolveCourt(${JSON.stringify(raw)})`,
    );
  }
});

test('gertyp + gerort as rii writes them resolve like the joined name', () => {
  assert.equal(resolveCourt('BGH ').code, 'BGH');
  assert.equal(resolveCourt('OLG München').name, 'Oberlandesgericht München');
  assert.equal(resolveCourt('OLG Frankfurt').name, 'Oberlandesgericht Frankfurt am Main');
  assert.equal(resolveCourt('LG\u00a0Berlin').code, 'LG Berlin');
});

test('unknown courts and odd input resolve to branch unbekannt without throwing', () => {
  for (const raw of ['', '   ', '???', 'Gericht', '123', 'Schiedsstelle', 'Die Präsidentin des Verwaltungsgerichts Berlin', 'OLG', 'LG ,,,', '\u0000x']) {
    const r = resolveCourt(raw);
    assert.ok(BRANCHES.includes(r.branch), raw);
    assert.ok(LEVELS.includes(r.level), raw);
    assert.ok(r.code.length > 0, raw);
  }
  assert.equal(resolveCourt('').code, 'Unbekanntes Gericht');
  assert.equal(resolveCourt('Schiedsstelle').branch, 'unbekannt');
});

test('branches are the eight of the contract; the federal courts carry founding year and basis', () => {
  assert.deepEqual([...BRANCHES], ['ordentlich', 'verwaltung', 'sozial', 'arbeit', 'finanz', 'verfassung', 'patent', 'unbekannt']);
  assert.equal(FEDERAL_COURTS.length, 7);
  for (const c of FEDERAL_COURTS) {
    assert.ok(c.founding_year && c.founding_year >= 1950 && c.founding_year <= 1961, c.code);
    assert.ok(c.founding_basis && c.founding_basis.length > 10, c.code);
  }
  assert.equal(FEDERAL_COURTS.filter((c) => c.branch === 'patent').map((c) => c.code).join(), 'BPatG');
});

test('courtFromEcli knows the federal courts', () => {
  assert.equal(courtFromEcli('ECLI:DE:BVerfG:2018:qs20180822.2bvq005318')?.code, 'BVerfG');
  assert.equal(courtFromEcli('ECLI:DE:BGH:2020:150120UVIIIZR123.19.0')?.code, 'BGH');
  assert.equal(courtFromEcli('ECLI:DE:OLGMUEN:2020:x'), undefined);
});
