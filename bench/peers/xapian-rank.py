#!/usr/bin/python3
"""Xapian with its defaults, the peer of bench/peers/run.ts: BM25, German stemmer, words OR'd (QueryParser default).

usage: /usr/bin/python3 bench/peers/xapian-rank.py DOCS.jsonl QUERIES.json OUT.json [FIELDS [INDEX_DIR]]
DOCS: one document a line: {key, aktenzeichen, ecli, title, lead, body} for decisions, or the FIELDS named
(comma-separated; law units: key,law,heading,breadcrumb,body); QUERIES: [{id, query}];
OUT: {id: [key, ...top 10], "_timing_ms": [per query]}. The index lives in memory (inmemory backend), or on disk in
INDEX_DIR (the 100k law units would not fit the inmemory backend's footprint).
"""
import json
import sys
import time

import xapian

docs_path, queries_path, out_path = sys.argv[1:4]
fields = sys.argv[4].split(',') if len(sys.argv) > 4 else ['aktenzeichen', 'ecli', 'title', 'lead', 'body']
if len(sys.argv) > 5:
    db = xapian.WritableDatabase(sys.argv[5], xapian.DB_CREATE_OR_OVERWRITE)
else:
    db = xapian.WritableDatabase('', xapian.DB_BACKEND_INMEMORY)
indexer = xapian.TermGenerator()
stemmer = xapian.Stem('german')
indexer.set_stemmer(stemmer)
for line in open(docs_path, encoding='utf-8'):
    d = json.loads(line)
    doc = xapian.Document()
    indexer.set_document(doc)
    for part in fields:
        if d.get(part):
            indexer.index_text(d[part])
            indexer.increase_termpos()
    doc.set_data(d['key'])
    db.add_document(doc)
db.commit()

parser = xapian.QueryParser()
parser.set_stemmer(stemmer)
parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
parser.set_database(db)
enquire = xapian.Enquire(db)
out = {}
timing = []
for q in json.load(open(queries_path, encoding='utf-8')):
    start = time.perf_counter()
    enquire.set_query(parser.parse_query(q['query']))
    out[q['id']] = [m.document.get_data().decode('utf-8') for m in enquire.get_mset(0, 10)]
    timing.append((time.perf_counter() - start) * 1000)
out['_timing_ms'] = timing
json.dump(out, open(out_path, 'w', encoding='utf-8'))
