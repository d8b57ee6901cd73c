/**
 * The search server of bench/peers/speed.ts in a process of its own, as `juralite serve` runs (the bench's client and
 * its garbage apart from the server's): bench/lib.ts searchService on --db. It prints its address as one JSON line,
 * then answers each line `forget` on stdin by emptying the kept answers and page texts (what makes the next query a
 * new one) and printing the authorization header for the next request. It ends when stdin closes.
 *
 *   node --min-semi-space-size=16 --max-semi-space-size=16 bench/peers/speed-server.ts --db .tmp/bench-100k.db
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { clearAnswers } from '../../src/search/answer-cache.ts';
import { dropPageTexts } from '../../src/search/page-texts.ts';
import { searchService } from '../lib.ts';

const { values } = parseArgs({ options: { db: { type: 'string' } } });
if (!values.db) {
  console.error('usage: node bench/peers/speed-server.ts --db CORPUS');
  process.exit(2);
}
const service = await searchService(values.db);
console.log(JSON.stringify({ url: service.url }));
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'forget') return;
  clearAnswers(service.corpus);
  dropPageTexts(service.corpus);
  console.log(service.authorization());
}).on('close', () => {
  service.close();
  process.exit(0);
});
