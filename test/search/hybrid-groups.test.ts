// What hybrid's lexical arm ranks (src/search/hybrid-groups.ts; bench/README "Session 19: hybrid's tail"): every
// alternative once, and a norm's NEAR group without the words in half the decisions or more (FTS5 gives them no
// weight), counted anew when the corpus changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { distinctAlternatives, withoutUnmatchable, withoutUnweightedNormWords } from '../../src/search/hybrid-groups.ts';
import { lexicalArm } from '../../src/search/lexical.ts';
import { matchExpression, type TermGroup } from '../../src/search/query.ts';
import { filterSql } from '../../src/search/filters.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { buildImpactLists, sealImpactLists } from '../../src/search/impact-lists.ts';
import { riiXml } from '../ingest/helpers.ts';
import { smallCorpus } from './small-corpus.ts';

const word = (stem: string, prefix = false) => ({ kind: 'words' as const, terms: [{ stem, prefix, compounds: [] }] });
const norm = (...stems: string[]) => ({ kind: 'norm' as const, stems });

test('distinctAlternatives: each alternative once, where it first occurs; a group left empty is dropped', () => {
  const groups: TermGroup[] = [
    { alternatives: [word('vermiet', true)] },
    { alternatives: [word('rauswerf'), word('eigenbedarfskund'), norm('573', 'bgb')] },
    { alternatives: [word('eigenbedarfskund'), norm('573', 'bgb'), word('wohnbedarf')] },
    { alternatives: [norm('573', 'bgb')] },
    { alternatives: [word('vermiet')] },
  ];
  assert.deepEqual(distinctAlternatives(groups), [
    { alternatives: [word('vermiet', true)] },
    { alternatives: [word('rauswerf'), word('eigenbedarfskund'), norm('573', 'bgb')] },
    { alternatives: [word('wohnbedarf')] },
    // 'vermiet' as typed is another phrase than 'vermiet'* (the prefix).
    { alternatives: [word('vermiet')] },
  ]);
  assert.equal(matchExpression(distinctAlternatives(groups), false),
    '"vermiet"* OR ("rauswerf" OR "eigenbedarfskund" OR NEAR("573" "bgb", 6)) OR "wohnbedarf" OR "vermiet"');
});

const decision = (doknr: string, aktenzeichen: string, text: string) => ({ doknr, aktenzeichen, text, norm: '', titel: 'Streitsache' });

/** Five decisions: `number` in three of them, 'KSchG' in two (once beside `number`, once far from it). */
const numberedCorpus = (t: { after(fn: () => void): void }, number: string) => smallCorpus(t, [
  decision('HGRP00000001', 'IX ZR 5/24', `Die Klage nach § ${number} KSchG hat Erfolg.`),
  decision('HGRP00000002', 'IX ZR 6/24', `Nach ${number} Jahr und 4 Monaten stritten die Parteien lange über ganz andere Dinge, bevor schließlich das KSchG genannt wurde.`),
  decision('HGRP00000003', 'IX ZR 8/24', `Die Miete betrug ${number} Euro.`),
  decision('HGRP00000004', 'IX ZR 9/24', 'Die Baugenehmigung wurde erteilt.'),
  decision('HGRP00000009', 'IX ZR 10/24', 'Die Revision hat Erfolg.'),
]);

test('a norm group leaves out a word in half the decisions or more, and keeps it once the corpus holds it less', async (t) => {
  const db = await numberedCorpus(t, '7');
  const groups: TermGroup[] = [{ alternatives: [norm('7', 'kschg')] }, { alternatives: [norm('9', 'baugb'), word('pacht')] }];
  const found = (of: TermGroup[]) => lexicalArm(db, matchExpression(of, false), filterSql({}), 10).entries.length;
  assert.equal(found(groups), 1, 'the NEAR groups match the decision naming the norm, "pacht" none');
  // '7' is in three of five decisions: FTS5 gives it no weight; 'kschg' in two, '9' (an Aktenzeichen's) in one.
  const reduced = withoutUnweightedNormWords(db, groups);
  assert.deepEqual(reduced, [{ alternatives: [word('kschg')] }, groups[1]]);
  assert.equal(found(reduced), 2, 'the law named anywhere');

  const dir = mkdtempSync(join(tmpdir(), 'juralite-hybrid-groups-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = ['HGRP00000005', 'HGRP00000006', 'HGRP00000007', 'HGRP00000008'].map((doknr, i) => {
    const file = join(dir, `${doknr}.xml`);
    writeFileSync(file, riiXml({ ...decision(doknr, `IX ZR ${20 + i}/24`, ''), datum: '20240101', gruende: [{ rn: 1, text: 'Die Berufung bleibt ohne Erfolg.' }] }));
    return file;
  });
  await importPaths(db, files);
  // Now in three of nine: the group is the norm again.
  assert.deepEqual(withoutUnweightedNormWords(db, groups), groups);
});

test('where the impact lists hold, their recorded rows decide, unless the rows changed since could carry the word across half', async (t) => {
  const db = await numberedCorpus(t, '7');
  db.transaction(() => buildImpactLists(db, { minRows: 1 }))();
  sealImpactLists(db);
  const groups: TermGroup[] = [{ alternatives: [norm('7', 'kschg')] }];
  assert.deepEqual(withoutUnweightedNormWords(db, groups), [{ alternatives: [word('kschg')] }], '"7" recorded in three of five rows');
  // The lists read, not a count: recorded in one row, '7' is no longer left out.
  db.prepare(`UPDATE search_impacts SET rows = 1 WHERE phrase = '"7"'`).run();
  assert.deepEqual(withoutUnweightedNormWords(db, groups), groups);
  // Two rows changed since the build could have carried it across half (2.5 rows): counted again.
  db.prepare('INSERT INTO search_impacts_changed (doc_id) VALUES (1), (2)').run();
  assert.deepEqual(withoutUnweightedNormWords(db, groups), [{ alternatives: [word('kschg')] }]);
});

test('hybrid: a norm the bridge names is found by its law where its number is in most decisions', async (t) => {
  // The bridge gives 'rausgeschmissen' § 1 KSchG and § 4 KSchG: NEAR("1" "kschg", 6) becomes "kschg".
  const db = await numberedCorpus(t, '1');
  const answer = await searchDecisions(db, { query: 'der Chef hat mich rausgeschmissen', mode: 'hybrid', limit: 10, page: 1, bridge: true });
  assert.equal(answer.query_expansion.status, 'applied');
  assert.deepEqual(answer.results.map((result) => result.aktenzeichen), ['IX ZR 5/24', 'IX ZR 6/24']);
});

test('withoutUnmatchable: an alternative of several words one of which no decision holds in any form is left out, the matches the same', async (t) => {
  const db = await numberedCorpus(t, '7');
  const words = (...stems: string[]) => ({ kind: 'words' as const, terms: stems.map((stem) => ({ stem, prefix: false, compounds: [] })) });
  // 'zahlt' is in no decision; 'baugenehm' (Baugenehmigung) only as the start of a word, which its prefix matches.
  const groups: TermGroup[] = [
    { alternatives: [words('miet', 'zahlt'), word('kschg'), words('revision', 'erfolg')] },
    { alternatives: [words('zahlt', 'kschg')] },
    { alternatives: [{ kind: 'words', terms: [{ stem: 'baugenehm', prefix: true, compounds: [] }, { stem: 'erteilt', prefix: false, compounds: [] }] }] },
    { alternatives: [word('zahlt')] },
  ];
  const kept = withoutUnmatchable(db, groups);
  assert.deepEqual(kept, [{ alternatives: [word('kschg'), words('revision', 'erfolg')] }, groups[2], groups[3]]);
  const found = (of: TermGroup[]) => lexicalArm(db, matchExpression(of, false), filterSql({}), 10);
  assert.deepEqual(found(kept), found(groups));
});
