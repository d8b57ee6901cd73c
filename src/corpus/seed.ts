// Registry rows every corpus holds from its creation: the federal courts and the EU / international catalogue.
import { createHash } from 'node:crypto';
import type { CorpusDb } from './open.ts';
import { seedCourts, type CourtInfo } from './courts.ts';
import { EU_CATALOGUE, catalogueArticles } from './eu-catalogue.ts';
import { writeLaw } from './law-store.ts';
import { sql } from '../db/statements.ts';

/** Whether the courts table holds this court as upsertCourt would write it (founding fields are only ever added). */
function heldAsIs(db: CorpusDb, court: CourtInfo): boolean {
  const held = sql<[string], CourtInfo>(db, 'SELECT * FROM courts WHERE code = ?').get(court.code);
  return held !== undefined && held.name === court.name && held.branch === court.branch
    && held.court_type === court.court_type && held.level === court.level && held.state === court.state
    && (court.founding_year === null || held.founding_year === court.founding_year)
    && (court.founding_basis === null || held.founding_basis === court.founding_basis);
}

/**
 * Inserts or updates one court row (courts named by decisions are written the same way). A court held as it is
 * stays untouched: the importer names a court with every decision, and a write costs ten times the read.
 */
export function upsertCourt(db: CorpusDb, court: CourtInfo): void {
  if (heldAsIs(db, court)) return;
  sql(db, `
    INSERT INTO courts (code, name, branch, court_type, level, state, founding_year, founding_basis)
    VALUES (@code, @name, @branch, @court_type, @level, @state, @founding_year, @founding_basis)
    ON CONFLICT(code) DO UPDATE SET name = excluded.name, branch = excluded.branch, court_type = excluded.court_type,
      level = excluded.level, state = excluded.state,
      founding_year = coalesce(excluded.founding_year, courts.founding_year),
      founding_basis = coalesce(excluded.founding_basis, courts.founding_basis)
  `).run(court);
}

function registryVersion(): string {
  return createHash('sha256').update(JSON.stringify([seedCourts(), EU_CATALOGUE])).digest('hex').slice(0, 16);
}

/** Writes the registries when this corpus does not hold their current version yet (cheap on every open). */
export function seedRegistries(db: CorpusDb): void {
  const version = registryVersion();
  const held = sql(db, "SELECT value FROM meta WHERE key = 'registry_version'").get() as { value: string } | undefined;
  if (held?.value === version) return;
  const now = new Date().toISOString();
  db.transaction(() => {
    for (const court of seedCourts()) upsertCourt(db, court);
    for (const act of EU_CATALOGUE) {
      writeLaw(db, {
        abbreviation: act.abbreviation,
        gii_jurabk: null,
        amtabk: null,
        title: act.title,
        law_type: act.law_type,
        jurisdiction: act.jurisdiction,
        stand: null,
        source_id: act.source_id,
        text_available: false,
        source_format: 'catalogue',
        source_name: 'src/corpus/eu-catalogue.ts',
        units: catalogueArticles(act).map((number) => ({
          kind: 'Art.', number, heading: null, text: null, absatz_count: null, breadcrumb: null, repealed: false,
        })),
      }, now);
    }
    sql(db, "INSERT INTO meta (key, value) VALUES ('registry_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
      .run(version);
  })();
}
