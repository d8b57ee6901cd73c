// File numbers as Bavarian courts publish them (issue 28, cause 3): the titles of the decisions in the shared data
// (decisions/court_websites/MANIFEST.jsonl, 'VG München, Urteil v. 07.06.2023 – M 28 K 21.6372', '34 Wx 240/23 e',
// '1Z BR ...') cited as written must give the court, the date and the whole Aktenzeichen. Skips without the data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractCitations } from '../../src/citations/extract.ts';
import { parseGermanDate } from '../../src/citations/cases.ts';
import { resolveCourt } from '../../src/corpus/courts.ts';
import type { CaseCitation } from '../../src/citations/types.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';

const MANIFEST = 'decisions/court_websites/MANIFEST.jsonl';
const TITLE = /^Bürgerservice - (?<court>[^,]+), (?<type>\p{L}+) v\. (?<date>\d\d\.\d\d\.\d{4}) – (?<az>.+)$/u;

test('every Bavarian court title cited as written gives court, date and the whole Aktenzeichen', skipUnlessSharedData(MANIFEST), () => {
  const titles = readFileSync(sharedData(MANIFEST), 'utf8').trim().split('\n')
    .map((line) => TITLE.exec((JSON.parse(line) as { title: string }).title)?.groups)
    // A Vergabekammer is no court; '505 Js 1651/21' is a prosecutor's file beside the court's.
    .filter((g) => g !== undefined && !/Vergabekammer/u.test(g.court) && !/ Js /u.test(g.az));
  assert.ok(titles.length >= 30, `${titles.length} titles`);
  const wrong: string[] = [];
  for (const g of titles) {
    const text = `Vgl. ${g!.court}, ${g!.type} v. ${g!.date} – ${g!.az}, juris.`;
    const found = extractCitations(text).citations.filter((c): c is CaseCitation => c.type === 'case');
    const want = { court: resolveCourt(g!.court).code, date: parseGermanDate(g!.date), aktenzeichen: g!.az };
    const got = found.map((c) => ({ court: c.court, date: c.date, aktenzeichen: c.aktenzeichen }));
    if (JSON.stringify(got) !== JSON.stringify([want])) wrong.push(`${text} -> ${JSON.stringify(got)}`);
  }
  assert.deepEqual(wrong, []);
});
