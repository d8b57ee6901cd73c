import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { BRANCHES } from '../operations/schemas.ts';
import { manifestInForce } from './coverage-manifest.ts';

type Level = 'federal' | 'appellate' | 'first_instance_and_regional' | 'other';
const LEVELS: Level[] = ['federal', 'appellate', 'first_instance_and_regional', 'other'];

interface CourtRow {
  court: string;
  branch: string;
  level: Level;
  founding_year: number | null;
  founding_basis: string | null;
  count: number;
  earliest: string | null;
  latest: string | null;
  below_floor: number;
}

const month = (date: string | null) => date?.slice(0, 7) ?? null;
const exact = (value: number) => ({ value, is_floor: false });

function courtRows(corpus: Database.Database, branch?: string): CourtRow[] {
  return sql<[string | null, string | null], CourtRow>(corpus, 
    `SELECT d.court, coalesce(c.branch, 'unbekannt') AS branch, coalesce(c.level, 'other') AS level,
            c.founding_year, c.founding_basis, count(*) AS count, min(d.date) AS earliest, max(d.date) AS latest,
            sum(CASE WHEN c.founding_year IS NOT NULL AND d.date < printf('%04d', c.founding_year) THEN 1 ELSE 0 END) AS below_floor
     FROM decisions d LEFT JOIN courts c ON c.code = d.court
     WHERE ? IS NULL OR coalesce(c.branch, 'unbekannt') = ?
     GROUP BY d.court ORDER BY count DESC, d.court`,
  ).all(branch ?? null, branch ?? null);
}

/** The federal court of a branch gives the branch's founding year (the earliest its decisions can be). */
function federalCourt(corpus: Database.Database, branch: string) {
  return sql<[string], { founding_year: number | null; founding_basis: string | null }>(corpus, 
    `SELECT founding_year, founding_basis FROM courts WHERE branch = +? AND level = 'federal' ORDER BY founding_year LIMIT 1`,
  ).get(branch);
}

/**
 * The ranges of imported manifests and complete rii syncs, and for every other court held a range derived from its
 * holdings (earliest to latest, not exhaustive), as the citation check decides (src/citations/verify.ts).
 */
function coverageRanges(corpus: Database.Database, courts: CourtRow[], manifestVerifiedAt: string | null) {
  const stated = sql<[], { court: string; label: string | null; from_date: string; until_date: string | null;
    sources: string; exhaustive: number; ocr: number; note: string | null; verified_at?: string | null }>(corpus,
    'SELECT * FROM coverage_ranges ORDER BY court, from_date').all();
  const held = new Map(courts.map((court) => [court.court, court]));
  const statedCourts = new Set(stated.map((range) => range.court));
  const fromManifests = stated.filter((range) => held.has(range.court)).map((range) => ({
    bucket: held.get(range.court)!.branch, court: range.court, label: range.label ?? range.court,
    from: range.from_date, until: range.until_date, sources: JSON.parse(range.sources) as string[],
    exhaustive: range.exhaustive === 1, ocr: range.ocr === 1, note: range.note,
    verified_at: range.verified_at ?? manifestVerifiedAt,
    holdings_earliest: held.get(range.court)!.earliest,
  }));
  const derived = courts.filter((court) => !statedCourts.has(court.court)).map((court) => ({
    bucket: court.branch, court: court.court, label: court.court, from: court.earliest, until: court.latest,
    sources: ['corpus'], exhaustive: false, ocr: false,
    note: 'Derived from the decisions held: earliest to latest; no manifest or complete sync states the ingestion boundary, '
      + 'so a cited decision of this court that is not held is not_in_corpus, never not_found.',
    verified_at: null,
    holdings_earliest: court.earliest,
  }));
  return [...fromManifests, ...derived];
}

/** When the corpus last changed: its last import, else its creation. */
export function corpusAsOf(corpus: Database.Database): string {
  const row = sql(corpus, `SELECT value FROM meta WHERE key IN ('last_import_at', 'built_at') ORDER BY key DESC LIMIT 1`)
    .get() as { value: string } | undefined;
  return row?.value ?? new Date(0).toISOString();
}

/** What the corpus holds, for GET /corpus/coverage. */
export function corpusCoverage(corpus: Database.Database, options: { branch?: string; top: number }) {
  const courts = courtRows(corpus, options.branch);
  const asOf = corpusAsOf(corpus);
  const manifest = manifestInForce(corpus);
  const branches = (options.branch ? [options.branch] : [...BRANCHES]).map((branch) => {
    const inBranch = courts.filter((court) => court.branch === branch);
    const federal = federalCourt(corpus, branch);
    const dates = inBranch.flatMap((court) => [court.earliest, court.latest]).filter((date): date is string => !!date).sort();
    return {
      branch,
      count: inBranch.reduce((sum, court) => sum + court.count, 0),
      earliest: month(dates[0] ?? null),
      latest: month(dates[dates.length - 1] ?? null),
      court_founding_year: federal?.founding_year ?? null,
      court_founding_basis: federal?.founding_basis ?? null,
      has_dates_below_floor: inBranch.some((court) => court.below_floor > 0),
      instance_mix: {
        ...Object.fromEntries(LEVELS.map((level) =>
          [level, exact(inBranch.filter((court) => court.level === level).reduce((sum, court) => sum + court.count, 0))])),
        note: 'Instance levels from the court registry: federal courts, appellate courts (OLG, KG, OVG/VGH, LSG, LAG), first instance and regional courts (LG, AG, VG, SG, ArbG, FG), other.',
      },
      top_courts: inBranch.slice(0, options.top).map(({ court, count, earliest, latest }) =>
        ({ court, count, earliest: month(earliest), latest: month(latest) })),
    };
  });
  const total = courts.reduce((sum, court) => sum + court.count, 0);
  const eu = sql<[string], { abbreviation: string }>(corpus, 'SELECT abbreviation FROM laws WHERE jurisdiction = +? ORDER BY abbreviation');
  return {
    total_decisions: exact(total),
    branches,
    courts: courts.slice(0, options.top).map((court) => ({
      court: court.court, branch: court.branch, count: court.count, earliest: month(court.earliest), latest: month(court.latest),
      court_founding_year: court.founding_year, court_founding_basis: court.founding_basis,
      has_dates_below_floor: court.below_floor > 0,
    })),
    courts_returned: Math.min(courts.length, options.top),
    courts_total: courts.length,
    corpus_floors: 'No decision predates the founding of its court; has_dates_below_floor flags dates that do (usually a wrong date in the source).',
    coverage_ranges: {
      note: manifest?.note ?? 'The ingestion boundary per court: a cited decision dated inside a court\'s range that is not held '
        + 'is not_found where the range is exhaustive, not_in_corpus where it is not; outside it, out_of_coverage.',
      scope: 'per_court',
      verified_at: manifest?.verified_at ?? asOf.slice(0, 10),
      ranges: coverageRanges(corpus, courts, manifest?.verified_at ?? null),
    },
    as_of: asOf,
    filter_coverage_caveats: 'Filters act on the metadata the sources give: court names are normalized to canonical short forms; dates of scanned decisions may be wrong.',
    law_coverage: {
      note: 'German federal laws as imported from gesetze-im-internet.de; EU and international acts from the catalogue, with article numbers even where no text is held.',
      eu: eu.all('EU').map((row) => row.abbreviation),
      international: eu.all('XI').map((row) => row.abbreviation),
    },
  };
}
