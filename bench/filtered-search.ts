// Searches with filters over HTTP, as a lawyer narrows a query: by court, dates, kind of decision and a cited norm,
// in each mode. Prints p50 and the worst per mode and filter; with --before DIR the older checkout's server answers
// the same requests in turn (each request new to both: kept answers and texts forgotten, not timed), and the ratio.
//
//   node bench/filtered-search.ts --db .tmp/bench-100k.db [--before /work/base-s24] [--rounds 3] [--timeout-ms 5000]
//
// A request of the older checkout slower than --timeout-ms is left out of its figures and counted as such (session 25:
// a cited_norm filter took 16-47 s there on some queries).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { clearAnswers } from '../src/search/answer-cache.ts';
import { dropPageTexts } from '../src/search/page-texts.ts';
import { httpGet, printTable, searchService, stats } from './lib.ts';

const { values } = parseArgs({
  options: { db: { type: 'string' }, before: { type: 'string' }, rounds: { type: 'string', default: '3' }, 'timeout-ms': { type: 'string', default: '5000' } },
});
if (!values.db) throw new Error('usage: node bench/filtered-search.ts --db FILE [--before DIR] [--rounds N] [--timeout-ms MS]');
const rounds = Number(values.rounds);
const timeoutMs = Number(values['timeout-ms']);

type Service = Awaited<ReturnType<typeof searchService>>;
interface Tree { service: Service; forget: () => void }

const service = await searchService(values.db);
const trees: Tree[] = [{ service, forget: () => { clearAnswers(service.corpus); dropPageTexts(service.corpus); } }];
if (values.before) {
  const load = (path: string) => import(pathToFileURL(resolve(values.before!, path)).href);
  const [lib, answers, texts] = await Promise.all([load('bench/lib.ts'), load('src/search/answer-cache.ts'), load('src/search/page-texts.ts')]);
  const older = await lib.searchService(values.db) as Service;
  trees.push({ service: older, forget: () => { answers.clearAnswers(older.corpus); texts.dropPageTexts(older.corpus); } });
}

// The corpus's own largest courts and most cited norms, so the filters narrow as they do for a real user.
const courts = (service.corpus.prepare('SELECT court FROM decisions GROUP BY court ORDER BY count(*) DESC LIMIT 3').all() as { court: string }[])
  .map((row) => row.court);
const norms = (service.corpus.prepare(`SELECT target_unit || ' ' || target_law AS norm FROM citation_links
  WHERE reference_type = 'statute' AND target_unit IS NOT NULL GROUP BY target_law, target_unit ORDER BY count(*) DESC LIMIT 2`).all() as { norm: string }[])
  .map((row) => row.norm);
const QUERIES = ['Kündigung', 'Schadensersatz', 'Eigenbedarf Härtegründe', 'Urlaubsabgeltung Verfall', 'Arbeitnehmer', 'Verkehrssicherungspflicht'];
const FILTERS: Record<string, string>[] = [
  {}, { court: courts[0] }, { court: courts[2] }, { date_from: '2018-01-01' }, { document_type: 'Beschluss' },
  { cited_norm: norms[0] }, { cited_norm: norms[1], court: courts[0] }, { cited_norm: norms[0], date_from: '2015-01-01' },
];

const table: (string | number)[][] = [['mode', 'filters', 'p50 ms', 'max ms', ...(trees.length > 1 ? ['before p50', 'before max', 'x before p50', 'before over timeout'] : [])]];
for (const mode of ['keyword', 'hybrid', 'semantic']) {
  for (const filters of FILTERS) {
    const times: number[][] = trees.map(() => []);
    let overTimeout = 0;
    for (let round = 0; round < rounds; round++) {
      for (const query of QUERIES) {
        // The older checkout first in every other round.
        for (const index of round % 2 === 0 ? trees.keys() : [...trees.keys()].reverse()) {
          const { service: on, forget } = trees[index];
          forget();
          const started = performance.now();
          const answer = await httpGet(`${on.url}/api/v1/decisions/search?${new URLSearchParams({ query, mode, ...filters })}`,
            { authorization: on.authorization() });
          const ms = performance.now() - started;
          if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
          if (index > 0 && ms > timeoutMs) overTimeout++;
          else times[index].push(ms);
        }
      }
    }
    const [mine, older] = times.map((samples) => (samples.length ? stats(samples) : null));
    table.push([mode, JSON.stringify(filters), mine!.p50, Math.max(...times[0]),
      ...(trees.length > 1 ? [older?.p50 ?? '-', older ? Math.max(...times[1]) : '-', older ? (mine!.p50 / older.p50).toFixed(2) : '-', overTimeout] : [])]);
  }
}
console.log(`searches with filters: ${QUERIES.length} queries x ${rounds} rounds per mode and filters; node ${process.version}`);
printTable(table);
for (const { service: on } of trees.slice(1)) on.close();
service.close();
