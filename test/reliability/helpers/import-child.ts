/**
 * An import that kills its own process with SIGKILL at a chosen point, as `kill -9` at that moment would:
 *
 *   node import-child.ts CORPUS KILL_AT SOURCE...
 *
 * KILL_AT names the write that triggers the kill, through a TEMP trigger on the importing connection (nothing of it
 * reaches the file): `row_chunks:N` at the N-th chunk written (inside a batch's transaction), `search_words` at the first
 * word the search-index sync writes (after the batch committed), `meta` when the import records its summary; `end`
 * kills the process once the import has returned, before the connection is closed; `never` lets it complete.
 */
import { openCorpus } from '../../../src/corpus/open.ts';
import { importPaths } from '../../../src/ingest/import-paths.ts';

const [corpusPath, killAt, ...sources] = process.argv.slice(2);
const db = openCorpus(corpusPath);
db.function('die', () => {
  process.kill(process.pid, 'SIGKILL');
  return 0;
});
db.exec('CREATE TEMP TABLE seen (n INTEGER)');
const [table, count] = killAt.split(':');
if (killAt !== 'never' && killAt !== 'end') {
  db.exec(`CREATE TEMP TRIGGER die_at AFTER INSERT ON main.${table} BEGIN
    INSERT INTO temp.seen VALUES (1);
    SELECT CASE WHEN (SELECT count(*) FROM temp.seen) >= ${Number(count ?? 1)} THEN die() END;
  END`);
  if (table === 'meta') {
    db.exec('CREATE TEMP TRIGGER die_at_update AFTER UPDATE ON main.meta BEGIN SELECT die(); END');
  }
}
const summary = await importPaths(db, sources);
if (killAt === 'end') process.kill(process.pid, 'SIGKILL');
db.close();
console.log(JSON.stringify(summary));
