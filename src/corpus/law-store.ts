// Writes one law (row, aliases, units) into the corpus. Shared by the importers (src/ingest) and the catalogue seed.
import { createHash } from 'node:crypto';
import type { CorpusDb } from './open.ts';
import { lawId, lawUnitId } from './ids.ts';
import { abbreviationKey, nameKey, registryAliases } from './law-aliases.ts';
import { sql } from '../db/statements.ts';

export interface LawUnitRecord {
  kind: string;                 // '§', 'Art.', 'Anlage', 'Präambel'
  number: string;               // '823', '613a', ''
  heading: string | null;
  text: string | null;          // one line per Absatz; null: not held
  absatz_count: number | null;
  breadcrumb: string | null;
  repealed: boolean;
}

export interface LawRecord {
  abbreviation: string;
  gii_jurabk: string | null;
  amtabk: string | null;
  title: string | null;
  law_type: string | null;
  jurisdiction: 'DE' | 'EU' | 'XI';
  stand: string | null;
  source_id: string | null;
  text_available: boolean;
  source_format: string;
  source_name: string | null;
  units: LawUnitRecord[];
  /** Abbreviations besides `abbreviation`, `gii_jurabk` and `amtabk` (registry variants are added by the store). */
  extra_abbreviations?: string[];
  /** Names besides `title`. */
  extra_names?: string[];
}

export type WriteOutcome = 'imported' | 'updated' | 'skipped';

export interface WriteLawResult {
  outcome: WriteOutcome;
  law_id: string;
  abbreviation: string;
  units: number;
}

// Which spelling wins an alias key that two laws claim: a law's own cited abbreviation beats a registry variant,
// which beats an amtabk, a jurabk, a title.
const PRIORITY: Record<string, number> = { abbreviation: 5, registry: 4, amtabk: 3, jurabk: 2, title: 1 };

function hashLaw(rec: LawRecord): string {
  const { source_name: _n, ...content } = rec;
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

interface ExistingLaw { id: string; abbreviation: string; source_id: string | null; content_hash: string | null }

/**
 * Inserts or updates a law with its aliases and units; unchanged content (same hash) is skipped. Ids derive from
 * the cited abbreviation, so re-imports keep them. A law whose abbreviation is already held by another law
 * (another source_id) falls back to its GII jurabk; if that is taken too, it throws.
 * Must run inside a transaction (the caller batches).
 */
export interface WriteLawOptions {
  /** Add or replace the record's units but keep the law's other units (a law that arrives in several pieces). */
  mergeUnits?: boolean;
}

export function writeLaw(db: CorpusDb, input: LawRecord, importedAt: string, options: WriteLawOptions = {}): WriteLawResult {
  let rec = input;
  const byAbbreviation = sql(db, 'SELECT id, abbreviation, source_id, content_hash FROM laws WHERE abbreviation = ?');
  let existing = byAbbreviation.get(rec.abbreviation) as ExistingLaw | undefined;
  if (existing && rec.source_id && existing.source_id && existing.source_id !== rec.source_id) {
    const fallback = rec.gii_jurabk && rec.gii_jurabk !== rec.abbreviation ? rec.gii_jurabk : undefined;
    const taken = fallback ? (byAbbreviation.get(fallback) as ExistingLaw | undefined) : undefined;
    if (!fallback || (taken && taken.source_id !== rec.source_id)) {
      throw new Error(`abbreviation ${rec.abbreviation} is already held by ${existing.source_id}`);
    }
    rec = { ...rec, abbreviation: fallback };
    existing = taken;
  }
  // The same source filed under another abbreviation before (registry change): replace it.
  if (!existing && rec.source_id) {
    const old = sql(db, 'SELECT id, abbreviation, source_id, content_hash FROM laws WHERE source_id = ? AND jurisdiction = ?')
      .get(rec.source_id, rec.jurisdiction) as ExistingLaw | undefined;
    if (old) sql(db, 'DELETE FROM laws WHERE id = ?').run(old.id);
  }

  const id = lawId(rec.abbreviation);
  const hash = hashLaw(rec);
  if (existing && existing.content_hash === hash) {
    return { outcome: 'skipped', law_id: existing.id, abbreviation: rec.abbreviation, units: 0 };
  }

  sql(db, `
    INSERT INTO laws (id, abbreviation, gii_jurabk, amtabk, title, law_type, jurisdiction, stand, source_id,
                      text_available, source_format, source_name, content_hash, imported_at)
    VALUES (@id, @abbreviation, @gii_jurabk, @amtabk, @title, @law_type, @jurisdiction, @stand, @source_id,
            @text_available, @source_format, @source_name, @content_hash, @imported_at)
    ON CONFLICT(id) DO UPDATE SET
      gii_jurabk = excluded.gii_jurabk, amtabk = excluded.amtabk, title = excluded.title, law_type = excluded.law_type,
      jurisdiction = excluded.jurisdiction, stand = excluded.stand, source_id = excluded.source_id,
      text_available = excluded.text_available, source_format = excluded.source_format,
      source_name = excluded.source_name, content_hash = excluded.content_hash, imported_at = excluded.imported_at
  `).run({
    id, abbreviation: rec.abbreviation, gii_jurabk: rec.gii_jurabk, amtabk: rec.amtabk, title: rec.title,
    law_type: rec.law_type, jurisdiction: rec.jurisdiction, stand: rec.stand, source_id: rec.source_id,
    text_available: rec.text_available ? 1 : 0, source_format: rec.source_format, source_name: rec.source_name,
    content_hash: hash, imported_at: importedAt,
  });

  writeAliases(db, id, rec);

  let position = 0;
  if (options.mergeUnits && existing) {
    const max = sql(db, 'SELECT max(position) AS p FROM law_units WHERE law_id = ?').get(id) as { p: number | null };
    position = (max.p ?? -1) + 1;
  } else {
    sql(db, 'DELETE FROM law_units WHERE law_id = ?').run(id);
  }
  const insertUnit = sql(db, `
    INSERT INTO law_units (id, law_id, kind, number, heading, text, absatz_count, breadcrumb, position, repealed)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(id) DO UPDATE SET heading = excluded.heading, text = excluded.text, absatz_count = excluded.absatz_count,
      breadcrumb = excluded.breadcrumb, repealed = excluded.repealed
  `);
  const seen = new Set<string>();
  const first = position;
  for (const u of rec.units) {
    const key = `${u.kind}|${u.number}`;
    if (seen.has(key)) continue; // a law numbering a unit twice: the first one stands
    seen.add(key);
    insertUnit.run(lawUnitId(rec.abbreviation, u.kind, u.number), id, u.kind, u.number, u.heading, u.text,
      u.absatz_count, u.breadcrumb, position++, u.repealed ? 1 : 0);
  }
  return { outcome: existing ? 'updated' : 'imported', law_id: id, abbreviation: rec.abbreviation, units: position - first };
}

function writeAliases(db: CorpusDb, lawIdValue: string, rec: LawRecord): void {
  sql(db, 'DELETE FROM law_aliases WHERE law_id = ?').run(lawIdValue);
  const registry = registryAliases(rec.abbreviation);
  const candidates: [string, string, string][] = []; // key, alias, kind
  const abbr = (alias: string | null | undefined, kind: string) => {
    if (alias) candidates.push([abbreviationKey(alias), alias, kind]);
  };
  const name = (alias: string | null | undefined, kind: string) => {
    if (alias && nameKey(alias) !== '') candidates.push([`name:${nameKey(alias)}`, alias, kind]);
  };
  abbr(rec.abbreviation, 'abbreviation');
  abbr(rec.amtabk, 'amtabk');
  abbr(rec.gii_jurabk, 'jurabk');
  for (const a of rec.extra_abbreviations ?? []) abbr(a, 'registry');
  for (const a of registry.abbreviations) abbr(a, 'registry');
  name(rec.title, 'title');
  for (const n of rec.extra_names ?? []) name(n, 'registry');
  for (const n of registry.names) name(n, 'registry');

  const current = sql(db, 'SELECT law_id, kind FROM law_aliases WHERE alias_key = ?');
  const upsert = sql(db, `INSERT INTO law_aliases (alias_key, law_id, alias, kind) VALUES (?, ?, ?, ?)
    ON CONFLICT(alias_key) DO UPDATE SET law_id = excluded.law_id, alias = excluded.alias, kind = excluded.kind`);
  for (const [key, alias, kind] of candidates) {
    if (key === '' || key === 'name:') continue;
    const held = current.get(key) as { law_id: string; kind: string } | undefined;
    if (held && held.law_id !== lawIdValue && (PRIORITY[held.kind] ?? 0) >= (PRIORITY[kind] ?? 0)) continue;
    if (held && held.law_id === lawIdValue && (PRIORITY[held.kind] ?? 0) >= (PRIORITY[kind] ?? 0)) continue;
    upsert.run(key, lawIdValue, alias, kind);
  }
}

export interface LawRow {
  id: string;
  abbreviation: string;
  title: string | null;
  jurisdiction: string;
  text_available: number;
}

/**
 * Finds the law a text names: its cited abbreviation, a GII jurabk or amtabk, a registry variant, or its (inflected)
 * long name. Case-insensitive; an exact abbreviation wins over a case-folded one.
 *
 * @example
 * findLaw(db, 'SGB 5')?.abbreviation                          // 'SGB V'
 * findLaw(db, 'des Bürgerlichen Gesetzbuchs')?.abbreviation   // 'BGB'
 */
export function findLaw(db: CorpusDb, text: string): LawRow | undefined {
  const t = text.trim().replace(/\s+/gu, ' ');
  if (t === '') return undefined;
  const cols = 'l.id, l.abbreviation, l.title, l.jurisdiction, l.text_available';
  const exact = sql(db, `SELECT ${cols} FROM laws l WHERE l.abbreviation = ?`).get(t) as LawRow | undefined;
  if (exact) return exact;
  const byKey = sql(db, `SELECT ${cols} FROM law_aliases a JOIN laws l ON l.id = a.law_id WHERE a.alias_key = +?`);
  const tries = [abbreviationKey(t)];
  if (/ (?:19|20)\d\d$/u.test(t)) tries.push(abbreviationKey(t.replace(/ (?:19|20)\d\d$/u, '')));
  tries.push(`name:${nameKey(t)}`);
  for (const key of tries) {
    const row = byKey.get(key) as LawRow | undefined;
    if (row) return row;
  }
  return undefined;
}
