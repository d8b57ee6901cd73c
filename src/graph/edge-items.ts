// The citation edge as the graph and the datapackage serve it (api-v1.md, "Citation edge").
import { API_BASE } from '../config.ts';

/** A decision of the corpus at the other end of an edge. */
export interface EdgeDecision {
  id: string;
  court: string;
  date: string | null;
  aktenzeichen: string | null;
  document_type: string | null;
  ecli: string | null;
}

export interface CitationEdgeItem {
  reference_canonical: string;
  reference_role: string | null;
  resolution_status: 'resolved' | 'unresolved';
  in_corpus: boolean;
  corpus: {
    artifact_id: string; court: string; date: string | null; az: string | null; document_type: string | null;
    ecli: string | null; corpus_url: string;
  } | null;
  /** Always the citing decision. */
  from_artifact_id: string;
  /** The Randnummern of the citing decision where it cites (empty: outside numbered text). */
  rns: number[];
}

/** Randnummern from a `group_concat(rn)` column: sorted, distinct. */
export function parseRns(concatenated: string | null): number[] {
  if (!concatenated) return [];
  return [...new Set(concatenated.split(',').map(Number))].sort((a, b) => a - b);
}

export function edgeItem(
  publicUrl: string,
  edge: { canonical: string; role: string | null; from: string; rns: string | null },
  decision: EdgeDecision | null,
): CitationEdgeItem {
  return {
    reference_canonical: edge.canonical,
    reference_role: edge.role,
    resolution_status: decision ? 'resolved' : 'unresolved',
    in_corpus: decision !== null,
    corpus: decision && {
      artifact_id: decision.id,
      court: decision.court,
      date: decision.date,
      az: decision.aktenzeichen,
      document_type: decision.document_type,
      ecli: decision.ecli,
      corpus_url: `${publicUrl}${API_BASE}/decisions/${decision.id}`,
    },
    from_artifact_id: edge.from,
    rns: parseRns(edge.rns),
  };
}
