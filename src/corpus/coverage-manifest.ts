// A coverage manifest states the ingestion boundary per court: from when to when a corpus builder collected a court's
// decisions, from which sources, and whether exhaustively. Without one, coverage is derived from the decisions held
// (earliest to latest). The citation check decides not_found against out_of_coverage by these ranges.
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import type { CorpusDb } from './open.ts';
import { getMeta, setMeta } from './open.ts';
import { resolveCourt } from './courts.ts';
import { sql } from '../db/statements.ts';
import type { WriteOutcome } from './law-store.ts';

/** The marker that tells a manifest from other JSON: `{"juralite": "coverage-manifest", ...}`. */
export const MANIFEST_KIND = 'coverage-manifest';

const isoDate = (what: string) => v.pipe(v.string(), v.isoDate(`${what} must be a date YYYY-MM-DD`));

const RangeSchema = v.pipe(
  v.strictObject({
    court: v.pipe(v.string(), v.nonEmpty('court must name a court')),
    label: v.optional(v.nullable(v.string()), null),
    from: isoDate('from'),
    until: v.optional(v.nullable(isoDate('until')), null),
    sources: v.optional(v.array(v.string()), []),
    exhaustive: v.optional(v.boolean(), false),
    ocr: v.optional(v.boolean(), false),
    note: v.optional(v.nullable(v.string()), null),
  }),
  v.check((range) => range.until === null || range.from <= range.until, 'from must not lie after until'),
);

const ManifestSchema = v.strictObject({
  juralite: v.literal(MANIFEST_KIND),
  version: v.literal(1, 'version must be 1'),
  verified_at: isoDate('verified_at'),
  note: v.optional(v.nullable(v.string()), null),
  ranges: v.pipe(v.array(RangeSchema), v.minLength(1, 'ranges must hold at least one range')),
});

export type CoverageManifest = v.InferOutput<typeof ManifestSchema>;

/** Whether parsed JSON claims to be a manifest (then it is one, or it is refused with reasons). */
export function looksLikeManifest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).juralite === MANIFEST_KIND;
}

/**
 * Checks a manifest and gives its courts their canonical short forms; throws with every problem named by its place
 * (`ranges[2].from: ...`). A court the registry does not know is refused: its range could never match a decision.
 */
export function parseManifest(value: unknown): CoverageManifest {
  const parsed = v.safeParse(ManifestSchema, value);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'manifest'}: ${issue.message}`);
    throw new Error(`invalid coverage manifest: ${problems.slice(0, 5).join('; ')}`);
  }
  const ranges = parsed.output.ranges.map((range, index) => {
    const court = resolveCourt(range.court);
    if (court.branch === 'unbekannt') throw new Error(`invalid coverage manifest: ranges.${index}.court: unknown court "${range.court}"`);
    return { ...range, court: court.code };
  });
  return { ...parsed.output, ranges };
}

/** What the coverage endpoint says of the manifest in force (null: none imported). */
export function manifestInForce(corpus: CorpusDb): { verified_at: string; note: string | null } | null {
  const held = getMeta(corpus, 'coverage_manifest');
  return held ? JSON.parse(held) : null;
}

/**
 * Replaces the coverage ranges with the manifest's (a manifest states the whole boundary, so ranges of an earlier
 * one do not linger). Call inside a transaction. The same manifest again is skipped.
 */
export function writeManifest(corpus: CorpusDb, manifest: CoverageManifest, sourceName: string): WriteOutcome {
  const hash = createHash('sha256').update(JSON.stringify(manifest)).digest('hex');
  const held = manifestInForce(corpus) as { hash?: string } | null;
  if (held?.hash === hash) return 'skipped';
  sql(corpus, 'DELETE FROM coverage_ranges').run();
  const insert = sql(corpus, `INSERT INTO coverage_ranges (court, label, from_date, until_date, sources, exhaustive, ocr, note)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const range of manifest.ranges) {
    insert.run(range.court, range.label, range.from, range.until, JSON.stringify(range.sources),
      range.exhaustive ? 1 : 0, range.ocr ? 1 : 0, range.note);
  }
  setMeta(corpus, 'coverage_manifest', JSON.stringify({
    verified_at: manifest.verified_at, note: manifest.note, source: sourceName, hash,
  }));
  return held ? 'updated' : 'imported';
}
