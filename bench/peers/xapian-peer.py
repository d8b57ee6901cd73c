#!/usr/bin/python3
"""Xapian with its defaults, the peer of bench/peers/run.ts (quality) and bench/peers/speed.ts (speed): BM25, German
stemmer, words OR'd (QueryParser default).

usage: /usr/bin/python3 bench/peers/xapian-peer.py rank DOCS.jsonl QUERIES.json OUT.json [FIELDS [INDEX_DIR]]
       /usr/bin/python3 bench/peers/xapian-peer.py index DIR < DOCS.jsonl
       /usr/bin/python3 bench/peers/xapian-peer.py serve DIR
DOCS: one document a line: {key, aktenzeichen, ecli, title, lead, body} for decisions, or the FIELDS named
(comma-separated; law units: key,law,heading,breadcrumb,body).
rank: indexes DOCS in memory (inmemory backend), or on disk in INDEX_DIR (the 100k law units would not fit the
inmemory backend's footprint), asks QUERIES ([{id, query}]) and writes OUT: {id: [key, ...top 10], "_timing_ms": [...]}.
index: DOCS from stdin into a glass database in DIR. serve: one query a line on stdin; one JSON line a query on
stdout: {"ms": in-process time, "keys": [top 20]}.
"""
import json
import sys
import time

import xapian

DECISION_FIELDS = ['aktenzeichen', 'ecli', 'title', 'lead', 'body']
stemmer = xapian.Stem('german')


def index_docs(db, lines, fields):
    """Each document's fields in order, one term position apart, its key as the document's data."""
    indexer = xapian.TermGenerator()
    indexer.set_stemmer(stemmer)
    for n, line in enumerate(lines, 1):
        d = json.loads(line)
        doc = xapian.Document()
        indexer.set_document(doc)
        for part in fields:
            if d.get(part):
                indexer.index_text(d[part])
                indexer.increase_termpos()
        doc.set_data(d['key'])
        db.add_document(doc)
        if n % 10000 == 0:
            print(f'xapian: {n} indexed', file=sys.stderr, flush=True)
    db.commit()


def searcher(db, depth):
    """A function from a query's text to its top `depth` keys and Xapian's own time for them in ms."""
    parser = xapian.QueryParser()
    parser.set_stemmer(stemmer)
    parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
    parser.set_database(db)
    enquire = xapian.Enquire(db)

    def search(text):
        start = time.perf_counter()
        enquire.set_query(parser.parse_query(text))
        keys = [m.document.get_data().decode('utf-8') for m in enquire.get_mset(0, depth)]
        return keys, (time.perf_counter() - start) * 1000
    return search


command = sys.argv[1]
if command == 'rank':
    docs_path, queries_path, out_path = sys.argv[2:5]
    fields = sys.argv[5].split(',') if len(sys.argv) > 5 else DECISION_FIELDS
    db = (xapian.WritableDatabase(sys.argv[6], xapian.DB_CREATE_OR_OVERWRITE) if len(sys.argv) > 6
          else xapian.WritableDatabase('', xapian.DB_BACKEND_INMEMORY))
    with open(docs_path, encoding='utf-8') as docs:
        index_docs(db, docs, fields)
    search = searcher(db, 10)
    out = {'_timing_ms': []}
    for q in json.load(open(queries_path, encoding='utf-8')):
        out[q['id']], ms = search(q['query'])
        out['_timing_ms'].append(ms)
    json.dump(out, open(out_path, 'w', encoding='utf-8'))
elif command == 'index':
    db = xapian.WritableDatabase(sys.argv[2], xapian.DB_CREATE_OR_OVERWRITE)
    index_docs(db, sys.stdin, DECISION_FIELDS)
    db.close()
elif command == 'serve':
    search = searcher(xapian.Database(sys.argv[2]), 20)
    for line in sys.stdin:
        keys, ms = search(line.strip())
        print(json.dumps({'ms': ms, 'keys': keys}), flush=True)
else:
    sys.exit(f'xapian-peer.py: unknown command {command!r} (rank, index or serve)')
