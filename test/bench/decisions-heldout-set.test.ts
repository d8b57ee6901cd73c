// The held-out judged decision set (bench/search-relevance-heldout.json) and the unseen set
// (bench/search-relevance-unseen.json, session 19): their shape, that neither shares a query with the tuning set
// (bench/search-relevance.json) nor with the other, and that every judged decision is one of the real decisions of
// ../shared/data the relevance corpus imports (by ECLI, or by date and Aktenzeichen; skipped when absent). The
// judgments themselves were made by reading the decisions when the sets were written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bayernXmlRecord, courtPageRecord, type CourtPage } from '../../bench/relevance-corpus.ts';
import { assertDisjoint } from '../helpers/held-out.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';

interface DecisionSet { queries: { id: string; kind: string; query: string; relevant_decisions: string[]; relevant_law_units: string[]; source: string }[] }
const read = (file: string) => JSON.parse(readFileSync(new URL(`../../bench/${file}`, import.meta.url), 'utf8')) as DecisionSet;
const heldout = read('search-relevance-heldout.json');
const tuning = read('search-relevance.json');
const unseen = read('search-relevance-unseen.json');
const KEY = /^(?:ecli:ECLI:\S+|az:[^|]+\|\d{4}-\d{2}-\d{2}\|\S.*)$/u;

/** Unique ids, a known kind, real decisions only, judged decisions keyed as the bench reads them, no law units. */
function assertQueries(queries: DecisionSet['queries']): void {
  assert.equal(new Set(queries.map((q) => q.id)).size, queries.length, 'ids are unique');
  for (const q of queries) {
    assert.ok(['legal', 'lay', 'identifier'].includes(q.kind), q.id);
    assert.equal(q.source, 'shared', q.id);
    assert.ok(q.query.trim().length >= 2 && q.relevant_decisions.length > 0, q.id);
    assert.deepEqual(q.relevant_law_units, [], `${q.id}: laws are judged in the laws sets`);
    for (const key of q.relevant_decisions) assert.match(key, KEY, `${q.id}: ${key}`);
  }
}

test('held-out decision set: at least 60 queries of every kind, unique ids, keys as the bench reads them', () => {
  const { queries } = heldout;
  const count = (kind: string) => queries.filter((q) => q.kind === kind).length;
  assert.ok(queries.length >= 60, `${queries.length} queries`);
  assert.ok(count('legal') >= 20 && count('lay') >= 20 && count('identifier') >= 15, 'every kind');
  assertQueries(queries);
});

test('held-out decision set: identifiers of several court styles, suffixed Aktenzeichen and ECLIs among them', () => {
  const identifiers = heldout.queries.filter((q) => q.kind === 'identifier').map((q) => q.query);
  assert.ok(identifiers.some((q) => /^ECLI:/u.test(q)) && identifiers.some((q) => /^ecli:/u.test(q)), 'ECLIs, as typed and lower-cased');
  assert.ok(identifiers.some((q) => /\d+\/\d{2} e$/u.test(q)), 'a Bavarian suffix');
  for (const style of [/\d+\.\d{2}$/u, /AZR \d+\/\d{2}$/u, /[IVX]+ R \d+\/\d{2}$/u, /Js \d+\/\d{2}$/u, /^[A-Z][a-z]? \d+ [A-Z] \d+\.\d+$/u]) {
    assert.ok(identifiers.some((q) => style.test(q)), String(style));
  }
});

test('held-out decision set: no query of the tuning set, nor its ids', () => assertDisjoint(heldout, tuning));

test('unseen decision set: at least 80 queries, mostly lay wording as typed (misspelt umlauts, questions), keys as the bench reads them', () => {
  const { queries } = unseen;
  const count = (kind: string) => queries.filter((q) => q.kind === kind).length;
  assert.ok(queries.length >= 80, `${queries.length} queries`);
  assert.ok(count('lay') >= queries.length / 2 && count('legal') >= 15 && count('identifier') >= 5, 'mostly lay, legal and identifiers beside');
  assert.equal(new Set(queries.map((q) => q.id)).size, queries.length, 'ids are unique');
  const lay = queries.filter((q) => q.kind === 'lay').map((q) => q.query);
  assert.ok(lay.filter((q) => /(?:ae|oe|ue)/u.test(q) && !/[äöüß]/u.test(q)).length >= 5, 'umlauts typed as ae/oe/ue');
  assert.ok(lay.filter((q) => q.endsWith('?')).length >= 10 && lay.some((q) => q === q.toLowerCase()), 'questions, lower-case typing');
  assertQueries(queries);
});

test('unseen decision set: no query nor id of the tuning set or the held-out set', () => {
  assertDisjoint(unseen, tuning);
  assertDisjoint(unseen, heldout);
});

/** 'ecli:<ECLI upper-cased>' and '<date>|<Aktenzeichen>' of every real decision the relevance corpus imports. */
function sourceDecisions(): Set<string> {
  const found = new Set<string>();
  const add = (ecli: string | null | undefined, date: string, aktenzeichen: string) => {
    if (ecli) found.add(`ecli:${ecli.toUpperCase()}`);
    for (const az of aktenzeichen.split(/,\s*/u)) found.add(`${date}|${az.replace(/\s+/gu, ' ').trim()}`);
  };
  const pages = sharedData('decisions/court_websites');
  for (const line of readFileSync(join(pages, 'MANIFEST.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const page = JSON.parse(line) as CourtPage;
    const record = courtPageRecord(page, readFileSync(join(pages, page.path), 'utf8'));
    if (record) add(record.ecli, record.date, record.file_number);
  }
  const bayern = sharedData('decisions/bayern_xml');
  for (const file of readdirSync(bayern).filter((f) => f.endsWith('.xml'))) {
    const record = bayernXmlRecord(readFileSync(join(bayern, file), 'utf8'));
    add(record.ecli, record.date, record.file_number);
  }
  const rii = sharedData('decisions/rii_xml');
  for (const file of readdirSync(rii).filter((f) => f.endsWith('.xml'))) {
    const xml = readFileSync(join(rii, file), 'utf8');
    const tag = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`, 'u').exec(xml)?.[1] ?? '';
    const day = tag('entsch-datum');
    add(tag('ecli'), `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`, tag('aktenzeichen'));
  }
  const oldp = sharedData('decisions/oldp_json');
  for (const file of readdirSync(oldp).filter((f) => f.endsWith('.json'))) {
    const parsed = JSON.parse(readFileSync(join(oldp, file), 'utf8')) as unknown;
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      const record = ((item as { fields?: unknown }).fields ?? item) as { file_number?: string; date?: string; ecli?: string | null };
      if (record.file_number && record.date) add(record.ecli, record.date, record.file_number);
    }
  }
  return found;
}

test('held-out and unseen decision sets: every judged decision is a real decision the relevance corpus imports', skipUnlessSharedData('decisions/court_websites'), () => {
  const known = sourceDecisions();
  for (const q of [...heldout.queries, ...unseen.queries]) {
    for (const key of q.relevant_decisions) {
      const az = /^az:[^|]+\|(.+)$/u.exec(key)?.[1];
      assert.ok(known.has(az ?? key.replace(/^ecli:(.*)$/u, (_, ecli: string) => `ecli:${ecli.toUpperCase()}`)), `${q.id}: ${key}`);
    }
  }
});
