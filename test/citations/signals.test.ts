// The legal-signal rule (resolutions.md): which of the five categories a text shows. Rows from the passages the
// outside evaluation found refused (issue 28, cause 1): procedural words as the last part of a German compound, and
// 'a.F.'/'n.F.' as marks of legal writing; and the prose that must stay refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalSignals, type SignalCategory } from '../../src/citations/signals.ts';

const rows: [string, SignalCategory[]][] = [
  ['Die Kündigungsschutzklage ist nach § 4 Satz 1 KSchG binnen drei Wochen zu erheben.', ['statute_reference', 'procedural_vocabulary']],
  ['Der Insolvenzantrag wurde nach § 14 Abs. 1 InsO gestellt.', ['statute_reference', 'procedural_vocabulary']],
  ['Die Nichtzulassungsbeschwerde ist nach § 544 ZPO statthaft.', ['statute_reference', 'procedural_vocabulary']],
  ['Der Lohnanspruch folgt aus § 611a Abs. 2 BGB.', ['statute_reference', 'procedural_vocabulary']],
  ['Ein Gläubigerantrag setzt nach § 14 InsO ein rechtliches Interesse voraus.', ['statute_reference', 'procedural_vocabulary']],
  ['Maßgeblich ist § 64 GmbHG; nach der a.F. haftete der Geschäftsführer für Zahlungen.', ['statute_reference', 'legal_writing_marks']],
  ['Er stützt sich auf § 1 Abs. 2 UWG in der n. F. und meint, das genüge.', ['statute_reference', 'legal_writing_marks']],
  // A lone statute sentence stays one category, however it is written ('a.F.' inside the citation counts for it).
  ['Nach § 64 Satz 1 GmbHG a.F. in Verbindung mit § 15b InsO gilt das.', ['statute_reference']],
  // Everyday compounds are no procedural vocabulary.
  ['Der Produktionsprozess und das Backverfahren hatten keine Vorurteile gegen den Sturm.', []],
];

for (const [text, expected] of rows) {
  test(`signals: ${JSON.stringify(text)}`, () => assert.deepEqual(legalSignals(text), expected));
}
