/**
 * A short brief with German legal citations in its body, its footnotes and its endnotes, as the tests upload it,
 * and the text extraction must make of it (docs/uploads.md: each paragraph followed by its footnotes, endnotes last).
 * The citations resolve against the demo corpus (fixtures/README.md): BGH VI ZR 496/18 of 14 May 2019 and § 823 BGB.
 */
import type { DocxContent } from '../helpers/documents.ts';

export const BRIEF: DocxContent = {
  paragraphs: [
    'Die Klägerin verlangt Schadensersatz aus § 823 Abs. 1 BGB wegen einer Verletzung der Streupflicht.[^1]',
    'Die Beklagte beantragt, die Klage abzuweisen.',
    'Der Anspruch ist begründet; die Beklagte hat ihre Verkehrssicherungspflicht verletzt.[^2][^e1]',
  ],
  footnotes: [
    'BGH, Urteil vom 14. Mai 2019 - VI ZR 496/18, Rn. 8.',
    'Vgl. BGH, Urteil vom 12. März 2019 - VI ZR 496/18.',
  ],
  endnotes: ['Zur Haftung des Eigentümers siehe § 823 Abs. 1 BGB.'],
};

export const BRIEF_TEXT = [
  BRIEF.paragraphs[0].replace('[^1]', ''),
  BRIEF.footnotes![0],
  BRIEF.paragraphs[1],
  BRIEF.paragraphs[2].replace('[^2][^e1]', ''),
  BRIEF.footnotes![1],
  BRIEF.endnotes![0],
].join('\n');
