import type Database from 'better-sqlite3';

/**
 * What the search indexes hold, in a form two corpora can be compared by: every term instance of both FTS5 tables
 * (fts5vocab reads contentless tables too), the decision rows with their filter columns, the compound words and the
 * decision vectors.
 */
export function searchIndexContents(db: Database.Database) {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.decisions_vocab USING fts5vocab(main, decisions_fts, 'instance');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.units_vocab USING fts5vocab(main, law_units_fts, 'instance');`);
  const all = (query: string) => db.prepare(query).raw().all();
  return {
    decisions: all('SELECT d.decision_id, v.term, v.col, v.offset FROM temp.decisions_vocab v JOIN search_docs d ON d.doc_id = v.doc ORDER BY 1, 2, 3, 4'),
    units: all('SELECT term, doc, col, offset FROM temp.units_vocab ORDER BY 1, 2, 3, 4'),
    docs: all('SELECT decision_id, court, date, document_kind FROM search_docs ORDER BY decision_id'),
    words: all('SELECT rev, stem FROM search_words ORDER BY rev'),
    vectors: all('SELECT decision_id, hex(vector) FROM search_vectors ORDER BY decision_id'),
    queued: all('SELECT chunk_id FROM search_chunk_queue UNION ALL SELECT unit_rowid FROM search_unit_queue'),
  };
}
