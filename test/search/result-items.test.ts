// A decision result item's fields in the order answers have always written them (api-v1.md, "Search result items"),
// as the keyword search and the combined search (artifact_type second) build them: the items are built with every
// field written out (Session 24), and JSON keeps the order they were written in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCorpus } from '../../src/corpus/open.ts';
import { pageItems, rankDecisions } from '../../src/search/decision-search.ts';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const FIELDS = ['id', 'aktenzeichen', 'court', 'date', 'document_type', 'title', 'snippet', 'snippets', 'chunk_title', 'rn_range',
  'fundstelle', 'fortgeltung_checked', 'fortgeltung_note', 'confidence'];

test('result items: fields in the answers\' order, artifact_type second in the combined search', async () => {
  const db = openCorpus(await demoCorpus(), { readonly: true });
  try {
    let items = 0;
    for (const query of ['Kündigung', 'Eigenbedarf Mietwohnung', 'Schadensersatz', 'Urteil']) {
      const ranking = db.transaction(() => rankDecisions(db, { query, mode: 'keyword', bridge: true, depth: 20 }, true))();
      const plain = db.transaction(() => pageItems(db, ranking, 0, 20, false))();
      const combined = db.transaction(() => pageItems(db, ranking, 0, 20, true))();
      assert.equal(combined.length, plain.length);
      for (const [index, item] of plain.entries()) {
        assert.deepEqual(Object.keys(item), FIELDS);
        assert.deepEqual(Object.keys(combined[index]), [FIELDS[0], 'artifact_type', ...FIELDS.slice(1)]);
        assert.equal(combined[index].artifact_type, 'DECISION');
        assert.deepEqual({ ...combined[index], artifact_type: undefined }, { ...item, artifact_type: undefined });
        assert.equal(item.fortgeltung_checked, false);
        assert.match(item.fortgeltung_note, /^Not checked for continued validity/u);
        items++;
      }
    }
    assert.ok(items >= 20, `only ${items} items`);
  } finally {
    db.close();
  }
});
