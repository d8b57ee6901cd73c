/**
 * The peer bench of issue [ranking]: the judged set (bench/search-relevance.json) over the relevance corpus
 * (bench/relevance-corpus.ts), scored for juralite (every mode) and, on the same decisions, for
 *   - Xapian with its defaults (BM25, German stemmer, words OR'd; Debian python3-xapian, /usr/bin/python3), and
 *   - PostgreSQL full-text search (the `german` configuration, the query's words OR'd, ranked by ts_rank; a throwaway
 *     cluster in a temp dir on 127.0.0.1, removed at the end),
 *   - plain BM25 over juralite's own FTS5 index (decisions only): the query's analysed words (stems, stopwords out)
 *     OR'd, ordered by bm25() alone: no widening, no bridge, no fusion (the outside evaluation's strongest baseline),
 * printed side by side (MRR@10, R@1, R@10 per kind and mode) in one run. Never part of `npm test`.
 *
 *   node bench/peers/run.ts [--no-postgres] [--no-xapian] [--laws] [--set tuning|heldout|unseen] [--per-query]
 *
 * Needs ../shared/data. Installs python3-xapian and postgresql with apt where missing (as root), and says so.
 * Each peer indexes what juralite holds of a decision: its Aktenzeichen, ECLI, title, Leitsatz/Tenor and the rest.
 * The judged decision sets (the tuning set bench/search-relevance.json, the held-out set
 * bench/search-relevance-heldout.json and the unseen set bench/search-relevance-unseen.json; one with --set NAME) are
 * ranked in one run over one index each.
 * With --laws: the judged laws sets (the tuning set bench/search-relevance-laws.json and the held-out set
 * bench/search-relevance-laws-heldout.json; one with --set tuning|heldout) over the law units of the laws corpus
 * (bench/laws-corpus.ts: all 6,877 federal laws), each peer indexing a unit's label ('§ 573 BGB'), its law's title,
 * heading, breadcrumb and text once, beside the laws section of juralite's GET /search and its confidence levels.
 * With --per-query (decisions): the queries where juralite's default mode ranks below Xapian or plain BM25, each
 * mode's rank beside.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { hasSharedData } from '../../test/helpers/shared-data.ts';
import { printTable, stats } from '../lib.ts';
import { decisionKeys, exportDocs, relevanceCorpus, RELEVANCE_DOCS } from '../relevance-corpus.ts';
import { chosenSets, DECISION_SETS, HEADER, judgedKeys, juraliteRows, MODES, orUnavailable, scoreOf, scoreRows, type Query } from '../search-relevance.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { tokenize } from '../../src/search/analyze.ts';
import type Database from 'better-sqlite3';
import { exportUnits, lawsCorpus, LAWS_UNITS } from '../laws-corpus.ts';
import { chosenLawSets, CONFIDENCE_HEADER, juraliteLawRows, TIMING_HEADER } from '../laws-relevance.ts';

const PYTHON = '/usr/bin/python3';
const XAPIAN_SCRIPT = fileURLToPath(new URL('./xapian-peer.py', import.meta.url));

/** Installs a Debian package when `present` says it is missing. */
function ensurePackage(name: string, present: () => boolean): boolean {
  if (present()) return true;
  console.log(`peers: ${name} is missing; installing it with apt-get (needs root)`);
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
  const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', name], { stdio: 'inherit' }) : update;
  if (install.status !== 0 || !present()) {
    console.log(`peers: could not install ${name}; its rows are left out`);
    return false;
  }
  return true;
}

const hasXapian = () => spawnSync(PYTHON, ['-c', 'import xapian'], { stdio: 'ignore' }).status === 0;
const pgBin = (): string | null => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort().at(-1);
  return version && existsSync(join(root, version, 'bin/initdb')) ? join(root, version, 'bin') : null;
};

/** What a peer indexes: the export (one JSON document a line) and the fields of a document, in order. */
interface PeerDocs { path: string; fields: string[]; count: number; what: string }
const DECISION_FIELDS = ['aktenzeichen', 'ecli', 'title', 'lead', 'body'];
const UNIT_FIELDS = ['key', 'law', 'heading', 'breadcrumb', 'body'];

/** Ranked keys per query id from Xapian, and its in-process time per query. */
function xapianRanking(docs: PeerDocs, queries: Query[]): { ranked: Map<string, string[]>; timing: number[] } {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-xapian-'));
  try {
    writeFileSync(join(dir, 'queries.json'), JSON.stringify(queries.map((q) => ({ id: q.id, query: q.query }))));
    execFileSync(PYTHON, [XAPIAN_SCRIPT, 'rank', docs.path, join(dir, 'queries.json'), join(dir, 'out.json'), docs.fields.join(','),
      join(dir, 'index')], { stdio: 'inherit' });
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Record<string, string[]> & { _timing_ms: number[] };
    return { ranked: new Map(queries.map((q) => [q.id, out[q.id] ?? []])), timing: out._timing_ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ranked keys per query id from PostgreSQL FTS in a throwaway cluster. */
async function postgresRanking(bin: string, docs: PeerDocs, queries: Query[]): Promise<{ ranked: Map<string, string[]>; timing: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-pg-'));
  const data = join(dir, 'data');
  const port = 54000 + (process.pid % 1000);
  const asPostgres = (args: string[]) => execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'pipe' });
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    asPostgres([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--encoding=UTF8', '--locale=C.UTF-8']);
    asPostgres([join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      await client.query('CREATE TABLE docs (key text, tsv tsvector)');
      // In batches of 500 rows (100k law units one by one would take minutes of round trips).
      const lines = readFileSync(docs.path, 'utf8').split('\n').filter(Boolean);
      for (let at = 0; at < lines.length; at += 500) {
        const batch = lines.slice(at, at + 500).map((line) => JSON.parse(line) as Record<string, string | null>);
        await client.query(`INSERT INTO docs SELECT k, to_tsvector('german', t) FROM unnest($1::text[], $2::text[]) AS u(k, t)`,
          [batch.map((d) => d.key), batch.map((d) => docs.fields.map((field) => d[field]).filter(Boolean).join('\n'))]);
      }
      await client.query('CREATE INDEX ON docs USING gin (tsv)');
      const ranked = new Map<string, string[]>();
      const timing: number[] = [];
      for (const q of queries) {
        const start = performance.now();
        // plainto_tsquery's words (stemmed, stopwords out), OR'd.
        const { rows } = await client.query(`WITH q AS (SELECT replace(plainto_tsquery('german', $1)::text, '&', '|') AS t)
          SELECT key FROM docs, q WHERE q.t <> '' AND tsv @@ q.t::tsquery ORDER BY ts_rank(tsv, q.t::tsquery) DESC, key LIMIT 10`, [q.query]);
        timing.push(performance.now() - start);
        ranked.set(q.id, rows.map((r: { key: string }) => r.key));
      }
      return { ranked, timing };
    } finally {
      await client.end();
    }
  } finally {
    try {
      asPostgres([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']);
    } catch { /* not started */ }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Ranked keys per query id from plain BM25 over juralite's own FTS5 index: the query's analysed words (as the index
 * holds them: stems, stopwords out), each quoted, OR'd, ordered by bm25() alone, the top 10; in-process time per query.
 */
function bm25Ranking(corpus: Database.Database, queries: Query[]): { ranked: Map<string, string[]>; timing: number[] } {
  const exportKeyOf = decisionKeys(corpus);
  const top = corpus.prepare(`SELECT d.decision_id AS id FROM decisions_fts f JOIN search_docs d ON d.doc_id = f.rowid
    WHERE decisions_fts MATCH ? ORDER BY bm25(decisions_fts) LIMIT 10`);
  const ranked = new Map<string, string[]>();
  const timing: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    const stems = [...new Set(tokenize(q.query).map((token) => token.stem))];
    const rows = stems.length === 0 ? [] : top.all(stems.map((stem) => `"${stem.replace(/"/gu, '""')}"`).join(' OR ')) as { id: string }[];
    timing.push(performance.now() - start);
    ranked.set(q.id, rows.map((row) => exportKeyOf.get(row.id) ?? row.id));
  }
  return { ranked, timing };
}

if (!hasSharedData) {
  console.log('peers: ../shared/data not found; nothing to compare');
  process.exit(0);
}
const laws = process.argv.includes('--laws');
const db = laws ? await lawsCorpus() : await relevanceCorpus();
const docs: PeerDocs = laws ? { path: LAWS_UNITS, fields: UNIT_FIELDS, count: exportUnits(db), what: 'law units' }
  : { path: RELEVANCE_DOCS, fields: DECISION_FIELDS, count: exportDocs(db), what: 'decisions' };
// The laws sets are ranked by each peer in one run over one index, and scored per set.
const sets: [string, Query[]][] = laws ? chosenLawSets(process.argv) : chosenSets(process.argv, DECISION_SETS);
const queries = sets.flatMap(([, set]) => set);
console.log(`peer bench: ${queries.length} judged queries over ${docs.count} ${docs.what}, node ${process.version}`);
// A peer's key is the export's (one per decision); the judged set may name a decision by another of its keys.
const keysOf = new Map([...judgedKeys(db).values()].map((keys) => [keys.find((k) => k.startsWith('ecli:ECLI') || /^JURA/u.test(k)) ?? keys[0]!, keys]));
const exportKey = new Map<string, string[]>();
if (!laws) {
  for (const line of readFileSync(RELEVANCE_DOCS, 'utf8').split('\n').filter(Boolean)) {
    const key = (JSON.parse(line) as { key: string }).key;
    exportKey.set(key, [...new Set([key, ...(keysOf.get(key) ?? [])])]);
  }
}
const peerRows = (engine: string, run: { ranked: Map<string, string[]> }, set: Query[]) =>
  scoreRows(engine, 'OR', set, async (q) => (run.ranked.get(q.id) ?? []).map((key) => exportKey.get(key) ?? [key]));
const printTiming = (engine: string, run: { timing: number[] }) => {
  const s = stats(run.timing);
  console.log(`${engine}: ${run.timing.length} queries, p50 ${s.p50.toFixed(3)} ms, p95 ${s.p95.toFixed(3)} ms (${engine === 'PostgreSQL' ? 'client round trip' : 'in-process'}, ${docs.count} ${docs.what})`);
};
/** The 1-based rank of a query's first relevant decision in the top 10 of ranked keys; 0 when none is there. */
const rankOf = (found: string[][], judged: string[]) => {
  const { mrr } = scoreOf(found, judged);
  return mrr > 0 ? Math.round(1 / mrr) : 0;
};
const worse = (rank: number, than: number) => than > 0 && (rank === 0 || rank > than);

/**
 * With --per-query: the queries where juralite's default mode ranks the first relevant decision below Xapian, with the
 * ranks of every juralite mode beside (0: not in the top 10), to find why per query.
 */
async function printBelowPeer(queries: Query[]): Promise<void> {
  const peers = runs.filter(([engine]) => engine === 'Xapian' || engine === BM25);
  if (peers.length === 0) return;
  const keys = judgedKeys(db);
  const rows: (string | number)[][] = [];
  for (const q of queries) {
    const peerRanks = peers.map(([, run]) => rankOf((run.ranked.get(q.id) ?? []).map((key) => exportKey.get(key) ?? [key]), q.relevant_decisions));
    const ranks: number[] = [];
    for (const mode of MODES) {
      const answer = await orUnavailable(() => searchDecisions(db, { query: q.query, mode: mode === 'unset' ? undefined : mode, limit: 10, page: 1, bridge: true }));
      ranks.push(answer ? rankOf(answer.results.map((r) => keys.get(r.id) ?? []), q.relevant_decisions) : -1);
    }
    if (peerRanks.some((peer) => worse(ranks[0]!, peer))) rows.push([q.id, q.kind, q.query.slice(0, 70), ...[...peerRanks, ...ranks].map(String)]);
  }
  console.log(`\nqueries where juralite's default mode ranks below ${peers.map(([engine]) => engine).join(' or ')} (${rows.length} of ${queries.length}; rank of the first relevant decision, 0: not in the top 10)`);
  printTable([['id', 'kind', 'query', ...peers.map(([engine]) => engine), ...MODES.map((mode) => `juralite ${mode}`)], ...rows]);
}

const BM25 = 'BM25 over our FTS5';
const runs: [string, { ranked: Map<string, string[]>; timing: number[] }][] = [];
if (!process.argv.includes('--no-xapian') && ensurePackage('python3-xapian', hasXapian)) runs.push(['Xapian', xapianRanking(docs, queries)]);
if (!process.argv.includes('--no-postgres') && ensurePackage('postgresql', () => pgBin() !== null)) runs.push(['PostgreSQL', await postgresRanking(pgBin()!, docs, queries)]);
if (!laws) runs.push([BM25, bm25Ranking(db, queries)]);
for (const [engine, run] of runs) printTiming(engine, run);
const byKind = (a: (string | number)[], b: (string | number)[]) => ['legal', 'lay', 'identifier'].indexOf(String(a[2])) - ['legal', 'lay', 'identifier'].indexOf(String(b[2]));
for (const [set, setQueries] of sets) {
  const rows: (string | number)[][] = [];
  for (const [engine, run] of runs) rows.push(...await peerRows(engine, run, setQueries));
  const lawRun = laws ? await juraliteLawRows(db, setQueries) : null;
  rows.push(...(lawRun ?? await juraliteRows(db, setQueries)).rows);
  console.log(`\n${laws ? 'laws, ' : 'decisions, '}${set} set (${setQueries.length} queries), load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  printTable([HEADER, ...rows.sort(byKind)]);
  if (lawRun) {
    console.log(`\nconfidence levels of the laws section of juralite, ${set} set (top 10; share judged relevant; the first result alone)`);
    printTable([CONFIDENCE_HEADER, ...lawRun.confidence]);
    console.log(`\njuralite's whole GET /search in-process per query, ${set} set (both sections, limit 10)`);
    printTable([TIMING_HEADER, ...lawRun.timing]);
  }
  if (!laws && process.argv.includes('--per-query')) await printBelowPeer(setQueries);
}
db.close();
