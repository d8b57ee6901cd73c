// The court registry: the federal courts, the rules that name every other German court, and resolveCourt, which
// turns what a source writes ('BGH 6. Zivilsenat', 'Oberlandesgericht München', 'Hessisches Landesarbeitsgericht')
// into one canonical court with its branch, level and Land.
import {
  LAND_COURTS, REGIONS, STATE_CODES, STATES, TOWN_COURTS, TOWN_SPELLINGS, stateOfTown,
  type LandCourt, type StateCode,
} from './court-places.ts';

/** Jurisdictions (Gerichtsbarkeiten); `patent` is the Bundespatentgericht alone. Never a subject area. */
export const BRANCHES = ['ordentlich', 'verwaltung', 'sozial', 'arbeit', 'finanz', 'verfassung', 'patent', 'unbekannt'] as const;
export type Branch = (typeof BRANCHES)[number];

export const LEVELS = ['federal', 'appellate', 'first_instance_and_regional', 'other'] as const;
export type CourtLevel = (typeof LEVELS)[number];

/** A row of the courts table. */
export interface CourtInfo {
  code: string;
  name: string;
  branch: Branch;
  court_type: string | null;
  level: CourtLevel;
  state: string | null;
  founding_year: number | null;
  founding_basis: string | null;
}

export interface ResolvedCourt extends CourtInfo {
  /** The chamber or senate the source named after the court ('6. Zivilsenat'), or null. */
  chamber: string | null;
}

interface FederalCourt extends CourtInfo {
  /** Spellings that name the court (besides code and name), matched as a whole-word prefix. */
  spellings: string[];
  /** The court code inside an ECLI (ECLI:DE:<code>:...), upper case. */
  ecli: string;
}

const federal = (c: Omit<FederalCourt, 'level' | 'state'>): FederalCourt => ({ ...c, level: 'federal', state: null });

/** The seven federal courts. Founding year: the year the court was established by statute and began its work. */
export const FEDERAL_COURTS: readonly FederalCourt[] = [
  federal({
    code: 'BVerfG', name: 'Bundesverfassungsgericht', branch: 'verfassung', court_type: 'BVerfG', ecli: 'BVERFG',
    founding_year: 1951, founding_basis: 'Art. 92 ff. GG; Gesetz über das Bundesverfassungsgericht vom 12. März 1951, Arbeitsaufnahme am 28. September 1951',
    spellings: ['Bundesverfassungsgerichts', 'BVerfGE', 'BVerfGK'],
  }),
  federal({
    code: 'BGH', name: 'Bundesgerichtshof', branch: 'ordentlich', court_type: 'BGH', ecli: 'BGH',
    founding_year: 1950, founding_basis: 'Art. 95 GG; Gesetz zur Wiederherstellung der Rechtseinheit vom 12. September 1950, Arbeitsaufnahme am 1. Oktober 1950',
    spellings: ['Bundesgerichtshofs', 'Bundesgerichtshofes', 'BGHZ', 'BGHSt'],
  }),
  federal({
    code: 'BVerwG', name: 'Bundesverwaltungsgericht', branch: 'verwaltung', court_type: 'BVerwG', ecli: 'BVERWG',
    founding_year: 1952, founding_basis: 'Art. 95 GG; Gesetz über das Bundesverwaltungsgericht vom 23. September 1952',
    spellings: ['Bundesverwaltungsgerichts', 'BVerwGE'],
  }),
  federal({
    code: 'BFH', name: 'Bundesfinanzhof', branch: 'finanz', court_type: 'BFH', ecli: 'BFH',
    founding_year: 1950, founding_basis: 'Art. 95 GG; Gesetz über den Bundesfinanzhof vom 29. Juni 1950',
    spellings: ['Bundesfinanzhofs', 'Bundesfinanzhofes', 'BFHE'],
  }),
  federal({
    code: 'BAG', name: 'Bundesarbeitsgericht', branch: 'arbeit', court_type: 'BAG', ecli: 'BAG',
    founding_year: 1954, founding_basis: 'Art. 95 GG; Arbeitsgerichtsgesetz vom 3. September 1953, Arbeitsaufnahme 1954',
    spellings: ['Bundesarbeitsgerichts', 'BAGE'],
  }),
  federal({
    code: 'BSG', name: 'Bundessozialgericht', branch: 'sozial', court_type: 'BSG', ecli: 'BSG',
    founding_year: 1954, founding_basis: 'Art. 95 GG; Sozialgerichtsgesetz vom 3. September 1953, Arbeitsaufnahme am 11. September 1954',
    spellings: ['Bundessozialgerichts', 'BSGE'],
  }),
  federal({
    code: 'BPatG', name: 'Bundespatentgericht', branch: 'patent', court_type: 'BPatG', ecli: 'BPATG',
    founding_year: 1961, founding_basis: 'Art. 96 Abs. 1 GG; Sechstes Überleitungsgesetz vom 23. März 1961, Arbeitsaufnahme am 1. Juli 1961',
    spellings: ['Bundespatentgerichts', 'BPatGE'],
  }),
];

interface TypeRule {
  type: string;
  long: string;            // 'Oberlandesgericht'
  branch: Branch;
  level: CourtLevel;
  /** 'town': named after the seat; otherwise the LAND_COURTS group the court belongs to. */
  naming: 'town' | 'OVG' | 'LSG' | 'LAG' | 'FG' | 'VERF';
}

const TYPE_RULES: readonly TypeRule[] = [
  { type: 'OLG', long: 'Oberlandesgericht', branch: 'ordentlich', level: 'appellate', naming: 'town' },
  { type: 'LG', long: 'Landgericht', branch: 'ordentlich', level: 'first_instance_and_regional', naming: 'town' },
  { type: 'AG', long: 'Amtsgericht', branch: 'ordentlich', level: 'first_instance_and_regional', naming: 'town' },
  { type: 'VG', long: 'Verwaltungsgericht', branch: 'verwaltung', level: 'first_instance_and_regional', naming: 'town' },
  { type: 'OVG', long: 'Oberverwaltungsgericht', branch: 'verwaltung', level: 'appellate', naming: 'OVG' },
  { type: 'VGH', long: 'Verwaltungsgerichtshof', branch: 'verwaltung', level: 'appellate', naming: 'OVG' },
  { type: 'SG', long: 'Sozialgericht', branch: 'sozial', level: 'first_instance_and_regional', naming: 'town' },
  { type: 'LSG', long: 'Landessozialgericht', branch: 'sozial', level: 'appellate', naming: 'LSG' },
  { type: 'ArbG', long: 'Arbeitsgericht', branch: 'arbeit', level: 'first_instance_and_regional', naming: 'town' },
  { type: 'LAG', long: 'Landesarbeitsgericht', branch: 'arbeit', level: 'appellate', naming: 'LAG' },
  { type: 'FG', long: 'Finanzgericht', branch: 'finanz', level: 'first_instance_and_regional', naming: 'FG' },
  { type: 'VerfGH', long: 'Verfassungsgerichtshof', branch: 'verfassung', level: 'other', naming: 'VERF' },
  { type: 'StGH', long: 'Staatsgerichtshof', branch: 'verfassung', level: 'other', naming: 'VERF' },
  { type: 'LVerfG', long: 'Landesverfassungsgericht', branch: 'verfassung', level: 'other', naming: 'VERF' },
  { type: 'VerfG', long: 'Verfassungsgericht', branch: 'verfassung', level: 'other', naming: 'VERF' },
];

const RULE_BY_TYPE = new Map(TYPE_RULES.map((r) => [r.type, r]));

/** Courts outside the schema of types above, each matched by its spellings as a whole-word prefix. */
const SPECIAL_COURTS: readonly (CourtInfo & { spellings: string[] })[] = [
  {
    code: 'KG', name: 'Kammergericht', branch: 'ordentlich', court_type: 'OLG', level: 'appellate', state: 'BE',
    founding_year: null, founding_basis: null, spellings: ['Kammergericht Berlin', 'KG Berlin', 'Kammergerichts', 'OLG Berlin', 'Oberlandesgericht Berlin'],
  },
  {
    code: 'BayObLG', name: 'Bayerisches Oberstes Landesgericht', branch: 'ordentlich', court_type: 'BayObLG', level: 'appellate',
    state: 'BY', founding_year: null, founding_basis: null,
    spellings: ['Bayerischen Obersten Landesgerichts', 'BayObLGZ', 'BayObLGSt', 'Oberstes Landesgericht'],
  },
  {
    code: 'EuGH', name: 'Gerichtshof der Europäischen Union', branch: 'unbekannt', court_type: 'EuGH', level: 'other', state: null,
    founding_year: null, founding_basis: null, spellings: ['Europäischer Gerichtshof', 'Gerichtshof der Europäischen Gemeinschaften', 'EuGH'],
  },
  {
    code: 'EuG', name: 'Gericht der Europäischen Union', branch: 'unbekannt', court_type: 'EuG', level: 'other', state: null,
    founding_year: null, founding_basis: null, spellings: ['Gericht erster Instanz der Europäischen Gemeinschaften'],
  },
  {
    code: 'EGMR', name: 'Europäischer Gerichtshof für Menschenrechte', branch: 'unbekannt', court_type: 'EGMR', level: 'other', state: null,
    founding_year: null, founding_basis: null, spellings: ['EGMR', 'ECHR', 'EctHR'],
  },
  // Courts of the Reich and of Prussia, cited by old decisions and their reporters (RGZ, RGSt, PrOVGE, RFHE).
  {
    code: 'RG', name: 'Reichsgericht', branch: 'ordentlich', court_type: 'RG', level: 'other', state: null,
    founding_year: 1879, founding_basis: null, spellings: ['Reichsgerichts', 'RGZ', 'RGSt'],
  },
  {
    code: 'RFH', name: 'Reichsfinanzhof', branch: 'finanz', court_type: 'RFH', level: 'other', state: null,
    founding_year: 1918, founding_basis: null, spellings: ['Reichsfinanzhofs', 'RFHE'],
  },
  {
    code: 'PrOVG', name: 'Preußisches Oberverwaltungsgericht', branch: 'verwaltung', court_type: 'PrOVG', level: 'other', state: null,
    founding_year: 1875, founding_basis: null, spellings: ['Preußischen Oberverwaltungsgerichts', 'Preußische Oberverwaltungsgericht', 'PrOVGE'],
  },
];

// Abbreviations with a Land prefix: BayVGH, HessLAG, NdsOVG, SächsOVG, ThürVerfGH, BbgVerfG, BayObLG is special.
const PREFIXED = /^(Bay|Hess|Nds|Nieders|Sächs|Thür|Bbg|Brem|Hmb|Bln|SchlH|Saarl|BW|NRW|RhPf|MV)\.?\s?(VGH|OVG|LSG|LAG|FG|VerfGH|VerfG|StGH|LVerfG)$/u;
const PREFIXED_APART = new RegExp(`${PREFIXED.source.slice(0, -1)}(?![\\p{L}])`, 'u');
const PREFIX_STATES: Record<string, StateCode> = {
  Bay: 'BY', Hess: 'HE', Nds: 'NI', Nieders: 'NI', Sächs: 'SN', Thür: 'TH', Bbg: 'BB', Brem: 'HB', Hmb: 'HH',
  Bln: 'BE', SchlH: 'SH', Saarl: 'SL', BW: 'BW', NRW: 'NW', RhPf: 'RP', MV: 'MV',
};

// Official names of the Oberlandesgerichte where they differ from 'Oberlandesgericht <seat>'.
const OLG_NAMES: Record<string, string> = {
  Brandenburg: 'Brandenburgisches Oberlandesgericht',
  Bremen: 'Hanseatisches Oberlandesgericht in Bremen',
  Hamburg: 'Hanseatisches Oberlandesgericht',
  Jena: 'Thüringer Oberlandesgericht',
  Saarbrücken: 'Saarländisches Oberlandesgericht',
  Schleswig: 'Schleswig-Holsteinisches Oberlandesgericht',
  Zweibrücken: 'Pfälzisches Oberlandesgericht Zweibrücken',
};

// Where a Land has exactly one court of a town-named type, naming the Land names the court.
const SOLE_OLG: Partial<Record<StateCode, string>> = {
  BB: 'Brandenburg', HB: 'Bremen', HH: 'Hamburg', HE: 'Frankfurt', MV: 'Rostock', SL: 'Saarbrücken', SN: 'Dresden',
  ST: 'Naumburg', SH: 'Schleswig', TH: 'Jena',
};

const UNKNOWN_CODE = 'Unbekanntes Gericht';

// Words that end the place name and begin the chamber: numbers, ordinals, and the words for senates and chambers.
const CHAMBER_WORD = /^(?:\d+[a-z]?\.?|(?:gro(?:ß|ss)e[nrsm]?|vereinigte[nr]?|abt\.?|abteilung|einzelrichter(?:in)?|richter(?:in)?|kammern?|senats?|spruchkörper|außenstelle|zweigstelle|auswärtige[rn]?|.*senate?|.*kammern?|.*gericht|.*gerichtsbarkeit|.*zentrum|.*abteilung))$/iu;
const ROMAN_ORDINAL = /^[IVXLC]+\.$/u;
const TOWN_CONNECTOR = /^(?:am|an|der|dem|den|im|in|i\.|a\.|d\.|a\.d\.|i\.d\.|a\.m\.|i\.br\.|bei|ob|vor|auf|zu|unter|ob\.?)$/iu;
// Abbreviated river and region suffixes that end a town name: 'Oberndorf a.N.', 'Frankfurt a.M.', 'Freiburg i.Br.'.
const TOWN_SUFFIX = /^(?:[a-zäöü]{1,2}\.)+(?:[A-Za-zÄÖÜäöü]{1,8}\.?)?$/u;
const LEADING_FILLER = /^(?:für|das|des|der|dem|den|die|in|im|zu|beim|bei)$/iu;

/** Collapses whitespace (incl. no-break spaces) and trims a court string. */
export function cleanCourtString(raw: string): string {
  return raw.normalize('NFC').replace(/[\s\u00a0\u202f]+/gu, ' ').trim()
    // 'Oberlandesgericht Hamm (OLG Hamm)': the short form in brackets repeats the name.
    .replace(/\s*\((?:OLG|LG|AG|VG|OVG|VGH|SG|LSG|ArbG|LAG|FG|KG)\b[^)]*\)$/u, '')
    .replace(/^[,;:\-–\s]+|[,;:\-–\s]+$/gu, '');
}

function withChamber(info: CourtInfo, chamber: string): ResolvedCourt {
  const c = chamber.replace(/^[\s,;:\-–]+/u, '').replace(/[\s,;:\-–]+$/u, '').trim();
  return { ...info, chamber: c === '' ? null : c };
}

function stripFederal(c: FederalCourt): CourtInfo {
  const { spellings: _s, ecli: _e, ...info } = c;
  return info;
}

/** Matches `prefix` at the start of `s` as whole words (case-insensitive); returns the rest or undefined. */
function afterPrefix(s: string, prefix: string): string | undefined {
  if (s.length < prefix.length) return undefined;
  if (s.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return undefined;
  const rest = s.slice(prefix.length);
  if (rest !== '' && /^[\p{L}\p{N}]/u.test(rest)) return undefined;
  return rest;
}

/** The federal court whose code or name opens `s` (and the text after it). */
function matchFederal(s: string): [FederalCourt, string] | undefined {
  for (const c of FEDERAL_COURTS) {
    for (const spelling of [c.name, ...c.spellings, c.code]) {
      // Codes are case-sensitive ('BAG', not 'Bag'); names are not.
      const rest = spelling === c.code ? (s.startsWith(c.code) ? afterPrefix(s, c.code) : undefined) : afterPrefix(s, spelling);
      if (rest !== undefined) return [c, rest];
    }
  }
  return undefined;
}

/** Recognizes a Land (or region) name in a phrase: 'Nordrhein-Westfalen', 'NRW', 'des Saarlandes', 'Freistaat Sachsen'. */
export function stateFromPhrase(phrase: string): { states: StateCode[]; region?: string } | undefined {
  let p = phrase.trim().replace(/\s+/gu, ' ');
  const strip = /^(?:für\s+)?(?:das\s+|des\s+|den\s+|dem\s+|der\s+)?(?:land(?:es)?\s+|freistaat(?:es)?\s+)?/iu;
  p = p.replace(strip, '');
  const lower = p.toLowerCase();
  for (const [region, states] of Object.entries(REGIONS)) if (lower === region.toLowerCase()) return { states, region };
  for (const code of STATE_CODES) {
    const info = STATES[code];
    if (lower === info.name.toLowerCase() || info.aliases.some((a) => a.toLowerCase() === lower)) return { states: [code] };
  }
  if (lower === 'saarlandes') return { states: ['SL'] };
  if (lower === 'nrw') return { states: ['NW'] };
  return undefined;
}

/** The Land an adjective names: 'Bayerisches' -> BY, 'Thüringer' -> TH, 'Hanseatisches' -> HH. */
function stateFromAdjective(word: string): StateCode | undefined {
  const w = word.toLowerCase();
  const ending = (stem: string) => w.startsWith(stem.toLowerCase()) && ['', 'e', 'es', 'er', 'en', 'em'].includes(w.slice(stem.length));
  if (ending('Hanseatisch')) return 'HH';
  if (ending('Pfälzisch')) return 'RP';
  if (ending('Saarländisch')) return 'SL';
  for (const code of STATE_CODES) if (ending(STATES[code].adjective)) return code;
  return undefined;
}

function typeFromWord(word: string): TypeRule | undefined {
  for (const rule of TYPE_RULES) {
    if (word === rule.type) return rule;
    const w = word.toLowerCase();
    const long = rule.long.toLowerCase();
    if (w === long || w === `${long}s` || w === `${long}es`) return rule;
  }
  return undefined;
}

/** Canonical spelling of a town as courts use it ('Frankfurt am Main' -> 'Frankfurt'). */
export function canonicalTown(town: string): string {
  const t = town.trim().replace(/\s+/gu, ' ').replace(/\/{2,}/gu, '/');
  const key = t.toLowerCase();
  return TOWN_SPELLINGS[key] ?? TOWN_SPELLINGS[key.replace(/\.\s+(?=\p{L}\.)/gu, '.')] ?? t;
}

interface Parsed {
  adjectiveState?: StateCode;
  hanseaticBremen?: boolean;
  rule: TypeRule;
  place: string;
  chamber: string;
}

/** Splits 'Schleswig-Holsteinisches Landessozialgericht 5. Senat' into adjective, type, place and chamber. */
function parseGeneric(s: string): Parsed | undefined {
  const [head, ...tail] = s.split(/\s*[,;]\s*|\s+[-–]\s+/u);
  const tokens = head.split(' ');
  let i = 0;
  let adjectiveState: StateCode | undefined;
  let hanseatic = false;
  // 1. Adjectives before the court type ('Bayerisches', 'Hanseatisches', 'Pfälzisches').
  while (i < tokens.length && !typeFromWord(tokens[i])) {
    const st = stateFromAdjective(tokens[i]);
    if (!st) return undefined;
    if (/^hanseatisch/iu.test(tokens[i])) hanseatic = true;
    adjectiveState = st;
    i++;
  }
  if (i >= tokens.length) return undefined;
  const rule = typeFromWord(tokens[i++])!;
  // 2. Filler words ('für das Land', 'des', 'in').
  while (i < tokens.length && LEADING_FILLER.test(tokens[i])) i++;
  // 3. The place: up to the first chamber word; lower-case connectors belong to the town ('Frankfurt am Main').
  const place: string[] = [];
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    if (CHAMBER_WORD.test(t) || ROMAN_ORDINAL.test(t)) break;
    if (place.length > 0 && TOWN_SUFFIX.test(t)) {
      place.push(t);
      continue;
    }
    if (TOWN_CONNECTOR.test(t)) {
      // A connector belongs to the town when more connectors and then a capitalized word follow ('an der Riß').
      let k = i + 1;
      while (k < tokens.length && TOWN_CONNECTOR.test(tokens[k])) k++;
      if (place.length === 0 || k >= tokens.length || !/^[\p{Lu}(]/u.test(tokens[k]) || CHAMBER_WORD.test(tokens[k])) break;
      place.push(...tokens.slice(i, k));
      i = k - 1;
      continue;
    }
    if (/^\p{Ll}/u.test(t) && !/^(?:land|landes|freistaat|freistaates)$/iu.test(t)) break;
    place.push(t);
  }
  const chamber = [tokens.slice(i).join(' '), ...tail].filter(Boolean).join(', ');
  const placeText = place.join(' ');
  return {
    adjectiveState,
    hanseaticBremen: hanseatic && /\bBremen\b/u.test(placeText),
    rule,
    place: placeText,
    chamber,
  };
}

function landCourtFor(group: keyof typeof LAND_COURTS, state: StateCode): LandCourt | undefined {
  const courts = LAND_COURTS[group];
  return courts.find((c) => c.state === state && !c.covers) ?? courts.find((c) => (c.covers ?? [c.state]).includes(state));
}

function fromLandCourt(rule: TypeRule, court: LandCourt): CourtInfo {
  const type = court.type;
  return {
    code: `${type} ${court.region}`,
    name: court.name,
    branch: rule.branch,
    court_type: type,
    level: RULE_BY_TYPE.get(type)?.level ?? rule.level,
    state: court.state,
    founding_year: null,
    founding_basis: null,
  };
}

// Full town names where the canonical short form drops a suffix ('OLG Frankfurt' is the OLG Frankfurt am Main).
const FULL_TOWN: Record<string, string> = {
  Frankfurt: 'Frankfurt am Main', Freiburg: 'Freiburg im Breisgau', Halle: 'Halle (Saale)', Kempten: 'Kempten (Allgäu)',
  Landau: 'Landau in der Pfalz', Limburg: 'Limburg an der Lahn', Weiden: 'Weiden in der Oberpfalz',
};

function townCourt(rule: TypeRule, town: string, fallbackState?: StateCode): CourtInfo {
  const name = rule.type === 'OLG' && OLG_NAMES[town] ? OLG_NAMES[town] : `${rule.long} ${FULL_TOWN[town] ?? town}`;
  return {
    code: `${rule.type} ${town}`,
    name,
    branch: rule.branch,
    court_type: rule.type,
    level: rule.level,
    state: stateOfTown(town) ?? fallbackState ?? null,
    founding_year: null,
    founding_basis: null,
  };
}

function isTownCourtOf(type: string, town: string): StateCode | undefined {
  for (const [state, towns] of Object.entries(TOWN_COURTS[type] ?? {})) {
    if ((towns ?? []).some((t) => t.toLowerCase() === town.toLowerCase())) return state as StateCode;
  }
  return undefined;
}

function resolveParsed(p: Parsed): CourtInfo | undefined {
  const { rule } = p;
  let land = p.place ? stateFromPhrase(p.place) : undefined;
  let placeText = p.place;
  if (!land && rule.naming === 'town' && !stateOfTown(canonicalTown(p.place))) {
    // 'Verwaltungsgericht des Saarlandes Saarlouis': a Land before the seat.
    const words = p.place.split(' ');
    for (let k = words.length - 1; k >= 1; k--) {
      const st = stateFromPhrase(words.slice(0, k).join(' '));
      if (st && /^\p{Lu}/u.test(words[k])) {
        placeText = words.slice(k).join(' ');
        land = undefined;
        break;
      }
    }
  }
  const town = placeText && !land ? canonicalTown(placeText) : undefined;
  const adjective: StateCode | undefined = p.hanseaticBremen ? 'HB' : p.adjectiveState;

  if (rule.naming === 'town') {
    if (town) {
      if (rule.type === 'OLG' && town.toLowerCase() === 'berlin') return special('KG');
      return townCourt(rule, town, adjective);
    }
    const state = land?.states[0] ?? adjective;
    if (rule.type === 'OLG' && state) {
      if (state === 'BE') return special('KG');
      const seat = SOLE_OLG[state];
      if (seat) return townCourt(rule, seat, state);
    }
    if (state && ['BE', 'HB', 'HH'].includes(state)) return townCourt(rule, STATES[state].name, state);
    if (state) return { ...townCourt(rule, STATES[state].name, state), state };
    return undefined;
  }

  const group = rule.naming;
  // A seat town of a Land-named court ('OVG Münster', 'LSG Essen') or a town-named court ('LAG Hamm', 'FG Münster').
  if (town) {
    if ((group === 'LAG' || group === 'FG') && isTownCourtOf(rule.type, town)) return townCourt(rule, town);
    const bySeat = LAND_COURTS[group].find((c) => c.seat.toLowerCase() === town.toLowerCase());
    if (bySeat) return fromLandCourt(rule, bySeat);
    const st = stateOfTown(town);
    if (st && ['BE', 'HB', 'HH'].includes(st)) {
      const court = landCourtFor(group, st);
      if (court) return fromLandCourt(rule, court);
    }
    return townCourt(rule, town, adjective);
  }
  const states = land?.states ?? (adjective ? [adjective] : []);
  if (land?.region) {
    const court = LAND_COURTS[group].find((c) => c.region === land.region);
    if (court) return fromLandCourt(rule, court);
  }
  for (const st of states) {
    const court = landCourtFor(group, st);
    if (court) return fromLandCourt(rule, court);
  }
  if (states.length > 0) {
    // Bavaria and North Rhine-Westphalia have several LAGs and FGs: the Land alone does not say which.
    const st = states[0];
    return { ...townCourt(rule, STATES[st].name, st), code: `${rule.type} ${STATES[st].name}`, name: `${rule.long} ${STATES[st].name}`, state: st };
  }
  return undefined;
}

function special(code: string): CourtInfo {
  const c = SPECIAL_COURTS.find((x) => x.code === code)!;
  const { spellings: _s, ...info } = c;
  return info;
}

function unknownCourt(s: string): ResolvedCourt {
  const head = s.split(/\s*[,;]\s*/u)[0] ?? '';
  const code = head === '' ? UNKNOWN_CODE : head;
  return {
    code, name: code, branch: 'unbekannt', court_type: null, level: 'other', state: null,
    founding_year: null, founding_basis: null, chamber: null,
  };
}

/**
 * Resolves a court as a source writes it to its canonical short form, full name, branch, type, level, Land and the
 * chamber named after it. Never throws: an unknown court keeps its own name with branch `unbekannt`.
 *
 * @example
 * resolveCourt('BGH 6. Zivilsenat')              // { code: 'BGH', branch: 'ordentlich', chamber: '6. Zivilsenat', ... }
 * resolveCourt('Oberlandesgericht München')      // { code: 'OLG München', state: 'BY', level: 'appellate', ... }
 * resolveCourt('Hessisches Landesarbeitsgericht') // { code: 'LAG Hessen', branch: 'arbeit', ... }
 */
export function resolveCourt(raw: string): ResolvedCourt {
  const s = cleanCourtString(raw ?? '');
  if (s === '') return unknownCourt('');

  // 1. Federal courts by code, name or reporter ('BGH', 'Bundesgerichtshof', 'BVerfGE').
  const fed = matchFederal(s);
  if (fed) return withChamber(stripFederal(fed[0]), fed[1]);

  // 2. Courts of their own kind: Kammergericht, BayObLG, the European courts.
  for (const c of SPECIAL_COURTS) {
    for (const spelling of [...c.spellings, c.name, c.code]) {
      const rest = spelling === c.code ? (s.startsWith(c.code) ? afterPrefix(s, c.code) : undefined) : afterPrefix(s, spelling);
      if (rest !== undefined) return withChamber(special(c.code), rest);
    }
  }

  // 3. Land-prefixed abbreviations: BayVGH, HessLAG, NdsOVG.
  // 'Hess. VGH', 'Nds. OVG': the Land abbreviation written apart.
  const first = PREFIXED_APART.exec(s)?.[0] ?? s.split(/[\s,;]/u)[0];
  const prefixed = PREFIXED.exec(first);
  if (prefixed) {
    const rule = RULE_BY_TYPE.get(prefixed[2])!;
    const info = resolveParsed({ rule, place: STATES[PREFIX_STATES[prefixed[1]]].name, chamber: '' });
    if (info) return withChamber(info, s.slice(first.length));
  }

  // 4. '<adjective> <type> <place> <chamber>' for every other court.
  const parsed = parseGeneric(s);
  if (parsed) {
    const info = resolveParsed(parsed);
    if (info) return withChamber(info, parsed.chamber);
  }
  return unknownCourt(s);
}

/** The federal court named in an ECLI ('ECLI:DE:BGH:2019:...'), or undefined. */
export function courtFromEcli(ecli: string): CourtInfo | undefined {
  const m = /^ECLI:DE:([A-Z]+):/iu.exec(ecli.trim());
  if (!m) return undefined;
  const c = FEDERAL_COURTS.find((f) => f.ecli === m[1].toUpperCase());
  return c ? stripFederal(c) : undefined;
}

/** Rows for the courts table that every corpus holds from its creation. */
export function seedCourts(): CourtInfo[] {
  return FEDERAL_COURTS.map(stripFederal);
}
