// The exact-citation rule of GET /decisions/search: a query that is entirely one citation ("VI ZR 496/18",
// "BGH, VI ZR 496/18", an ECLI, "§ 573 BGB") is matched exactly, never by stems or near spellings: the decision that
// bears the Aktenzeichen or ECLI first, then the decisions citing it; for a provision, the decisions citing it or a
// subdivision of it (statute edges of the text and the Normenkette), most citations first.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { azKey } from '../corpus/ids.ts';
import { familyCondition } from '../corpus/norm-family.ts';
import { extractCitations, type CaseCitation, type Citation, type StatuteCitation } from '../citations/extract.ts';
import type { FilterSql } from './filters.ts';
import type { PageChunks, Passage } from './page-chunks.ts';
import type { RankedDecision } from './results.ts';

/**
 * The one citation a query consists of (punctuation aside), or null. Reporter-only citations are not exact keys. A
 * query is read as typed, then with its spaces tidied ('VIII  ZR 44 / 21'), then upper-cased ('viii zr 44/21',
 * '§ 573 bgb'): texts are scanned case-sensitively, a typed identifier need not be.
 */
export function exactCitationOf(query: string): Citation | null {
  if (!/\d/u.test(query)) return null; // every citation has a number; most queries none
  const tidy = query.replace(/\s+/gu, ' ').replace(/ ?\/ ?/gu, '/').trim();
  for (const form of new Set([query, tidy, tidy.toUpperCase()])) {
    const citation = soleCitation(form);
    if (citation) return citation;
  }
  return null;
}

function soleCitation(query: string): Citation | null {
  const { citations } = extractCitations(query);
  if (citations.length !== 1) return null;
  const [citation] = citations;
  const rest = query.slice(0, citation.start) + query.slice(citation.end);
  if (/[\p{L}\p{N}]/u.test(rest)) return null;
  if (citation.type === 'case' && !citation.aktenzeichen && !citation.ecli) return null;
  return citation;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');

/** What to mark in the passages: the citation as texts write it. */
function citationPattern(citation: Citation): RegExp {
  if (citation.type === 'statute') {
    const mark = citation.kind === '§' ? '§§?' : 'Art(?:\\.|ikel)?';
    return new RegExp(`${mark}\\s*${escapeRegex(citation.number)}(?![\\p{L}\\p{N}])`, 'gu');
  }
  if (citation.ecli) return new RegExp(escapeRegex(citation.ecli), 'giu');
  return new RegExp(escapeRegex(citation.aktenzeichen!).replace(/ /gu, '\\s+'), 'gu');
}

interface Matched { ids: string[]; total: number }

/** The decisions bearing a case citation's Aktenzeichen or ECLI (within the filters), newest first. */
export function ownDecisions(db: Database.Database, citation: CaseCitation, filters: FilterSql): string[] {
  return caseMatches(db, citation, filters, false).ids;
}

/** Court names compared as typed or upper-cased ('OLG BAMBERG' from a query read upper-cased is 'OLG Bamberg'). */
const courtFold = (court: string) => court.toLocaleUpperCase('de');

function caseMatches(db: Database.Database, citation: CaseCitation, filters: FilterSql, withCiting = true): Matched {
  // A court written in the query ('KG, 7 U 123/18') binds both the decision and the citations of it: another court's
  // decision under the same Aktenzeichen is not the one asked for.
  const court = !citation.ecli && citation.court && !citation.courtFromRegister ? courtFold(citation.court) : null;
  const sameCourt = (held: string | null) => court === null || (held !== null && courtFold(held) === court);
  const key = citation.ecli ? citation.ecli.toUpperCase() : azKey(citation.aktenzeichen!);
  // A decision filed under the number with a parenthesis after it bears it too: 'I R 49/21 (I R 39/10)' (its former
  // number), '8 AZR 209/21 (B)' (a part of the proceeding).
  const ownRows = sql<string[], { id: string; court: string | null }>(db, citation.ecli
    ? 'SELECT d.id, d.court FROM decisions d WHERE d.ecli = ?'
    : `SELECT d.id, d.court FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id
       WHERE f.az_key = ? OR (f.az_key > ? AND f.az_key < ?)`).all(...(citation.ecli ? [key] : [key, `${key} (`, `${key} (\uffff`]));
  const own = [...new Set(ownRows.filter((row) => sameCourt(row.court)).map((row) => row.id))];
  const ownFiltered = own.length === 0 ? [] : sql<unknown[], { id: string }>(db,
    `SELECT d.id FROM decisions d WHERE d.id IN (SELECT value FROM json_each(?))${filters.where} ORDER BY d.date DESC`)
    .all(JSON.stringify(own), ...filters.params).map((row) => row.id);
  if (!withCiting) return { ids: ownFiltered, total: ownFiltered.length };
  const edges = sql<[string], { from_decision_id: string; target_court: string | null }>(db, citation.ecli
    ? `SELECT e.from_decision_id, NULL AS target_court FROM citation_edges e WHERE e.reference_type = 'case' AND e.target_ecli = ?`
    : `SELECT e.from_decision_id, e.target_court FROM citation_edges e WHERE e.reference_type = 'case' AND e.target_az_key = ?`).all(key);
  const citingIds = edges.filter((edge) => citation.ecli || sameCourt(edge.target_court)).map((edge) => edge.from_decision_id);
  const citing = sql<unknown[], { id: string }>(db, `
    SELECT d.id FROM decisions d WHERE d.id IN (
      SELECT value FROM json_each(?) UNION
      SELECT e.from_decision_id FROM citation_edges e WHERE e.reference_type = 'case' AND e.to_decision_id IN (SELECT value FROM json_each(?)))${filters.where}
    ORDER BY d.date DESC, d.id`).all(JSON.stringify(citingIds), JSON.stringify(own), ...filters.params).map((row) => row.id);
  const ids = [...new Set([...ownFiltered, ...citing])];
  return { ids, total: ids.length };
}

function statuteMatches(db: Database.Database, citation: StatuteCitation, filters: FilterSql): Matched {
  const family = familyCondition({ canonical: citation.canonical, law: citation.law!, unit: `${citation.kind} ${citation.number}` }, 'e.');
  const ids = sql<unknown[], { id: string }>(db, `
    SELECT d.id FROM citation_edges e JOIN decisions d INDEXED BY search_decision_filters ON d.id = e.from_decision_id
    WHERE ${family.sql}${filters.where}
    GROUP BY d.id ORDER BY count(*) DESC, d.date DESC, d.id`)
    .all(...family.params, ...filters.params).map((row) => row.id);
  return { ids, total: ids.length };
}

/** The passage of a decision that holds the citation (else its first passage). */
function passageOf(chunks: Passage[], pattern: RegExp): number[] {
  const holding = chunks.filter((chunk) => { pattern.lastIndex = 0; return pattern.test(chunk.text); });
  pattern.lastIndex = 0;
  return (holding.length > 0 ? holding : chunks).slice(0, 3).map((chunk) => chunk.id);
}

/**
 * All decisions the citation matches exactly, in order; passages are read only for the page served.
 *
 * @example exactCitationSearch(db, exactCitationOf('VI ZR 496/18')!, filterSql({})).ids
 */
export function exactCitationSearch(db: Database.Database, citation: Citation, filters: FilterSql) {
  const matched = citation.type === 'case' ? caseMatches(db, citation, filters) : statuteMatches(db, citation, filters);
  const pattern = citationPattern(citation);
  return {
    ids: matched.ids,
    total: matched.total,
    page: (ids: string[], page: PageChunks): RankedDecision[] =>
      ids.map((id) => ({ decision_id: id, chunks: passageOf(page.of(id), pattern), exact: pattern })),
  };
}
