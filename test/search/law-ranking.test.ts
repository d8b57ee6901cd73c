// The laws section of GET /search with obscure laws beside the core: the demo corpus (BGB excerpts and decisions that
// cite § 573 BGB on Eigenbedarf) plus an ordinance and an amending law written here, both using the query's words far
// more often than the BGB does. The section ranks by the law's prior and the decisions' citations as well as BM25.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openCorpus } from '../../src/corpus/open.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { searchCombined } from '../../src/search/combined-search.ts';
import { compoundParts } from '../../src/search/compound-parts.ts';
import { tokenize } from '../../src/search/analyze.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

/** A GII law document: its abbreviation, title and units (§ number, heading, text). */
function giiLaw(doknr: string, abbreviation: string, title: string, units: [string, string, string][]): string {
  const norm = (id: string, meta: string, text: string) => `<norm builddate="20260101000000" doknr="${doknr}${id}"><metadaten>`
    + `<jurabk>${abbreviation}</jurabk>${meta}</metadaten><textdaten><text format="XML"><Content><P>${text}</P></Content></text></textdaten></norm>`;
  return `<?xml version="1.0" encoding="UTF-8"?><dokumente builddate="20260101000000" doknr="${doknr}">`
    + norm('', `<langue>${title}</langue>`, '')
    + units.map(([number, heading, text], i) => norm(`BJNE${String(i + 1).padStart(9, '0')}`,
      `<enbez>${number}</enbez><titel format="parat">${heading}</titel>`, text)).join('')
    + '</dokumente>';
}

const ORDINANCE = giiLaw('BJNR999990001', 'SaatEigV', 'Verordnung über den Eigenbedarf an Saatgut', [
  ['§ 1', 'Eigenbedarf', 'Der Eigenbedarf an Saatgut ist anzuzeigen. Eigenbedarf im Sinne dieser Verordnung ist der Eigenbedarf des Betriebs. Eine Kündigung der Anzeige wegen Eigenbedarf ist zulässig.'],
  ['§ 2', 'Schadensersatz', 'Wer den Eigenbedarf falsch anzeigt, schuldet Schadensersatz. Der Schadensersatz umfasst den Schadensersatz für entgangenes Saatgut.'],
]);
const AMENDING = giiLaw('BJNR999990002', 'SaatEigVÄndV', 'Zweite Verordnung zur Änderung der Verordnung über den Eigenbedarf an Saatgut', [
  ['Art 1', '', 'In § 2 der Verordnung über den Eigenbedarf an Saatgut wird das Wort "Schadensersatz" durch das Wort "Schadensersatz und Eigenbedarf" ersetzt.'],
]);

const OWN_WORD = giiLaw('BJNR999990003', 'KontrBuchV', 'Verordnung über Bücher', [
  ['§ 3', 'Saatgutkontrollbuch', 'Der Betrieb führt ein Saatgutkontrollbuch.'],
]);

let corpus: Promise<Database.Database> | undefined;

/** The demo corpus with the two laws above, in a temp dir removed after the tests. */
function lawsCorpus(t: TestContext): Promise<Database.Database> {
  corpus ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'juralite-law-ranking-'));
    const path = join(dir, 'corpus.db');
    copyFileSync(await demoCorpus(), path);
    writeFileSync(join(dir, 'ordinance.xml'), ORDINANCE);
    writeFileSync(join(dir, 'amending.xml'), AMENDING);
    writeFileSync(join(dir, 'own-word.xml'), OWN_WORD);
    const db = openCorpus(path);
    const summary = await importPaths(db, [join(dir, 'ordinance.xml'), join(dir, 'amending.xml'), join(dir, 'own-word.xml')]);
    assert.deepEqual(summary.failed, []);
    process.on('exit', () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return db;
  })();
  void t;
  return corpus;
}

async function laws(db: Database.Database, query: string, mode: 'hybrid' | 'keyword' = 'hybrid') {
  const answer = await searchCombined(db, { query, mode, limit: 10, bridge: true });
  return answer.sections.laws.map((law) => ({ unit: `${/^(?:§|Art\.) \S+/u.exec(law.title)?.[0]} ${law.abbreviation}`, confidence: law.confidence }));
}

test('laws section: the core law the decisions cite leads, though an ordinance uses the word more', async (t) => {
  const db = await lawsCorpus(t);
  const eigenbedarf = await laws(db, 'Eigenbedarf');
  assert.equal(eigenbedarf[0]?.unit, '§ 573 BGB', JSON.stringify(eigenbedarf));
  const kuendigung = await laws(db, 'Kündigung wegen Eigenbedarf');
  assert.equal(kuendigung[0]?.unit, '§ 573 BGB', JSON.stringify(kuendigung));
  assert.ok(!kuendigung.slice(0, 3).some((law) => law.unit.endsWith(' SaatEigV')), 'the ordinance not among the first three');
});

test('laws section: an obscure ordinance does not outrank the code for a common word, an amending law comes last', async (t) => {
  const db = await lawsCorpus(t);
  const found = await laws(db, 'Schadensersatz');
  assert.match(found[0]?.unit ?? '', / BGB$/u, JSON.stringify(found));
  assert.ok(!found.slice(0, 5).some((law) => /SaatEigV/u.test(law.unit)), JSON.stringify(found));
  // Among the units holding 'Saatgut' and 'Schadensersatz', the ordinance before the law amending it.
  const own = (await laws(db, 'Schadensersatz Saatgut', 'keyword')).map((law) => law.unit);
  assert.ok(own.indexOf('§ 2 SaatEigV') >= 0 && own.indexOf('§ 2 SaatEigV') < own.indexOf('Art. 1 SaatEigVÄndV'), own.join(', '));
});

test('laws section: keyword mode lists only units holding every word (the bridge and citations re-rank, never add)', async (t) => {
  const db = await lawsCorpus(t);
  const found = await laws(db, 'Eigenbedarf', 'keyword');
  assert.deepEqual(found.map((law) => law.unit).sort(), ['Art. 1 SaatEigVÄndV', '§ 1 SaatEigV', '§ 2 SaatEigV'].sort());
});

test('laws section: keyword mode matches a rare compound by its parts together, and only units holding both', async (t) => {
  const db = await lawsCorpus(t);
  // No unit says 'Vermieterkündigung'; § 573 BGB says 'Vermieter' and 'Kündigung'. The word stays required: each unit
  // listed holds both parts (or the word itself).
  const answer = await searchCombined(db, { query: 'Vermieterkündigung', mode: 'keyword', limit: 10, bridge: false });
  const units = answer.sections.laws.map((law) => `${/^(?:§|Art\.) \S+/u.exec(law.title)?.[0]} ${law.abbreviation}`);
  assert.ok(units.slice(0, 3).includes('§ 573 BGB'), units.join(', '));
  const [vermieter, kuendigung] = [tokenize('Vermieter')[0]!.stem, tokenize('Kündigung')[0]!.stem];
  for (const law of answer.sections.laws) {
    const text = db.prepare('SELECT text FROM law_units WHERE id = ?').pluck().get(law.id) as string;
    const held = tokenize(`${law.title} ${text}`).map((token) => token.stem);
    assert.ok([vermieter, kuendigung].every((stem) => held.some((h) => h.startsWith(stem))), law.title);
  }
});

test('laws section: a rare compound matches by its parts; confidence high only for a first unit well ahead', async (t) => {
  const db = await lawsCorpus(t);
  assert.deepEqual(compoundParts(db, 'law_units_fts', 'Vermieterkündigung'), [tokenize('Vermieter')[0]!.stem, tokenize('Kündigung')[0]!.stem]);
  assert.equal(compoundParts(db, 'law_units_fts', 'Mietzins'), null, 'a word of fewer than nine letters is not split');
  const found = await laws(db, 'Vermieterkündigung');
  assert.ok(found.slice(0, 3).some((law) => law.unit === '§ 573 BGB'), JSON.stringify(found));
  for (const query of ['Eigenbedarf', 'Kündigung wegen Eigenbedarf', 'Schadensersatz', 'Vermieterkündigung', 'Miete', 'Vermieter will mich rauswerfen', '§ 573 BGB']) {
    const levels = (await laws(db, query)).map((law) => law.confidence);
    assert.ok(levels.slice(1).every((level) => level !== 'high'), `${query}: ${levels.join(' ')}`);
  }
});

test('laws section: the one unit holding a word nothing else holds leads, ahead of what vector-found decisions cite', async (t) => {
  const db = await lawsCorpus(t);
  // No decision holds the word: the decision section is found by vectors alone, and the units its decisions cite
  // (core laws, high priors) must not push the only unit that uses the word off the list (they did: CI, the executable).
  for (const limit of [5, 10]) {
    const answer = await searchCombined(db, { query: 'Saatgutkontrollbuch', mode: 'hybrid', limit, bridge: true });
    assert.equal(answer.sections.laws[0]?.title, '§ 3 KontrBuchV Saatgutkontrollbuch', JSON.stringify(answer.sections.laws.map((law) => law.title)));
  }
});

test("laws section: past a full pool of ordinance units, the core laws' best matches still join and lead", async () => {
  // 250 short units of an ordinance use the word more than any BGB unit does: BM25 alone puts every BGB unit past the
  // pool of 200; the core laws' best matches join it, and the BGB's prior ranks them first.
  const dir = mkdtempSync(join(tmpdir(), 'juralite-law-pool-'));
  const path = join(dir, 'corpus.db');
  copyFileSync(await demoCorpus(), path);
  const units = Array.from({ length: 250 }, (_, i): [string, string, string] => [`§ ${i + 1}`, 'Kündigung', 'Die Kündigung der Kündigung ist eine Kündigung.']);
  writeFileSync(join(dir, 'many.xml'), giiLaw('BJNR999990004', 'KündAnzV', 'Verordnung über Kündigungsanzeigen', units));
  const db = openCorpus(path);
  try {
    assert.deepEqual((await importPaths(db, [join(dir, 'many.xml')])).failed, []);
    const ranked = db.prepare(`SELECT l.abbreviation FROM law_units_fts f JOIN law_units u ON u.rowid = f.rowid JOIN laws l ON l.id = u.law_id
      WHERE law_units_fts MATCH ? ORDER BY bm25(law_units_fts, 5, 4, 1), f.rowid`).pluck().all(`"${tokenize('Kündigung')[0]!.stem}"`) as string[];
    const firstOther = ranked.findIndex((abbreviation) => abbreviation !== 'KündAnzV');
    assert.ok(firstOther >= 250, `first unit of another law at ${firstOther} of ${ranked.length}`);
    const answer = await searchCombined(db, { query: 'Kündigung', mode: 'hybrid', limit: 10, bridge: false });
    const found = answer.sections.laws;
    assert.ok(found.length === 10 && found.slice(0, 3).every((law) => ['BGB', 'KSchG'].includes(law.abbreviation)), JSON.stringify(found.map((law) => law.title)));
    for (const law of found) assert.ok(law.snippet.includes('<mark>') && law.breadcrumb !== undefined, law.title);
    const core = ranked.filter((abbreviation) => ['BGB', 'KSchG'].includes(abbreviation)).length;
    assert.ok(answer.section_totals.laws.candidate_pool >= 200 + Math.min(100, core), `pool ${answer.section_totals.laws.candidate_pool}, core matches ${core}`);
    // Counted over the widened words ('Kündigungen' too): the typed word's matches at least.
    assert.equal(answer.section_totals.laws.pool_exhaustive, false);
    assert.ok(answer.section_totals.laws.total_available.value >= ranked.length, JSON.stringify(answer.section_totals.laws));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
