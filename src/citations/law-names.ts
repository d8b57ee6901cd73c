// The corpus's own law names for the statute scanner: a law cited by its official title in the genitive ('des Gesetzes
// über Versammlungen und Aufzüge') that the registry does not know is found among the titles and name aliases the
// corpus holds (law_aliases 'name:' keys, written at import from each law's GII title).
import type Database from 'better-sqlite3';
import { nameKey } from '../corpus/law-aliases.ts';
import { corpusVersion } from '../db/corpus-version.ts';
import { sql } from '../db/statements.ts';
import type { LawNameLookup } from './statutes.ts';

interface Names { version: string; byKey: Map<string, string> }
const cache = new WeakMap<Database.Database, Names>();

/**
 * A lookup from a law's name (any inflection, nameKey) to its cited abbreviation over the laws `corpus` holds; built
 * once per connection and again when the database changed (an import: SQLite's data_version, or a write on it).
 */
export function corpusLawNames(corpus: Database.Database): LawNameLookup {
  const version = corpusVersion(corpus);
  let names = cache.get(corpus);
  if (!names || names.version !== version) {
    const rows = sql<[], { alias_key: string; abbreviation: string }>(corpus,
      "SELECT a.alias_key, l.abbreviation FROM law_aliases a JOIN laws l ON l.id = a.law_id WHERE a.alias_key LIKE 'name:%'").all();
    names = { version, byKey: new Map(rows.map((r) => [r.alias_key.slice('name:'.length), r.abbreviation])) };
    cache.set(corpus, names);
  }
  const { byKey } = names;
  return (name) => byKey.get(nameKey(name));
}
