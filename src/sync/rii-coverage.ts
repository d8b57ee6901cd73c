// A complete rii sync knows every decision rechtsprechung-im-internet.de lists, per court, from its earliest to its
// latest: for those courts and that period the corpus is exhaustive (of what the federal courts publish there), and
// the coverage ranges say so, so that a citation check's not_found there is a statement of fact.
import type { CorpusDb } from '../corpus/open.ts';
import { resolveCourt } from '../corpus/courts.ts';
import { sql } from '../db/statements.ts';
import { SOURCE_NAMES } from './sources.ts';
import type { TocItem } from './toc.ts';

const SOURCES = JSON.stringify([SOURCE_NAMES.rii]);

/**
 * Replaces the ranges an earlier rii sync wrote with one exhaustive range per court the table lists (earliest to
 * latest decision date), verified today. Returns the courts. Ranges of an imported coverage manifest for other
 * courts stay; one for the same court is replaced (the sync has just verified that court).
 */
export function writeRiiCoverage(db: CorpusDb, items: TocItem[], today: string): string[] {
  const spans = new Map<string, { from: string; until: string }>();
  for (const item of items) {
    if (!item.date) continue;
    const court = resolveCourt(item.court!);
    if (court.branch === 'unbekannt') continue;
    const span = spans.get(court.code);
    if (!span) spans.set(court.code, { from: item.date, until: item.date });
    else {
      if (item.date < span.from) span.from = item.date;
      if (item.date > span.until) span.until = item.date;
    }
  }
  const courts = [...spans.keys()].sort();
  db.transaction(() => {
    sql(db, 'DELETE FROM coverage_ranges WHERE sources = ?').run(SOURCES);
    const drop = sql(db, 'DELETE FROM coverage_ranges WHERE court = ?');
    const insert = sql(db, `INSERT INTO coverage_ranges (court, label, from_date, until_date, sources, exhaustive, ocr, note, verified_at)
      VALUES (?, ?, ?, ?, ?, 1, 0, ?, ?)`);
    for (const court of courts) {
      const { from, until } = spans.get(court)!;
      drop.run(court);
      insert.run(court, court, from, until, SOURCES,
        `Every decision of ${court} that ${SOURCE_NAMES.rii} lists from ${from} to ${until} is held (table of contents of ${today}); `
        + 'the courts publish most, not all, of their decisions there.', today);
    }
  })();
  return courts;
}
