// The spellings under which a court may hold an Aktenzeichen that a citation writes otherwise: OLG Hamm and
// Düsseldorf put the senate's group first ('I-4 U 22/18', often cited '4 U 22/18'), Berlin's administrative courts
// their own name ('VG 3 K 123.16'), Bavarian administrative courts their seat ('M 12 K 20.456'), and courts a suffix
// after the number ('33 Wx 12/22 e', '7 K 1234/19.F', '10 K 1234/17 E'). The check looks the others up only where
// the exact spelling is not held, and only for the court the citation names.
import type Database from 'better-sqlite3';
import { azKey } from '../corpus/ids.ts';
import { courtMatches } from '../corpus/find-decision.ts';
import { sql } from '../db/statements.ts';

const PREFIX = /^(?:VG |OVG |[IVX]{1,3}-|(?:M|AN|AU|Au|B|RN|RO|W) (?=\d{1,3} [A-Z]{1,2} \d{2}\.\d))/u;
const SUFFIX = /(?:\.[A-Z]{1,2}| [a-z]| [A-Z]{1,2}| \(\d{1,2}\))$/u;
const PREFIXES = ['', 'I-', 'II-', 'III-', 'IV-', 'V-', 'VI-', 'VG ', 'OVG '];

/** The core of an Aktenzeichen: without a group, court or seat in front and a suffix after ('I-4 U 22/18 e' -> '4 U 22/18'). */
export function aktenzeichenCore(aktenzeichen: string): string {
  return aktenzeichen.replace(/\s+/gu, ' ').trim().replace(PREFIX, '').replace(SUFFIX, '');
}

/**
 * The az keys (azKey) of the other spellings of `aktenzeichen`, the exact one left out: its core, the core with each
 * common group or court in front, and each of those with the suffix written (when one is).
 *
 * @example
 * aktenzeichenVariants('4 U 22/18')   // ['i-4 u 22/18', 'ii-4 u 22/18', ..., 'vg 4 u 22/18', ...]
 * aktenzeichenVariants('I-4 U 22/18') // ['4 u 22/18', 'ii-4 u 22/18', ...]
 */
export function aktenzeichenVariants(aktenzeichen: string): string[] {
  const written = aktenzeichen.replace(/\s+/gu, ' ').trim();
  const core = aktenzeichenCore(written);
  const suffix = SUFFIX.exec(written.replace(PREFIX, ''))?.[0] ?? '';
  const seat = PREFIX.exec(written)?.[0] ?? '';
  const keys = new Set<string>();
  for (const prefix of new Set([...PREFIXES, seat])) {
    for (const end of new Set(['', suffix])) keys.add(azKey(`${prefix}${core}${end}`));
  }
  keys.delete(azKey(written));
  return [...keys];
}

/** Decisions of `court` that `corpus` holds under another spelling of `aktenzeichen` (aktenzeichenVariants). */
export function heldUnderOtherSpelling<Row extends { id: string; court: string }>(corpus: Database.Database, aktenzeichen: string, court: string): Row[] {
  const rows = sql<[string], Row>(corpus,
    `SELECT DISTINCT d.id, d.ecli, d.court, d.date FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id
     WHERE f.az_key IN (SELECT value FROM json_each(?)) ORDER BY d.date, d.court`).all(JSON.stringify(aktenzeichenVariants(aktenzeichen)));
  return rows.filter((row) => courtMatches(row.court, court));
}
