/**
 * The corpus of the judged relevance set (bench/search-relevance.json, version 2): the demo decisions (fixtures/),
 * the importable real decisions of ../shared/data (decisions/rii_xml, decisions/oldp_json) and the ones the importer
 * does not read as published: the 115 court pages of decisions/court_websites (BVerwG, BAG, BFH, Bavarian courts) and
 * the gesetze-bayern.de XML of decisions/bayern_xml. Those are turned into Open Legal Data records (court, file
 * number, date, ECLI, title, content as HTML with section headings) under .tmp/relevance-src/ and imported with the
 * project's importer, so juralite and the peer engines (bench/peers) read the same decisions.
 *
 *   node bench/relevance-corpus.ts            # builds .tmp/relevance.db (once; --rebuild to start over)
 *   node bench/relevance-corpus.ts --export   # also writes .tmp/relevance-docs.jsonl for the peers
 *
 * The export is one line per decision: {key, court, aktenzeichen, ecli, title, lead, body}, the text as the corpus
 * stores it (chunks in order, split into lead = Leitsatz/Orientierungssatz/Tenor and body).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { openCorpus, upgradeCorpus } from '../src/corpus/open.ts';
import { chunkTexts } from '../src/corpus/stored-text.ts';
import { importPaths } from '../src/ingest/import-paths.ts';
import { sharedData } from '../test/helpers/shared-data.ts';

export const RELEVANCE_DB = '.tmp/relevance.db';
export const RELEVANCE_DOCS = '.tmp/relevance-docs.jsonl';
const SOURCES = '.tmp/relevance-src';
const FIXTURE_DECISIONS = fileURLToPath(new URL('../fixtures/decisions/', import.meta.url));

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', shy: '', auml: 'ä',
  ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', sect: '§', ndash: '–', mdash: '—', bdquo: '„',
  ldquo: '“', rdquo: '”', lsquo: '‘', rsquo: '’', sbquo: '‚', euro: '€', hellip: '…', eacute: 'é', egrave: 'è', agrave: 'à',
  middot: '·', para: '¶', bull: '•', laquo: '«', raquo: '»', deg: '°', frac12: '½', times: '×', zwnj: '', zwj: '' };

/** The visible text of an HTML page, one line per block, without scripts, styles and comments. */
function pageLines(html: string): string[] {
  const text = html
    .replace(/<!--[\s\S]*?-->/gu, '')
    .replace(/<(script|style|noscript)\b[^>]*>[\s\S]*?<\/\1>/giu, '')
    .replace(/<[^>]+>/gu, '\n')
    .replace(/&#x([0-9a-f]+);/giu, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/gu, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&([a-z0-9]+);/giu, (whole, name: string) => ENTITIES[name] ?? whole);
  return text.split('\n').map((line) => line.replace(/[\s\u00ad]+/gu, ' ').trim()).filter((line) => line !== '');
}

const SECTION = /^(Leitsätze?|Leitsatz|Orientierungssätze?|Tenor|Tatbestand|Gründe|Entscheidungsgründe|Sachverhalt)\s*:?$/u;

/** Lines to HTML paragraphs, section names as <h2>, a line that is only a number as the next paragraph's Randnummer. */
function contentHtml(lines: string[]): string {
  const out: string[] = [];
  let rn: string | null = null;
  for (const line of lines) {
    if (SECTION.test(line)) {
      out.push(`<h2>${escapeHtml(line.replace(/:$/u, ''))}</h2>`);
    } else if (/^\d{1,4}$/u.test(line)) {
      rn = line;
    } else {
      out.push(`<p>${rn ? `<rd nr="${rn}"/>` : ''}${escapeHtml(line)}</p>`);
      rn = null;
    }
  }
  return out.join('\n');
}

const escapeHtml = (s: string) => s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');

/** The lines from the first matching `start` to before the first `end` after it. */
function between(lines: string[], start: (line: string) => boolean, end: (line: string) => boolean): string[] {
  const from = lines.findIndex(start);
  if (from < 0) return [];
  const to = lines.findIndex((line, i) => i > from && end(line));
  return lines.slice(from, to < 0 ? undefined : to);
}

const MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
const isoDate = (d: string, m: string, y: string) => `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;

export interface CourtPage { path: string; court_hint: string; ecli_found: string[] }
export interface OldpRecord { court: string; file_number: string; date: string; ecli: string | null; type: string; title: string | null; content: string }

/** One court page as an Open Legal Data record, or null where its text was not found. */
export function courtPageRecord(page: CourtPage, html: string): OldpRecord | null {
  const lines = pageLines(html);
  const ecli = page.ecli_found[0] ?? null;
  if (page.court_hint === 'BFH') {
    const at = lines.findIndex((line) => /^vom \d{1,2}\. \p{L}+ \d{4}, .+$/u.test(line));
    if (at < 1) return null;
    const [, d, month, y, az] = /^vom (\d{1,2})\. (\p{L}+) (\d{4}), (.+)$/u.exec(lines[at]!)!;
    const end = lines.findIndex((line, i) => i > at && line === 'zurück zur Übersicht');
    const text = lines.slice(at + 3, end < 0 ? undefined : end);
    return { court: 'BFH', file_number: az!, date: isoDate(d!, String(MONTHS.indexOf(month!) + 1), y!), ecli,
      type: lines[at - 1]!, title: lines[at + 1]!, content: contentHtml(text) };
  }
  if (page.court_hint === 'BAG') {
    const at = lines.indexOf('Details');
    if (at < 2) return null;
    const field = (name: string) => lines[lines.indexOf(name, at) + 1] ?? '';
    const [d, m, y] = field('Datum').split('.');
    const end = lines.findIndex((line, i) => i > at && /^(Dokumente|Zurück|Diese Seite|Termine)/u.test(line) || line === 'Ihre Kontaktdaten');
    const text = lines.slice(lines.indexOf('Senat', at) + 2, end < 0 ? undefined : end);
    const cut = text.findIndex((line) => /^(Zum Seitenanfang|Kontaktformular|Anmeldung)/u.test(line));
    return { court: 'BAG', file_number: field('Aktenzeichen'), date: isoDate(d!, m!, y!), ecli: field('ECLI') || ecli,
      type: field('Art'), title: lines[at - 2] === 'PDF herunterladen' ? lines[at - 3]! : lines[at - 2]!,
      content: contentHtml(cut < 0 ? text : text.slice(0, cut)) };
  }
  if (page.court_hint === 'BVerwG') {
    const head = lines.map((line) => /^BVerwG (.+), (\p{L}+) vom (\d{2})\. (\p{L}+) (\d{4})$/u.exec(line)).find(Boolean);
    if (!head) return null;
    const [, az, type, d, month, y] = head;
    const start = lines.findIndex((line) => line.startsWith('[ECLI:'));
    const end = lines.findIndex((line, i) => i > start && line === 'Dokumente zum Verfahren');
    const text = lines.slice(start + 1, end < 0 ? undefined : end);
    // The page's own ECLI is its file name (the manifest's first ECLI is sometimes one the decision cites).
    const name = page.path.split('/').pop()!.replace(/\.html$/u, '');
    const own = /^\d{4}(\d{2})[A-Z]/u.test(name) ? `ECLI:DE:BVerwG:20${name.slice(4, 6)}:${name}` : ecli;
    return { court: 'BVerwG', file_number: az!, date: isoDate(d!, String(MONTHS.indexOf(month!) + 1), y!), ecli: own, type: type!,
      title: null, content: contentHtml(text) };
  }
  // gesetze-bayern.de: 'OLG Bamberg, Hinweisbeschluss v. 06.02.2024 – 10 U 61/23 e'
  const head = lines.filter((line) => !line.startsWith('Bürgerservice')).map((line) => /^(.+?), (\p{L}+) v\. (\d{2})\.(\d{2})\.(\d{4}) – (.+)$/u.exec(line)).find(Boolean);
  if (!head) return null;
  const [, court, type, d, m, y, az] = head;
  const start = lines.indexOf('Titel:');
  const end = lines.findIndex((line, i) => i > start && line === 'Bayern.de');
  const text = lines.slice(start + 2, end < 0 ? undefined : end).filter((line) => !/^(Normenketten?|Schlagworte|Vorinstanz|Fundstellen|Rechtsmittelinstanz):$/u.test(line));
  return { court: court!, file_number: az!, date: isoDate(d!, m!, y!), ecli, type: type!, title: start >= 0 ? lines[start + 1]! : null,
    content: contentHtml(text) };
}

/** The gesetze-bayern.de decision XML (byrecht-rspr) as an Open Legal Data record. */
export function bayernXmlRecord(xml: string): OldpRecord {
  const tag = (name: string) => /<(\w[\w-]*)[^>]*>([\s\S]*?)<\/\1>/u.exec(xml.slice(xml.indexOf(`<${name}`)))?.[2] ?? '';
  const court = `${tag('gertyp')} ${tag('gerort')}`;
  const sections = [['leitsatz', 'Leitsatz'], ['tenor', 'Tenor'], ['tatbestand', 'Tatbestand'], ['gruende', 'Gründe']]
    .filter(([name]) => xml.includes(`<${name}>`))
    .map(([name, heading]) => `<h2>${heading}</h2>${xml.slice(xml.indexOf(`<${name}>`), xml.indexOf(`</${name}>`))}`);
  return { court, file_number: tag('aktenzeichen'), date: tag('entsch-datum'), ecli: null, type: 'Beschluss',
    title: xml.includes('<titelzeile>') ? pageLines(tag('titelzeile')).join(' ') : null, content: sections.join('\n') };
}

/** Writes the converted records; returns their paths. */
function convertSources(): string[] {
  rmSync(SOURCES, { recursive: true, force: true });
  mkdirSync(SOURCES, { recursive: true });
  const written: string[] = [];
  const pagesDir = sharedData('decisions/court_websites');
  const pages = readFileSync(join(pagesDir, 'MANIFEST.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CourtPage);
  for (const page of pages) {
    const record = courtPageRecord(page, readFileSync(join(pagesDir, page.path), 'utf8'));
    if (!record || record.content.length < 500) {
      console.error(`relevance corpus: no decision text found in ${page.path}`);
      continue;
    }
    const path = join(SOURCES, `${page.path.split('/').pop()!.replace(/\.html$/u, '')}.json`);
    writeFileSync(path, JSON.stringify(record));
    written.push(path);
  }
  const bayern = sharedData('decisions/bayern_xml');
  for (const file of readdirSync(bayern).filter((f) => f.endsWith('.xml'))) {
    const path = join(SOURCES, file.replace(/\.xml$/u, '.json'));
    writeFileSync(path, JSON.stringify(bayernXmlRecord(readFileSync(join(bayern, file), 'utf8'))));
    written.push(path);
  }
  return written;
}

/** Builds the corpus once (or anew with rebuild) and returns it opened read-only. */
export async function relevanceCorpus(rebuild = false): Promise<Database.Database> {
  if (rebuild) rmSync(RELEVANCE_DB, { force: true });
  if (existsSync(RELEVANCE_DB)) {
    upgradeCorpus(RELEVANCE_DB);
  } else {
    const converted = convertSources();
    const db = openCorpus(RELEVANCE_DB);
    try {
      const summary = await importPaths(db, [sharedData('gii/core'), FIXTURE_DECISIONS, sharedData('decisions/rii_xml'),
        sharedData('decisions/oldp_json'), ...converted]);
      for (const failure of summary.failed) console.error(`relevance corpus: not imported: ${JSON.stringify(failure)}`);
    } finally {
      db.close();
    }
  }
  return openCorpus(RELEVANCE_DB, { readonly: true });
}

/** The judged key of a decision: its ECLI where it has one, else doknr, else court|date|Aktenzeichen. */
export function decisionKeys(db: Database.Database): Map<string, string> {
  const rows = db.prepare(`SELECT d.id, d.doknr, d.ecli, d.court, d.date, f.aktenzeichen FROM decisions d
    LEFT JOIN decision_file_numbers f ON f.decision_id = d.id AND f.position = 0`).all() as Record<string, string | null>[];
  return new Map(rows.map((r) => [r.id!, r.doknr?.startsWith('JURA') ? r.doknr : r.ecli ? `ecli:${r.ecli}` : r.doknr ? `doknr:${r.doknr}` : `az:${r.court}|${r.date}|${r.aktenzeichen}`]));
}

/** Writes RELEVANCE_DOCS: every decision's key, identifiers and text as the corpus holds it, for the peers. */
export function exportDocs(db: Database.Database): number {
  const keys = decisionKeys(db);
  const lead = new Set(['Leitsatz', 'Orientierungssatz', 'Tenor']);
  const files = db.prepare('SELECT aktenzeichen FROM decision_file_numbers WHERE decision_id = ? ORDER BY position');
  const lines: string[] = [];
  for (const d of db.prepare('SELECT id, court, ecli, title FROM decisions ORDER BY id').all() as Record<string, string | null>[]) {
    const parts = chunkTexts(db, d.id!);
    lines.push(JSON.stringify({ key: keys.get(d.id!), court: d.court, ecli: d.ecli, title: d.title,
      aktenzeichen: (files.all(d.id) as { aktenzeichen: string }[]).map((f) => f.aktenzeichen).join(' '),
      lead: parts.filter((p) => lead.has(p.section ?? '')).map((p) => p.text).join('\n'),
      body: parts.filter((p) => !lead.has(p.section ?? '')).map((p) => p.text).join('\n') }));
  }
  writeFileSync(RELEVANCE_DOCS, `${lines.join('\n')}\n`);
  return lines.length;
}

if (import.meta.main) {
  const db = await relevanceCorpus(process.argv.includes('--rebuild'));
  const n = (db.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number }).n;
  console.log(`${RELEVANCE_DB}: ${n} decisions`);
  if (process.argv.includes('--export')) console.log(`${RELEVANCE_DOCS}: ${exportDocs(db)} decisions`);
  db.close();
}
