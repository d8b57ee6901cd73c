// The law-name registry: how a law is cited (BGB, SGB V, AO, WEG) as opposed to how gesetze-im-internet.de files it
// (jurabk 'SGB 5', 'AO 1977', 'WoEigG'), its common long names, and the normalizers that make alias keys.
// Written for juralite; the rule for GII forms was derived from the official abbreviation (amtabk) that GII gives
// beside its internal jurabk, and the exceptions below were checked against the full GII list (6,877 laws) in
// test/corpus/law-aliases-shared-data.test.ts.
import { EU_CATALOGUE } from './eu-catalogue.ts';

const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV'];
const ORDINALS = ['', 'Erstes', 'Zweites', 'Drittes', 'Viertes', 'Fünftes', 'Sechstes', 'Siebtes', 'Achtes', 'Neuntes',
  'Zehntes', 'Elftes', 'Zwölftes', 'Dreizehntes', 'Vierzehntes'];
/** The books of the Sozialgesetzbuch that exist (XIII was never enacted). */
const SGB_BOOKS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14];

const TRAILING_YEAR = / (?:19|20)\d\d$/u;

/**
 * GII jurabk whose cited form neither the SGB rule nor the amtabk yields. Einführungsgesetze are cited 'EG' first
 * (EGBGB, not BGBEG); the Allgemeines Eisenbahngesetz of 1994 is 'AEG' and its predecessor of 1951 keeps a year;
 * no German law takes the abbreviation of an act in the EU catalogue.
 */
export const CITED_BY_JURABK: Readonly<Record<string, string>> = {
  BGBEG: 'EGBGB',
  GVGEG: 'EGGVG',
  ZPOEG: 'EGZPO',
  StPOEG: 'EGStPO',
  HGBEG: 'EGHGB',
  AktGEG: 'EGAktG',
  VVGEG: 'EGVVG',
  ZVGEG: 'EGZVG',
  WStrGEG: 'EGWStG',
  'AEG 1994': 'AEG',
  AEG: 'AEG 1951',
  // 'EUV' is the Treaty on European Union (catalogue); the Eisenbahn-Unfalluntersuchungsverordnung of 2007 gives way.
  EUV: 'EUV 2007',
  // The forms the README of the reference data names; GII's amtabk says the same, these hold without it.
  'AO 1977': 'AO',
  'UWG 2004': 'UWG',
  WoEigG: 'WEG',
  BBauG: 'BauGB',
  'AsylVfG 1992': 'AsylG',
  'BDSG 2018': 'BDSG',
};

/**
 * GII laws whose amtabk is shared with another law (or is another law's jurabk): they keep their own jurabk so that
 * every law has one abbreviation of its own ('BKV' is the Berufskrankheiten-Verordnung, not the
 * Berufskraftfahrer-Ausbildungsverordnung 'KraftfAusbV 2001').
 */
export const KEEP_JURABK: ReadonlySet<string> = new Set([
  'AuslZustV 2024', 'BMinASBDGAnO 2024', 'BDGMinIAnO 2024', 'AltFRG', 'KraftfAusbV 2001', 'RheinSchPersEV 2023',
  'RheinSchPersV 2023', 'BMFBDGAnO 2024', 'BMFBDGAnO 2020', 'EntgBV', 'TAmbV', 'WTOVorRV', 'WTOSa',
]);

/**
 * The abbreviation lawyers cite for a law that gesetze-im-internet.de files under `jurabk` (with `amtabk`, its
 * official abbreviation, where GII gives one).
 *
 * @example
 * citedAbbreviation('SGB 5')              // 'SGB V'
 * citedAbbreviation('AO 1977', 'AO')      // 'AO'
 * citedAbbreviation('WoEigG', 'WEG')      // 'WEG'
 * citedAbbreviation('BGBEG')              // 'EGBGB'
 * citedAbbreviation('KraftStG', 'KraftStG 2002') // 'KraftStG'
 */
export function citedAbbreviation(jurabk: string, amtabk?: string | null): string {
  const j = jurabk.trim().replace(/\s+/gu, ' ');
  const a = amtabk?.trim().replace(/\s+/gu, ' ') || undefined;
  const override = CITED_BY_JURABK[j];
  if (override) return override;
  const sgb = /^SGB (\d+)(?: (?:19|20)\d\d)?$/u.exec(j);
  if (sgb && ROMAN[Number(sgb[1])]) return `SGB ${ROMAN[Number(sgb[1])]}`;
  if (KEEP_JURABK.has(j)) return j;
  if (a && a !== j) {
    // 'KraftStG' filed with amtabk 'KraftStG 2002', 'EEG 2014' with 'EEG 2023': the year is no part of the citation.
    if (TRAILING_YEAR.test(a) && a.replace(TRAILING_YEAR, '') === j.replace(TRAILING_YEAR, '')) return a.replace(TRAILING_YEAR, '');
    return a;
  }
  return j;
}

/**
 * Alias key of an abbreviation: case-folded, ß as ss, without spaces, dots and hyphens ('DS-GVO' = 'DSGVO',
 * 'SGB V' = 'SGBV').
 */
export function abbreviationKey(abbreviation: string): string {
  return abbreviation.normalize('NFC').toLowerCase().replace(/ß/gu, 'ss').replace(/[\s.\u00a0\u2010-\u2015-]+/gu, '');
}

const NAME_STOPWORDS = new Set(['der', 'die', 'das', 'des', 'dem', 'den']);
const INFLECTIONS = ['es', 'en', 'em', 'er', 'e', 's', 'n'];

/**
 * Alias key of a law's name, the same for its inflected forms: articles dropped, each word stripped of one
 * inflection ending, ß as ss, hyphenated compounds joined.
 *
 * @example
 * nameKey('Bürgerliches Gesetzbuch') === nameKey('des Bürgerlichen Gesetzbuchs') // true
 */
export function nameKey(name: string): string {
  const words = name
    .normalize('NFC')
    .toLowerCase()
    .replace(/ß/gu, 'ss')
    .replace(/(\p{L})[-\u2010\u2011](\p{L})/gu, '$1$2')
    .replace(/[^\p{L}\p{N}§]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '' && !NAME_STOPWORDS.has(w));
  return words
    .map((w) => {
      for (const ending of INFLECTIONS) {
        if (w.length - ending.length >= 4 && w.endsWith(ending)) return w.slice(0, -ending.length);
      }
      return w;
    })
    .join(' ');
}

/** Long names of commonly cited German laws, by cited abbreviation (nominative; nameKey covers the inflections). */
export const LONG_NAMES: Readonly<Record<string, readonly string[]>> = {
  BGB: ['Bürgerliches Gesetzbuch'],
  EGBGB: ['Einführungsgesetz zum Bürgerlichen Gesetzbuch', 'Einführungsgesetz zum Bürgerlichen Gesetzbuche'],
  StGB: ['Strafgesetzbuch'],
  EGStGB: ['Einführungsgesetz zum Strafgesetzbuch'],
  StPO: ['Strafprozessordnung', 'Strafprozeßordnung'],
  ZPO: ['Zivilprozessordnung', 'Zivilprozeßordnung'],
  EGZPO: ['Gesetz betreffend die Einführung der Zivilprozessordnung', 'Einführungsgesetz zur Zivilprozessordnung'],
  GG: ['Grundgesetz', 'Grundgesetz für die Bundesrepublik Deutschland'],
  HGB: ['Handelsgesetzbuch'],
  AktG: ['Aktiengesetz'],
  GmbHG: ['GmbH-Gesetz', 'Gesetz betreffend die Gesellschaften mit beschränkter Haftung'],
  GenG: ['Genossenschaftsgesetz'],
  UmwG: ['Umwandlungsgesetz'],
  VwGO: ['Verwaltungsgerichtsordnung'],
  VwVfG: ['Verwaltungsverfahrensgesetz'],
  VwZG: ['Verwaltungszustellungsgesetz'],
  VwVG: ['Verwaltungs-Vollstreckungsgesetz'],
  SGG: ['Sozialgerichtsgesetz'],
  ArbGG: ['Arbeitsgerichtsgesetz'],
  FGO: ['Finanzgerichtsordnung'],
  AO: ['Abgabenordnung'],
  EStG: ['Einkommensteuergesetz'],
  KStG: ['Körperschaftsteuergesetz'],
  UStG: ['Umsatzsteuergesetz'],
  GewStG: ['Gewerbesteuergesetz'],
  ErbStG: ['Erbschaftsteuergesetz', 'Erbschaftsteuer- und Schenkungsteuergesetz'],
  GrEStG: ['Grunderwerbsteuergesetz'],
  GVG: ['Gerichtsverfassungsgesetz'],
  EGGVG: ['Einführungsgesetz zum Gerichtsverfassungsgesetz'],
  FamFG: ['Gesetz über das Verfahren in Familiensachen und in den Angelegenheiten der freiwilligen Gerichtsbarkeit'],
  InsO: ['Insolvenzordnung'],
  ZVG: ['Zwangsversteigerungsgesetz', 'Gesetz über die Zwangsversteigerung und die Zwangsverwaltung'],
  UWG: ['Gesetz gegen den unlauteren Wettbewerb'],
  GWB: ['Gesetz gegen Wettbewerbsbeschränkungen'],
  UrhG: ['Urheberrechtsgesetz', 'Gesetz über Urheberrecht und verwandte Schutzrechte'],
  MarkenG: ['Markengesetz'],
  PatG: ['Patentgesetz'],
  WEG: ['Wohnungseigentumsgesetz', 'Gesetz über das Wohnungseigentum und das Dauerwohnrecht'],
  BauGB: ['Baugesetzbuch'],
  BauNVO: ['Baunutzungsverordnung'],
  BetrVG: ['Betriebsverfassungsgesetz'],
  KSchG: ['Kündigungsschutzgesetz'],
  TzBfG: ['Teilzeit- und Befristungsgesetz'],
  AGG: ['Allgemeines Gleichbehandlungsgesetz'],
  ArbZG: ['Arbeitszeitgesetz'],
  BUrlG: ['Bundesurlaubsgesetz'],
  EFZG: ['Entgeltfortzahlungsgesetz'],
  MiLoG: ['Mindestlohngesetz'],
  MuSchG: ['Mutterschutzgesetz'],
  BEEG: ['Bundeselterngeld- und Elternzeitgesetz'],
  AÜG: ['Arbeitnehmerüberlassungsgesetz'],
  NachwG: ['Nachweisgesetz'],
  BBiG: ['Berufsbildungsgesetz'],
  BDSG: ['Bundesdatenschutzgesetz'],
  AufenthG: ['Aufenthaltsgesetz'],
  AsylG: ['Asylgesetz', 'Asylverfahrensgesetz'],
  StAG: ['Staatsangehörigkeitsgesetz'],
  BVerfGG: ['Bundesverfassungsgerichtsgesetz', 'Gesetz über das Bundesverfassungsgericht'],
  StVG: ['Straßenverkehrsgesetz'],
  StVO: ['Straßenverkehrs-Ordnung'],
  StVZO: ['Straßenverkehrs-Zulassungs-Ordnung'],
  FeV: ['Fahrerlaubnis-Verordnung'],
  OWiG: ['Gesetz über Ordnungswidrigkeiten', 'Ordnungswidrigkeitengesetz'],
  BtMG: ['Betäubungsmittelgesetz'],
  RVG: ['Rechtsanwaltsvergütungsgesetz'],
  GKG: ['Gerichtskostengesetz'],
  GNotKG: ['Gerichts- und Notarkostengesetz'],
  JVEG: ['Justizvergütungs- und -entschädigungsgesetz'],
  BRAO: ['Bundesrechtsanwaltsordnung'],
  BNotO: ['Bundesnotarordnung'],
  BeurkG: ['Beurkundungsgesetz'],
  RPflG: ['Rechtspflegergesetz'],
  DRiG: ['Deutsches Richtergesetz'],
  JGG: ['Jugendgerichtsgesetz'],
  StVollzG: ['Strafvollzugsgesetz'],
  IRG: ['Gesetz über die internationale Rechtshilfe in Strafsachen'],
  BImSchG: ['Bundes-Immissionsschutzgesetz'],
  BNatSchG: ['Bundesnaturschutzgesetz'],
  KrWG: ['Kreislaufwirtschaftsgesetz'],
  WHG: ['Wasserhaushaltsgesetz'],
  UVPG: ['Gesetz über die Umweltverträglichkeitsprüfung'],
  ROG: ['Raumordnungsgesetz'],
  EnWG: ['Energiewirtschaftsgesetz'],
  EEG: ['Erneuerbare-Energien-Gesetz'],
  VVG: ['Versicherungsvertragsgesetz'],
  IfSG: ['Infektionsschutzgesetz'],
  BBG: ['Bundesbeamtengesetz'],
  BeamtStG: ['Beamtenstatusgesetz'],
  BeamtVG: ['Beamtenversorgungsgesetz'],
  TKG: ['Telekommunikationsgesetz'],
  TDDDG: ['Telekommunikation-Digitale-Dienste-Datenschutz-Gesetz', 'Telekommunikation-Telemedien-Datenschutz-Gesetz'],
  WpHG: ['Wertpapierhandelsgesetz'],
  KWG: ['Kreditwesengesetz', 'Gesetz über das Kreditwesen'],
  GBO: ['Grundbuchordnung'],
  GewO: ['Gewerbeordnung'],
  HwO: ['Handwerksordnung'],
  BJagdG: ['Bundesjagdgesetz'],
  TierSchG: ['Tierschutzgesetz'],
  WaffG: ['Waffengesetz'],
  PAngV: ['Preisangabenverordnung'],
  ProdHaftG: ['Produkthaftungsgesetz'],
  ErbbauRG: ['Erbbaurechtsgesetz', 'Gesetz über das Erbbaurecht'],
  BetrKV: ['Betriebskostenverordnung'],
  HeizkostenV: ['Heizkostenverordnung'],
  BKleingG: ['Bundeskleingartengesetz'],
  BKGG: ['Bundeskindergeldgesetz'],
  BAföG: ['Bundesausbildungsförderungsgesetz'],
  WoGG: ['Wohngeldgesetz'],
  UVG: ['Unterhaltsvorschussgesetz'],
  VersAusglG: ['Versorgungsausgleichsgesetz'],
  LPartG: ['Lebenspartnerschaftsgesetz'],
  PStG: ['Personenstandsgesetz'],
  BWahlG: ['Bundeswahlgesetz'],
  PartG: ['Parteiengesetz'],
  BPolG: ['Bundespolizeigesetz'],
  VersG: ['Versammlungsgesetz'],
  IFG: ['Informationsfreiheitsgesetz'],
  AMG: ['Arzneimittelgesetz'],
  HWG: ['Heilmittelwerbegesetz', 'Gesetz über die Werbung auf dem Gebiete des Heilwesens'],
  SchwarzArbG: ['Schwarzarbeitsbekämpfungsgesetz'],
  AsylbLG: ['Asylbewerberleistungsgesetz'],
};

/** Every form that names an SGB book: 'SGB V', 'SGB 5', 'Fünftes Buch Sozialgesetzbuch', 'Sozialgesetzbuch V'. */
function sgbNames(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const n of SGB_BOOKS) {
    const roman = ROMAN[n];
    const ord = ORDINALS[n];
    out[`SGB ${roman}`] = [
      `Sozialgesetzbuch ${ord} Buch`, `${ord} Buch Sozialgesetzbuch`, `Sozialgesetzbuch ${roman}`, `Sozialgesetzbuch Buch ${roman}`,
    ];
  }
  return out;
}

const SGB_NAMES = sgbNames();

/** Abbreviation spellings besides the cited one (GII forms and common variants), by cited abbreviation. */
function abbreviationVariants(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (cited: string, variant: string) => (out[cited] ??= []).push(variant);
  for (const n of SGB_BOOKS) add(`SGB ${ROMAN[n]}`, `SGB ${n}`);
  for (const [jurabk, cited] of Object.entries(CITED_BY_JURABK)) add(cited, jurabk);
  add('AO', 'AO 1977');
  add('UWG', 'UWG 2004');
  add('WEG', 'WoEigG');
  add('BauGB', 'BBauG');
  add('AsylG', 'AsylVfG');
  add('AsylG', 'AsylVfG 1992');
  add('BDSG', 'BDSG 2018');
  add('AufenthG', 'AufenthG 2004');
  add('GKG', 'GKG 2004');
  add('KStG', 'KStG 1977');
  add('UStG', 'UStG 1980');
  add('BtMG', 'BtMG 1981');
  add('BBG', 'BBG 2009');
  add('BNatSchG', 'BNatSchG 2009');
  add('ErbbauRG', 'ErbbauV');
  add('KWG', 'KredWG');
  add('HWG', 'HeilMWerbG');
  add('StAG', 'RuStAG');
  add('TDDDG', 'TTDSG');
  add('EGStGB', 'StGBEG');
  add('EGAO', 'AOEG 1977');
  add('OWiG', 'OWiG 1968');
  add('StVO', 'StVO 2013');
  add('StVZO', 'StVZO 2012');
  add('FeV', 'FeV 2010');
  add('AMG', 'AMG 1976');
  add('EEG', 'EEG 2014');
  add('EEG', 'EEG 2023');
  return out;
}

export const ABBREVIATION_VARIANTS: Readonly<Record<string, readonly string[]>> = abbreviationVariants();

/** The registry aliases of a cited abbreviation: long names and abbreviation variants ('SGB V' -> 'SGB 5', ...). */
export function registryAliases(cited: string): { abbreviations: string[]; names: string[] } {
  const eu = EU_CATALOGUE.find((act) => act.abbreviation === cited);
  return {
    abbreviations: [...(ABBREVIATION_VARIANTS[cited] ?? []), ...(eu?.aliases ?? [])],
    names: [...(LONG_NAMES[cited] ?? []), ...(SGB_NAMES[cited] ?? []), ...(eu ? [eu.title, ...(eu.names ?? [])] : [])],
  };
}

let staticIndex: Map<string, string> | undefined;

function buildStaticIndex(): Map<string, string> {
  const index = new Map<string, string>();
  const put = (key: string, cited: string) => {
    if (key !== '' && !index.has(key)) index.set(key, cited);
  };
  const cited = new Set<string>([
    ...Object.keys(LONG_NAMES),
    ...Object.keys(SGB_NAMES),
    ...Object.keys(ABBREVIATION_VARIANTS),
    ...EU_CATALOGUE.map((a) => a.abbreviation),
  ]);
  for (const c of cited) put(abbreviationKey(c), c);
  for (const c of cited) {
    const { abbreviations, names } = registryAliases(c);
    for (const a of abbreviations) put(abbreviationKey(a), c);
    for (const n of names) put(`name:${nameKey(n)}`, c);
  }
  return index;
}

/**
 * The cited abbreviation for a law as some text names it, from the registry alone (no corpus needed): GII forms,
 * SGB numerals, juris forms with a version year ('EStG 2002'), EU acts ('EUV 2016/679' -> 'DSGVO') and long names.
 * Returns undefined when the registry does not know the law.
 *
 * @example
 * registryAbbreviation('SGB 5')                          // 'SGB V'
 * registryAbbreviation('des Bürgerlichen Gesetzbuchs')   // 'BGB'
 * registryAbbreviation('EUV 2016/679')                   // 'DSGVO'
 */
export function registryAbbreviation(text: string): string | undefined {
  staticIndex ??= buildStaticIndex();
  const t = text.trim().replace(/\s+/gu, ' ');
  if (t === '') return undefined;
  const direct = staticIndex.get(abbreviationKey(t));
  if (direct) return direct;
  const sgb = /^SGB\s*(\d{1,2}|[IVX]{1,4})$/iu.exec(t);
  if (sgb) {
    const n = /^\d+$/u.test(sgb[1]) ? Number(sgb[1]) : ROMAN.indexOf(sgb[1].toUpperCase());
    if (SGB_BOOKS.includes(n)) return `SGB ${ROMAN[n]}`;
  }
  if (TRAILING_YEAR.test(t)) {
    const stripped = staticIndex.get(abbreviationKey(t.replace(TRAILING_YEAR, '')));
    if (stripped) return stripped;
  }
  return staticIndex.get(`name:${nameKey(t)}`);
}

/**
 * Normalizes the law part of a citation to its cited abbreviation: the registry's answer where it knows the law,
 * else the text without a juris version year ('FooG 1999' -> 'FooG'), else the text as written.
 */
export function canonicalLawAbbreviation(text: string): string {
  const t = text.trim().replace(/\s+/gu, ' ');
  return registryAbbreviation(t) ?? (/^\S+ (?:19|20)\d\d$/u.test(t) ? t.replace(TRAILING_YEAR, '') : t);
}
