// A decision's text as the pages read it: where its Randnummern and sections lie and where it cites decisions and
// provisions, each citation with its code-point offsets and its target in the corpus. Case targets resolve by the
// rule of the citation edges (src/graph/resolve.ts), so a citation links exactly where its edge is resolved.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { extractCitations } from '../citations/extract.ts';
import { azKey } from '../corpus/ids.ts';
import type { DecisionRow } from '../corpus/find-decision.ts';
import { codePointIndexer } from '../text/code-points.ts';
import { forgetResolutions, resolveCaseTarget, statuteHeld } from './resolve.ts';

interface Span { start_offset: number; end_offset: number }

/** A decision of the corpus a case citation names. */
interface DecisionTarget { id: string; court: string; date: string | null; aktenzeichen: string | null }

/**
 * The offsets of the decision's Randnummern, sections and citations, all in code points into its whole text (the
 * `full_text` of GET /decisions/{id} read whole).
 */
export function decisionTextCitations(corpus: Database.Database, decision: DecisionRow) {
  const randnummern = sql<[string], Span & { rn: number }>(corpus,
    'SELECT rn, start_offset, end_offset FROM decision_randnummern WHERE decision_id = +? ORDER BY position').all(decision.id);
  const sections = sql<[string], Span & { name: string }>(corpus,
    'SELECT name, start_offset, end_offset FROM decision_sections WHERE decision_id = +? ORDER BY position').all(decision.id);
  const target = sql<[string], DecisionTarget>(corpus, 'SELECT id, court, date, aktenzeichen FROM decisions WHERE id = ?');
  const toCodePoint = codePointIndexer(decision.full_text);
  try {
    const citations = extractCitations(decision.full_text, { citingCourt: decision.court }).citations.map((c) => {
      const span = { start_offset: toCodePoint(c.start), end_offset: toCodePoint(c.end), raw_text: decision.full_text.slice(c.start, c.end) };
      if (c.type === 'statute') {
        const unit = `${c.kind} ${c.number}`;
        return { ...span, type: 'statute' as const, canonical: c.canonical, law: c.law, unit,
          law_text_held: statuteHeld(corpus, c.law, unit), decision: null };
      }
      const id = resolveCaseTarget(corpus, { ecli: c.ecli, court: c.court, date: c.date,
        azKey: c.aktenzeichen ? azKey(c.aktenzeichen) : null });
      const decisionTarget = id && id !== decision.id ? target.get(id) ?? null : null;
      return { ...span, type: 'case' as const, canonical: c.canonical, law: null, unit: null, law_text_held: null,
        decision: decisionTarget };
    });
    return { randnummern, sections, citations };
  } finally {
    // The resolution caches are the importer's; a server keeps nothing between requests.
    forgetResolutions(corpus);
  }
}
