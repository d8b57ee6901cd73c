// The vocabulary of German citations, written for juralite: Registerzeichen (the letters inside an Aktenzeichen) with
// the court they imply, reporters (amtliche Sammlungen and journals), decision types, months and court names as
// regex sources. Everything the scanners in this folder match comes from here.

/** Runs a sticky (or global) regex at `pos`: the scanners' one step. */
export function at(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

/** Builds a regex alternation from literal words, longest first (so 'NJW-RR' wins over 'NJW'). */
export function alternation(words: readonly string[]): string {
  return [...new Set(words)]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&').replace(/ /gu, '\\s?'))
    .join('|');
}

/**
 * Registerzeichen of the federal courts, with the court an Aktenzeichen of that form belongs to. The senate in front
 * is Roman at the BGH (civil) and the BFH, Arabic elsewhere.
 */
export const FEDERAL_REGISTERS = {
  // Bundesgerichtshof: Zivilsenate (Roman), Strafsenate (Arabic), special senates.
  BGH_ROMAN: ['ZR', 'ZB', 'ZA', 'ARZ', 'AR', 'ZR (Ü)'],
  BGH_ARABIC: ['StR', 'ARs', 'StB', 'BJs', 'BGs', 'StE'],
  BGH_PLAIN: ['StB', 'KZR', 'KVR', 'KVZ', 'KRB', 'EnVR', 'EnZR', 'EnVZ', 'AnwZ (Brfg)', 'AnwZ (B)', 'AnwZ', 'AnwSt (R)', 'NotZ (Brfg)',
    'NotZ', 'NotSt (Brfg)', 'RiZ (R)', 'RiZ', 'LwZR', 'LwZB', 'LwZA', 'PatAnwZ', 'StbSt (R)', 'WpSt (R)', 'GSZ', 'GSSt', 'VGS'],
  BVerfG: ['BvR', 'BvL', 'BvF', 'BvE', 'BvB', 'BvC', 'BvG', 'BvH', 'BvK', 'BvM', 'BvN', 'BvO', 'BvP', 'BvQ', 'BvT', 'PBvU', 'PBvV'],
  BAG: ['AZR', 'ABR', 'AZB', 'AZN', 'ABN', 'AZA', 'ABA', 'AS', 'AR'],
  // Großer Senat des Bundesfinanzhofs: 'GrS 1/14'.
  BFH_PLAIN: ['GrS'],
  // Bundesverwaltungsgericht: '4 C 7.15' (dot before the year).
  BVerwG: ['C', 'CB', 'CN', 'B', 'BN', 'NB', 'A', 'VR', 'D', 'DB', 'P', 'PB', 'F', 'AV', 'KSt', 'WB', 'WD', 'WDS-VR', 'WNB', 'WRB', 'AV', 'PKH'],
  // Bundesfinanzhof: 'IX R 12/18', 'VI B 12/20'.
  BFH: ['R', 'B', 'S', 'E', 'K'],
  // Bundessozialgericht: 'B 4 AS 17/20 R' (register in the middle, kind of proceeding at the end).
  // Before 2000 the BSG wrote no 'B': '12 RK 20/92', '6 RKa 34/95', '2 BU 52/88'.
  BSG_OLD: ['RK', 'RKa', 'RKg', 'RU', 'BU', 'RV', 'RVg', 'RVs', 'RAr', 'RJ', 'RA', 'RLw', 'RVi', 'BK', 'BH', 'BJ', 'BA', 'BV', 'BKa', 'BKn', 'BVg', 'BVs', 'BAr'],
  BSG: ['AS', 'KR', 'KA', 'KS', 'P', 'R', 'RS', 'SO', 'U', 'V', 'VG', 'VJ', 'VS', 'AL', 'AY', 'BH', 'EG', 'KG', 'SB', 'LW', 'EU'],
  // Bundespatentgericht: '11 W (pat) 34/14', '4 Ni 23/16'.
  BPatG: ['W (pat)', 'Ni', 'ZA (pat)', 'LiQ', 'Li', 'Ni (EP)'],
} as const;

/**
 * Registerzeichen of the Land courts (ordinary, administrative, labour, social, finance courts). An Aktenzeichen with
 * one of these names no court by itself: the text must name it, else it is matched against every court.
 */
export const LAND_REGISTERS = [
  // ordentliche Gerichtsbarkeit (civil)
  'U', 'W', 'O', 'S', 'C', 'T', 'H', 'OH', 'UF', 'WF', 'UH', 'VA', 'Wx', 'W (Kart)', 'U (Kart)', 'Kart', 'Kart U', 'HK O',
  'O (Kart)', 'Sch', 'SchH', 'Verg', 'AR', 'EK', 'F', 'XVII', 'M', 'K', 'Not', 'RiZ', 'ZS',
  // (criminal; not 'Js': the public prosecutor's file of an investigation, no court's decision)
  'Ss', 'Ws', 'VollzWs', 'VAs', 'RVs', 'Rv', 'Ss OWi', 'Ss (OWi)', 'OLGSs', 'StVK', 'Qs', 'Ns', 'KLs', 'Ks', 'Ls', 'Ds', 'Cs', 'Gs', 'AK', 'BL',
  // Verwaltungsgerichte: 'VG 3 K 123.16' (Berlin writes the year after a dot), '10 S 2500/19', '9 CS 20.123'
  'K', 'L', 'A', 'B', 'N', 'E', 'D', 'ZB', 'CS', 'CE', 'AE', 'ZE', 'BV', 'LB', 'LA', 'ME', 'MN', 'NE', 'KS', 'BS', 'PV', 'FB', 'N', 'BN', 'NB',
  // Arbeitsgerichte / Landesarbeitsgerichte
  'Ca', 'BV', 'Ga', 'Sa', 'Ta', 'TaBV', 'SaGa', 'TaBVGa', 'BVGa', 'Sha',
  // Finanzgerichte
  'K', 'V', 'Ko',
  // Sozialgerichte / Landessozialgerichte (with the prefix 'S' or 'L' in front: 'S 12 AS 1234/19', 'L 7 AS 123/19')
] as const;

/** Registerzeichen of the social courts, written after 'S <n>' (SG) or 'L <n>' (LSG). */
export const SOCIAL_REGISTERS = ['AS', 'SO', 'KR', 'KA', 'KS', 'P', 'R', 'RS', 'RJ', 'RA', 'U', 'V', 'VG', 'VS', 'VK', 'SB', 'AL', 'AY', 'EG', 'BK', 'LW', 'EU', 'SF', 'VE', 'KN', 'Ar', 'AS ER', 'KR ER'];

/** Reporters (amtliche Sammlungen) whose decisions come from one court. */
export const OFFICIAL_REPORTERS: Readonly<Record<string, string>> = {
  BGHZ: 'BGH', BGHSt: 'BGH', BGHR: 'BGH', BVerfGE: 'BVerfG', BVerfGK: 'BVerfG', BVerwGE: 'BVerwG', BAGE: 'BAG', BSGE: 'BSG',
  BFHE: 'BFH', 'BFH/NV': 'BFH', BPatGE: 'BPatG', RGZ: 'RG', RGSt: 'RG', BayObLGZ: 'BayObLG', BayObLGSt: 'BayObLG',
  PrOVGE: 'PrOVG', RFHE: 'RFH',
};

/** Journals and other collections cited as 'NJW 2015, 1827' (year or volume, comma, first page). */
export const JOURNALS = [
  'NJW', 'NJW-RR', 'NJW-Spezial', 'NJOZ', 'NJW-CoR', 'NZA', 'NZA-RR', 'NZM', 'NZG', 'NZI', 'NZV', 'NZS', 'NZBau', 'NZKart', 'NZWiSt',
  'NZFam', 'NZF', 'NStZ', 'NStZ-RR', 'StV', 'StraFo', 'wistra', 'NVwZ', 'NVwZ-RR', 'DVBl', 'DÖV', 'JZ', 'JuS', 'JR', 'JA', 'Jura',
  'MDR', 'ZIP', 'WM', 'BB', 'DB', 'DStR', 'DStRE', 'FR', 'EFG', 'HFR', 'BStBl', 'GRUR', 'GRUR-RR', 'GRUR Int', 'GRUR-Prax',
  'GRUR-RS', 'WRP', 'MMR', 'CR', 'K&R', 'ZUM', 'ZUM-RD', 'AfP', 'FamRZ', 'FuR', 'FPR', 'FamRB', 'ZEV', 'ZErb', 'ErbR', 'VersR', 'r+s',
  'zfs', 'DAR', 'SVR', 'ZMR', 'WuM', 'GE', 'NZM', 'ZfIR', 'BauR', 'IBR', 'ZfBR', 'DNotZ', 'MittBayNot', 'RNotZ', 'NotBZ', 'Rpfleger',
  'JurBüro', 'AnwBl', 'BRAK-Mitt', 'AGS', 'ZInsO', 'ZVI', 'KTS', 'EWiR', 'WuB', 'LM', 'AP', 'EzA', 'Breith', 'FEVS', 'SGb',
  'ZFSH/SGB', 'ASR', 'AuR', 'ArbRB', 'RdA', 'ZTR', 'PersR', 'PersV', 'ZBR', 'BayVBl', 'NdsVBl', 'NWVBl', 'VBlBW', 'SächsVBl', 'LKV',
  'ThürVBl', 'NordÖR', 'UPR', 'NuR', 'ZUR', 'EuZW', 'EuR', 'EWS', 'IStR', 'RIW', 'IPRax', 'EuGRZ', 'BeckRS', 'VRS', 'BtPrax',
  'NJ', 'OLGR', 'OLGZ', 'KommJur', 'ZKJ', 'ZD', 'RDV', 'DuD', 'ITRB', 'ZfS', 'VRR', 'NZWehrr', 'ZfW', 'ZNER', 'RdE', 'EnWZ', 'ZWE',
  'NZG', 'AG', 'GmbHR', 'NZA-Beilage', 'ArbuR', 'DStZ', 'BFH/PR', 'StE', 'ZfZ', 'UR', 'UVR', 'DNotI-Report', 'FGPrax', 'ZfJ',
  'InfAuslR', 'ZAR', 'Asylmagazin', 'NVwZ-Extra', 'KirchE', 'WRP', 'Mitt', 'GRUR-Int', 'BlPMZ', 'PharmR', 'MedR', 'GesR', 'A&R',
  'Slg', 'JW', 'HRR', 'WarnR', 'SeuffA',
] as const;

/** Decision types as written in citations, mapped to the form the check reports. */
export const DECISION_TYPES: Readonly<Record<string, string>> = {
  Urteil: 'Urteil', Urteils: 'Urteil', Urteile: 'Urteil', Urteilen: 'Urteil', 'Urt.': 'Urteil', 'U.': 'Urteil', Urt: 'Urteil', Endurteil: 'Urteil', Teilurteil: 'Urteil',
  Versäumnisurteil: 'Urteil', Grundurteil: 'Urteil', Senatsurteil: 'Urteil', Senatsurteils: 'Urteil', Schlussurteil: 'Urteil',
  Beschluss: 'Beschluss', Beschlusses: 'Beschluss', Beschlüsse: 'Beschluss', Beschlüssen: 'Beschluss', 'Beschl.': 'Beschluss', 'B.': 'Beschluss', Beschl: 'Beschluss',
  Senatsbeschluss: 'Beschluss', Senatsbeschlusses: 'Beschluss', Kammerbeschluss: 'Beschluss', Kammerbeschlusses: 'Beschluss',
  Nichtannahmebeschluss: 'Beschluss', Vorlagebeschluss: 'Beschluss', Hinweisbeschluss: 'Beschluss',
  Gerichtsbescheid: 'Gerichtsbescheid', Gerichtsbescheids: 'Gerichtsbescheid', Entscheidung: 'Entscheidung',
  Vorabentscheidung: 'Urteil', Schlussanträge: 'Schlussanträge',
};

export const MONTHS: Readonly<Record<string, number>> = {
  januar: 1, jänner: 1, jan: 1, februar: 2, feb: 2, febr: 2, märz: 3, mär: 3, mrz: 3, april: 4, apr: 4, mai: 5, juni: 6, jun: 6,
  juli: 7, jul: 7, august: 8, aug: 8, september: 9, sep: 9, sept: 9, oktober: 10, okt: 10, november: 11, nov: 11, dezember: 12, dez: 12,
};

/** Court types written before a place ('OLG München', 'LSG NRW'), short and long, inflected. */
const COURT_TYPES_SHORT = ['OLG', 'LG', 'AG', 'KG', 'VG', 'OVG', 'VGH', 'LSG', 'SG', 'LAG', 'ArbG', 'FG', 'BayObLG', 'BayVGH',
  'BayLSG', 'BayVerfGH', 'VerfGH', 'StGH', 'VerfG', 'OLGR', 'HessVGH', 'HessLAG', 'NdsOVG', 'SächsOVG', 'ThürOVG', 'BbgVerfG'];
const COURT_TYPES_LONG = ['Oberlandesgericht', 'Landgericht', 'Amtsgericht', 'Kammergericht', 'Verwaltungsgericht',
  'Oberverwaltungsgericht', 'Verwaltungsgerichtshof', 'Landessozialgericht', 'Sozialgericht', 'Landesarbeitsgericht',
  'Arbeitsgericht', 'Finanzgericht', 'Verfassungsgerichtshof', 'Staatsgerichtshof', 'Landesverfassungsgericht',
  'Oberste Landesgericht', 'Obersten Landesgericht', 'Oberstes Landesgericht', 'Oberstes Landesgerichts'];

/** Courts that need no place. */
const COURTS_ALONE = ['BVerfG', 'BVerwG', 'BGH', 'BAG', 'BSG', 'BFH', 'BPatG', 'EuGH', 'EuG', 'EGMR', 'GmS-OGB', 'RG', 'RAG', 'RFH', 'PrOVG',
  'Reichsfinanzhof', 'Preußische Oberverwaltungsgericht', 'Preußischen Oberverwaltungsgericht', 'Preußisches Oberverwaltungsgericht',
  'BayObLG', 'KG', 'Bundesverfassungsgericht', 'Bundesgerichtshof', 'Bundesverwaltungsgericht', 'Bundesarbeitsgericht',
  'Bundessozialgericht', 'Bundesfinanzhof', 'Bundespatentgericht', 'Kammergericht', 'Reichsgericht', 'Gerichtshof der Europäischen Union',
  'Europäische Gerichtshof für Menschenrechte', 'Europäischen Gerichtshof für Menschenrechte', 'Europäische Gerichtshof',
  'Europäischen Gerichtshof', 'Europäischen Gerichtshofs', 'Gemeinsame Senat der obersten Gerichtshöfe des Bundes',
  'Gemeinsamen Senats der obersten Gerichtshöfe des Bundes'];

const INFLECT = '(?:e?s|n)?';
/** A place after a court type: 'München I', 'Frankfurt am Main', 'Frankfurt a.M.', 'NRW', 'Berlin-Brandenburg', 'Halle (Saale)'. */
const PLACE = String.raw`(?:[A-ZÄÖÜ][\p{L}]+(?:-[A-ZÄÖÜ][\p{L}]+)*(?:\s(?:I{1,3}|a\.\s?M\.|am\sMain|an\sder\s[A-Z][\p{L}]+|i\.\s?Br\.|\([A-Z][\p{L}]+\)|in\s[A-Z][\p{L}]+))?)`;
/** An adjective naming the Land: 'Hessisches', 'Bayerischen', 'Schleswig-Holsteinisches', 'Thüringer'. */
const LAND_ADJECTIVE = String.raw`(?:[A-ZÄÖÜ][\p{L}]+(?:-[A-ZÄÖÜ][\p{L}]+)?(?:isches|ische|ischen|er)\s)`;

/** A Land abbreviation written apart before a court type: 'Hess. VGH', 'Nds. OVG', 'Bay. LSG'. */
const LAND_ABBREVIATION = String.raw`(?:Bay|Hess|Nds|Nieders|Sächs|Thür|Bbg|Brem|Hmb|Bln|SchlH|Saarl|RhPf)\.\s`;

/** Regex source matching a court name as citations write it. */
export const COURT_SOURCE = String.raw`(?:${LAND_ABBREVIATION}(?:VGH|OVG|LSG|LAG|FG|VerfGH|StGH)|(?:${alternation(COURTS_ALONE)})${INFLECT}`
  + String.raw`|${LAND_ADJECTIVE}?(?:${alternation(COURT_TYPES_LONG)})${INFLECT}(?:\s${PLACE})?`
  + String.raw`|${LAND_ADJECTIVE}?(?:${alternation(COURT_TYPES_SHORT)})(?:\s${PLACE})?)(?![\p{L}])`;

/** References of a court to itself ('Senatsurteil', 'des erkennenden Senats'): the citing court. */
export const SELF_COURT_SOURCE = String.raw`(?:Senatsurteils?|Senatsbeschlusses|Senatsbeschluss|(?:erkennenden\s)?Senats?|(?:erkennenden\s)?Kammer|Großen Senats?)`;
