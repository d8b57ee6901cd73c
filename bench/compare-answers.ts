/**
 * Identical answers: this tree's GET /decisions/search answers (searchDecisions) against an older checkout's, over the
 * same corpus, in every mode, two pages each, for the bench queries (legal and lay), an Aktenzeichen and a §.
 * For changes that must not change what a search answers (speed work); prints how many differ, and the first few.
 *
 *   git archive 0093474 | tar -x -C .tmp/before
 *   node bench/compare-answers.ts --db .tmp/demo.db --before .tmp/before [--count 30] [--before-db FILE]
 *
 * --before-db FILE (Session 20): the older checkout reads this copy of the corpus (its texts as its code stored them).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchQueries } from './search-queries.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, before: { type: 'string' }, count: { type: 'string', default: '30' },
  'before-db': { type: 'string' } } });
if (!values.db || !values.before) {
  console.error('usage: node bench/compare-answers.ts --db CORPUS --before DIR [--count N]');
  process.exit(2);
}
const load = async (root: string) => ({
  open: (await import(pathToFileURL(resolve(root, 'src/corpus/open.ts')).href)).openCorpus,
  search: (await import(pathToFileURL(resolve(root, 'src/search/decision-search.ts')).href)).searchDecisions,
});
const now = await load('.');
const old = await load(values.before);
const nowDb = now.open(values.db, { readonly: true });
const oldDb = old.open(values['before-db'] ?? values.db, { readonly: true });
const queries = benchQueries(Number(values.count));
let compared = 0;
let differ = 0;
for (const mode of ['keyword', 'hybrid', 'semantic']) {
  for (const query of [...queries.legal, ...queries.lay, 'VIII ZR 123/19', '§ 573 BGB']) {
    for (const page of [1, 2]) {
      const args = { query, mode, limit: 20, page, bridge: true };
      const [mine, theirs] = [JSON.stringify(await now.search(nowDb, args)), JSON.stringify(await old.search(oldDb, args))];
      compared++;
      if (mine !== theirs && ++differ <= 3) console.log(`differs: ${mode} "${query}" page ${page}`);
    }
  }
}
console.log(`${compared} answers compared, ${differ} differ`);
nowDb.close();
oldDb.close();
