/**
 * Relevance of search on the judged set bench/search-relevance.json (version 2: lay, legal and identifier queries),
 * over the relevance corpus of bench/relevance-corpus.ts (the demo decisions, gii/core and every real decision of
 * ../shared/data): MRR@10, R@1 and R@10 per query kind and mode, in-process (the handler's code path), then what the
 * confidence levels mean (share of results judged relevant per level), then the laws section of GET /search.
 *
 *   node bench/search-relevance.ts [--set tuning|heldout|unseen] [--json .tmp/relevance-juralite.json]   # every set without --set
 *
 * Sets: the tuning set bench/search-relevance.json (ranking and bridge were chosen on it) and the held-out set
 * bench/search-relevance-heldout.json (session 18: written without reading the bridge or the tuning set's queries,
 * never tuned on; real decisions of ../shared/data only), and the unseen set bench/search-relevance-unseen.json (session
 * 19: mostly lay wording as typed into a search box, written likewise; the honest measure of generalisation).
 *
 * Modes: 'unset' (the default: the exact-citation rule, else hybrid), keyword, hybrid, semantic; bridge on. Without
 * ../shared/data the corpus is the demo corpus and only queries of source fixtures are scored.
 * The peers (Xapian, PostgreSQL) are scored on the same set and corpus by bench/peers/run.ts, which prints this
 * bench's rows beside theirs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type Database from 'better-sqlite3';
import { openCorpus } from '../src/corpus/open.ts';
import { searchDecisions, type SearchMode } from '../src/search/decision-search.ts';
import { searchCombined } from '../src/search/combined-search.ts';
import { demoCorpus } from '../test/helpers/demo-corpus.ts';
import { hasSharedData } from '../test/helpers/shared-data.ts';
import { printTable } from './lib.ts';
import { relevanceCorpus } from './relevance-corpus.ts';

export type Kind = 'lay' | 'legal' | 'identifier';
export interface Query { id: string; kind: Kind; query: string; relevant_decisions: string[]; relevant_law_units: string[]; source: 'fixtures' | 'shared' }
const readSet = (file: string) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { queries: Query[] };
/** The tuning set (the ranking's weights and the bridge were chosen on it). */
export const judgedSet = readSet('./search-relevance.json');
/** The held-out set (session 18): never tuned on; a change is judged on both. */
export const heldoutSet = readSet('./search-relevance-heldout.json');
/** The unseen set (session 19): lay wording as typed into a search box; never tuned on, no bridge entry written for it. */
export const unseenSet = readSet('./search-relevance-unseen.json');
/** The decision sets by name, in the order they are printed. */
export const DECISION_SETS: Record<'tuning' | 'heldout' | 'unseen', Query[]> = {
  tuning: judgedSet.queries, heldout: heldoutSet.queries, unseen: unseenSet.queries,
};

/** The sets of `sets` named by `--set NAME` in argv (all of them without it). */
export function chosenSets<Name extends string>(argv: string[], sets: Record<Name, Query[]>): [Name, Query[]][] {
  const at = argv.indexOf('--set');
  const name = at >= 0 ? argv[at + 1] : undefined;
  const names = Object.keys(sets) as Name[];
  if (name !== undefined && !names.includes(name as Name)) throw new Error(`--set takes ${names.join(' or ')}, not ${name}`);
  return names.filter((set) => name === undefined || set === name).map((set) => [set, sets[set]]);
}
export const KINDS: Kind[] = ['legal', 'lay', 'identifier'];

/** MRR@10, R@1 and R@10 of ranked keys (several keys may name one decision) against the judged ones. */
export function scoreOf(found: string[][], judged: string[]): { mrr: number; r1: number; r10: number } {
  const relevant = new Set(judged);
  const hit = (keys: string[]) => keys.some((key) => relevant.has(key));
  const top = found.slice(0, 10);
  const first = top.findIndex(hit);
  const holds = new Set(top.filter(hit).flatMap((keys) => keys.filter((key) => relevant.has(key))));
  return { mrr: first >= 0 ? 1 / (first + 1) : 0, r1: first === 0 ? 1 : 0, r10: holds.size / relevant.size };
}

/** Every key the judged set may use for a decision: doknr (fixtures), doknr:, ecli:, az:court|date|Aktenzeichen. */
export function judgedKeys(db: Database.Database): Map<string, string[]> {
  const rows = db.prepare(`SELECT d.id, d.doknr, d.ecli, d.court, d.court_raw, d.date, f.aktenzeichen FROM decisions d
    LEFT JOIN decision_file_numbers f ON f.decision_id = d.id AND f.position = 0`).all() as Record<string, string | null>[];
  return new Map(rows.map((r) => [r.id!, [r.doknr, `doknr:${r.doknr}`, `ecli:${r.ecli}`,
    ...[r.court, r.court_raw].map((court) => `az:${court}|${r.date}|${r.aktenzeichen}`)].filter((k): k is string => !!k)]));
}

/** The averages of one engine and mode per kind: a row of [engine, mode, kind, queries, MRR, R@1, R@10]. */
export async function scoreRows(engine: string, mode: string, queries: Query[], rank: (q: Query) => Promise<string[][] | null>): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  for (const kind of KINDS) {
    const subset = queries.filter((q) => q.kind === kind && q.relevant_decisions.length > 0);
    if (subset.length === 0) continue;
    const sum = { mrr: 0, r1: 0, r10: 0 };
    let available = true;
    for (const q of subset) {
      const found = await rank(q);
      if (!found) {
        available = false;
        break;
      }
      const s = scoreOf(found, q.relevant_decisions);
      sum.mrr += s.mrr;
      sum.r1 += s.r1;
      sum.r10 += s.r10;
    }
    const n = subset.length;
    rows.push(available ? [engine, mode, kind, String(n), (sum.mrr / n).toFixed(3), (sum.r1 / n).toFixed(3), (sum.r10 / n).toFixed(3)]
      : [engine, mode, kind, String(n), 'n/a', 'n/a', 'n/a']);
  }
  return rows;
}

/** Semantic mode on a corpus without vectors answers 503: null, shown as n/a. */
export async function orUnavailable<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if ((error as { code?: string }).code === 'backend_unavailable') return null;
    throw error;
  }
}

export const MODES: (SearchMode | 'unset')[] = ['unset', 'keyword', 'hybrid', 'semantic'];

/** juralite's rows on the set, per mode and kind; the rows of the confidence table beside. */
export async function juraliteRows(db: Database.Database, queries: Query[]) {
  const keys = judgedKeys(db);
  const rows: (string | number)[][] = [];
  const confidence: (string | number)[][] = [];
  for (const mode of MODES) {
    const levels = new Map<string, { results: number; relevant: number; first: number; firstRelevant: number }>();
    rows.push(...await scoreRows('juralite', mode, queries, async (q) => {
      const answer = await orUnavailable(() => searchDecisions(db, { query: q.query, mode: mode === 'unset' ? undefined : mode, limit: 10, page: 1, bridge: true }));
      if (!answer) return null;
      const relevant = new Set(q.relevant_decisions);
      answer.results.forEach((result, index) => {
        const counts = levels.get(result.confidence) ?? levels.set(result.confidence, { results: 0, relevant: 0, first: 0, firstRelevant: 0 }).get(result.confidence)!;
        const isRelevant = (keys.get(result.id) ?? []).some((key) => relevant.has(key));
        counts.results++;
        if (isRelevant) counts.relevant++;
        if (index === 0) {
          counts.first++;
          if (isRelevant) counts.firstRelevant++;
        }
      });
      return answer.results.map((r) => keys.get(r.id) ?? []);
    }));
    for (const name of ['high', 'medium', 'low']) {
      const c = levels.get(name);
      if (c) confidence.push([mode, name, String(c.results), (c.relevant / c.results).toFixed(2), String(c.first), c.first > 0 ? (c.firstRelevant / c.first).toFixed(2) : '-']);
    }
  }
  return { rows, confidence };
}

/** The laws section of GET /search: judged units ('§ 573 BGB') found in its top 10. */
async function lawRows(db: Database.Database, queries: Query[]) {
  const rows: (string | number)[][] = [];
  for (const mode of ['keyword', 'hybrid'] as const) {
    rows.push(...await scoreRows('juralite laws', mode, queries.map((q) => ({ ...q, relevant_decisions: q.relevant_law_units })), async (q) => {
      const answer = await searchCombined(db, { query: q.query, mode, limit: 10, bridge: true });
      return answer.sections.laws.map((law) => {
        const unit = /^(?:§|Art\.) \S+/u.exec(law.title ?? '')?.[0];
        return unit && law.abbreviation ? [`${unit} ${law.abbreviation}`] : [];
      });
    }));
  }
  return rows;
}

export const HEADER = ['engine', 'mode', 'kind', 'queries', 'MRR@10', 'R@1', 'R@10'];

if (import.meta.main) {
  const shared = hasSharedData;
  const db = shared ? await relevanceCorpus() : openCorpus(await demoCorpus(), { readonly: true });
  const n = (db.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number }).n;
  const json: (string | number)[][] = [];
  for (const [set, all] of chosenSets(process.argv, DECISION_SETS)) {
    const queries = all.filter((q) => shared || q.source === 'fixtures');
    console.log(`\nsearch relevance, ${set} set: ${queries.length} judged queries over ${n} decisions (${shared ? 'relevance corpus' : 'demo corpus only: ../shared/data absent'}), node ${process.version}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    if (queries.length === 0) continue;
    const { rows, confidence } = await juraliteRows(db, queries);
    printTable([HEADER, ...rows]);
    console.log(`\nconfidence levels of the top 10, ${set} set (share judged relevant; the first result alone)`);
    printTable([['mode', 'confidence', 'results', 'relevant', 'first results', 'first relevant'], ...confidence]);
    const laws = await lawRows(db, queries);
    if (laws.length > 0) {
      console.log(`\nlaws section of GET /search, ${set} set (judged law units)`);
      printTable([HEADER, ...laws]);
    }
    json.push(...rows.map((row) => [set, ...row]));
  }
  const out = process.argv.indexOf('--json');
  if (out > 0) writeFileSync(process.argv[out + 1]!, JSON.stringify(json));
  db.close();
}
