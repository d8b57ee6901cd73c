// Where German courts sit: the Länder, the courts named after a Land, and the seats of the town-named courts.
// Written for juralite from the court organisation acts of the Länder; checked against the XJustiz court list in
// test/corpus/courts-shared-data.test.ts (when ../shared/data is present).

/** Land codes: the ISO 3166-2:DE suffixes. */
export const STATE_CODES = ['BW', 'BY', 'BE', 'BB', 'HB', 'HH', 'HE', 'MV', 'NI', 'NW', 'RP', 'SL', 'SN', 'ST', 'SH', 'TH'] as const;
export type StateCode = (typeof STATE_CODES)[number];

export interface StateInfo {
  name: string;
  /** Adjective stem as it stands before a court name ('Bayerisch' + es/er/e/en/em). */
  adjective: string;
  /** Further spellings of the Land in court names ('NRW', 'Nds', 'Freistaat Sachsen'). */
  aliases: string[];
}

export const STATES: Record<StateCode, StateInfo> = {
  BW: { name: 'Baden-Württemberg', adjective: 'Baden-Württembergisch', aliases: ['BW', 'BaWü', 'Bad.-Württ.'] },
  BY: { name: 'Bayern', adjective: 'Bayerisch', aliases: ['BY', 'Bay', 'Freistaat Bayern', 'Freistaates Bayern'] },
  BE: { name: 'Berlin', adjective: 'Berliner', aliases: ['BE', 'Bln', 'Landes Berlin'] },
  BB: { name: 'Brandenburg', adjective: 'Brandenburgisch', aliases: ['BB', 'Bbg', 'Landes Brandenburg'] },
  HB: { name: 'Bremen', adjective: 'Bremisch', aliases: ['HB', 'Brem', 'Freie Hansestadt Bremen', 'Freien Hansestadt Bremen'] },
  HH: { name: 'Hamburg', adjective: 'Hamburgisch', aliases: ['HH', 'Hmb', 'Freie und Hansestadt Hamburg', 'Freien und Hansestadt Hamburg'] },
  HE: { name: 'Hessen', adjective: 'Hessisch', aliases: ['HE', 'Hess', 'Landes Hessen'] },
  MV: { name: 'Mecklenburg-Vorpommern', adjective: 'Mecklenburg-Vorpommersch', aliases: ['MV', 'M-V', 'MVP', 'Landes Mecklenburg-Vorpommern'] },
  NI: { name: 'Niedersachsen', adjective: 'Niedersächsisch', aliases: ['NI', 'Nds', 'Nieders', 'Landes Niedersachsen'] },
  NW: { name: 'Nordrhein-Westfalen', adjective: 'Nordrhein-Westfälisch', aliases: ['NW', 'NRW', 'Land Nordrhein-Westfalen', 'Landes Nordrhein-Westfalen'] },
  RP: { name: 'Rheinland-Pfalz', adjective: 'Rheinland-Pfälzisch', aliases: ['RP', 'RLP', 'Rh.-Pf.', 'Rheinl.-Pf.', 'Landes Rheinland-Pfalz'] },
  SL: { name: 'Saarland', adjective: 'Saarländisch', aliases: ['SL', 'Saar', 'Saarlandes', 'Saarl'] },
  SN: { name: 'Sachsen', adjective: 'Sächsisch', aliases: ['SN', 'Sächs', 'Sachs', 'Freistaat Sachsen', 'Freistaates Sachsen'] },
  ST: { name: 'Sachsen-Anhalt', adjective: 'Sachsen-Anhaltisch', aliases: ['ST', 'LSA', 'Landes Sachsen-Anhalt'] },
  SH: { name: 'Schleswig-Holstein', adjective: 'Schleswig-Holsteinisch', aliases: ['SH', 'SchlH', 'Schl.-H.', 'Landes Schleswig-Holstein'] },
  TH: { name: 'Thüringen', adjective: 'Thüringer', aliases: ['TH', 'Thür', 'Freistaat Thüringen', 'Freistaates Thüringen'] },
};

/** Courts shared by two Länder: the region name and the Länder it covers. */
export const REGIONS: Record<string, StateCode[]> = {
  'Berlin-Brandenburg': ['BE', 'BB'],
  'Niedersachsen-Bremen': ['NI', 'HB'],
};

/** A court named after its Land (or region) rather than its seat: 'LSG Nordrhein-Westfalen', 'VGH Bayern'. */
export interface LandCourt {
  type: string;
  /** The Land or region name that the canonical code carries. */
  region: string;
  /** Land of the seat. */
  state: StateCode;
  seat: string;
  name: string;
  /** Further Länder whose name resolves to this court (Berlin and Brandenburg share one LSG). */
  covers?: StateCode[];
}

// Oberverwaltungsgerichte and Verwaltungsgerichtshöfe: one per Land (Berlin and Brandenburg share one).
const ADMIN_APPELLATE: LandCourt[] = [
  { type: 'VGH', region: 'Baden-Württemberg', state: 'BW', seat: 'Mannheim', name: 'Verwaltungsgerichtshof Baden-Württemberg' },
  { type: 'VGH', region: 'Bayern', state: 'BY', seat: 'München', name: 'Bayerischer Verwaltungsgerichtshof' },
  { type: 'OVG', region: 'Berlin-Brandenburg', state: 'BE', seat: 'Berlin', name: 'Oberverwaltungsgericht Berlin-Brandenburg', covers: ['BE', 'BB'] },
  { type: 'OVG', region: 'Bremen', state: 'HB', seat: 'Bremen', name: 'Oberverwaltungsgericht der Freien Hansestadt Bremen' },
  { type: 'OVG', region: 'Hamburg', state: 'HH', seat: 'Hamburg', name: 'Hamburgisches Oberverwaltungsgericht' },
  { type: 'VGH', region: 'Hessen', state: 'HE', seat: 'Kassel', name: 'Hessischer Verwaltungsgerichtshof' },
  { type: 'OVG', region: 'Mecklenburg-Vorpommern', state: 'MV', seat: 'Greifswald', name: 'Oberverwaltungsgericht Mecklenburg-Vorpommern' },
  { type: 'OVG', region: 'Niedersachsen', state: 'NI', seat: 'Lüneburg', name: 'Niedersächsisches Oberverwaltungsgericht' },
  { type: 'OVG', region: 'Nordrhein-Westfalen', state: 'NW', seat: 'Münster', name: 'Oberverwaltungsgericht für das Land Nordrhein-Westfalen' },
  { type: 'OVG', region: 'Rheinland-Pfalz', state: 'RP', seat: 'Koblenz', name: 'Oberverwaltungsgericht Rheinland-Pfalz' },
  { type: 'OVG', region: 'Saarland', state: 'SL', seat: 'Saarlouis', name: 'Oberverwaltungsgericht des Saarlandes' },
  { type: 'OVG', region: 'Sachsen', state: 'SN', seat: 'Bautzen', name: 'Sächsisches Oberverwaltungsgericht' },
  { type: 'OVG', region: 'Sachsen-Anhalt', state: 'ST', seat: 'Magdeburg', name: 'Oberverwaltungsgericht des Landes Sachsen-Anhalt' },
  { type: 'OVG', region: 'Schleswig-Holstein', state: 'SH', seat: 'Schleswig', name: 'Schleswig-Holsteinisches Oberverwaltungsgericht' },
  { type: 'OVG', region: 'Thüringen', state: 'TH', seat: 'Weimar', name: 'Thüringer Oberverwaltungsgericht' },
];

const LSG: LandCourt[] = [
  { type: 'LSG', region: 'Baden-Württemberg', state: 'BW', seat: 'Stuttgart', name: 'Landessozialgericht Baden-Württemberg' },
  { type: 'LSG', region: 'Bayern', state: 'BY', seat: 'München', name: 'Bayerisches Landessozialgericht' },
  { type: 'LSG', region: 'Berlin-Brandenburg', state: 'BB', seat: 'Potsdam', name: 'Landessozialgericht Berlin-Brandenburg', covers: ['BE', 'BB'] },
  { type: 'LSG', region: 'Hamburg', state: 'HH', seat: 'Hamburg', name: 'Landessozialgericht Hamburg' },
  { type: 'LSG', region: 'Hessen', state: 'HE', seat: 'Darmstadt', name: 'Hessisches Landessozialgericht' },
  { type: 'LSG', region: 'Mecklenburg-Vorpommern', state: 'MV', seat: 'Neubrandenburg', name: 'Landessozialgericht Mecklenburg-Vorpommern' },
  { type: 'LSG', region: 'Niedersachsen-Bremen', state: 'NI', seat: 'Celle', name: 'Landessozialgericht Niedersachsen-Bremen', covers: ['NI', 'HB'] },
  { type: 'LSG', region: 'Nordrhein-Westfalen', state: 'NW', seat: 'Essen', name: 'Landessozialgericht Nordrhein-Westfalen' },
  { type: 'LSG', region: 'Rheinland-Pfalz', state: 'RP', seat: 'Mainz', name: 'Landessozialgericht Rheinland-Pfalz' },
  { type: 'LSG', region: 'Saarland', state: 'SL', seat: 'Saarbrücken', name: 'Landessozialgericht für das Saarland' },
  { type: 'LSG', region: 'Sachsen', state: 'SN', seat: 'Chemnitz', name: 'Sächsisches Landessozialgericht' },
  { type: 'LSG', region: 'Sachsen-Anhalt', state: 'ST', seat: 'Halle', name: 'Landessozialgericht Sachsen-Anhalt' },
  { type: 'LSG', region: 'Schleswig-Holstein', state: 'SH', seat: 'Schleswig', name: 'Schleswig-Holsteinisches Landessozialgericht' },
  { type: 'LSG', region: 'Thüringen', state: 'TH', seat: 'Erfurt', name: 'Thüringer Landessozialgericht' },
];

// Bavaria and North Rhine-Westphalia have several LAGs and FGs, named after their seats (see TOWN_COURTS).
const LAG: LandCourt[] = [
  { type: 'LAG', region: 'Baden-Württemberg', state: 'BW', seat: 'Stuttgart', name: 'Landesarbeitsgericht Baden-Württemberg' },
  { type: 'LAG', region: 'Berlin-Brandenburg', state: 'BE', seat: 'Berlin', name: 'Landesarbeitsgericht Berlin-Brandenburg', covers: ['BE', 'BB'] },
  { type: 'LAG', region: 'Bremen', state: 'HB', seat: 'Bremen', name: 'Landesarbeitsgericht Bremen' },
  { type: 'LAG', region: 'Hamburg', state: 'HH', seat: 'Hamburg', name: 'Landesarbeitsgericht Hamburg' },
  { type: 'LAG', region: 'Hessen', state: 'HE', seat: 'Frankfurt', name: 'Hessisches Landesarbeitsgericht' },
  { type: 'LAG', region: 'Mecklenburg-Vorpommern', state: 'MV', seat: 'Rostock', name: 'Landesarbeitsgericht Mecklenburg-Vorpommern' },
  { type: 'LAG', region: 'Niedersachsen', state: 'NI', seat: 'Hannover', name: 'Landesarbeitsgericht Niedersachsen' },
  { type: 'LAG', region: 'Rheinland-Pfalz', state: 'RP', seat: 'Mainz', name: 'Landesarbeitsgericht Rheinland-Pfalz' },
  { type: 'LAG', region: 'Saarland', state: 'SL', seat: 'Saarbrücken', name: 'Landesarbeitsgericht Saarland' },
  { type: 'LAG', region: 'Sachsen', state: 'SN', seat: 'Chemnitz', name: 'Sächsisches Landesarbeitsgericht' },
  { type: 'LAG', region: 'Sachsen-Anhalt', state: 'ST', seat: 'Halle', name: 'Landesarbeitsgericht Sachsen-Anhalt' },
  { type: 'LAG', region: 'Schleswig-Holstein', state: 'SH', seat: 'Kiel', name: 'Landesarbeitsgericht Schleswig-Holstein' },
  { type: 'LAG', region: 'Thüringen', state: 'TH', seat: 'Erfurt', name: 'Thüringer Landesarbeitsgericht' },
];

const FG: LandCourt[] = [
  { type: 'FG', region: 'Baden-Württemberg', state: 'BW', seat: 'Stuttgart', name: 'Finanzgericht Baden-Württemberg' },
  { type: 'FG', region: 'Berlin-Brandenburg', state: 'BB', seat: 'Cottbus', name: 'Finanzgericht Berlin-Brandenburg', covers: ['BE', 'BB'] },
  { type: 'FG', region: 'Bremen', state: 'HB', seat: 'Bremen', name: 'Finanzgericht Bremen' },
  { type: 'FG', region: 'Hamburg', state: 'HH', seat: 'Hamburg', name: 'Finanzgericht Hamburg' },
  { type: 'FG', region: 'Hessen', state: 'HE', seat: 'Kassel', name: 'Hessisches Finanzgericht' },
  { type: 'FG', region: 'Mecklenburg-Vorpommern', state: 'MV', seat: 'Greifswald', name: 'Finanzgericht Mecklenburg-Vorpommern' },
  { type: 'FG', region: 'Niedersachsen', state: 'NI', seat: 'Hannover', name: 'Niedersächsisches Finanzgericht' },
  { type: 'FG', region: 'Rheinland-Pfalz', state: 'RP', seat: 'Neustadt an der Weinstraße', name: 'Finanzgericht Rheinland-Pfalz' },
  { type: 'FG', region: 'Saarland', state: 'SL', seat: 'Saarbrücken', name: 'Finanzgericht des Saarlandes' },
  { type: 'FG', region: 'Sachsen', state: 'SN', seat: 'Leipzig', name: 'Sächsisches Finanzgericht' },
  { type: 'FG', region: 'Sachsen-Anhalt', state: 'ST', seat: 'Dessau-Roßlau', name: 'Finanzgericht des Landes Sachsen-Anhalt' },
  { type: 'FG', region: 'Schleswig-Holstein', state: 'SH', seat: 'Kiel', name: 'Schleswig-Holsteinisches Finanzgericht' },
  { type: 'FG', region: 'Thüringen', state: 'TH', seat: 'Gotha', name: 'Thüringer Finanzgericht' },
];

/** Constitutional courts of the Länder: exactly one per Land. */
const CONSTITUTIONAL: LandCourt[] = [
  { type: 'VerfGH', region: 'Baden-Württemberg', state: 'BW', seat: 'Stuttgart', name: 'Verfassungsgerichtshof für das Land Baden-Württemberg' },
  { type: 'VerfGH', region: 'Bayern', state: 'BY', seat: 'München', name: 'Bayerischer Verfassungsgerichtshof' },
  { type: 'VerfGH', region: 'Berlin', state: 'BE', seat: 'Berlin', name: 'Verfassungsgerichtshof des Landes Berlin' },
  { type: 'VerfG', region: 'Brandenburg', state: 'BB', seat: 'Potsdam', name: 'Verfassungsgericht des Landes Brandenburg' },
  { type: 'StGH', region: 'Bremen', state: 'HB', seat: 'Bremen', name: 'Staatsgerichtshof der Freien Hansestadt Bremen' },
  { type: 'VerfG', region: 'Hamburg', state: 'HH', seat: 'Hamburg', name: 'Hamburgisches Verfassungsgericht' },
  { type: 'StGH', region: 'Hessen', state: 'HE', seat: 'Wiesbaden', name: 'Staatsgerichtshof des Landes Hessen' },
  { type: 'LVerfG', region: 'Mecklenburg-Vorpommern', state: 'MV', seat: 'Greifswald', name: 'Landesverfassungsgericht Mecklenburg-Vorpommern' },
  { type: 'StGH', region: 'Niedersachsen', state: 'NI', seat: 'Bückeburg', name: 'Niedersächsischer Staatsgerichtshof' },
  { type: 'VerfGH', region: 'Nordrhein-Westfalen', state: 'NW', seat: 'Münster', name: 'Verfassungsgerichtshof für das Land Nordrhein-Westfalen' },
  { type: 'VerfGH', region: 'Rheinland-Pfalz', state: 'RP', seat: 'Koblenz', name: 'Verfassungsgerichtshof Rheinland-Pfalz' },
  { type: 'VerfGH', region: 'Saarland', state: 'SL', seat: 'Saarbrücken', name: 'Verfassungsgerichtshof des Saarlandes' },
  { type: 'VerfGH', region: 'Sachsen', state: 'SN', seat: 'Leipzig', name: 'Verfassungsgerichtshof des Freistaates Sachsen' },
  { type: 'LVerfG', region: 'Sachsen-Anhalt', state: 'ST', seat: 'Dessau-Roßlau', name: 'Landesverfassungsgericht Sachsen-Anhalt' },
  { type: 'LVerfG', region: 'Schleswig-Holstein', state: 'SH', seat: 'Schleswig', name: 'Schleswig-Holsteinisches Landesverfassungsgericht' },
  { type: 'VerfGH', region: 'Thüringen', state: 'TH', seat: 'Weimar', name: 'Thüringer Verfassungsgerichtshof' },
];

/** Land-named courts by type group: 'OVG' covers OVG and VGH, 'VERF' all Land constitutional courts. */
export const LAND_COURTS: Record<'OVG' | 'LSG' | 'LAG' | 'FG' | 'VERF', LandCourt[]> = {
  OVG: ADMIN_APPELLATE,
  LSG,
  LAG,
  FG,
  VERF: CONSTITUTIONAL,
};

/** Courts named after their seat, listed by type and Land: 'OLG München', 'LAG Hamm', 'FG Münster'. */
export const TOWN_COURTS: Record<string, Partial<Record<StateCode, string[]>>> = {
  OLG: {
    BW: ['Karlsruhe', 'Stuttgart'], BY: ['Bamberg', 'München', 'Nürnberg'], BB: ['Brandenburg'], HB: ['Bremen'],
    HH: ['Hamburg'], HE: ['Frankfurt'], MV: ['Rostock'], NI: ['Braunschweig', 'Celle', 'Oldenburg'],
    NW: ['Düsseldorf', 'Hamm', 'Köln'], RP: ['Koblenz', 'Zweibrücken'], SL: ['Saarbrücken'], SN: ['Dresden'],
    ST: ['Naumburg'], SH: ['Schleswig'], TH: ['Jena'],
  },
  LG: {
    BW: ['Baden-Baden', 'Ellwangen', 'Freiburg', 'Hechingen', 'Heidelberg', 'Heilbronn', 'Karlsruhe', 'Konstanz',
      'Mannheim', 'Mosbach', 'Offenburg', 'Ravensburg', 'Rottweil', 'Stuttgart', 'Tübingen', 'Ulm', 'Waldshut-Tiengen'],
    BY: ['München I', 'München II', 'Augsburg', 'Deggendorf', 'Ingolstadt', 'Kempten', 'Landshut', 'Memmingen', 'Passau',
      'Traunstein', 'Nürnberg-Fürth', 'Amberg', 'Ansbach', 'Regensburg', 'Weiden', 'Bamberg', 'Aschaffenburg',
      'Bayreuth', 'Coburg', 'Hof', 'Schweinfurt', 'Würzburg'],
    BE: ['Berlin', 'Berlin I', 'Berlin II'],
    BB: ['Cottbus', 'Frankfurt (Oder)', 'Neuruppin', 'Potsdam'],
    HB: ['Bremen'], HH: ['Hamburg'],
    HE: ['Darmstadt', 'Frankfurt', 'Fulda', 'Gießen', 'Hanau', 'Kassel', 'Limburg', 'Marburg', 'Wiesbaden'],
    MV: ['Neubrandenburg', 'Rostock', 'Schwerin', 'Stralsund'],
    NI: ['Aurich', 'Braunschweig', 'Bückeburg', 'Göttingen', 'Hannover', 'Hildesheim', 'Lüneburg', 'Oldenburg',
      'Osnabrück', 'Stade', 'Verden'],
    NW: ['Aachen', 'Arnsberg', 'Bielefeld', 'Bochum', 'Bonn', 'Detmold', 'Dortmund', 'Duisburg', 'Düsseldorf', 'Essen',
      'Hagen', 'Kleve', 'Köln', 'Krefeld', 'Mönchengladbach', 'Münster', 'Paderborn', 'Siegen', 'Wuppertal'],
    RP: ['Bad Kreuznach', 'Frankenthal', 'Kaiserslautern', 'Koblenz', 'Landau', 'Mainz', 'Trier', 'Zweibrücken'],
    SL: ['Saarbrücken'],
    SN: ['Bautzen', 'Chemnitz', 'Dresden', 'Görlitz', 'Leipzig', 'Zwickau'],
    ST: ['Dessau-Roßlau', 'Halle', 'Magdeburg', 'Stendal'],
    SH: ['Flensburg', 'Itzehoe', 'Kiel', 'Lübeck'],
    TH: ['Erfurt', 'Gera', 'Meiningen', 'Mühlhausen'],
  },
  VG: {
    BW: ['Freiburg', 'Karlsruhe', 'Sigmaringen', 'Stuttgart'],
    BY: ['Ansbach', 'Augsburg', 'Bayreuth', 'München', 'Regensburg', 'Würzburg'],
    BE: ['Berlin'], BB: ['Cottbus', 'Frankfurt (Oder)', 'Potsdam'], HB: ['Bremen'], HH: ['Hamburg'],
    HE: ['Darmstadt', 'Frankfurt', 'Gießen', 'Kassel', 'Wiesbaden'],
    MV: ['Greifswald', 'Schwerin'],
    NI: ['Braunschweig', 'Göttingen', 'Hannover', 'Lüneburg', 'Oldenburg', 'Osnabrück', 'Stade'],
    NW: ['Aachen', 'Arnsberg', 'Düsseldorf', 'Gelsenkirchen', 'Köln', 'Minden', 'Münster'],
    RP: ['Koblenz', 'Mainz', 'Neustadt an der Weinstraße', 'Trier'],
    SL: ['Saarlouis'], SN: ['Chemnitz', 'Dresden', 'Leipzig'], ST: ['Halle', 'Magdeburg'], SH: ['Schleswig'],
    TH: ['Gera', 'Meiningen', 'Weimar'],
  },
  LAG: { BY: ['München', 'Nürnberg'], NW: ['Düsseldorf', 'Hamm', 'Köln'] },
  FG: { BY: ['München', 'Nürnberg'], NW: ['Düsseldorf', 'Köln', 'Münster'] },
};

/** Further towns (seats of Sozial- and Arbeitsgerichte, Amtsgerichte of note) and their Land. */
export const OTHER_TOWNS: Partial<Record<StateCode, string[]>> = {
  BW: ['Esslingen', 'Ludwigsburg', 'Pforzheim', 'Reutlingen', 'Lörrach', 'Villingen-Schwenningen', 'Schwäbisch Hall',
    'Aalen', 'Böblingen', 'Göppingen', 'Schorndorf', 'Waiblingen', 'Nürtingen', 'Leonberg', 'Bad Cannstatt'],
  BY: ['Fürth', 'Erlangen', 'Kaufbeuren', 'Rosenheim', 'Starnberg', 'Dachau', 'Freising', 'Erding', 'Wolfratshausen',
    'Weilheim', 'Garmisch-Partenkirchen', 'Fürstenfeldbruck', 'Neu-Ulm', 'Lindau', 'Straubing', 'Kitzingen'],
  BE: ['Berlin-Mitte', 'Berlin-Charlottenburg', 'Berlin-Tiergarten', 'Berlin-Schöneberg', 'Berlin-Tempelhof-Kreuzberg',
    'Berlin-Pankow', 'Berlin-Wedding', 'Berlin-Spandau', 'Berlin-Köpenick', 'Berlin-Lichtenberg', 'Berlin-Neukölln',
    'Berlin-Hohenschönhausen', 'Tiergarten', 'Charlottenburg', 'Schöneberg', 'Tempelhof-Kreuzberg', 'Pankow',
    'Wedding', 'Spandau', 'Köpenick', 'Lichtenberg', 'Neukölln', 'Mitte', 'Hohenschönhausen'],
  BB: ['Eberswalde', 'Oranienburg', 'Strausberg', 'Königs Wusterhausen', 'Brandenburg an der Havel', 'Senftenberg'],
  HE: ['Offenbach', 'Bad Homburg', 'Friedberg', 'Wetzlar', 'Hersfeld', 'Bad Hersfeld', 'Eschwege', 'Korbach',
    'Rüsselsheim', 'Dieburg'],
  MV: ['Greifswald', 'Wismar', 'Güstrow', 'Waren'],
  NI: ['Celle', 'Wolfsburg', 'Salzgitter', 'Wilhelmshaven', 'Emden', 'Delmenhorst', 'Cuxhaven', 'Nienburg', 'Hameln',
    'Goslar', 'Peine', 'Uelzen', 'Leer', 'Lingen', 'Meppen', 'Nordhorn', 'Vechta', 'Cloppenburg'],
  NW: ['Bocholt', 'Rheine', 'Gelsenkirchen', 'Minden', 'Hamm', 'Herne', 'Recklinghausen', 'Oberhausen', 'Mülheim an der Ruhr', 'Solingen',
    'Remscheid', 'Leverkusen', 'Neuss', 'Gütersloh', 'Herford', 'Lemgo', 'Iserlohn', 'Lüdenscheid', 'Bottrop',
    'Marl', 'Wesel', 'Moers', 'Siegburg', 'Euskirchen', 'Düren', 'Bergisch Gladbach', 'Ratingen', 'Velbert'],
  RP: ['Ludwigshafen', 'Neuwied', 'Speyer', 'Pirmasens', 'Worms', 'Idar-Oberstein', 'Neustadt an der Weinstraße'],
  SL: ['Saarlouis', 'Neunkirchen', 'Homburg', 'St. Ingbert', 'Merzig'],
  SN: ['Plauen', 'Freiberg', 'Pirna', 'Meißen', 'Riesa', 'Torgau'],
  ST: ['Dessau', 'Naumburg', 'Wittenberg', 'Halberstadt', 'Merseburg', 'Quedlinburg', 'Wernigerode'],
  SH: ['Neumünster', 'Elmshorn', 'Pinneberg', 'Norderstedt', 'Husum', 'Rendsburg', 'Bad Segeberg', 'Ahrensburg'],
  TH: ['Jena', 'Weimar', 'Gotha', 'Nordhausen', 'Suhl', 'Altenburg', 'Eisenach', 'Sondershausen', 'Rudolstadt'],
};

/**
 * Canonical town names for the spellings courts use ('Frankfurt am Main' and 'Frankfurt a.M.' are the court's
 * 'Frankfurt'; Frankfurt an der Oder keeps its '(Oder)'). Keys are lower case.
 */
export const TOWN_SPELLINGS: Record<string, string> = {
  'frankfurt am main': 'Frankfurt', 'frankfurt a.m.': 'Frankfurt', 'frankfurt a. m.': 'Frankfurt',
  'frankfurt/main': 'Frankfurt', 'frankfurt/m.': 'Frankfurt', 'frankfurt (main)': 'Frankfurt', 'frankfurt/m': 'Frankfurt',
  'frankfurt (oder)': 'Frankfurt (Oder)', 'frankfurt/oder': 'Frankfurt (Oder)', 'frankfurt an der oder': 'Frankfurt (Oder)',
  'frankfurt a.d. oder': 'Frankfurt (Oder)', 'frankfurt a. d. oder': 'Frankfurt (Oder)', 'frankfurt/o.': 'Frankfurt (Oder)',
  'freiburg im breisgau': 'Freiburg', 'freiburg i. br.': 'Freiburg', 'freiburg i.br.': 'Freiburg', 'freiburg (breisgau)': 'Freiburg',
  'halle (saale)': 'Halle', 'halle/saale': 'Halle', 'halle an der saale': 'Halle', 'halle a.d. saale': 'Halle',
  'brandenburg an der havel': 'Brandenburg', 'brandenburg a.d. havel': 'Brandenburg', 'brandenburg a. d. havel': 'Brandenburg',
  'neustadt/weinstraße': 'Neustadt an der Weinstraße', 'neustadt a.d. weinstraße': 'Neustadt an der Weinstraße',
  'neustadt (weinstraße)': 'Neustadt an der Weinstraße', 'neustadt a. d. weinstraße': 'Neustadt an der Weinstraße',
  'neustadt a.d.w.': 'Neustadt an der Weinstraße', 'neustadt/wstr.': 'Neustadt an der Weinstraße',
  'kempten (allgäu)': 'Kempten', 'kempten/allgäu': 'Kempten',
  'weiden i.d. opf.': 'Weiden', 'weiden i.d.opf.': 'Weiden', 'weiden in der oberpfalz': 'Weiden', 'weiden i. d. opf.': 'Weiden',
  'landau in der pfalz': 'Landau', 'landau/pfalz': 'Landau', 'landau (pfalz)': 'Landau', 'landau i.d. pfalz': 'Landau',
  'limburg an der lahn': 'Limburg', 'limburg a.d. lahn': 'Limburg', 'limburg/lahn': 'Limburg',
  'offenbach am main': 'Offenbach', 'offenbach a.m.': 'Offenbach', 'ludwigshafen am rhein': 'Ludwigshafen',
  'ludwigshafen a.rhein': 'Ludwigshafen', 'ludwigshafen a.rh.': 'Ludwigshafen',
  'oldenburg (oldbg.)': 'Oldenburg', 'oldenburg (oldb)': 'Oldenburg', 'oldenburg (oldenburg)': 'Oldenburg', 'oldenburg i.o.': 'Oldenburg',
  'lingen (ems)': 'Lingen', 'limburg a.d.lahn': 'Limburg',
  'dessau': 'Dessau-Roßlau', 'muenchen': 'München', 'koeln': 'Köln', 'duesseldorf': 'Düsseldorf',
  'nürnberg-fürth': 'Nürnberg-Fürth', 'waldshut': 'Waldshut-Tiengen', 'lüneburg': 'Lüneburg',
};

let townStates: Map<string, StateCode> | undefined;

/** The Land of a canonical town name (seat of some court), or undefined where the registry does not know it. */
export function stateOfTown(town: string): StateCode | undefined {
  if (!townStates) {
    townStates = new Map();
    const add = (state: StateCode, name: string) => {
      const key = name.toLowerCase();
      if (!townStates!.has(key)) townStates!.set(key, state);
    };
    for (const byState of Object.values(TOWN_COURTS)) {
      for (const [state, towns] of Object.entries(byState)) for (const t of towns ?? []) add(state as StateCode, t);
    }
    for (const group of Object.values(LAND_COURTS)) for (const c of group) add(c.state, c.seat);
    for (const [state, towns] of Object.entries(OTHER_TOWNS)) for (const t of towns ?? []) add(state as StateCode, t);
    for (const code of STATE_CODES) if (['BE', 'HB', 'HH'].includes(code)) add(code, STATES[code].name);
  }
  const key = town.toLowerCase();
  const direct = townStates.get(key);
  if (direct) return direct;
  // 'München I', 'Berlin-Mitte', 'Berlin II': the base town decides.
  const base = key.replace(/\s+[ivx]+$/u, '').replace(/-(mitte|tiergarten|charlottenburg|schöneberg|pankow|wedding|spandau|köpenick|lichtenberg|neukölln|hohenschönhausen|tempelhof-kreuzberg)$/u, '');
  return townStates.get(base);
}
