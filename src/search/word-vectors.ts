// Word vectors trained on the corpus itself (no German embedding model can be shipped or downloaded). Count-based and
// cheap, so that training fits inside an import: co-occurrence counts in a window over a bounded sample of passages,
// positive pointwise mutual information with context smoothing (Levy, Goldberg & Dagan 2015: PPMI rows are as good
// as skip-gram vectors for similarity on small corpora), and a sparse random projection of each PPMI row to `dims`
// dimensions (Johnson-Lindenstrauss: cosines of rows survive). No gradient descent, no epochs: counting a sample of
// a million tokens takes about a second, and the result is fully determined by the sample and the seed.
import { hash32 } from './vector-math.ts';

export interface WordVectorOptions {
  dims: number;
  seed: number;
  /** At most this many words (most frequent first). */
  maxVocabulary: number;
  /** Words seen fewer times in the sample get no vector of their own. */
  minCount: number;
  /** Context window, words on each side (closer words weigh more). */
  window: number;
  /** Non-zero entries of each context's random projection vector. */
  projectionEntries?: number;
}

export interface WordVectors {
  dims: number;
  /** The vocabulary (stems), row i of `vectors` is the vector of words[i]. */
  words: string[];
  /** Occurrences of each word in the sample. */
  counts: Uint32Array;
  /** words.length x dims, each row unit length (or zero for a word that had no informative context). */
  vectors: Float32Array;
  /** Tokens in the sample (the denominator of word probabilities). */
  sampleTokens: number;
}

/** Stems with digits (Randnummern, paragraph numbers, dates) carry no meaning a vector could learn. */
export const isVectorWord = (stem: string) => !/\d/u.test(stem);

/**
 * Trains word vectors on passages given as sequences of stems.
 *
 * @example trainWordVectors([['eigenbedarf', 'kundig', 'vermiet']], { dims: 256, seed: 1, maxVocabulary: 30000, minCount: 2, window: 5 })
 */
export function trainWordVectors(passages: string[][], options: WordVectorOptions): WordVectors {
  const { words, counts, index } = vocabulary(passages, options);
  const sampleTokens = passages.reduce((n, p) => n + p.length, 0);
  const pairs = countPairs(passages, index, options.window);
  const vectors = projectPpmi(pairs, words, options);
  return { dims: options.dims, words, counts, vectors, sampleTokens };
}

function vocabulary(passages: string[][], options: WordVectorOptions) {
  const seen = new Map<string, number>();
  for (const passage of passages) for (const stem of passage) if (isVectorWord(stem)) seen.set(stem, (seen.get(stem) ?? 0) + 1);
  const kept = [...seen].filter(([, n]) => n >= options.minCount)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, options.maxVocabulary);
  const words = kept.map(([word]) => word);
  const counts = Uint32Array.from(kept.map(([, n]) => n));
  return { words, counts, index: new Map(words.map((word, i) => [word, i])) };
}

/**
 * Weighted co-occurrence counts of word pairs in an open-addressing table (typed arrays: a JS Map of millions of
 * pairs would cost gigabytes). Key = w * V + c + 1 (0 marks an empty slot). When the table is three-quarters full,
 * new pairs are dropped and known ones still counted, which bounds memory on any sample.
 */
class PairCounts {
  readonly keys: Int32Array;
  readonly values: Float32Array;
  private readonly mask: number;
  private used = 0;
  private readonly limit: number;

  constructor(capacityLog2: number) {
    this.keys = new Int32Array(1 << capacityLog2);
    this.values = new Float32Array(1 << capacityLog2);
    this.mask = (1 << capacityLog2) - 1;
    this.limit = Math.floor(0.75 * (1 << capacityLog2));
  }

  add(key: number, weight: number): void {
    let slot = Math.imul(key, 0x9e3779b1) >>> 0 & this.mask;
    for (;;) {
      const held = this.keys[slot];
      if (held === key) {
        this.values[slot] += weight;
        return;
      }
      if (held === 0) {
        if (this.used >= this.limit) return;
        this.keys[slot] = key;
        this.values[slot] = weight;
        this.used++;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
  }
}

function countPairs(passages: string[][], index: Map<string, number>, window: number) {
  const size = index.size;
  const expected = passages.reduce((n, p) => n + p.length, 0) * window * 2;
  const capacityLog2 = Math.max(16, Math.min(23, Math.ceil(Math.log2(expected * 1.5 + 1))));
  const table = new PairCounts(capacityLog2);
  const ids: number[] = [];
  for (const passage of passages) {
    ids.length = 0;
    for (const stem of passage) {
      const id = index.get(stem);
      if (id !== undefined) ids.push(id);
    }
    for (let i = 0; i < ids.length; i++) {
      for (let d = 1; d <= window && i + d < ids.length; d++) {
        const a = ids[i];
        const b = ids[i + d];
        if (a === b) continue;
        const weight = 1 / d;
        table.add(a * size + b + 1, weight);
        table.add(b * size + a + 1, weight);
      }
    }
  }
  return { table, size };
}

/** PPMI with context smoothing (alpha 0.75), each row projected by sparse random +-1 vectors, unit length, centered. */
function projectPpmi(pairs: { table: PairCounts; size: number }, words: string[], options: WordVectorOptions): Float32Array {
  const { table, size } = pairs;
  const { dims, seed } = options;
  const entries = options.projectionEntries ?? 8;
  const rowSums = new Float64Array(size);
  for (let slot = 0; slot < table.keys.length; slot++) {
    const key = table.keys[slot];
    if (key !== 0) rowSums[Math.floor((key - 1) / size)] += table.values[slot];
  }
  // The pairs are symmetric, so column sums equal row sums; alpha flattens the weight of frequent contexts.
  const smoothed = rowSums.map((n) => n ** 0.75);
  const smoothedTotal = smoothed.reduce((a, b) => a + b, 0);
  // Each context's projection: `entries` positions with signs, drawn from the seeded hash of the context word.
  const positions = new Int32Array(size * entries);
  const signs = new Float32Array(size * entries);
  for (let c = 0; c < size; c++) {
    for (let e = 0; e < entries; e++) {
      const h = hash32(`${words[c]}#${e}`, seed);
      positions[c * entries + e] = h % dims;
      signs[c * entries + e] = h & 0x80000000 ? 1 : -1;
    }
  }
  const vectors = new Float32Array(size * dims);
  for (let slot = 0; slot < table.keys.length; slot++) {
    const key = table.keys[slot];
    if (key === 0) continue;
    const w = Math.floor((key - 1) / size);
    const c = (key - 1) % size;
    const pmi = Math.log((table.values[slot] * smoothedTotal) / (rowSums[w] * smoothed[c]));
    if (!(pmi > 0)) continue;
    for (let e = 0; e < entries; e++) vectors[w * dims + positions[c * entries + e]] += pmi * signs[c * entries + e];
  }
  unitRows(vectors, dims);
  // Remove the direction all words share (frequency-weighted mean), so cosines measure what sets words apart.
  const mean = new Float64Array(dims);
  let weightSum = 0;
  for (let w = 0; w < size; w++) {
    const weight = rowSums[w];
    weightSum += weight;
    for (let i = 0; i < dims; i++) mean[i] += weight * vectors[w * dims + i];
  }
  if (weightSum > 0) {
    for (let w = 0; w < size; w++) {
      if (rowSums[w] === 0) continue;
      for (let i = 0; i < dims; i++) vectors[w * dims + i] -= mean[i] / weightSum;
    }
  }
  unitRows(vectors, dims);
  return vectors;
}

function unitRows(vectors: Float32Array, dims: number): void {
  for (let offset = 0; offset < vectors.length; offset += dims) {
    let sum = 0;
    for (let i = 0; i < dims; i++) sum += vectors[offset + i] ** 2;
    if (sum === 0) continue;
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < dims; i++) vectors[offset + i] *= scale;
  }
}
