/**
 * Citation edges written at import (src/graph/edges.ts, src/graph/resolve.ts) on real corpora: resolution, late
 * resolution after a later import, self-citations, Randnummern, Normenkette, re-imports and the version-1 upgrade.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CORPUS_SCHEMA_VERSION, openCorpus, upgradeCorpus, type CorpusDb } from '../../src/corpus/open.ts';
import { decisionId } from '../../src/corpus/ids.ts';
import { importPaths } from '../../src/ingest/import-paths.ts';
import { PENDING_EDGES_SQL } from '../../src/graph/resolve.ts';
import { riiXml, tempCorpus, type RiiOptions } from '../ingest/helpers.ts';

const B = { doknr: 'EDGE00000000B', datum: '20200115', aktenzeichen: 'VIII ZR 1/20' };
const A_TEXT = 'Der Senat folgt grundlegend BGH, Urteil vom 15. Januar 2020 - VIII ZR 1/20, Rn. 12, und § 573 Abs. 2 BGB.';

function write(dir: string, name: string, options: RiiOptions): string {
  const path = join(dir, `${name}.xml`);
  writeFileSync(path, riiXml(options));
  return path;
}

const aOptions = (gruende: RiiOptions['gruende']): RiiOptions => ({
  doknr: 'EDGE00000000A', datum: '20210301', aktenzeichen: 'VIII ZR 9/21', norm: '§ 573 BGB, § 574 Abs. 1 BGB', gruende,
});

interface EdgeRow { rn: number | null; reference_canonical: string; reference_type: string; reference_role: string | null;
  to_decision_id: string | null; resolution_status: string; target_law: string | null; target_unit: string | null }

function edgesFrom(db: CorpusDb, doknr: string): EdgeRow[] {
  return db.prepare(`SELECT e.rn, e.reference_canonical, e.reference_type, e.reference_role, e.to_decision_id, e.resolution_status,
      e.target_law, e.target_unit
    FROM citation_edges e JOIN decisions d ON d.id = e.from_decision_id WHERE d.doknr = ? ORDER BY e.id`).all(doknr) as EdgeRow[];
}

const caseEdges = (db: CorpusDb, doknr: string) => edgesFrom(db, doknr).filter((e) => e.reference_type === 'case');
const idOf = (doknr: string) => decisionId({ doknr });

test('A cites B and B is in the corpus: a resolved edge at the Randnummer, with its role', async (t) => {
  const { db, dir } = tempCorpus(t);
  const a = write(dir, 'a', aOptions([{ rn: 1, text: 'Die Revision ist begründet.' }, { rn: 2, text: A_TEXT }]));
  const b = write(dir, 'b', { ...B, gruende: [{ rn: 1, text: 'Die Kündigung ist wirksam.' }] });
  await importPaths(db, [b, a]);
  assert.deepEqual(caseEdges(db, 'EDGE00000000A').map((e) => [e.rn, e.reference_canonical, e.reference_role, e.resolution_status, e.to_decision_id]),
    [[2, 'BGH, VIII ZR 1/20', 'leitentscheidung', 'resolved', idOf(B.doknr)]]);
});

test('B imported after A: the edge resolves with B\'s import, and the summary counts it', async (t) => {
  const { db, dir } = tempCorpus(t);
  const a = write(dir, 'a', aOptions([{ rn: 2, text: A_TEXT }]));
  const first = await importPaths(db, [a]);
  assert.deepEqual(caseEdges(db, 'EDGE00000000A').map((e) => [e.resolution_status, e.to_decision_id]), [['unresolved', null]]);
  assert.deepEqual([first.citation_edges, first.citation_edges_resolved, first.edges_resolved], [1, 0, 0]);
  const b = write(dir, 'b', { ...B, gruende: [{ rn: 1, text: 'Die Kündigung ist wirksam.' }] });
  const second = await importPaths(db, [b]);
  assert.deepEqual(caseEdges(db, 'EDGE00000000A').map((e) => [e.resolution_status, e.to_decision_id]), [['resolved', idOf(B.doknr)]]);
  assert.deepEqual([second.citation_edges, second.citation_edges_resolved, second.edges_resolved], [1, 1, 1]);
});

test('no edge from a decision to itself, whether it names its own Aktenzeichen with another date or its own ECLI', async (t) => {
  const { db, dir } = tempCorpus(t);
  const self = write(dir, 'self', {
    doknr: 'EDGE0000000SF', ecli: 'ECLI:DE:BVerfG:2020:rk20200619.1bvr123419', gertyp: 'BVerfG', spruchkoerper: '1. Senat',
    datum: '20200619', aktenzeichen: '1 BvR 1234/19', doktyp: 'Beschluss',
    gruende: [
      { rn: 1, text: 'Mit Beschluss vom 17. Juli 2019 - 1 BvR 1234/19 - hat die Kammer die einstweilige Anordnung abgelehnt.' },
      { rn: 2, text: 'Siehe auch ECLI:DE:BVerfG:2020:rk20200619.1bvr123419, Rn. 1.' },
    ],
  });
  await importPaths(db, [self]);
  assert.deepEqual(caseEdges(db, 'EDGE0000000SF'), []);
  assert.equal((db.prepare('SELECT count(*) AS n FROM citation_edges WHERE from_decision_id = to_decision_id').get() as { n: number }).n, 0);
});

test('a decision citing the same decision at three Randnummern: three edge rows, one neighbour', async (t) => {
  const { db, dir } = tempCorpus(t);
  const b = write(dir, 'b', { ...B, gruende: [{ rn: 1, text: 'Die Kündigung ist wirksam.' }] });
  const a = write(dir, 'a', aOptions([3, 5, 8].map((rn) => ({ rn, text: `Vgl. BGH, Urteil vom 15. Januar 2020 - VIII ZR 1/20, Rn. ${rn}.` }))));
  await importPaths(db, [b, a]);
  assert.deepEqual(caseEdges(db, 'EDGE00000000A').map((e) => e.rn), [3, 5, 8]);
  const neighbours = db.prepare('SELECT count(DISTINCT to_decision_id) AS n FROM citation_edges WHERE from_decision_id = ?').get(idOf('EDGE00000000A'));
  assert.deepEqual(neighbours, { n: 1 });
});

test('statute edges: from the text at their Randnummer and from the Normenkette without one; resolved where the unit is held', async (t) => {
  const { db, dir } = tempCorpus(t);
  const a = write(dir, 'a', aOptions([{ rn: 2, text: A_TEXT }]));
  await importPaths(db, [a]);
  const statutes = edgesFrom(db, 'EDGE00000000A').filter((e) => e.reference_type === 'statute');
  assert.deepEqual(statutes.map((e) => [e.rn, e.reference_canonical, e.target_law, e.target_unit, e.resolution_status]), [
    [2, '§ 573 Abs. 2 BGB', 'BGB', '§ 573', 'unresolved'],
    [null, '§ 573 BGB', 'BGB', '§ 573', 'unresolved'],
    [null, '§ 574 Abs. 1 BGB', 'BGB', '§ 574', 'unresolved'],
  ]);
  // The law arrives later: its units resolve the statute edges.
  const law = join(dir, 'bgb.xml');
  writeFileSync(law, `<?xml version="1.0" encoding="UTF-8"?><dokumente builddate="20240101" doknr="BJNR001950896">
    <norm builddate="20240101" doknr="BJNR001950896"><metadaten><jurabk>BGB</jurabk><langue>Bürgerliches Gesetzbuch</langue></metadaten></norm>
    <norm builddate="20240101" doknr="BJNR001950896BJNE056702377"><metadaten><jurabk>BGB</jurabk><enbez>§ 573</enbez><titel>Ordentliche Kündigung des Vermieters</titel></metadaten>
      <textdaten><text format="XML"><Content><P>(1) Der Vermieter kann nach Maßgabe des Absatzes 2 kündigen.</P><P>(2) Ein berechtigtes Interesse liegt vor.</P></Content></text></textdaten></norm>
  </dokumente>`);
  const summary = await importPaths(db, [law]);
  assert.deepEqual(summary.failed, []);
  assert.deepEqual(edgesFrom(db, 'EDGE00000000A').filter((e) => e.reference_type === 'statute').map((e) => [e.reference_canonical, e.resolution_status]), [
    ['§ 573 Abs. 2 BGB', 'resolved'], ['§ 573 BGB', 'resolved'], ['§ 574 Abs. 1 BGB', 'unresolved'],
  ]);
  // A decision imported after the law: its statute edges resolve as they are written (no law in this import).
  const c = write(dir, 'c', { doknr: 'EDGE00000000C', datum: '20220301', aktenzeichen: 'VIII ZR 3/22', norm: '§ 574 BGB',
    gruende: [{ rn: 1, text: 'Nach § 573 Abs. 1 BGB kann der Vermieter kündigen.' }] });
  await importPaths(db, [c]);
  assert.deepEqual(edgesFrom(db, 'EDGE00000000C').map((e) => [e.reference_canonical, e.resolution_status]), [
    ['§ 573 Abs. 1 BGB', 'resolved'], ['§ 574 BGB', 'unresolved'],
  ]);
});

test('re-importing a changed decision rewrites its edges; an unchanged one keeps them', async (t) => {
  const { db, dir } = tempCorpus(t);
  const b = write(dir, 'b', { ...B, gruende: [{ rn: 1, text: 'Die Kündigung ist wirksam.' }] });
  const a = write(dir, 'a', aOptions([{ rn: 2, text: A_TEXT }]));
  await importPaths(db, [b, a]);
  await importPaths(db, [a]);
  assert.equal(caseEdges(db, 'EDGE00000000A').length, 1);
  write(dir, 'a', aOptions([{ rn: 4, text: A_TEXT }, { rn: 5, text: 'Vgl. BGH, Urteil vom 1. Februar 2018 - VIII ZR 77/17.' }]));
  await importPaths(db, [a]);
  assert.deepEqual(caseEdges(db, 'EDGE00000000A').map((e) => [e.rn, e.reference_canonical, e.resolution_status]),
    [[4, 'BGH, VIII ZR 1/20', 'resolved'], [5, 'BGH, VIII ZR 77/17', 'unresolved']]);
});

test('a corpus of schema version 1 (no edges) is refused read-only and upgraded in place: edges built', async (t) => {
  const { db, dir } = tempCorpus(t);
  const b = write(dir, 'b', { ...B, gruende: [{ rn: 1, text: 'Die Kündigung ist wirksam.' }] });
  const a = write(dir, 'a', aOptions([{ rn: 2, text: A_TEXT }]));
  await importPaths(db, [b, a]);
  db.exec('DELETE FROM citation_links; PRAGMA user_version = 1;');
  const path = db.name;
  db.close();
  assert.throws(() => openCorpus(path, { readonly: true }), /schema version 1, older than .*upgrade/);
  upgradeCorpus(path);
  const upgraded = new Database(path, { readonly: true });
  t.after(() => upgraded.close());
  assert.equal(upgraded.pragma('user_version', { simple: true }), CORPUS_SCHEMA_VERSION);
  assert.deepEqual(caseEdges(upgraded, 'EDGE00000000A').map((e) => [e.rn, e.resolution_status]), [[2, 'resolved']]);
  assert.equal(edgesFrom(upgraded, 'EDGE00000000A').filter((e) => e.target_law === 'BGB').length, 3);
});

test('the pass over unresolved edges reads only them, on their partial index (not every case edge of the corpus)', async (t) => {
  const { db } = tempCorpus(t);
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${PENDING_EDGES_SQL}`).all() as { detail: string }[]).map((row) => row.detail).join('\n');
  assert.match(plan, /citation_links_unresolved/u, plan);
  assert.doesNotMatch(plan, /search_case_edges|SCAN l\b(?! USING)/u, plan);
});
