-- juralite corpus schema (the replaceable, read-mostly file: decisions, laws, chunks, citation edges, indexes).
-- Applied by src/corpus/open.ts on every writable open; every statement is idempotent.
-- Offsets are Unicode code points into the text they index (never UTF-16 units).
-- docs/corpus.md describes every table in prose.

-- Key/value facts about this corpus file: schema_version, built_at, last_import_at, last_import_summary (JSON).
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT
) WITHOUT ROWID;

-- One row per court that a decision names (plus the federal courts, seeded on creation).
-- code is the canonical short form used everywhere else: 'BGH', 'BVerfG', 'OLG München', 'LG Berlin', 'VG Berlin'.
CREATE TABLE IF NOT EXISTS courts (
  code           TEXT PRIMARY KEY,
  name           TEXT NOT NULL,                -- full name: 'Oberlandesgericht München'
  branch         TEXT NOT NULL CHECK (branch IN
                   ('ordentlich','verwaltung','sozial','arbeit','finanz','verfassung','patent','unbekannt')),
  court_type     TEXT,                         -- 'BGH','OLG','LG','AG','VG','OVG','VGH','SG','LSG','ArbG','LAG','FG',...
  level          TEXT NOT NULL CHECK (level IN ('federal','appellate','first_instance_and_regional','other')),
  state          TEXT,                         -- Land code (ISO 3166-2:DE suffix: 'BY','NW',...) or NULL
  founding_year  INTEGER,
  founding_basis TEXT
) WITHOUT ROWID;

-- One row per decision. id is a UUID v5 derived from the source's document number (doknr), else the ECLI, else
-- court + date + first Aktenzeichen; once assigned it is kept on every re-import of the same document.
CREATE TABLE IF NOT EXISTS decisions (
  id             TEXT PRIMARY KEY,
  doknr          TEXT UNIQUE,
  ecli           TEXT UNIQUE,
  court          TEXT NOT NULL REFERENCES courts(code),
  court_raw      TEXT,                         -- the court as the source wrote it
  chamber        TEXT,                         -- '6. Zivilsenat', '3. Kammer'
  date           TEXT,                         -- 'YYYY-MM-DD'
  aktenzeichen   TEXT,                         -- the first file number as the court writes it (all: decision_file_numbers)
  document_type  TEXT,                         -- as the source names it: 'Endurteil', 'Nichtannahmebeschluss', ...
  document_kind  TEXT,                         -- normalized: Urteil, Beschluss, Verfügung, Gerichtsbescheid,
                                               -- Schlussanträge, Sonstige (the search filter's values)
  title          TEXT,
  leitsatz       TEXT,
  norms          TEXT,                         -- Normenkette as written (parsed: decision_norms)
  text_zstd      BLOB NOT NULL,                -- the plain text (sections joined by a blank line, each headed by its
                                               -- name), UTF-8, compressed (src/corpus/lz-text.ts; a zstd frame in
                                               -- files before Session 20): the only copy of the decision's
                                               -- characters (src/corpus/stored-text.ts; SQL: decision_text(text_zstd))
  text_length    INTEGER NOT NULL,             -- in Unicode code points
  has_rn_anchors INTEGER NOT NULL DEFAULT 0,   -- 1 when the source prints Randnummern (never invented)
  rn_from        INTEGER,
  rn_to          INTEGER,
  source_format  TEXT NOT NULL,                -- 'rii-xml', 'oldp-json'
  source_name    TEXT,                         -- file (and archive member) it was read from
  content_hash   TEXT NOT NULL,                -- sha256 of the normalized record: unchanged re-imports are skipped
  imported_at    TEXT NOT NULL,
  page_parts     BLOB                          -- its row_chunks and row_randnummern rows packed for result pages,
                                               -- trusted while content_hash is the one packed with them (NULL: read
                                               -- the tables; src/corpus/page-parts.ts)
);
CREATE INDEX IF NOT EXISTS decisions_court_date ON decisions(court, date);
CREATE INDEX IF NOT EXISTS decisions_date ON decisions(date);

-- The integer row of each decision (decisions.id is a UUID). The citation graph (schema 3) and the parts of a decision
-- below (file numbers, sections, Randnummern, chunks, parsed norms; schema 4) key on it instead of the UUID: 1 to 3
-- bytes instead of 36 in every row and index entry, a decision's rows side by side in one primary key (WITHOUT ROWID:
-- one contiguous read), and an import's rows appended at the end of each b-tree instead of scattered over it.
-- Written with the decision (trigger); a deleted decision takes its row, and the row its parts and edges, with it.
-- Each part is read through a view under its schema 3 name with decision_id as the UUID: SQLite flattens the view, so
-- a lookup by UUID finds the decision's row first, then its rows by primary key (EXPLAIN QUERY PLAN). The views take
-- inserts too (INSTEAD OF triggers); the importer writes the tables (src/ingest/store-decision.ts).
CREATE TABLE IF NOT EXISTS decision_rows (
  row INTEGER PRIMARY KEY,
  id  TEXT NOT NULL UNIQUE REFERENCES decisions(id) ON DELETE CASCADE
);
CREATE TRIGGER IF NOT EXISTS decision_rows_insert AFTER INSERT ON decisions
  BEGIN INSERT OR IGNORE INTO decision_rows (id) VALUES (new.id); END;

-- Every Aktenzeichen of a decision (joined proceedings carry several).
CREATE TABLE IF NOT EXISTS row_file_numbers (
  decision_row INTEGER NOT NULL REFERENCES decision_rows(row) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  aktenzeichen TEXT NOT NULL,                  -- as the court writes it: 'VI ZR 496/18'
  az_key       TEXT NOT NULL,                  -- lookup key: case-folded, whitespace collapsed ('vi zr 496/18')
  PRIMARY KEY (decision_row, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS row_file_numbers_az_key ON row_file_numbers(az_key);
CREATE VIEW IF NOT EXISTS decision_file_numbers AS
  SELECT r.id AS decision_id, x.position, x.aktenzeichen, x.az_key
  FROM row_file_numbers x JOIN decision_rows r ON r.row = x.decision_row;
CREATE TRIGGER IF NOT EXISTS decision_file_numbers_insert INSTEAD OF INSERT ON decision_file_numbers
  BEGIN INSERT INTO row_file_numbers (decision_row, position, aktenzeichen, az_key)
        VALUES ((SELECT row FROM decision_rows WHERE id = new.decision_id), new.position, new.aktenzeichen, new.az_key); END;

-- Named parts of the decision's text: Leitsatz, Tenor, Tatbestand, Entscheidungsgründe, Gründe, ... as the source names them.
CREATE TABLE IF NOT EXISTS row_sections (
  decision_row INTEGER NOT NULL REFERENCES decision_rows(row) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  name         TEXT NOT NULL,
  start_offset INTEGER NOT NULL,               -- code points into the decision's text, heading line included
  end_offset   INTEGER NOT NULL,
  PRIMARY KEY (decision_row, position)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS decision_sections AS
  SELECT r.id AS decision_id, x.position, x.name, x.start_offset, x.end_offset
  FROM row_sections x JOIN decision_rows r ON r.row = x.decision_row;
CREATE TRIGGER IF NOT EXISTS decision_sections_insert INSTEAD OF INSERT ON decision_sections
  BEGIN INSERT INTO row_sections (decision_row, position, name, start_offset, end_offset)
        VALUES ((SELECT row FROM decision_rows WHERE id = new.decision_id), new.position, new.name, new.start_offset, new.end_offset); END;

-- The printed Randnummern and the span of text each one numbers (empty when the source prints none). Every query
-- reads a decision's Randnummern by its decision, which the primary key serves (schema 2's index on (decision_id, rn)
-- had no reader).
CREATE TABLE IF NOT EXISTS row_randnummern (
  decision_row INTEGER NOT NULL REFERENCES decision_rows(row) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  rn           INTEGER NOT NULL,
  start_offset INTEGER NOT NULL,
  end_offset   INTEGER NOT NULL,
  PRIMARY KEY (decision_row, position)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS decision_randnummern AS
  SELECT r.id AS decision_id, x.position, x.rn, x.start_offset, x.end_offset
  FROM row_randnummern x JOIN decision_rows r ON r.row = x.decision_row;
CREATE TRIGGER IF NOT EXISTS decision_randnummern_insert INSTEAD OF INSERT ON decision_randnummern
  BEGIN INSERT INTO row_randnummern (decision_row, position, rn, start_offset, end_offset)
        VALUES ((SELECT row FROM decision_rows WHERE id = new.decision_id), new.position, new.rn, new.start_offset, new.end_offset); END;

-- The decision text cut by section and by groups of whole Randnummern (about 400 to 1600 characters; a Randnummer
-- is never split). Chunks are what GET /decisions/{id}?rn_from=&rn_to= serves whole and what search indexes.
-- A chunk holds no text of its own (schema 3): its text is the decision's text[start_offset, end_offset). id stays
-- a rowid (the search queue and result passages name chunks by it); a decision's chunks are written together, so
-- their ids, and their rows, follow one another.
CREATE TABLE IF NOT EXISTS row_chunks (
  id           INTEGER PRIMARY KEY,
  decision_row INTEGER NOT NULL REFERENCES decision_rows(row) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  section      TEXT,
  rn_from      INTEGER,                        -- NULL without printed Randnummern
  rn_to        INTEGER,
  start_offset INTEGER NOT NULL,
  end_offset   INTEGER NOT NULL,
  UNIQUE (decision_row, position)
);
CREATE VIEW IF NOT EXISTS chunks AS
  SELECT x.id, r.id AS decision_id, x.position, x.section, x.rn_from, x.rn_to, x.start_offset, x.end_offset
  FROM row_chunks x JOIN decision_rows r ON r.row = x.decision_row;
CREATE TRIGGER IF NOT EXISTS chunks_insert INSTEAD OF INSERT ON chunks
  BEGIN INSERT INTO row_chunks (id, decision_row, position, section, rn_from, rn_to, start_offset, end_offset)
        VALUES (new.id, (SELECT row FROM decision_rows WHERE id = new.decision_id), new.position, new.section, new.rn_from,
          new.rn_to, new.start_offset, new.end_offset); END;

-- The Normenkette parsed into canonical norms; feeds the cited_norms facet and the cited_norm filter.
CREATE TABLE IF NOT EXISTS row_norms (
  decision_row INTEGER NOT NULL REFERENCES decision_rows(row) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  norm         TEXT NOT NULL,                  -- canonical: '§ 573 Abs. 2 Nr. 2 BGB'
  law          TEXT NOT NULL,                  -- cited abbreviation: 'BGB'
  unit         TEXT NOT NULL,                  -- '§ 573', 'Art. 12'
  PRIMARY KEY (decision_row, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS row_norms_norm ON row_norms(norm);
CREATE INDEX IF NOT EXISTS row_norms_law_unit ON row_norms(law, unit);
CREATE VIEW IF NOT EXISTS decision_norms AS
  SELECT r.id AS decision_id, x.position, x.norm, x.law, x.unit
  FROM row_norms x JOIN decision_rows r ON r.row = x.decision_row;
CREATE TRIGGER IF NOT EXISTS decision_norms_insert INSTEAD OF INSERT ON decision_norms
  BEGIN INSERT INTO row_norms (decision_row, position, norm, law, unit)
        VALUES ((SELECT row FROM decision_rows WHERE id = new.decision_id), new.position, new.norm, new.law, new.unit); END;

-- German federal laws (from gesetze-im-internet.de or Open Legal Data) and the EU / international catalogue.
-- id is a UUID v5 of the cited abbreviation.
CREATE TABLE IF NOT EXISTS laws (
  id             TEXT PRIMARY KEY,
  abbreviation   TEXT NOT NULL UNIQUE,         -- the form lawyers cite: BGB, SGB V, AO, UWG, WEG, BauGB, DSGVO
  gii_jurabk     TEXT,                         -- GII internal form: 'SGB 5', 'AO 1977'
  amtabk         TEXT,
  title          TEXT,
  law_type       TEXT,                         -- 'Gesetz', 'Verordnung', 'Bekanntmachung', 'Verordnung (EU)', ...
  jurisdiction   TEXT NOT NULL CHECK (jurisdiction IN ('DE','EU','XI')),
  stand          TEXT,                         -- the source's "Stand" note
  source_id      TEXT,                         -- BJNR... for GII laws, CELEX or treaty reference for the catalogue
  text_available INTEGER NOT NULL DEFAULT 0,   -- 0: only the catalogue of article numbers is held
  source_format  TEXT,                         -- 'gii-xml', 'oldp-json', 'catalogue'
  source_name    TEXT,
  content_hash   TEXT,
  imported_at    TEXT
);
CREATE INDEX IF NOT EXISTS laws_source_id ON laws(source_id);

-- Every spelling that names a law: jurabk, amtabk, long title, registry aliases. Keys are normalized
-- (src/corpus/law-aliases.ts: abbreviationKey for abbreviations, nameKey for names).
CREATE TABLE IF NOT EXISTS law_aliases (
  alias_key TEXT PRIMARY KEY,
  law_id    TEXT NOT NULL REFERENCES laws(id) ON DELETE CASCADE,
  alias     TEXT NOT NULL,                     -- as written
  kind      TEXT NOT NULL                      -- 'abbreviation','jurabk','amtabk','title','registry'
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS law_aliases_law ON law_aliases(law_id);

-- One row per § / Art. (and Anlage, Präambel) of a law. id is a UUID v5 of abbreviation + kind + number.
CREATE TABLE IF NOT EXISTS law_units (
  id           TEXT PRIMARY KEY,
  law_id       TEXT NOT NULL REFERENCES laws(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL,                  -- '§', 'Art.', 'Anlage', 'Präambel'
  number       TEXT NOT NULL,                  -- '823', '613a' ('' for an unnumbered Anlage or the Präambel)
  heading      TEXT,
  text         TEXT,                           -- plain text, one line per Absatz, '(1) ...' kept; NULL: not held
  absatz_count INTEGER,
  breadcrumb   TEXT,                           -- Gliederung path: 'Buch 2 Recht der Schuldverhältnisse > Abschnitt 8 ...'
  position     INTEGER NOT NULL,
  repealed     INTEGER NOT NULL DEFAULT 0,     -- '(weggefallen)'
  UNIQUE (law_id, kind, number)
);
CREATE INDEX IF NOT EXISTS law_units_law_position ON law_units(law_id, position);

-- Citations found in decision texts and Normenketten by the citation engine at import (src/graph/edges.ts): one row
-- per cited decision or provision per Randnummer (rn NULL: before the first Randnummer, in a decision without
-- printed ones, or from the Normenkette). Never an edge from a decision to itself. Stored in citation_links on
-- decision rows; read through the view citation_edges, which names the decisions by their UUIDs.
CREATE TABLE IF NOT EXISTS citation_links (
  id                  INTEGER PRIMARY KEY,       -- in reading order within a decision
  from_row            INTEGER NOT NULL REFERENCES decision_rows(row) ON DELETE CASCADE,
  rn                  INTEGER,
  reference_canonical TEXT NOT NULL,           -- 'BGH, VI ZR 496/18', an ECLI, 'BGHZ 132, 105', '§ 573 Abs. 2 BGB'
  reference_type      TEXT NOT NULL,           -- 'case', 'statute'
  reference_role      TEXT,                    -- 'leitentscheidung' where the citing text marks it, else NULL
  target_ecli         TEXT,                    -- case: what the citation names, for (re-)resolution
  target_court        TEXT,
  target_date         TEXT,
  target_az_key       TEXT,
  target_law          TEXT,                    -- statute: cited abbreviation 'BGB' and unit '§ 573' (facets, filters)
  target_unit         TEXT,
  to_row              INTEGER REFERENCES decision_rows(row) ON DELETE SET NULL,
  -- case: resolved when exactly one decision of the corpus fits; statute: resolved when the unit's text is held.
  resolution_status   TEXT NOT NULL CHECK (resolution_status IN ('resolved','unresolved'))
);
CREATE INDEX IF NOT EXISTS citation_links_from ON citation_links(from_row);
CREATE INDEX IF NOT EXISTS citation_links_to ON citation_links(to_row) WHERE to_row IS NOT NULL;
-- The statute edges by cited unit and citing decision (the facets and filters by law and unit; the citing decisions of
-- a unit that law_unit_citations counts). It replaced citation_links_norm (without from_row) in files of this version.
DROP INDEX IF EXISTS citation_links_norm;
CREATE INDEX IF NOT EXISTS citation_links_statutes ON citation_links(target_law, target_unit, from_row) WHERE reference_type = 'statute';
CREATE INDEX IF NOT EXISTS citation_links_unresolved ON citation_links(target_az_key)
  WHERE reference_type = 'case' AND resolution_status = 'unresolved';
-- How often the decisions cite each law unit (statute edges, and the decisions they come from; unit '' where only the
-- law is named), kept in step by the triggers below as edges come and go: the laws section's priors
-- (src/search/law-prior.ts) read these rows instead of counting millions of edges on a search (at 100k decisions that
-- count took 10 s). A decision counts once per unit: when its first edge to the unit comes and its last one goes
-- (citation_links_statutes finds the others). Filled for an older file on its next writable open (src/corpus/open.ts).
CREATE TABLE IF NOT EXISTS law_unit_citations (
  law       TEXT NOT NULL,
  unit      TEXT NOT NULL,
  edges     INTEGER NOT NULL,
  decisions INTEGER NOT NULL,
  PRIMARY KEY (law, unit)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS citation_links_count_insert AFTER INSERT ON citation_links
  WHEN new.reference_type = 'statute' AND new.target_law IS NOT NULL
  BEGIN
    INSERT INTO law_unit_citations (law, unit, edges, decisions)
    SELECT new.target_law, coalesce(new.target_unit, ''), 1, NOT EXISTS (SELECT 1 FROM citation_links c
      WHERE c.reference_type = 'statute' AND c.target_law = new.target_law AND c.target_unit IS new.target_unit
        AND c.from_row = new.from_row AND c.id <> new.id) AS first WHERE true
    ON CONFLICT DO UPDATE SET edges = edges + 1, decisions = decisions + excluded.decisions;
  END;
CREATE TRIGGER IF NOT EXISTS citation_links_count_delete AFTER DELETE ON citation_links
  WHEN old.reference_type = 'statute' AND old.target_law IS NOT NULL
  BEGIN
    UPDATE law_unit_citations SET edges = edges - 1, decisions = decisions - NOT EXISTS (SELECT 1 FROM citation_links c
      WHERE c.reference_type = 'statute' AND c.target_law = old.target_law AND c.target_unit IS old.target_unit
        AND c.from_row = old.from_row)
    WHERE law = old.target_law AND unit = coalesce(old.target_unit, '');
  END;
-- Writers never change an edge's target or citing decision (they delete and insert); should one, the counts of the
-- file are counted anew on its next writable open.
CREATE TRIGGER IF NOT EXISTS citation_links_count_update AFTER UPDATE OF reference_type, target_law, target_unit, from_row ON citation_links
  BEGIN DELETE FROM meta WHERE key = 'law_unit_citations'; END;
-- What every reader queries: the edges with from_decision_id and to_decision_id as UUIDs. SQLite flattens the view, so
-- a lookup by either UUID finds its decision row first and then the edges on the integer index (EXPLAIN QUERY PLAN).
-- Writers write citation_links (src/graph/edges.ts, resolve.ts).
CREATE VIEW IF NOT EXISTS citation_edges AS
  SELECT l.id, f.id AS from_decision_id, l.rn, l.reference_canonical, l.reference_type, l.reference_role, l.target_ecli,
    l.target_court, l.target_date, l.target_az_key, l.target_law, l.target_unit, t.id AS to_decision_id,
    l.resolution_status
  FROM citation_links l JOIN decision_rows f ON f.row = l.from_row LEFT JOIN decision_rows t ON t.row = l.to_row;

-- Ingestion boundaries stated by a coverage manifest (empty unless one is imported; then coverage is derived from
-- the decisions held, per court, earliest to latest).
CREATE TABLE IF NOT EXISTS coverage_ranges (
  court      TEXT NOT NULL,
  label      TEXT,
  from_date  TEXT NOT NULL,
  until_date TEXT,
  sources    TEXT NOT NULL DEFAULT '[]',       -- JSON array of strings
  exhaustive INTEGER NOT NULL DEFAULT 0,
  ocr        INTEGER NOT NULL DEFAULT 0,
  note       TEXT,
  verified_at TEXT                             -- 'YYYY-MM-DD' the range was last verified (a sync's day); older files:
                                               -- added by src/corpus/open.ts on a writable open
);
CREATE INDEX IF NOT EXISTS coverage_ranges_court ON coverage_ranges(court);

-- What `juralite sync` fetched (src/sync, docs/sync.md): one row per table-of-contents item (a law's xml.zip, a
-- decision's jb-*.zip) or dump, written in the same transaction as the documents it held, so a run killed at any
-- point resumes where it stopped. Only writers read it: a reader of an older file without it never misses it.
CREATE TABLE IF NOT EXISTS sync_manifest (
  url           TEXT PRIMARY KEY,              -- as the official table of contents links it (never a mirror's)
  source        TEXT NOT NULL CHECK (source IN ('gii','rii','oldp')),
  etag          TEXT,                          -- the HTTP ETag and Last-Modified of the answer (conditional GET)
  last_modified TEXT,
  modified      TEXT,                          -- the table of contents' own stamp (rii), else NULL
  content_hash  TEXT NOT NULL,                 -- sha256 of the bytes fetched: the same bytes again are not imported
  documents     TEXT NOT NULL DEFAULT '[]',    -- JSON array: ids of the decisions and laws written from it
  imported_at   TEXT NOT NULL
) WITHOUT ROWID;

-- Search indexes (src/search, docs/search.md). The FTS5 tables hold analyzed text (stems, src/search/analyze.ts), not
-- the raw text: contentless, with deletes. Snippets are cut from the chunks' texts. Columns carry the field weights: title
-- (the decision title) and lead (Leitsatz, Orientierungssatz, Tenor) rank above body (Tatbestand, Gründe).
-- One row per decision (all its chunks, in position order): keyword and hybrid rank decisions here, so BM25 scores one
-- row per matching decision instead of one per matching passage (a common word: ~10,000 rows, not ~90,000); the
-- passages shown are then picked among the page's decisions' chunks. rowid = search_docs.doc_id. (Search index
-- versions 1 to 3 also kept a passage index, chunks_fts; since keyword ranks decisions no query read it.)
CREATE VIRTUAL TABLE IF NOT EXISTS decisions_fts USING fts5(
  title, lead, body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0');
-- The integer row of a decision in decisions_fts (decisions.id is a UUID). A deleted decision takes its row with it.
-- It repeats the decision's columns that search filters read (search index 5): a filtered keyword query tests every
-- matching row, and a lookup by the integer row it already joins costs half of one by UUID in decisions.
CREATE TABLE IF NOT EXISTS search_docs (
  doc_id        INTEGER PRIMARY KEY,
  decision_id   TEXT NOT NULL UNIQUE REFERENCES decisions(id) ON DELETE CASCADE,
  court         TEXT,
  date          TEXT,
  document_kind TEXT
);
CREATE TRIGGER IF NOT EXISTS search_docs_delete AFTER DELETE ON search_docs
  BEGIN DELETE FROM decisions_fts WHERE rowid = old.doc_id; END;
CREATE TRIGGER IF NOT EXISTS search_docs_filters AFTER UPDATE OF court, date, document_kind ON decisions
  BEGIN UPDATE search_docs SET court = new.court, date = new.date, document_kind = new.document_kind
        WHERE decision_id = new.id; END;
-- Law units: title ('§ 573 BGB' and the law's name), heading, text.
CREATE VIRTUAL TABLE IF NOT EXISTS law_units_fts USING fts5(
  title, heading, body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0');
-- Folded words of at least 7 letters, reversed, with their stem: a query word finds the compounds it ends
-- ("Mieterhöhung" -> "Modernisierungsmieterhöhung") by a range scan.
CREATE TABLE IF NOT EXISTS search_words (
  rev  TEXT PRIMARY KEY,
  stem TEXT NOT NULL
) WITHOUT ROWID;
-- Chunks and law units written since the index was last brought in step (src/search/index-sync.ts empties them);
-- indexed = 1 where the row may already be in the index (deleted or updated), so only those pay for an index delete.
CREATE TABLE IF NOT EXISTS search_chunk_queue (chunk_id INTEGER PRIMARY KEY, indexed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS search_unit_queue (unit_rowid INTEGER PRIMARY KEY, indexed INTEGER NOT NULL DEFAULT 0);
CREATE TRIGGER IF NOT EXISTS row_chunks_search_insert AFTER INSERT ON row_chunks
  BEGIN INSERT OR IGNORE INTO search_chunk_queue (chunk_id) VALUES (new.id); END;
CREATE TRIGGER IF NOT EXISTS row_chunks_search_delete AFTER DELETE ON row_chunks
  BEGIN INSERT INTO search_chunk_queue (chunk_id, indexed) VALUES (old.id, 1) ON CONFLICT DO UPDATE SET indexed = 1; END;
CREATE TRIGGER IF NOT EXISTS law_units_search_insert AFTER INSERT ON law_units
  BEGIN INSERT OR IGNORE INTO search_unit_queue (unit_rowid) VALUES (new.rowid); END;
CREATE TRIGGER IF NOT EXISTS law_units_search_update AFTER UPDATE ON law_units
  BEGIN INSERT INTO search_unit_queue (unit_rowid, indexed) VALUES (new.rowid, 1) ON CONFLICT DO UPDATE SET indexed = 1; END;
CREATE TRIGGER IF NOT EXISTS law_units_search_delete AFTER DELETE ON law_units
  BEGIN INSERT INTO search_unit_queue (unit_rowid, indexed) VALUES (old.rowid, 1) ON CONFLICT DO UPDATE SET indexed = 1; END;
-- The decision columns that search filters read, in one covering index: a filtered FTS5 query joins every matching
-- passage to its decision, and reading the decision rows themselves (the text inline) cost a page each. The
-- importer's citation lookups read court and date here too (src/graph/resolve.ts).
CREATE INDEX IF NOT EXISTS search_decision_filters ON decisions(id, court, date, document_kind);
-- frequently_cited_by_results reads the case edges of a page's decisions (src/search/cited-by-results.ts): covering,
-- so it does not read every edge row of 20 decisions (about 1,000, three quarters of them statute edges).
CREATE INDEX IF NOT EXISTS search_case_edges ON citation_links(from_row, to_row) WHERE reference_type = 'case';
-- Semantic search (src/search/vector-*.ts, docs/search.md "Semantic"): one vector per decision. meta.search_embedder
-- records the embedder that made them (JSON: the corpus-trained model or an external model); search_model_words holds
-- the trained model's words. The float vectors (centered, unit length) re-rank; their sign bits live in the vec0
-- table search_vec (created by src/search/vector-store.ts, its width being the embedder's), rowid = vec_id.
CREATE TABLE IF NOT EXISTS search_model_words (
  stem   TEXT PRIMARY KEY,                     -- as src/search/analyze.ts stems it
  count  INTEGER NOT NULL,                     -- occurrences in the training sample (SIF weights)
  vector BLOB NOT NULL                         -- float32 x dims, unit length
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS search_vectors (
  vec_id      INTEGER PRIMARY KEY AUTOINCREMENT, -- rowid in search_vec; survives VACUUM, never reused
  decision_id TEXT NOT NULL UNIQUE REFERENCES decisions(id) ON DELETE CASCADE,
  vector      BLOB NOT NULL                    -- float32 x dims
);
-- vec_ids whose decision was deleted: their search_vec rows are removed by the next sync (a trigger cannot reach vec0).
CREATE TABLE IF NOT EXISTS search_vector_orphans (vec_id INTEGER PRIMARY KEY);
CREATE TRIGGER IF NOT EXISTS search_vectors_delete AFTER DELETE ON search_vectors
  BEGIN INSERT OR IGNORE INTO search_vector_orphans (vec_id) VALUES (old.vec_id); END;
-- Integer court ids for the vec0 metadata column (integers filter inside the KNN scan much faster than text).
CREATE TABLE IF NOT EXISTS search_courts (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE);

PRAGMA user_version = 4;
