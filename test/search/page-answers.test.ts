// Result pages held to the answers juralite gave before Session 20 changed how texts are stored and pages are built:
// every snippet (its window, marks and Randnummer), every passage choice, chunk title, range, confidence and
// frequently_cited_by_results of the demo corpus's pages for these queries, keyword and hybrid, as written by the code
// of 673c9a2 (test/search/fixtures/page-answers.json). A change of any of them fails here; a deliberate one rewrites
// the file (JURALITE_WRITE_PAGE_ANSWERS=1) and says why in its commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { openCorpus } from '../../src/corpus/open.ts';
import { searchDecisions, type SearchMode } from '../../src/search/decision-search.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const FILE = new URL('./fixtures/page-answers.json', import.meta.url);
const QUERIES = ['Kündigung Mietverhältnis', 'Eigenbedarf', 'Schadensersatz', 'Verkehrssicherungspflicht Streupflicht',
  'Mangel Nacherfüllung', 'Vermieter will mich rauswerfen', 'auf dem vereisten Gehweg ausgerutscht', 'Abmahnung Kündigung'];
const MODES: SearchMode[] = ['keyword', 'hybrid'];

test('page answers: snippets, passages, Randnummern and cited decisions as before, keyword and hybrid', async (t) => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  t.after(() => db.close());
  const answers: Record<string, unknown> = {};
  for (const mode of MODES) {
    for (const query of QUERIES) {
      const answer = await searchDecisions(db, { query, mode, limit: 6, page: 1, bridge: true });
      // What the page builds (the rows' own columns are read as they are stored; snippet is snippets[0].text).
      answers[`${mode} ${query}`] = {
        results: answer.results.map((item) => {
          assert.equal(item.snippet, item.snippets[0].text);
          return { id: item.id, snippets: item.snippets, chunk_title: item.chunk_title, rn_range: item.rn_range, confidence: item.confidence };
        }),
        cited: answer.frequently_cited_by_results.map((cited) => `${cited.id} ${cited.cited_by_results}`),
      };
    }
  }
  if (process.env.JURALITE_WRITE_PAGE_ANSWERS === '1') {
    // One line per answer: a change shows as the answers it touched.
    writeFileSync(FILE, `{\n${Object.entries(answers).map(([key, answer]) => `${JSON.stringify(key)}: ${JSON.stringify(answer)}`).join(',\n')}\n}\n`);
  }
  const expected = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  const items = Object.values(expected).flatMap((answer) => (answer as { results: { snippets: { text: string; rn: number | null }[] }[] }).results);
  // The file holds what it should test: marked snippets and Randnummern.
  assert.ok(items.length > 80 && items.filter((item) => item.snippets.some((s) => s.rn !== null)).length > 20
    && items.filter((item) => item.snippets.some((s) => s.text.includes('<mark>'))).length > 60, `${items.length} items`);
  for (const [key, answer] of Object.entries(answers)) assert.deepEqual(answer, expected[key], key);
});
