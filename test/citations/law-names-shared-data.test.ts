// Official law titles in the genitive (issue 28, cause 2): every federal law or ordinance whose GII title starts
// 'Gesetz ...' or 'Verordnung ...' is cited as '§ 1 des Gesetzes ...' / '§ 1 der Verordnung ...' and must be read as
// that law, with a name lookup built from the titles as the corpus builds it at import (law-names.ts). Skips without
// the shared data (gii/law_index.tsv).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { citedAbbreviation, nameKey } from '../../src/corpus/law-aliases.ts';
import { scanStatutes } from '../../src/citations/statutes.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';

test('every GII title "Gesetz ..." or "Verordnung ..." in the genitive names its law', skipUnlessSharedData('gii/law_index.tsv'), () => {
  const laws = readFileSync(sharedData('gii/law_index.tsv'), 'utf8').trim().split('\n').slice(1)
    .map((line) => line.split('\t')).map(([, jurabk, amtabk, title]) => ({ cited: citedAbbreviation(jurabk, amtabk), title }));
  const byKey = new Map<string, string>();
  for (const law of laws) if (!byKey.has(nameKey(law.title))) byKey.set(nameKey(law.title), law.cited);
  const lookup = (name: string) => byKey.get(nameKey(name));
  // Titles of plain words: a title with a comma, parenthesis or date runs past what a citation writes.
  const cited = laws.filter((l) => /^(?:Gesetz|Verordnung) (?:über|zur|zum|gegen|für|betreffend|zu|vom)? ?[\p{L}\d -]+$/u.test(l.title)
    && l.title.split(' ').length <= 17);
  const misread: string[] = [];
  for (const law of cited) {
    const genitive = law.title.replace(/^Gesetz /u, 'des Gesetzes ').replace(/^Verordnung /u, 'der Verordnung ');
    const text = `Nach § 1 Abs. 2 ${genitive} ist das zulässig.`;
    const [citation] = scanStatutes(text, [], lookup).citations;
    if (citation?.law !== byKey.get(nameKey(law.title)) || !text.slice(citation.start, citation.end).endsWith(law.title.split(' ').pop()!)) {
      misread.push(`${text} -> ${citation?.canonical}`);
    }
  }
  assert.ok(cited.length > 1500, `${cited.length} titles`);
  assert.deepEqual(misread.slice(0, 10), [], `${misread.length} of ${cited.length} misread`);
});
