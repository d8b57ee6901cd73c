/**
 * Statements with their parameters written `?` against the same written `+?` (every one: `plus` below), as the
 * service runs them, on the same random inputs, answers compared. better-sqlite3 clears a statement's bindings after
 * each run, and SQLite then compiles anew, at the next run, any statement whose plan read a bound value (a parameter
 * compared to a column in a join, LIMIT ?); `+?` keeps the plan without that (src/db/statements.ts; bench/README
 * "Session 23: statements SQLite re-prepares on every call"). Rounds alternate which form runs first. Read-only;
 * never part of `npm test`.
 *
 *   node bench/bound-parameters.ts .tmp/bench-100k.db [--n 300] [--rounds 4] [--only PREFIX]
 */
import Database from 'better-sqlite3';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true,
  options: { n: { type: 'string', default: '300' }, rounds: { type: 'string', default: '4' }, only: { type: 'string' } } });
if (!positionals[0]) {
  console.error('usage: node bench/bound-parameters.ts CORPUS [--n 300] [--rounds 4] [--only PREFIX]');
  process.exit(2);
}
const n = Number(values.n);
const db = new Database(positionals[0], { readonly: true });
const column = (query: string) => db.prepare(query).raw().all(n) as unknown[][];
const sample = (query: string) => column(query).map((row) => row[0]);
const rows = sample('SELECT row FROM decision_rows ORDER BY random() LIMIT ?');
const keys = sample('SELECT az_key FROM decision_file_numbers ORDER BY random() LIMIT ?');
const citing = sample(`SELECT DISTINCT from_decision_id FROM citation_edges WHERE reference_type = 'case' AND to_decision_id IS NOT NULL ORDER BY random() LIMIT ?`);
const cited = sample(`SELECT DISTINCT to_decision_id FROM citation_edges WHERE reference_type = 'case' AND to_decision_id IS NOT NULL ORDER BY random() LIMIT ?`);
const pairs = column(`SELECT from_decision_id, to_decision_id FROM citation_edges WHERE reference_type = 'case' AND to_decision_id IS NOT NULL ORDER BY random() LIMIT ?`);
const eclis = sample('SELECT ecli FROM decisions WHERE ecli IS NOT NULL ORDER BY random() LIMIT ?');
const statutes = column('SELECT law, nullif(unit, \'\') FROM law_unit_citations ORDER BY random() LIMIT ?');
const units = column('SELECT law_id, number, position FROM law_units ORDER BY random() LIMIT ?');
const branches = sample('SELECT DISTINCT branch FROM courts LIMIT ?');
const at = <T>(list: T[], i: number): T => list[i % list.length];

const neighbours = (near: string, far: string, order: string) => `WITH hits AS (
    SELECT ${far} AS id, min(id) AS first_edge, max(reference_role) AS role, group_concat(rn) AS rns
    FROM citation_edges WHERE ${near} = ? AND reference_type = 'case' AND to_decision_id IS NOT NULL GROUP BY ${far})
  SELECT d.id, d.court, d.date, d.aktenzeichen, d.document_type, d.ecli, h.first_edge, h.role, h.rns,
         (SELECT reference_canonical FROM citation_edges WHERE id = h.first_edge) AS canonical
  FROM hits h JOIN decisions d ON d.id = h.id ORDER BY ${order} LIMIT ? OFFSET ?`;
const citingUnit = `FROM citation_edges e JOIN decisions d ON d.id = e.from_decision_id
  WHERE e.reference_type = 'statute' AND e.target_law = ? AND e.target_unit = ?`;

/** [where, name, the statement as it was with `?`, its arguments for input i]; the `+?` form is plus(statement). */
const STATEMENTS: [string, string, string, (i: number) => unknown[]][] = [
  ['get', 'sections', 'SELECT name, start_offset, end_offset FROM row_sections WHERE decision_row = ? ORDER BY position', (i) => [at(rows, i)]],
  ['get', 'file numbers', 'SELECT aktenzeichen FROM row_file_numbers WHERE decision_row = ? ORDER BY position', (i) => [at(rows, i)]],
  ['get', 'chunks of a Rn range', 'SELECT start_offset, end_offset, rn_from, rn_to FROM row_chunks WHERE decision_row = ? AND rn_from IS NOT NULL AND rn_to >= ? AND rn_from <= ? ORDER BY position', (i) => [at(rows, i), 2, 6]],
  ['get', 'by Aktenzeichen', 'SELECT DISTINCT d.id, d.court, d.date FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id WHERE f.az_key = ? ORDER BY d.date DESC, d.court', (i) => [at(keys, i)]],
  ['graph', 'neighbours cited', neighbours('from_decision_id', 'to_decision_id', 'h.first_edge'), (i) => [at(citing, i), 25, 0]],
  ['graph', 'neighbours citing', neighbours('to_decision_id', 'from_decision_id', 'd.date DESC, d.id'), (i) => [at(cited, i), 25, 0]],
  ['graph', 'count cited', `SELECT count(DISTINCT to_decision_id) AS n FROM citation_edges WHERE from_decision_id = ? AND reference_type = 'case' AND to_decision_id IS NOT NULL`, (i) => [at(citing, i)]],
  ['graph', 'count citing', `SELECT count(DISTINCT from_decision_id) AS n FROM citation_edges WHERE to_decision_id = ? AND reference_type = 'case' AND to_decision_id IS NOT NULL`, (i) => [at(cited, i)]],
  ['graph', 'unresolved', `SELECT reference_canonical AS canonical, max(reference_role) AS role, group_concat(rn) AS rns FROM citation_edges WHERE from_decision_id = ? AND reference_type = 'case' AND to_decision_id IS NULL GROUP BY reference_canonical ORDER BY min(id)`, (i) => [at(citing, i)]],
  ['graph', 'neighbour ids', `SELECT DISTINCT to_decision_id AS id FROM citation_edges WHERE from_decision_id = ? AND reference_type = 'case' AND to_decision_id IS NOT NULL`, (i) => [at(citing, i)]],
  ['graph', 'edge between', `WITH hits AS (SELECT min(id) AS first_edge, max(reference_role) AS role, group_concat(rn) AS rns FROM citation_edges WHERE from_decision_id = ? AND +to_decision_id = ?) SELECT (SELECT reference_canonical FROM citation_edges WHERE id = h.first_edge) AS canonical, h.role, h.rns FROM hits h`, (i) => at(pairs, i)],
  ['datapackage', 'case edges', `SELECT e.reference_canonical AS canonical, e.reference_role AS role, e.rn, e.to_decision_id, d.id, d.court, d.date, d.aktenzeichen, d.document_type, d.ecli FROM citation_edges e LEFT JOIN decisions d ON d.id = e.to_decision_id WHERE e.from_decision_id = ? AND e.reference_type = 'case' ORDER BY e.id`, (i) => [at(citing, i)]],
  ['text citations, check', 'Randnummern (view)', 'SELECT rn, start_offset, end_offset FROM decision_randnummern WHERE decision_id = ? ORDER BY position', (i) => [at(citing, i)]],
  ['text citations, check', 'sections (view)', 'SELECT name, start_offset, end_offset FROM decision_sections WHERE decision_id = ? ORDER BY position', (i) => [at(citing, i)]],
  ['check', 'Rn numbers (view)', 'SELECT rn FROM decision_randnummern WHERE decision_id = ? ORDER BY position', (i) => [at(citing, i)]],
  ['check', 'by Aktenzeichen', 'SELECT DISTINCT d.id, d.ecli, d.court, d.date FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id WHERE f.az_key = ? ORDER BY d.date, d.court', (i) => [at(keys, i)]],
  ['resolve', 'by ECLI', 'SELECT d.id, r.row FROM decisions d JOIN decision_rows r ON r.id = d.id WHERE d.ecli = ?', (i) => [at(eclis, i)]],
  ['resolve', 'by Aktenzeichen', 'SELECT DISTINCT r.id, r.row, d.court, d.date FROM row_file_numbers x JOIN decision_rows r ON r.row = x.decision_row JOIN decisions d INDEXED BY search_decision_filters ON d.id = r.id WHERE x.az_key = ?', (i) => [at(keys, i)]],
  ['resolve', 'statute held', 'SELECT 1 FROM laws l JOIN law_units u ON u.law_id = l.id WHERE l.abbreviation = ? AND u.kind = ? AND u.number = ? AND u.text IS NOT NULL', (i) => [at(statutes, i)[0], '§', String(i % 900)]],
  ['coverage', 'federal court', `SELECT founding_year, founding_basis FROM courts WHERE branch = ? AND level = 'federal' ORDER BY founding_year LIMIT 1`, (i) => [at(branches, i)]],
  ['coverage', 'laws of a jurisdiction', 'SELECT abbreviation FROM laws WHERE jurisdiction = ? ORDER BY abbreviation', () => ['EU']],
  ['laws', 'law by alias', 'SELECT l.id, l.abbreviation, l.title, l.jurisdiction, l.text_available FROM law_aliases a JOIN laws l ON l.id = a.law_id WHERE a.alias_key = ?', (i) => [`name:${i}`]],
  ['laws', 'units by number', `SELECT id, kind, position FROM law_units WHERE law_id = ? AND number = ? ORDER BY kind = '§' DESC, position`, (i) => at(units, i).slice(0, 2)],
  ['laws', 'neighbour unit', 'SELECT id, kind, number FROM law_units WHERE law_id = ? AND position < ? ORDER BY position DESC LIMIT 1', (i) => [at(units, i)[0], at(units, i)[2]]],
  ['laws', 'citing total', `SELECT count(DISTINCT e.from_decision_id) AS total ${citingUnit}`, (i) => at(statutes, i)],
  ['laws', 'citing decisions', `SELECT DISTINCT d.id, d.court, d.date, d.aktenzeichen ${citingUnit} ORDER BY d.date DESC LIMIT ?`, (i) => [...at(statutes, i), 20]],
];

/** Every parameter written `+?`. */
const plus = (text: string) => text.replace(/(?<![+\w])\?/g, '+?');
const runAll = (statement: Database.Statement, args: (i: number) => unknown[]) => {
  const started = performance.now();
  for (let i = 0; i < n; i++) statement.all(...args(i));
  return ((performance.now() - started) * 1000) / n;
};
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`${n} inputs a statement, median of ${values.rounds} rounds, ${positionals[0]}`);
const row = (cells: (string | number)[]) => console.log(cells.map((cell, i) => String(cell).padEnd([22, 24, 9, 9, 7, 5][i])).join(' '));
row(['where', 'statement', '? µs', '+? µs', 'ratio', 'same answers']);
for (const [where, name, text, args] of STATEMENTS) {
  if (values.only && !where.startsWith(values.only)) continue;
  const [before, after] = [db.prepare(text), db.prepare(plus(text))];
  let same = true;
  for (let i = 0; i < n; i++) if (JSON.stringify(before.all(...args(i))) !== JSON.stringify(after.all(...args(i)))) same = false;
  const times: number[][] = [[], []];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const which of round % 2 ? [1, 0] : [0, 1]) times[which].push(runAll([before, after][which], args));
  }
  const [was, now] = times.map(median);
  row([where, name, was.toFixed(1), now.toFixed(1), (now / was).toFixed(2), String(same)]);
}
