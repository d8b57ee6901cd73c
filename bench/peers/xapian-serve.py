#!/usr/bin/python3
"""Xapian with its defaults on disk, the speed peer of bench/peers/speed.ts (BM25, German stemmer, words OR'd).

usage: /usr/bin/python3 bench/peers/xapian-serve.py index DIR < DOCS.jsonl
       /usr/bin/python3 bench/peers/xapian-serve.py serve DIR
index: one decision a line {key, aktenzeichen, ecli, title, lead, body} into a glass database in DIR.
serve: one query a line on stdin; one JSON line a query on stdout: {"ms": in-process time, "keys": [top 20]}.
The same indexing as bench/peers/xapian-rank.py.
"""
import json
import sys
import time

import xapian

command, path = sys.argv[1:3]
stemmer = xapian.Stem('german')

if command == 'index':
    db = xapian.WritableDatabase(path, xapian.DB_CREATE_OR_OVERWRITE)
    indexer = xapian.TermGenerator()
    indexer.set_stemmer(stemmer)
    for n, line in enumerate(sys.stdin, 1):
        d = json.loads(line)
        doc = xapian.Document()
        indexer.set_document(doc)
        for part in ('aktenzeichen', 'ecli', 'title', 'lead', 'body'):
            if d.get(part):
                indexer.index_text(d[part])
                indexer.increase_termpos()
        doc.set_data(d['key'])
        db.add_document(doc)
        if n % 10000 == 0:
            print(f'xapian: {n} indexed', file=sys.stderr, flush=True)
    db.commit()
    db.close()
elif command == 'serve':
    db = xapian.Database(path)
    parser = xapian.QueryParser()
    parser.set_stemmer(stemmer)
    parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
    parser.set_database(db)
    enquire = xapian.Enquire(db)
    for line in sys.stdin:
        start = time.perf_counter()
        enquire.set_query(parser.parse_query(line.strip()))
        keys = [m.document.get_data().decode('utf-8') for m in enquire.get_mset(0, 20)]
        ms = (time.perf_counter() - start) * 1000
        print(json.dumps({'ms': ms, 'keys': keys}), flush=True)
