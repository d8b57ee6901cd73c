/**
 * The scale generator: writes N realistic synthetic decisions in the rechtsprechung-im-internet.de XML format, for
 * benchmarks at 10k and 100k decisions. Deterministic for a seed: same N and seed, same files.
 *
 *   node bench/generate.ts --count 100000 --out .tmp/gen-100k [--seed 1]
 *
 * Court mix, Aktenzeichen per court type, dates 1990–2025, 6–48 printed Randnummern, citations of real statutes (real
 * law abbreviations and § numbers) and of earlier generated decisions (court, date, Aktenzeichen; popular decisions
 * are cited more, as in real case law). Files go into folders of 1,000.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface CourtKind { type: string; branch: string; weight: number; places: string[]; az: (r: Rng, year: number) => string; chamber: string }

class Rng {
  private state: number;
  constructor(seed: number) { this.state = seed >>> 0; }
  next(): number { // mulberry32
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number { return min + Math.floor(this.next() * (max - min + 1)); }
  pick<T>(items: readonly T[]): T { return items[Math.floor(this.next() * items.length)]; }
  /** A Zipf-like pick from 0..n-1: low indexes far more often. */
  popular(n: number): number { return Math.min(n - 1, Math.floor(n * this.next() ** 3)); }
}

const roman = (n: number) => ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'][n - 1];
const yy = (year: number) => String(year % 100).padStart(2, '0');
const TOWNS = ['Berlin', 'München', 'Hamburg', 'Köln', 'Frankfurt', 'Stuttgart', 'Düsseldorf', 'Dresden', 'Hannover', 'Nürnberg', 'Bremen', 'Leipzig', 'Karlsruhe', 'Mannheim', 'Kiel', 'Rostock'];

const COURTS: CourtKind[] = [
  { type: 'BGH', branch: 'ordentlich', weight: 8, places: [''], chamber: 'Zivilsenat', az: (r, y) => `${roman(r.int(1, 12))} ZR ${r.int(1, 499)}/${yy(y)}` },
  { type: 'OLG', branch: 'ordentlich', weight: 14, places: TOWNS, chamber: 'Zivilsenat', az: (r, y) => `${r.int(1, 30)} U ${r.int(1, 399)}/${yy(y)}` },
  { type: 'LG', branch: 'ordentlich', weight: 18, places: TOWNS, chamber: 'Zivilkammer', az: (r, y) => `${r.int(1, 40)} O ${r.int(1, 2999)}/${yy(y)}` },
  { type: 'AG', branch: 'ordentlich', weight: 10, places: TOWNS, chamber: 'Abteilung', az: (r, y) => `${r.int(1, 60)} C ${r.int(1, 1999)}/${yy(y)}` },
  { type: 'BVerwG', branch: 'verwaltung', weight: 3, places: [''], chamber: 'Senat', az: (r, y) => `${r.int(1, 10)} C ${r.int(1, 60)}.${yy(y)}` },
  { type: 'OVG', branch: 'verwaltung', weight: 4, places: TOWNS, chamber: 'Senat', az: (r, y) => `${r.int(1, 15)} B ${r.int(1, 999)}/${yy(y)}` },
  { type: 'VG', branch: 'verwaltung', weight: 8, places: TOWNS, chamber: 'Kammer', az: (r, y) => `${r.int(1, 30)} K ${r.int(1, 4999)}/${yy(y)}` },
  { type: 'BSG', branch: 'sozial', weight: 3, places: [''], chamber: 'Senat', az: (r, y) => `B ${r.int(1, 14)} AS ${r.int(1, 99)}/${yy(y)} R` },
  { type: 'LSG', branch: 'sozial', weight: 4, places: TOWNS, chamber: 'Senat', az: (r, y) => `L ${r.int(1, 20)} AS ${r.int(1, 999)}/${yy(y)}` },
  { type: 'SG', branch: 'sozial', weight: 5, places: TOWNS, chamber: 'Kammer', az: (r, y) => `S ${r.int(1, 50)} AS ${r.int(1, 2999)}/${yy(y)}` },
  { type: 'BAG', branch: 'arbeit', weight: 3, places: [''], chamber: 'Senat', az: (r, y) => `${r.int(1, 10)} AZR ${r.int(1, 899)}/${yy(y)}` },
  { type: 'LAG', branch: 'arbeit', weight: 4, places: TOWNS, chamber: 'Kammer', az: (r, y) => `${r.int(1, 20)} Sa ${r.int(1, 1999)}/${yy(y)}` },
  { type: 'ArbG', branch: 'arbeit', weight: 4, places: TOWNS, chamber: 'Kammer', az: (r, y) => `${r.int(1, 60)} Ca ${r.int(1, 9999)}/${yy(y)}` },
  { type: 'BFH', branch: 'finanz', weight: 3, places: [''], chamber: 'Senat', az: (r, y) => `${roman(r.int(1, 11))} R ${r.int(1, 99)}/${yy(y)}` },
  { type: 'FG', branch: 'finanz', weight: 3, places: TOWNS, chamber: 'Senat', az: (r, y) => `${r.int(1, 15)} K ${r.int(1, 4999)}/${yy(y)}` },
  { type: 'BVerfG', branch: 'verfassung', weight: 2, places: [''], chamber: 'Senat', az: (r, y) => `${r.int(1, 2)} BvR ${r.int(1, 2999)}/${yy(y)}` },
  { type: 'BPatG', branch: 'patent', weight: 1, places: [''], chamber: 'Senat', az: (r, y) => `${r.int(1, 35)} W (pat) ${r.int(1, 99)}/${yy(y)}` },
];
const TOTAL_WEIGHT = COURTS.reduce((sum, court) => sum + court.weight, 0);

/** Topics per branch: vocabulary and the statutes they cite (real abbreviations and § numbers). */
const TOPICS: Record<string, { words: string[]; norms: string[] }[]> = {
  ordentlich: [
    { words: ['Eigenbedarfskündigung', 'Mietverhältnis', 'Vermieter', 'Mieter', 'Härtegründe', 'Wohnraum'], norms: ['§ 573 Abs. 2 Nr. 2 BGB', '§ 574 BGB', '§ 543 BGB'] },
    { words: ['Verkehrssicherungspflicht', 'Glätte', 'Streupflicht', 'Gehweg', 'Schmerzensgeld', 'Sturz'], norms: ['§ 823 Abs. 1 BGB', '§ 253 Abs. 2 BGB', '§ 254 BGB'] },
    { words: ['Kaufvertrag', 'Sachmangel', 'Nacherfüllung', 'Rücktritt', 'Gebrauchtwagen', 'Gewährleistung'], norms: ['§ 433 BGB', '§ 434 BGB', '§ 437 BGB', '§ 439 BGB', '§ 323 BGB'] },
    { words: ['Schadensersatz', 'Pflichtverletzung', 'Fristsetzung', 'Werkvertrag', 'Abnahme', 'Vergütung'], norms: ['§ 280 Abs. 1 BGB', '§ 281 Abs. 1 BGB', '§ 631 BGB', '§ 640 BGB'] },
    { words: ['Betrug', 'Vermögensschaden', 'Täuschung', 'Irrtum', 'Strafzumessung', 'Revision'], norms: ['§ 263 StGB', '§ 46 StGB', '§ 349 Abs. 2 StPO'] },
  ],
  verwaltung: [
    { words: ['Baugenehmigung', 'Innenbereich', 'Einfügen', 'Nachbar', 'Rücksichtnahme', 'Bebauung'], norms: ['§ 34 BauGB', '§ 113 Abs. 1 VwGO', '§ 42 Abs. 2 VwGO'] },
    { words: ['Versammlung', 'Auflage', 'Versammlungsfreiheit', 'Gefahrenprognose', 'Eilverfahren'], norms: ['Art. 8 Abs. 1 GG', '§ 80 Abs. 5 VwGO', '§ 15 VersG'] },
    { words: ['Asyl', 'Flüchtlingseigenschaft', 'Verfolgung', 'Herkunftsland', 'Abschiebung'], norms: ['§ 3 AsylG', '§ 60 Abs. 5 AufenthG', '§ 77 AsylG'] },
  ],
  sozial: [
    { words: ['Bürgergeld', 'Grundsicherung', 'Bedarfsgemeinschaft', 'Kosten der Unterkunft', 'Jobcenter'], norms: ['§ 7 SGB II', '§ 22 Abs. 1 SGB II', '§ 9 SGB II'] },
    { words: ['Krankenversicherung', 'Kostenerstattung', 'Leistungsantrag', 'Genehmigungsfiktion', 'Krankenkasse'], norms: ['§ 13 Abs. 3 SGB V', '§ 27 SGB V', '§ 12 SGB V'] },
    { words: ['Erwerbsminderungsrente', 'Leistungsvermögen', 'Gutachten', 'Rentenversicherung'], norms: ['§ 43 SGB VI', '§ 103 SGG'] },
  ],
  arbeit: [
    { words: ['Kündigungsschutz', 'Sozialauswahl', 'betriebsbedingt', 'Arbeitnehmer', 'Arbeitgeber'], norms: ['§ 1 Abs. 2 KSchG', '§ 1 Abs. 3 KSchG', '§ 4 KSchG'] },
    { words: ['fristlose Kündigung', 'wichtiger Grund', 'Abmahnung', 'Interessenabwägung'], norms: ['§ 626 Abs. 1 BGB', '§ 626 Abs. 2 BGB'] },
    { words: ['Urlaubsabgeltung', 'Urlaubsanspruch', 'Verfall', 'Mitwirkungsobliegenheit'], norms: ['§ 7 Abs. 4 BUrlG', '§ 7 Abs. 3 BUrlG', '§ 1 BUrlG'] },
  ],
  finanz: [
    { words: ['Werbungskosten', 'Arbeitszimmer', 'Einkünfte', 'Veranlagung', 'Finanzamt'], norms: ['§ 9 Abs. 1 EStG', '§ 4 Abs. 5 Satz 1 Nr. 6b EStG', '§ 12 EStG'] },
    { words: ['Haftung', 'Geschäftsführer', 'Steuerschulden', 'Pflichtverletzung'], norms: ['§ 69 AO', '§ 34 AO', '§ 191 AO'] },
  ],
  verfassung: [
    { words: ['allgemeines Persönlichkeitsrecht', 'Meinungsfreiheit', 'Abwägung', 'Verfassungsbeschwerde'], norms: ['Art. 2 Abs. 1 GG', 'Art. 1 Abs. 1 GG', 'Art. 5 Abs. 1 Satz 1 GG'] },
    { words: ['Berufsfreiheit', 'Verhältnismäßigkeit', 'Eingriff', 'Gesetzgeber'], norms: ['Art. 12 Abs. 1 GG', 'Art. 3 Abs. 1 GG', '§ 90 BVerfGG'] },
  ],
  patent: [
    { words: ['Patentfähigkeit', 'erfinderische Tätigkeit', 'Stand der Technik', 'Fachmann', 'Beschwerde'], norms: ['§ 1 Abs. 1 PatG', '§ 4 PatG', '§ 73 PatG'] },
  ],
};

const SENTENCES = [
  'Das Berufungsgericht hat zutreffend angenommen, dass {w1} im Streitfall nach {n1} zu beurteilen ist.',
  'Nach ständiger Rechtsprechung setzt {w1} voraus, dass die Voraussetzungen des {n1} vorliegen.',
  'Die Revision rügt ohne Erfolg, die Vorinstanz habe {w2} verkannt.',
  'Entgegen der Auffassung der Beklagten kommt es für {w1} nicht auf {w3} an.',
  'Die Klägerin hat {w2} hinreichend dargelegt; Beweis ist insoweit nicht angetreten.',
  'Ein Anspruch aus {n1} in Verbindung mit {n2} besteht nicht.',
  'Bei der gebotenen Abwägung ist insbesondere {w3} zu berücksichtigen.',
  'Die Frage, ob {w1} vorliegt, unterliegt der tatrichterlichen Würdigung.',
  'Der Senat hält an dieser Rechtsprechung fest (vgl. {cite}).',
  'So liegt der Fall hier: {w2} ist weder vorgetragen noch sonst ersichtlich.',
  'Dies entspricht der Rechtsprechung des Bundesgerichtshofs zu {w1} ({cite}, Rn. {rn}).',
  'Zu Unrecht meint die Beklagte, {w3} schließe {w2} aus.',
  'Die Kostenentscheidung beruht auf § 91 Abs. 1 ZPO.',
  'Das Gericht folgt insoweit den überzeugenden Ausführungen des Sachverständigen zu {w2}.',
];

function weightedCourt(r: Rng): CourtKind {
  let roll = r.next() * TOTAL_WEIGHT;
  for (const court of COURTS) if ((roll -= court.weight) < 0) return court;
  return COURTS[0];
}

interface Generated { court: string; date: Date; az: string }

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const germanDate = (date: Date) => `${date.getUTCDate()}. ${['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'][date.getUTCMonth()]} ${date.getUTCFullYear()}`;

function citation(r: Rng, target: Generated): string {
  const type = r.next() < 0.7 ? 'Urteil' : 'Beschluss';
  return r.next() < 0.5
    ? `${target.court}, ${type} vom ${germanDate(target.date)} - ${target.az}`
    : `${target.court} ${germanDate(target.date)} - ${target.az} -`;
}

function paragraph(r: Rng, topic: { words: string[]; norms: string[] }, earlier: Generated[], rn: number): string {
  const count = r.int(2, 7);
  const sentences: string[] = [];
  for (let index = 0; index < count; index++) {
    let sentence = r.pick(SENTENCES);
    if (sentence.includes('{cite}') && earlier.length === 0) sentence = SENTENCES[1];
    sentences.push(sentence
      .replace('{w1}', r.pick(topic.words)).replace('{w2}', r.pick(topic.words)).replace('{w3}', r.pick(topic.words))
      .replace('{n1}', r.pick(topic.norms)).replace('{n2}', r.pick(topic.norms))
      .replace('{cite}', () => citation(r, earlier[r.popular(earlier.length)]))
      .replace('{rn}', String(r.int(5, 40))));
  }
  return `<dl class="RspDL"><dt><a name="rd_${rn}">${rn}</a></dt><dd><p>${xmlEscape(sentences.join(' '))}</p></dd></dl>`;
}

function decisionXml(index: number, r: Rng, earlier: Generated[]): { xml: string; meta: Generated } {
  const kind = weightedCourt(r);
  const place = r.pick(kind.places);
  const court = place ? `${kind.type} ${place}` : kind.type;
  const year = r.int(1990, 2025);
  const date = new Date(Date.UTC(year, r.int(0, 11), r.int(1, 28)));
  const az = kind.az(r, year);
  const topic = r.pick(TOPICS[kind.branch]);
  const type = r.next() < 0.6 ? 'Urteil' : 'Beschluss';
  const rnCount = r.int(6, 48);
  const tatbestandEnd = Math.max(2, Math.floor(rnCount / 4));
  const paragraphs = Array.from({ length: rnCount }, (_, rn) => paragraph(r, topic, earlier, rn + 1));
  const doknr = `GEN${String(index).padStart(9, '0')}`;
  const ymd = date.toISOString().slice(0, 10).replace(/-/g, '');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<dokument>
<doknr>${doknr}</doknr>
<ecli>ECLI:DE:${kind.type}:${year}:${ymd.slice(6)}${ymd.slice(4, 6)}${yy(year)}${type[0]}${az.replace(/[^A-Za-z0-9.]/g, '').replace('/', '.')}.${index}</ecli>
<gertyp>${kind.type}</gertyp>
<gerort>${place}</gerort>
<spruchkoerper>${r.int(1, 12)}. ${kind.chamber}</spruchkoerper>
<entsch-datum>${ymd}</entsch-datum>
<aktenzeichen>${xmlEscape(az)}</aktenzeichen>
<doktyp>${type}</doktyp>
<norm>${xmlEscape(topic.norms.slice(0, 2).map((norm) => norm.replace(/\. /g, ' ')).join(', '))}</norm>
<titelzeile><p>${xmlEscape(`${topic.words[0]}: ${topic.words[1]} und ${topic.words[2]}`)}</p></titelzeile>
<leitsatz><p>${xmlEscape(`Zur Frage, unter welchen Voraussetzungen ${topic.words[0]} nach ${topic.norms[0]} vorliegt.`)}</p></leitsatz>
<tenor><p>${type === 'Urteil' ? 'Die Revision wird zurückgewiesen.' : 'Die Beschwerde wird zurückgewiesen.'} Die Kosten des Verfahrens trägt die unterliegende Partei.</p></tenor>
<tatbestand>${paragraphs.slice(0, tatbestandEnd).join('\n')}</tatbestand>
<entscheidungsgruende>${paragraphs.slice(tatbestandEnd).join('\n')}</entscheidungsgruende>
</dokument>
`;
  return { xml, meta: { court, date, az } };
}

/** Writes `count` decisions below `out` (folders of 1,000); returns the number of bytes written. */
export function generate(count: number, out: string, seed = 1): number {
  const r = new Rng(seed);
  const earlier: Generated[] = [];
  let bytes = 0;
  for (let index = 1; index <= count; index++) {
    const folder = join(out, `batch-${String(Math.floor((index - 1) / 1000)).padStart(4, '0')}`);
    if ((index - 1) % 1000 === 0) mkdirSync(folder, { recursive: true });
    const { xml, meta } = decisionXml(index, r, earlier);
    writeFileSync(join(folder, `GEN${String(index).padStart(9, '0')}.xml`), xml);
    bytes += Buffer.byteLength(xml);
    earlier.push(meta);
  }
  return bytes;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '10000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' } } });
  if (!values.out) {
    console.error('usage: node bench/generate.ts --count N --out DIR [--seed S]');
    process.exit(2);
  }
  const started = performance.now();
  const bytes = generate(Number(values.count), values.out, Number(values.seed));
  console.log(`generated ${values.count} decisions (${(bytes / 1e6).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s into ${values.out}`);
}
