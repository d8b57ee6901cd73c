// Reciprocal rank fusion (Cormack et al. 2009): each arm contributes 1 / (k + rank) per decision; no score
// calibration between BM25 and cosine similarity is needed, which is why hybrid uses it.
export const RRF_K = 60;

export interface ArmEntry { decision_id: string; chunks: number[] }

/** An arm's ranked decisions, their passages still to be chosen (for the page served only). */
export const entriesOf = (ids: string[]): ArmEntry[] => ids.map((id) => ({ decision_id: id, chunks: [] }));

/** Fuses ranked lists of decisions; passages come from the first arm that holds the decision. */
export function reciprocalRankFusion(arms: { entries: ArmEntry[]; weight?: number }[], k = RRF_K): (ArmEntry & { score: number })[] {
  const fused = new Map<string, ArmEntry & { score: number }>();
  for (const arm of arms) {
    arm.entries.forEach((entry, rank) => {
      const add = (arm.weight ?? 1) / (k + rank + 1);
      const held = fused.get(entry.decision_id);
      if (held) {
        held.score += add;
        if (held.chunks.length === 0) held.chunks = entry.chunks;
      } else {
        fused.set(entry.decision_id, { decision_id: entry.decision_id, chunks: [...entry.chunks], score: add });
      }
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
