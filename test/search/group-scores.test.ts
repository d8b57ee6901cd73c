// A query group counts once, by its best alternative (src/search/group-scores.ts; bench/README "Session 19: an unseen
// set"): a lay term the bridge widened to many legal terms and norms no longer outweighs the rare words of the
// question, and a word typed with ae/oe/ue for its umlaut is read as the index holds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { tokenize } from '../../src/search/analyze.ts';
import { embedQueryWithModel, trainCorpusModel } from '../../src/search/corpus-model.ts';
import { searchDecisions } from '../../src/search/decision-search.ts';
import { splitCompounds } from '../../src/search/compound-parts.ts';
import { planQuery } from '../../src/search/plan.ts';
import { wordGroups } from '../../src/search/query.ts';
import { withTypedUmlauts } from '../../src/search/typed-umlauts.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { smallCorpus } from './small-corpus.ts';

const TOPIC = 'Das Versammlungsverbot verletzt die Versammlungsfreiheit aus Art. 8 GG. Der Aufzug durfte nach § 15 VersammlG '
  + 'nicht verboten werden, denn die Versammlung war friedlich; ein Versammlungsverbot setzt eine unmittelbare Gefahr voraus.';

test('hybrid: a bridged lay term counts as one word, the rare words of the question choose among the topic\'s decisions', async (t) => {
  const db = await smallCorpus(t, [
    ['SRCH00000071', '1 K 71/24', 'Die Polizei hielt die Teilnehmer der Versammlung gegen den Parteitag stundenlang in einem Kessel fest.'],
    ['SRCH00000072', '1 K 72/24', TOPIC],
    ['SRCH00000073', '1 K 73/24', `${TOPIC} Die Auflagen der Versammlungsbehörde waren rechtswidrig.`],
  ].map(([doknr, aktenzeichen, text]) => ({ doknr, aktenzeichen, text })));
  const query = 'Polizei hat uns bei der Demo gegen den Parteitag festgehalten';
  assert.ok(planQuery(db, query, true).expansion.applied, 'the bridge widens "Demo"');
  for (const mode of [undefined, 'hybrid'] as const) {
    const found = (await searchDecisions(db, { query, mode, limit: 10, page: 1, bridge: true })).results.map((r) => r.aktenzeichen);
    assert.equal(found[0], '1 K 71/24', `${mode ?? 'unset'}: ${found.join(', ')}`);
  }
});

test('a word typed with ae/oe/ue is read with umlauts where only that form is indexed; words the index holds stay', async (t) => {
  const db = await smallCorpus(t, [
    ['SRCH00000081', '2 K 81/24', 'Die Kündigung wegen Eigenbedarf ist unwirksam; die Steuer auf die neue Quelle bleibt.'],
    ['SRCH00000082', '2 K 82/24', 'Der Mieter zahlte die Miete pünktlich.'],
  ].map(([doknr, aktenzeichen, text]) => ({ doknr, aktenzeichen, text })));
  assert.equal(withTypedUmlauts(db, 'decisions_fts', 'Kuendigung wegen Eigenbedarf, puenktlich fuer die Miete'), 'Kündigung wegen Eigenbedarf, pünktlich für die Miete');
  assert.equal(withTypedUmlauts(db, 'decisions_fts', 'Steuer auf die neue Quelle'), 'Steuer auf die neue Quelle');
  assert.equal(withTypedUmlauts(db, 'decisions_fts', 'Abenteuer Duell'), 'Abenteuer Duell', 'neither form indexed: as typed');
  const keyword = (query: string) => searchDecisions(db, { query, mode: 'keyword', limit: 10, page: 1, bridge: false });
  assert.deepEqual((await keyword('Kuendigung Eigenbedarf')).results.map((r) => r.aktenzeichen), ['2 K 81/24']);
  assert.deepEqual((await keyword('puenktlich')).results.map((r) => r.aktenzeichen), ['2 K 82/24']);
});

test('hybrid reads a compound no decision holds also as its head alone, one group however many alternatives it has', async (t) => {
  const db = await smallCorpus(t, [
    ['SRCH00000091', '3 K 91/24', 'Der Test auf das Virus war negativ; die Vergütung der Teststelle wurde zurückgefordert.'],
    ['SRCH00000092', '3 K 92/24', 'Er fuhr zu schnell und wurde geblitzt.'],
  ].map(([doknr, aktenzeichen, text]) => ({ doknr, aktenzeichen, text })));
  const groups = splitCompounds(db, 'decisions_fts', wordGroups(db, 'Schnelltests'), 'Schnelltests', true, 1, true);
  assert.equal(groups.length, 1);
  assert.deepEqual(groups[0]!.alternatives.slice(1), [
    { kind: 'norm', stems: ['schnell', 'test'] },
    { kind: 'words', terms: [{ stem: 'test', prefix: false, compounds: [] }] },
  ]);
  const found = (await searchDecisions(db, { query: 'Schnelltests', mode: 'hybrid', limit: 10, page: 1, bridge: false })).results.map((r) => r.aktenzeichen);
  assert.equal(found[0], '3 K 91/24');
});

test('a query vector reads a word typed with ae/oe/ue as its umlaut form where the model knows only that', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  try {
    const model = trainCorpusModel(db)!;
    assert.ok(model.index.has(tokenize('Kündigung')[0]!.stem) && !model.index.has(tokenize('Kuendigung')[0]!.stem));
    assert.deepEqual(embedQueryWithModel(model, 'Kuendigung wegen Eigenbedarf'), embedQueryWithModel(model, 'Kündigung wegen Eigenbedarf'));
    assert.notDeepEqual(embedQueryWithModel(model, 'Steuer'), embedQueryWithModel(model, 'Stür'));
  } finally {
    db.close();
  }
});
