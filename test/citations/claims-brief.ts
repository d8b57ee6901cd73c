/**
 * A test brief built at run time from decisions a corpus holds (so no decision text is copied into the repository):
 * per decision, a sentence of one Randnummer is quoted and cited correctly, with a faithful omission, with a range,
 * with a Randnummer the decision lacks, with another Randnummer, with a word changed, with an unfaithful omission, and
 * a sentence is invented. Each item is its own paragraph; `items` says which are altered.
 */
import type Database from 'better-sqlite3';

export type ItemKind = 'correct' | 'omission' | 'range' | 'missing_rn' | 'other_rn' | 'word_changed' | 'bad_omission' | 'invented';

/** The kinds whose claim is false: the check must answer claim_check not_supported for each, and supported for no other. */
export const ALTERED: ReadonlySet<ItemKind> = new Set(['missing_rn', 'other_rn', 'word_changed', 'bad_omission', 'invented']);

export interface BriefItem {
  kind: ItemKind;
  aktenzeichen: string;
  /** The Randnummer the quoted sentence stands in. */
  rn: number;
  /** Code point range of the item's paragraph in the brief. */
  from: number;
  to: number;
}

const MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
const germanDate = (iso: string) => `${Number(iso.slice(8, 10))}. ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

interface Row { id: string; court: string; date: string; aktenzeichen: string; document_kind: string; full_text: string; rn_to: number }

/** A plain sentence (no quotation marks, brackets or citations) of 10 to 40 words in one of the decision's Randnummern. */
function quotable(db: Database.Database, d: Row): { rn: number; sentence: string } | null {
  const rns = db.prepare('SELECT rn, start_offset, end_offset FROM decision_randnummern WHERE decision_id = ? ORDER BY position')
    .all(d.id) as { rn: number; start_offset: number; end_offset: number }[];
  for (const r of rns.slice(2)) {
    const paragraph = Array.from(d.full_text).slice(r.start_offset, r.end_offset).join('').replace(/^\d+\s+/u, '');
    for (const sentence of paragraph.split(/(?<=[.!?])\s+(?=\p{Lu})/u)) {
      const words = sentence.split(/\s+/u).length;
      if (words >= 10 && words <= 40 && /^\p{Lu}/u.test(sentence) && /\.$/u.test(sentence) && !/[„“"»«()§[\]\d]/u.test(sentence)) return { rn: r.rn, sentence };
    }
  }
  return null;
}

/** A word of the sentence changed: a word of six letters or more in its middle becomes another. */
function changeWord(sentence: string): string {
  const words = sentence.split(' ');
  const at = words.findIndex((w, i) => i >= words.length / 3 && /^\p{L}{6,}$/u.test(w));
  words[at] = words[at] === 'keineswegs' ? 'ausnahmslos' : 'keineswegs';
  return words.join(' ');
}

/** The brief: seven items per decision that has a quotable sentence, citations written as courts write them. */
export function buildBrief(db: Database.Database, decisionIds: readonly string[]): { text: string; items: BriefItem[] } {
  const paragraphs: { kind: ItemKind; aktenzeichen: string; rn: number; text: string }[] = [];
  for (const id of decisionIds) {
    const d = db.prepare('SELECT id, court, date, aktenzeichen, document_kind, decision_text(text_zstd) AS full_text, rn_to FROM decisions WHERE id = ?').get(id) as Row;
    const q = quotable(db, d);
    if (!q) continue;
    const cite = (pinpoint: string) => `(${d.court}, ${d.document_kind} vom ${germanDate(d.date)} - ${d.aktenzeichen}, ${pinpoint})`;
    const words = q.sentence.replace(/\.$/u, '').split(' ');
    const head = words.slice(0, 4).join(' ');
    const tail = words.slice(-4).join(' ');
    const other = 1; // quotable() takes no sentence before Rn. 3
    const add = (kind: ItemKind, text: string) => paragraphs.push({ kind, aktenzeichen: d.aktenzeichen, rn: q.rn, text });
    add('correct', `Das Gericht hat ausgeführt: „${q.sentence}“ ${cite(`Rn. ${q.rn}`)}.`);
    add('omission', `Es heißt dort: „${head} […] ${tail}“ ${cite(`Rz. ${q.rn}`)}.`);
    add('range', `So auch „${q.sentence.replace(/\.$/u, '')}“ ${cite(`Rn. ${Math.max(1, q.rn - 1)} ff.`)}.`);
    add('missing_rn', `Das Gericht hat die Frage ausdrücklich offengelassen ${cite(`Rn. ${d.rn_to + 7}`)}.`);
    add('other_rn', `Wörtlich: „${q.sentence}“ ${cite(`Rn. ${other}`)}.`);
    add('word_changed', `Das Gericht hat ausgeführt: „${changeWord(q.sentence)}“ ${cite(`Rn. ${q.rn}`)}.`);
    const inserted = words.at(-5) === 'nicht' ? 'niemals' : 'nicht';
    add('bad_omission', `Es heißt dort: „${head} […] ${inserted} ${tail}“ ${cite(`Tz. ${q.rn}`)}.`);
    add('invented', `Das Gericht hat betont: „Ein Anspruch dieser Art besteht nach gefestigter Rechtsprechung unter keinen denkbaren Umständen.“ ${cite(`Rn. ${q.rn}`)}.`);
  }
  const items: BriefItem[] = [];
  let offset = 0;
  const parts: string[] = [];
  for (const p of paragraphs) {
    const length = Array.from(p.text).length;
    items.push({ kind: p.kind, aktenzeichen: p.aktenzeichen, rn: p.rn, from: offset, to: offset + length });
    parts.push(p.text);
    offset += length + 2;
  }
  return { text: parts.join('\n\n'), items };
}
