/**
 * A small corpus written directly with SQL against schema/corpus.sql, for tests of the HTTP edge that must not
 * depend on the importers. Three decisions:
 * - BGH VIII ZR 123/19 (2020-01-15): Leitsatz, Tenor, Gründe, printed Rn. 1–6, one chunk per Rn.; a character
 *   outside the Basic Multilingual Plane in the Tenor, so code-point slicing shows;
 * - LG Berlin and LG München I, both `1 S 23/19` (an ambiguous Aktenzeichen), without Randnummern.
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { codePointLength } from '../../src/text/code-points.ts';
import { rebuildCitationEdges } from '../../src/graph/edges.ts';
import { registerTextFunctions } from '../../src/corpus/stored-text.ts';

export const SMALL = {
  bgh: { id: '6f1d6c4e-0b59-5c1a-9a38-0a4a3c1f0001', ecli: 'ECLI:DE:BGH:2020:150120UVIIIZR123.19.0', az: 'VIII ZR 123/19' },
  lgBerlin: { id: '6f1d6c4e-0b59-5c1a-9a38-0a4a3c1f0002', az: '1 S 23/19', court: 'LG Berlin', date: '2019-05-02' },
  lgMuenchen: { id: '6f1d6c4e-0b59-5c1a-9a38-0a4a3c1f0003', az: '1 S 23/19', court: 'LG München I', date: '2018-03-01' },
};

interface Part { section: string; paragraphs: { rn: number | null; text: string }[] }

function insertDecision(db: Database.Database, row: { id: string; ecli: string | null; court: string; date: string; az: string; type: string }, parts: Part[]) {
  let text = '';
  const sections: { name: string; start: number; end: number }[] = [];
  const chunks: { section: string; rn: number | null; start: number; end: number; text: string }[] = [];
  for (const part of parts) {
    if (text) text += '\n\n';
    const start = codePointLength(text);
    text += part.section;
    for (const paragraph of part.paragraphs) {
      text += '\n\n';
      const chunkStart = codePointLength(text);
      const body = paragraph.rn === null ? paragraph.text : `${paragraph.rn} ${paragraph.text}`;
      text += body;
      chunks.push({ section: part.section, rn: paragraph.rn, start: chunkStart, end: codePointLength(text), text: body });
    }
    sections.push({ name: part.section, start, end: codePointLength(text) });
  }
  const rns = chunks.map((chunk) => chunk.rn).filter((rn): rn is number => rn !== null);
  db.prepare(`INSERT INTO decisions (id, ecli, court, date, aktenzeichen, document_type, document_kind, text_zstd, text_length,
              has_rn_anchors, rn_from, rn_to, source_format, content_hash, imported_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, compress_text(?), ?, ?, ?, ?, 'test', 'x', '2026-01-01T00:00:00Z')`)
    .run(row.id, row.ecli, row.court, row.date, row.az, row.type, row.type, text, codePointLength(text), rns.length ? 1 : 0,
      rns.length ? Math.min(...rns) : null, rns.length ? Math.max(...rns) : null);
  db.prepare('INSERT INTO decision_file_numbers (decision_id, position, aktenzeichen, az_key) VALUES (?, 0, ?, ?)')
    .run(row.id, row.az, row.az.toLowerCase());
  sections.forEach((section, position) => db.prepare(
    'INSERT INTO decision_sections (decision_id, position, name, start_offset, end_offset) VALUES (?, ?, ?, ?, ?)',
  ).run(row.id, position, section.name, section.start, section.end));
  chunks.forEach((chunk, position) => db.prepare(
    `INSERT INTO chunks (decision_id, position, section, rn_from, rn_to, start_offset, end_offset)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.id, position, chunk.section, chunk.rn, chunk.rn, chunk.start, chunk.end));
  // One chunk per paragraph here, so a numbered chunk's span is its Randnummer's paragraph.
  chunks.filter((chunk) => chunk.rn !== null).forEach((chunk, position) => db.prepare(
    'INSERT INTO decision_randnummern (decision_id, position, rn, start_offset, end_offset) VALUES (?, ?, ?, ?, ?)',
  ).run(row.id, position, chunk.rn, chunk.start, chunk.end));
}

const court = (db: Database.Database, code: string, name: string, branch: string, type: string, level: string, founded: number | null = null) =>
  db.prepare('INSERT OR IGNORE INTO courts (code, name, branch, court_type, level, founding_year, founding_basis) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(code, name, branch, type, level, founded, founded ? `established ${founded}` : null);

const law = (db: Database.Database, id: string, abbreviation: string, jurisdiction: string, units: string[]) => {
  db.prepare(`INSERT INTO laws (id, abbreviation, title, law_type, jurisdiction, text_available) VALUES (?, ?, ?, 'Gesetz', ?, 1)`)
    .run(id, abbreviation, abbreviation, jurisdiction);
  units.forEach((number, position) => db.prepare(
    `INSERT INTO law_units (id, law_id, kind, number, text, position) VALUES (?, ?, '§', ?, '(1) Text.', ?)`,
  ).run(`${id}-${number}`, id, number, position));
};

export function buildSmallCorpus(path: string): void {
  const db = new Database(path);
  registerTextFunctions(db);
  db.pragma('journal_mode = WAL');
  db.exec(readFileSync(new URL('../../schema/corpus.sql', import.meta.url), 'utf8'));
  court(db, 'BGH', 'Bundesgerichtshof', 'ordentlich', 'BGH', 'federal', 1950);
  court(db, 'LG Berlin', 'Landgericht Berlin', 'ordentlich', 'LG', 'first_instance_and_regional');
  court(db, 'LG München I', 'Landgericht München I', 'ordentlich', 'LG', 'first_instance_and_regional');
  const long = 'Die Kündigung wegen Eigenbedarfs setzt ein berechtigtes Interesse des Vermieters voraus. '.repeat(8);
  insertDecision(db, { id: SMALL.bgh.id, ecli: SMALL.bgh.ecli, court: 'BGH', date: '2020-01-15', az: SMALL.bgh.az, type: 'Urteil' }, [
    { section: 'Leitsatz', paragraphs: [{ rn: null, text: 'Zum berechtigten Interesse an der Beendigung des Mietverhältnisses (§ 573 Abs. 2 Nr. 2 BGB).' }] },
    { section: 'Tenor', paragraphs: [{ rn: null, text: 'Die Revision wird zurückgewiesen. 𝔄 Die Kosten trägt die Klägerin.' }] },
    { section: 'Gründe', paragraphs: [1, 2, 3, 4, 5, 6].map((rn) => ({ rn, text: `Randnummer ${rn}. ${long}` })) },
  ]);
  for (const lg of [SMALL.lgBerlin, SMALL.lgMuenchen]) {
    insertDecision(db, { id: lg.id, ecli: null, court: lg.court, date: lg.date, az: lg.az, type: 'Urteil' }, [
      { section: 'Tenor', paragraphs: [{ rn: null, text: 'Die Berufung wird zurückgewiesen.' }] },
      { section: 'Gründe', paragraphs: [{ rn: null, text: `Das ${lg.court} hält die Berufung für unbegründet. ${long}` }] },
    ]);
  }
  const norms = ['§ 573 Abs. 2 Nr. 2 BGB', '§ 573 BGB', '§ 574 BGB', '§ 573 Abs. 3 BGB'];
  norms.forEach((norm, position) => db.prepare('INSERT INTO decision_norms (decision_id, position, norm, law, unit) VALUES (?, ?, ?, ?, ?)')
    .run(SMALL.bgh.id, position, norm, 'BGB', norm.split(' ').slice(0, 2).join(' ')));
  db.prepare(`INSERT INTO decision_norms (decision_id, position, norm, law, unit) VALUES (?, 0, '§ 573 Abs. 2 Nr. 2 BGB', 'BGB', '§ 573')`)
    .run(SMALL.lgBerlin.id);
  law(db, 'law-bgb', 'BGB', 'DE', ['573', '574', '823']);
  law(db, 'law-dsgvo', 'DSGVO', 'EU', ['6']);
  law(db, 'law-emrk', 'EMRK', 'XI', []);
  db.prepare(`INSERT INTO meta (key, value) VALUES ('built_at', '2026-01-01T00:00:00.000Z')`).run();
  // The edges the importer would write (statute edges feed the norm facets).
  rebuildCitationEdges(db);
  db.close();
}
