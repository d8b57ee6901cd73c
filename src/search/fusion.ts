// Reciprocal rank fusion (Cormack et al. 2009): each arm contributes 1 / (k + rank) per decision; no score
// calibration between BM25 and cosine similarity is needed, which is why hybrid uses it. k = 10, not the paper's 60:
// with 60 a decision one arm alone ranks first (1/61) fell below decisions both arms rank around 30th (2/90); with 10
// it stays above any decision both arms rank below 11th. Measured on the judged set (bench/README, issue [ranking]):
// k = 10 against 60, hybrid MRR legal 0.951 / 0.942, lay 0.882 / 0.872, identifiers 0.952 / 0.923; 3, 5 and 20 were
// no better. Since session 18 endpoint 10's hybrid fuses only the lexical and norm arms this way and lists the vector
// arm's decisions after them (lexicalLed; decision-search.ts says why); GET /search fuses all three.
export const RRF_K = 10;

export interface ArmEntry { decision_id: string; chunks: number[] }

/** An arm's ranked decisions, their passages still to be chosen (for the page served only). */
export const entriesOf = (ids: string[]): ArmEntry[] => ids.map((id) => ({ decision_id: id, chunks: [] }));

/**
 * A leading ranking, then the decisions of `following` it does not hold, in their order (hybrid: the vector arm's
 * decisions after those the words found; decision-search.ts says why).
 */
export function lexicalLed<T extends ArmEntry>(leading: T[], following: ArmEntry[]): (T | ArmEntry)[] {
  const held = new Set(leading.map((entry) => entry.decision_id));
  return [...leading, ...following.filter((entry) => !held.has(entry.decision_id))];
}

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
