// Validates the two data files of search (issue 5): the lay-to-legal bridge (src/search/bridge-lexicon.json) and the
// judged relevance set (bench/search-relevance.json). Shape, the bridge's contract (lay terms are never legal-register
// words; every lay query carries a lay term, no legal query does), canonical norms, and that every judged decision and
// law unit exists: in fixtures/ for source "fixtures", in ../shared/data for source "shared" (skipped when absent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { citedAbbreviation } from '../../src/corpus/law-aliases.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

interface BridgeEntry {
  domain: string;
  lay: string[];
  legal: string[];
  norms: string[];
}
interface Lexicon {
  version: number;
  note: string;
  entries: BridgeEntry[];
}
interface Query {
  id: string;
  kind: 'lay' | 'legal' | 'identifier';
  query: string;
  relevant_decisions: string[];
  relevant_law_units: string[];
  source: 'fixtures' | 'shared';
}
interface RelevanceSet {
  version: number;
  note: string;
  queries: Query[];
}

const lexicon = JSON.parse(readFileSync(join(ROOT, 'src/search/bridge-lexicon.json'), 'utf8')) as Lexicon;
const relevance = JSON.parse(readFileSync(join(ROOT, 'bench/search-relevance.json'), 'utf8')) as RelevanceSet;

/** Case-folded word tokens; a hyphenated compound ('schufa-eintrag') stays one token. */
const tokens = (s: string): string[] => s.toLowerCase().match(/[0-9a-zäöüß]+(?:-[0-9a-zäöüß]+)*/gu) ?? [];

const LAY_TERMS = lexicon.entries.flatMap((e) => e.lay.map((term) => ({ term, words: tokens(term) })));

/** The lay terms whose words occur as a contiguous run of the query's tokens. */
function layTermsIn(query: string): string[] {
  const q = tokens(query);
  return LAY_TERMS.filter(({ words }) => {
    for (let i = 0; i + words.length <= q.length; i++) {
      if (words.every((w, k) => q[i + k] === w)) return true;
    }
    return false;
  }).map(({ term }) => term);
}

// Cited law abbreviations the files may use (catches typos such as 'SGB 2' or 'StVO 2013').
const LAWS = new Set([
  'AGG', 'AO', 'ArbZG', 'AsylG', 'AufenthG', 'BAföG', 'BauGB', 'BauNVO', 'BBG', 'BDG', 'BDSG', 'BeamtStG', 'BEEG', 'BerHG', 'BetrVG',
  'BGB', 'BImSchG', 'BtMG', 'BUrlG', 'BVerfGG', 'BZRG', 'DSGVO', 'EntgFG', 'ErbStG', 'EStG', 'FeV', 'Fluggastrechte-VO', 'GewO',
  'GewSchG', 'GG', 'GmbHG', 'HGB', 'IFG', 'InsO', 'JGG', 'KCanG', 'KSchG', 'KUG', 'MarkenG', 'MiLoG', 'MuSchG', 'MÜ', 'OWiG', 'PatG',
  'PBefG', 'PflVG', 'SchwarzArbG', 'SGB II', 'SGB III', 'SGB IV', 'SGB V', 'SGB VI', 'SGB VII', 'SGB VIII', 'SGB IX', 'SGB X',
  'SGB XI', 'SGB XII', 'StAG', 'StGB', 'StPO', 'StVG', 'StVO', 'StVZO', 'TDDDG', 'TKG', 'TzBfG', 'UrhG', 'UStG', 'UWG', 'VersammlG',
  'VersAusglG', 'VVG', 'VwGO', 'VwVfG', 'WEG', 'WoGG', 'ZPO',
]);
const SUB_RANK: Record<string, number> = { 'Abs.': 0, 'UAbs.': 1, 'Satz': 2, 'Nr.': 3, 'lit.': 4 };
const NORM = /^(?:§|Art\.) \d+[a-z]{0,2}((?: (?:Abs\.|UAbs\.|Satz|Nr\.|lit\.) (?:\d+[a-z]{0,2}|[a-z]))*) (\S+(?: [IVX]+)?)$/u;
const UNIT = /^(§|Art\.) (\d+[a-z]{0,2}) (\S+(?: [IVX]+)?)$/u;

/** Why a norm string is not canonical ('§ 573 Abs. 2 Nr. 2 BGB', 'Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO'), or null. */
function normProblem(norm: string): string | null {
  const m = NORM.exec(norm);
  if (!m) return 'not of the form "§ N [Abs. N] [UAbs. N] [Satz N] [Nr. N] [lit. x] LAW"';
  const ranks = [...m[1].matchAll(/ (Abs\.|UAbs\.|Satz|Nr\.|lit\.) /gu)].map((s) => SUB_RANK[s[1]]);
  if (ranks.some((r, i) => i > 0 && r <= ranks[i - 1])) return 'subdivisions out of order or repeated';
  if (!LAWS.has(m[2])) return `unknown law abbreviation ${m[2]}`;
  return null;
}

// ---------------------------------------------------------------- the bridge

test('bridge: shape, domains covering every branch, sorted by domain then first lay term', () => {
  assert.equal(lexicon.version, 1);
  assert.match(lexicon.note, /juralite project/u);
  assert.ok(Array.isArray(lexicon.entries) && lexicon.entries.length > 0);
  for (const e of lexicon.entries) {
    assert.match(e.domain, /^[a-z_]+$/u, `domain ${e.domain}`);
    assert.ok(e.lay.length > 0 && e.legal.length > 0, `entry ${e.lay[0]} needs lay and legal terms`);
    assert.ok(Array.isArray(e.norms));
    for (const t of e.legal) assert.equal(t, t.trim(), `legal term "${t}"`);
  }
  const domains = new Set(lexicon.entries.map((e) => e.domain));
  for (const d of ['mietrecht', 'arbeitsrecht', 'familienrecht', 'erbrecht', 'verkehrsrecht', 'kaufrecht', 'sozialrecht',
    'steuerrecht', 'verwaltungsrecht', 'strafrecht', 'datenschutz', 'nachbarrecht', 'versicherungsrecht', 'reiserecht',
    'schadensersatz', 'gewerblicher_rechtsschutz', 'verfassungsrecht']) {
    assert.ok(domains.has(d), `no entry for ${d}`);
  }
  const collator = new Intl.Collator('de');
  for (let i = 1; i < lexicon.entries.length; i++) {
    const a = lexicon.entries[i - 1];
    const b = lexicon.entries[i];
    const order = collator.compare(a.domain, b.domain) || collator.compare(a.lay[0], b.lay[0]);
    assert.ok(order < 0, `entries not sorted: ${a.domain}/${a.lay[0]} before ${b.domain}/${b.lay[0]}`);
  }
});

test('bridge: at least 300 distinct lay terms, lower case, none duplicated, none equal to a legal term', () => {
  const all = lexicon.entries.flatMap((e) => e.lay);
  const seen = new Map<string, number>();
  for (const t of all) seen.set(t, (seen.get(t) ?? 0) + 1);
  assert.ok(seen.size >= 300, `${seen.size} distinct lay terms`);
  assert.deepEqual([...seen].filter(([, n]) => n > 1).map(([t]) => t), [], 'lay terms duplicated');
  assert.deepEqual(all.filter((t) => t !== t.toLowerCase() || t !== t.trim() || /\s{2}/u.test(t)), [], 'not lower case / trimmed');
  // Very short tokens ('weg', 'geld') are too ambiguous to stand alone.
  assert.deepEqual(all.filter((t) => !t.includes(' ') && t.length < 4 && !['gez', 'mpu', 'alg'].includes(t)), []);
  const legal = new Set(lexicon.entries.flatMap((e) => e.legal.map((l) => l.toLowerCase())));
  assert.deepEqual(all.filter((t) => legal.has(t)), [], 'lay terms that are legal terms');
});

test('bridge: every norm is canonical', () => {
  const bad = lexicon.entries.flatMap((e) => e.norms.map((n) => [n, normProblem(n)] as const)).filter(([, p]) => p);
  assert.deepEqual(bad, []);
});

test('bridge: abstains on legal-register queries', () => {
  for (const q of ['Eigenbedarfskündigung Härtefall', 'Verkehrssicherungspflicht bei Glätte', 'VI ZR 496/18', '§ 573 BGB',
    'Leistungsminderung wegen Meldeversäumnis', 'Geschwindigkeitsüberschreitung standardisiertes Messverfahren',
    'Versagung der Restschuldbefreiung', 'Kindesunterhalt gesteigerte Erwerbsobliegenheit', 'Einziehung von Geschäftsanteilen',
    'Testierunfähigkeit Beweislast', 'Aufhebung und Erstattung nach § 48 SGB X', 'Hilfsmittel Behinderungsausgleich Hörgerät',
    'Nebenanlage Gartenhaus im Außenbereich', 'Erschließungsbeitrag Anliegerbeitrag', 'Untersuchungshaft Fluchtgefahr']) {
    assert.deepEqual(layTermsIn(q), [], q);
  }
  assert.ok(layTermsIn('Vermieter will mich rauswerfen').includes('rauswerfen'));
});

test('bridge: reaches lay wording of every area a legal-aid service sees', () => {
  for (const [q, term] of [['Jobcenter will Geld zurück', 'jobcenter will geld zurück'], ['ich wurde geblitzt', 'geblitzt'],
    ['mein Chef zahlt nicht', 'mein chef zahlt nicht'], ['bin pleite was nun', 'bin pleite'], ['Erbschaftssteuer Haus', 'erbschaftssteuer'],
    ['Strafbefehl bekommen was tun', 'strafbefehl bekommen'], ['Einfahrt zugeparkt', 'einfahrt zugeparkt'],
    ['Bußgeld bekommen, war nicht ich gefahren', 'war nicht ich gefahren'], ['GmbH gründen allein', 'gmbh gründen']]) {
    assert.ok(layTermsIn(q).includes(term), `${q}: ${layTermsIn(q).join(', ')}`);
  }
});

test('bridge: no one-word lay term is a word of any entry\'s legal terms', () => {
  const legalWords = new Set(lexicon.entries.flatMap((e) => e.legal.flatMap(tokens)));
  const single = lexicon.entries.flatMap((e) => e.lay).filter((t) => tokens(t).length === 1);
  assert.deepEqual(single.filter((t) => legalWords.has(t)), [], 'a one-word lay term also used as a word of a legal term');
});

// The 60 laws of gii/core are checked down to Absatz and Nummer; the other federal laws (of the 6,877 in the GII
// tarball, too slow to unpack in a test: about 8 s) by their existence, their units were checked by hand against it.
test('bridge: every norm named exists in the statute text (GII core: unit, Absatz, Nummer; other laws: the law)', skipUnlessSharedData('gii/core/INDEX.json', 'gii/law_index.tsv'), () => {
  const index = JSON.parse(readFileSync(sharedData('gii/core/INDEX.json'), 'utf8')) as Record<string, string>;
  const coreFile = new Map(Object.entries(index).map(([jurabk, bjnr]) => [citedAbbreviation(jurabk), sharedData('gii/core', `${bjnr}.xml`)]));
  const cited = new Set(readFileSync(sharedData('gii/law_index.tsv'), 'utf8').split('\n').slice(1)
    .map((line) => line.split('\t')).filter(([, jurabk]) => jurabk).map(([, jurabk, amtabk]) => citedAbbreviation(jurabk, amtabk)));
  cited.add('KUG'); // the Kunsturhebergesetz, filed as KunstUrhG
  const unitOf = (norm: string) => `${NORM.exec(norm)![2]} ${/^(?:§|Art\.) \d+[a-z]{0,2}/u.exec(norm)![0]}`;
  const named = new Set(lexicon.entries.flatMap((e) => e.norms.map(unitOf)));
  const textOf = new Map<string, string>(); // '<law> § 573' -> the unit's plain text, for the units named only
  for (const [law, file] of [...coreFile].filter(([l]) => [...named].some((u) => u.startsWith(`${l} `)))) {
    for (const part of readFileSync(file, 'utf8').split('<norm ').slice(1)) {
      const enbez = /<enbez>([^<]+)<\/enbez>/u.exec(part)?.[1].replace(/\s+/gu, ' ').trim().replace(/^(?:Art|Artikel)\.? /u, 'Art. ');
      const key = `${law} ${enbez}`;
      const text = part.split('<textdaten>')[1];
      if (enbez && text && named.has(key) && !textOf.has(key)) textOf.set(key, text.replace(/<[^>]+>/gu, ' ').replace(/\s+/gu, ' '));
    }
  }
  const problems: string[] = [];
  for (const norm of new Set(lexicon.entries.flatMap((e) => e.norms))) {
    const [, subdivisions, law] = NORM.exec(norm)!;
    if (['DSGVO', 'Fluggastrechte-VO', 'MÜ'].includes(law)) continue; // EU acts and treaties: no GII text
    if (!coreFile.has(law)) {
      if (!cited.has(law)) problems.push(`${norm}: law not in GII`);
      continue;
    }
    const text = textOf.get(unitOf(norm));
    if (!text || text.trim().length < 20 || /^\s*\(?weggefallen\)?\s*$/u.test(text)) { problems.push(`${norm}: no such unit with text`); continue; }
    const abs = / Abs\. (\w+)/u.exec(subdivisions)?.[1];
    const nr = / Nr\. (\w+)/u.exec(subdivisions)?.[1];
    const from = abs ? text.indexOf(`(${abs})`) : 0;
    if (from < 0) problems.push(`${norm}: no Absatz (${abs})`);
    else if (nr && !text.slice(from).includes(` ${nr}. `)) problems.push(`${norm}: no Nummer ${nr}.`);
  }
  assert.deepEqual(problems, []);
});

// ---------------------------------------------------------------- the relevance set

test('relevance set: at least 120 queries, lay, legal and identifiers, at least 45 answerable from fixtures', () => {
  assert.equal(relevance.version, 2);
  assert.ok(relevance.note.length > 0);
  const qs = relevance.queries;
  assert.ok(qs.length >= 120, `${qs.length} queries`);
  assert.equal(new Set(qs.map((q) => q.id)).size, qs.length, 'ids unique');
  assert.equal(new Set(qs.map((q) => q.query)).size, qs.length, 'queries unique');
  const lay = qs.filter((q) => q.kind === 'lay').length;
  const legal = qs.filter((q) => q.kind === 'legal').length;
  const identifiers = qs.filter((q) => q.kind === 'identifier').length;
  assert.equal(lay + legal + identifiers, qs.length);
  assert.ok(Math.min(lay, legal, identifiers) >= 40, `${lay} lay, ${legal} legal, ${identifiers} identifiers`);
  assert.ok(qs.filter((q) => q.source === 'fixtures').length >= 45);
  for (const q of qs) {
    assert.match(q.id, /^q\d{2,3}$/u);
    assert.ok(q.source === 'fixtures' || q.source === 'shared', `${q.id} source`);
    assert.ok(q.query.length >= 2 && q.query.length <= 500, `${q.id} query length`);
    assert.ok(q.relevant_decisions.length > 0, `${q.id} has no relevant decision`);
    assert.equal(new Set(q.relevant_decisions).size, q.relevant_decisions.length, `${q.id} duplicate decisions`);
    for (const u of q.relevant_law_units) assert.match(u, UNIT, `${q.id} law unit ${u}`);
  }
});

test('relevance set: lay queries carry a lay term of the bridge and no § sign; legal queries carry none', () => {
  for (const q of relevance.queries) {
    const found = layTermsIn(q.query);
    if (q.kind === 'identifier') continue;
    if (q.kind === 'lay') {
      // Version 2's lay queries (q131 on) are written as people type, bridge term or not.
      if (Number(q.id.slice(1)) <= 80) assert.ok(found.length > 0, `${q.id} "${q.query}": no lay term of the bridge`);
      assert.ok(!q.query.includes('§'), `${q.id}: § in a lay query`);
    } else {
      assert.deepEqual(found, [], `${q.id} "${q.query}": a legal query must make the bridge abstain`);
    }
  }
});

test('relevance set: decisions of source fixtures exist in fixtures/decisions', () => {
  for (const q of relevance.queries.filter((x) => x.source === 'fixtures')) {
    for (const d of q.relevant_decisions) {
      assert.match(d, /^JURA\d{9}$/u, `${q.id}: ${d}`);
      assert.ok(existsSync(join(ROOT, 'fixtures/decisions', `${d}.xml`)), `${q.id}: fixtures/decisions/${d}.xml missing`);
    }
  }
});

/** '<unit> <cited law>' of every § / Art. held in the GII XML files given ('§ 573 BGB', 'Art. 14 GG', '§ 22 SGB II'). */
function unitsOf(files: string[]): Set<string> {
  const units = new Set<string>();
  for (const file of files) {
    const xml = readFileSync(file, 'utf8');
    for (const norm of xml.split('<norm ').slice(1)) {
      const enbez = /<enbez>([^<]+)<\/enbez>/u.exec(norm)?.[1].trim();
      if (!enbez) continue;
      const m = /^(§|Art\.?|Artikel)\s*(\d+[a-z]{0,2})$/u.exec(enbez);
      if (!m) continue;
      const unit = `${m[1] === '§' ? '§' : 'Art.'} ${m[2]}`;
      const amtabk = /<amtabk>([^<]+)<\/amtabk>/u.exec(norm)?.[1];
      for (const j of norm.matchAll(/<jurabk>([^<]+)<\/jurabk>/gu)) units.add(`${unit} ${citedAbbreviation(j[1], amtabk)}`);
      if (amtabk) units.add(`${unit} ${amtabk.trim()}`);
    }
  }
  return units;
}

test('relevance set: law units of source fixtures exist in fixtures/laws', () => {
  const dir = join(ROOT, 'fixtures/laws');
  const held = unitsOf(readdirSync(dir).filter((f) => f.endsWith('.xml')).map((f) => join(dir, f)));
  assert.ok(held.has('§ 573 BGB') && held.has('Art. 14 GG') && held.has('§ 22 SGB II') && held.has('§ 13 SGB V'));
  const missing = relevance.queries
    .filter((q) => q.source === 'fixtures')
    .flatMap((q) => q.relevant_law_units.filter((u) => !held.has(u)).map((u) => `${q.id}: ${u}`));
  assert.deepEqual(missing, []);
});

test('relevance set: law units of source shared exist in ../shared/data/gii/core', skipUnlessSharedData('gii/core/INDEX.json'), () => {
  const index = JSON.parse(readFileSync(sharedData('gii/core/INDEX.json'), 'utf8')) as Record<string, string>;
  const shared = relevance.queries.filter((q) => q.source === 'shared');
  const laws = new Set(shared.flatMap((q) => q.relevant_law_units.map((u) => UNIT.exec(u)?.[3] ?? '')));
  const files = Object.entries(index)
    .filter(([jurabk]) => laws.has(citedAbbreviation(jurabk)) || laws.has(jurabk))
    .map(([, bjnr]) => sharedData('gii/core', `${bjnr}.xml`));
  const held = unitsOf(files);
  const missing = shared.flatMap((q) => q.relevant_law_units.filter((u) => !held.has(u)).map((u) => `${q.id}: ${u}`));
  assert.deepEqual(missing, []);
});

/** Identifiers of the importable decisions in ../shared/data/decisions: doknr:, ecli:, az:<court>|<date>|<Az>. */
function sharedDecisionIds(): Set<string> {
  const ids = new Set<string>();
  const nbsp = (s: unknown) => String(s ?? '').replace(/\u00a0/gu, ' ').replace(/\s+/gu, ' ').trim();
  const riiDir = sharedData('decisions/rii_xml');
  for (const f of existsSync(riiDir) ? readdirSync(riiDir) : []) {
    const xml = readFileSync(join(riiDir, f), 'utf8');
    const doknr = /<doknr>([^<]+)<\/doknr>/u.exec(xml)?.[1];
    const ecli = /<ecli>([^<]+)<\/ecli>/u.exec(xml)?.[1];
    if (doknr) ids.add(`doknr:${doknr.trim()}`);
    if (ecli) ids.add(`ecli:${ecli.trim()}`);
  }
  const oldpDir = sharedData('decisions/oldp_json');
  for (const f of existsSync(oldpDir) ? readdirSync(oldpDir).filter((x) => x.endsWith('.json')) : []) {
    const parsed = JSON.parse(readFileSync(join(oldpDir, f), 'utf8')) as unknown;
    for (const rec of Array.isArray(parsed) ? parsed : [parsed]) {
      const r = rec as Record<string, unknown>;
      const c = (r.fields ?? r) as Record<string, unknown>;
      if (c.ecli && nbsp(c.ecli) !== 'None') ids.add(`ecli:${nbsp(c.ecli)}`);
      if (!c.file_number || !c.date) continue;
      let court = '';
      try {
        court = nbsp((JSON.parse(String(c.court_raw ?? '{}')) as { name?: string }).name);
      } catch {
        court = '';
      }
      if (!court && c.source_name === 'Bundesgerichtshof') court = 'BGH';
      if (court) ids.add(`az:${court}|${nbsp(c.date).slice(0, 10)}|${nbsp(c.file_number)}`);
    }
  }
  // Court pages (bench/relevance-corpus.ts imports them): an ECLI named in the manifest or a BVerwG page's file name,
  // upper-cased as the corpus stores it; a Bavarian page's court, date and Aktenzeichen from its title.
  const pages = sharedData('decisions/court_websites/MANIFEST.jsonl');
  for (const line of existsSync(pages) ? readFileSync(pages, 'utf8').split('\n').filter(Boolean) : []) {
    const page = JSON.parse(line) as { path: string; title: string; ecli_found: string[] };
    for (const ecli of page.ecli_found) ids.add(`ecli:${ecli.toUpperCase()}`);
    const name = page.path.split('/').pop()!.replace(/\.html$/u, '');
    if (page.path.includes('Bundesverwaltungsgerichts')) ids.add(`ecli:ECLI:DE:BVERWG:20${name.slice(4, 6)}:${name}`.toUpperCase());
    const head = /- (.+?), \p{L}+ v\. (\d{2})\.(\d{2})\.(\d{4}) – (.+)$/u.exec(page.title);
    if (head) ids.add(`az:${head[1].replace(/^VGH München$/u, 'VGH Bayern')}|${head[4]}-${head[3]}-${head[2]}|${head[5]}`);
  }
  const bayern = sharedData('decisions/bayern_xml');
  for (const f of existsSync(bayern) ? readdirSync(bayern) : []) {
    const xml = readFileSync(join(bayern, f), 'utf8');
    const tag = (name: string) => new RegExp(`<${name}[^>]*>([^<]+)</${name}>`, 'u').exec(xml)?.[1].trim();
    ids.add(`az:${tag('gertyp')} ${tag('gerort')}|${tag('entsch-datum')}|${tag('aktenzeichen')}`);
  }
  for (const id of [...ids]) if (id.startsWith('ecli:')) ids.add(id.toUpperCase().replace(/^ECLI:/u, 'ecli:'));
  return ids;
}

test('relevance set: decisions of source shared exist in ../shared/data/decisions', skipUnlessSharedData('decisions/rii_xml', 'decisions/oldp_json'), () => {
  const ids = sharedDecisionIds();
  const missing: string[] = [];
  for (const q of relevance.queries.filter((x) => x.source === 'shared')) {
    for (const d of q.relevant_decisions) {
      assert.match(d, /^(?:doknr|ecli|az):\S/u, `${q.id}: ${d}`);
      if (!ids.has(d)) missing.push(`${q.id}: ${d}`);
    }
  }
  assert.deepEqual(missing, []);
});
