/**
 * A bound parameter written `?` against `+?` in the statements GET /decisions/{id} runs (src/corpus/read-decision.ts,
 * find-decision.ts), on the same 2,000 random decisions, answers compared: better-sqlite3's SQLite has STAT4 compiled
 * in and prepares a statement anew for each value bound to `?` where that value could change its plan; `+?` keeps
 * the plan and spares it (bench/README "Session 22: the edge"). Read-only; never part of `npm test`.
 *
 *   node bench/bound-parameters.ts .tmp/bench-100k.db
 */
import Database from 'better-sqlite3';
if (!process.argv[2]) {
  console.error('usage: node bench/bound-parameters.ts CORPUS');
  process.exit(2);
}
const db = new Database(process.argv[2], { readonly: true });
const rows = (db.prepare('SELECT row FROM decision_rows ORDER BY random() LIMIT 2000').all() as { row: number }[]).map((r) => r.row);
const keys = (db.prepare('SELECT az_key FROM decision_file_numbers ORDER BY random() LIMIT 2000').all() as { az_key: string }[]).map((r) => r.az_key);
const qs: [string, string, string, (i: number) => unknown[]][] = [
  ['sections', 'SELECT name, start_offset, end_offset FROM row_sections WHERE decision_row = ? ORDER BY position', 'SELECT name, start_offset, end_offset FROM row_sections WHERE decision_row = +? ORDER BY position', (i) => [rows[i]]],
  ['files', 'SELECT aktenzeichen FROM row_file_numbers WHERE decision_row = ? ORDER BY position', 'SELECT aktenzeichen FROM row_file_numbers WHERE decision_row = +? ORDER BY position', (i) => [rows[i]]],
  ['rn', 'SELECT min(rn) AS rn_from, max(rn) AS rn_to FROM row_randnummern WHERE decision_row = ? AND start_offset < ? AND end_offset > ?', 'SELECT min(rn) AS rn_from, max(rn) AS rn_to FROM row_randnummern WHERE decision_row = +? AND start_offset < +? AND end_offset > +?', (i) => [rows[i], 5000, 100]],
  ['chunks', 'SELECT start_offset, end_offset, rn_from, rn_to FROM row_chunks WHERE decision_row = ? AND rn_from IS NOT NULL AND rn_to >= ? AND rn_from <= ? ORDER BY position', 'SELECT start_offset, end_offset, rn_from, rn_to FROM row_chunks WHERE decision_row = +? AND rn_from IS NOT NULL AND rn_to >= +? AND rn_from <= +? ORDER BY position', (i) => [rows[i], 2, 6]],
  ['az', 'SELECT DISTINCT d.id, d.court, d.date FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id WHERE f.az_key = ? ORDER BY d.date DESC, d.court', 'SELECT DISTINCT d.id, d.court, d.date FROM decision_file_numbers f JOIN decisions d ON d.id = f.decision_id WHERE f.az_key = +? ORDER BY d.date DESC, d.court', (i) => [keys[i]]],
];
for (const [name, qa, qb, args] of qs) {
  const a = db.prepare(qa), b = db.prepare(qb);
  let same = true;
  for (let i = 0; i < 2000; i++) if (JSON.stringify(a.all(...args(i))) !== JSON.stringify(b.all(...args(i)))) same = false;
  for (let r = 0; r < 2; r++) {
    let t = performance.now(); for (let i = 0; i < 2000; i++) a.all(...args(i)); const ta = (performance.now() - t) / 2;
    t = performance.now(); for (let i = 0; i < 2000; i++) b.all(...args(i)); const tb = (performance.now() - t) / 2;
    console.log(name.padEnd(9), `? ${ta.toFixed(1)} us  +? ${tb.toFixed(1)} us  same ${same}`);
  }
}
