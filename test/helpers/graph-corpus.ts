/**
 * A corpus shaped for the graph's caps and the datapackage's budget, imported through the real importer once per test
 * process:
 * - HUB (BGH VIII ZR 1/20) is cited by 60 decisions CITER[0..59] (BGH VIII ZR 101/20 ... 160/20, newest last);
 * - SOURCE (BGH VIII ZR 2/21) cites CITER[0..29] and 30 BGH decisions the corpus does not hold (VIII ZR 201/19 ...);
 * - CITER[24] also cites CITER[25];
 * - LONG[0..5] (BAG 1 AZR 1/21 ...) hold about 180,000 characters each.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus } from '../../src/corpus/open.ts';
import { decisionId } from '../../src/corpus/ids.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { riiXml } from '../ingest/helpers.ts';
import { startApi, type Api } from './api.ts';

const MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];

/** 'BGH, Urteil vom 15. Januar 2020 - VIII ZR 1/20' for a date 'YYYY-MM-DD'. */
function citation(court: string, date: string, az: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${court}, Urteil vom ${day}. ${MONTHS[month - 1]} ${year} - ${az}`;
}

const compact = (date: string) => date.replaceAll('-', '');
const doknr = (n: number) => `GRAPH${String(n).padStart(8, '0')}`;
const idOf = (n: number) => decisionId({ doknr: doknr(n) });
const FILLER = 'Die Revision hat keinen Erfolg, weil das Berufungsgericht die maßgeblichen Umstände rechtsfehlerfrei gewürdigt hat.';

export const GRAPH = {
  hub: { id: idOf(1), az: 'VIII ZR 1/20', date: '2020-01-15' },
  source: { id: idOf(2), az: 'VIII ZR 2/21', date: '2021-06-01' },
  citers: Array.from({ length: 60 }, (_, i) => ({
    id: idOf(100 + i),
    az: `VIII ZR ${101 + i}/20`,
    date: `2020-${String(3 + Math.floor(i / 28)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
  })),
  missing: Array.from({ length: 30 }, (_, i) => ({ az: `VIII ZR ${201 + i}/19`, date: `2019-05-${String(1 + i).padStart(2, '0')}` })),
  long: Array.from({ length: 6 }, (_, i) => ({ id: idOf(200 + i), az: `1 AZR ${1 + i}/21` })),
};

let built: Promise<string> | undefined;

export function graphCorpus(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'juralite-graph-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const sources = join(dir, 'xml');
    mkdirSync(sources);
    const write = (n: number, xml: string) => writeFileSync(join(sources, `${doknr(n)}.xml`), xml);
    const bgh = { gertyp: 'BGH', spruchkoerper: '8. Zivilsenat', doktyp: 'Urteil' };
    write(1, riiXml({ ...bgh, doknr: doknr(1), datum: compact(GRAPH.hub.date), aktenzeichen: GRAPH.hub.az,
      gruende: [{ rn: 1, text: FILLER }] }));
    // CITER[24] also cites CITER[25]: both are cited by SOURCE, which a depth-2 sample of 25 reaches twice.
    const alsoCites = (i: number) => (i === 24 ? [{ rn: 3, text: `Anders ${citation('BGH', GRAPH.citers[25].date, GRAPH.citers[25].az)}.` }] : []);
    GRAPH.citers.forEach((c, i) => write(100 + i, riiXml({ ...bgh, doknr: doknr(100 + i), datum: compact(c.date), aktenzeichen: c.az,
      gruende: [{ rn: 1, text: FILLER }, { rn: 2, text: `So bereits ${citation('BGH', GRAPH.hub.date, GRAPH.hub.az)}, Rn. 5.` },
        ...alsoCites(i)] })));
    write(2, riiXml({ ...bgh, doknr: doknr(2), datum: compact(GRAPH.source.date), aktenzeichen: GRAPH.source.az,
      gruende: [
        ...GRAPH.citers.slice(0, 30).map((c, i) => ({ rn: i + 1, text: `Vgl. ${citation('BGH', c.date, c.az)}, Rn. 3.` })),
        ...GRAPH.missing.map((m, i) => ({ rn: 31 + i, text: `Ebenso ${citation('BGH', m.date, m.az)}, Rn. 7.` })),
      ] }));
    const paragraph = `${FILLER} `.repeat(16);
    GRAPH.long.forEach((l, i) => write(200 + i, riiXml({ gertyp: 'BAG', spruchkoerper: '1. Senat', doktyp: 'Urteil',
      doknr: doknr(200 + i), datum: `2021030${1 + i}`, aktenzeichen: l.az,
      gruende: Array.from({ length: 95 }, (_, rn) => ({ rn: rn + 1, text: paragraph })) })));
    const path = join(dir, 'corpus.db');
    const db = openCorpus(path);
    try {
      const summary = await importPaths(db, [sources]);
      if (summary.failed.length > 0) throw new Error(`graph corpus: ${JSON.stringify(summary.failed)}`);
    } finally {
      db.close();
    }
    return path;
  })();
  return built;
}

/** An API on the demo corpus (shapes) and one on the graph corpus (pages, caps, budgets), as the graph tests use them. */
export async function startDemoAndGraphApis(): Promise<{ demo: Api; graph: Api }> {
  return { demo: await startApi({ corpus: 'demo' }), graph: await startApi({ corpus: await graphCorpus() }) };
}
