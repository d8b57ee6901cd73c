// The pure half of bringing the search index in step (src/search/index-sync.ts): the chunks of whole decisions become
// their row of decisions_fts (stems per column), their pooled vector by the corpus-trained model, and the long words
// for the compound lookup. It needs no corpus, so after a large import it runs in the importer's worker threads
// (src/ingest/prepare-pool.ts) while the main thread writes what they return; otherwise in the calling thread.
import { tokenize, type Token } from './analyze.ts';
import { Bag, FIELD_WEIGHT, fieldOf, type TrainedModel, type TrainedRecord } from './corpus-model.ts';

/** Only long words can be compounds worth finding by their last part. */
const COMPOUND_MIN = 7;

/** One chunk to analyse, in position order within its decision; `title` only with a decision's first chunk. */
export interface ChunkText {
  decision: string;
  section: string | null;
  title: string | null;
  /** The decision's own Aktenzeichen and ECLI (first chunk only): indexed with the title, not pooled into its vector. */
  identifiers?: string | null;
  text: string;
}

/** A decision's row of decisions_fts as made from the chunks seen, and the vector pooled from them. */
export interface AnalyzedDecision {
  id: string;
  /** Chunks of the decision seen: the writer checks that these were all it has. */
  chunks: number;
  title: string;
  lead: string;
  body: string;
  /** Null without a model, or when no word of the decision is known to it. */
  vector: Float32Array | null;
}

export interface ChunkAnalysis {
  decisions: AnalyzedDecision[];
  /** Folded words of at least COMPOUND_MIN letters (no digits) with their stems, for search_words. */
  words: [string, string][];
}

/** The stems of a text as an FTS5 column holds them. */
export const stems = (tokens: Token[]) => tokens.map((token) => token.stem).join(' ');

/** Adds the tokens' long words (the compound lookup's, src/search/query.ts) to `words`, word -> stem. */
export function noteLongWords(tokens: Token[], words: Map<string, string>): void {
  for (const token of tokens) {
    if (token.word.length >= COMPOUND_MIN && !words.has(token.word) && !/\d/u.test(token.word)) words.set(token.word, token.stem);
  }
}

/** A decision while its chunks are being read. */
interface OpenDecision { id: string; chunks: number; title: string; lead: string[]; body: string[]; bag: Bag | null }

const closed = (open: OpenDecision): AnalyzedDecision => ({
  id: open.id, chunks: open.chunks, title: open.title, lead: open.lead.join(' '), body: open.body.join(' '),
  vector: open.bag?.vector() ?? null,
});

/** Analyses the chunks of whole decisions, in their order; `model` pools their vectors when given. */
export function analyzeChunks(chunks: readonly ChunkText[], model: TrainedModel | null): ChunkAnalysis {
  const decisions: AnalyzedDecision[] = [];
  const words = new Map<string, string>();
  let open = null as OpenDecision | null;
  for (const chunk of chunks) {
    if (open?.id !== chunk.decision) {
      if (open) decisions.push(closed(open));
      open = { id: chunk.decision, chunks: 0, title: '', lead: [], body: [], bag: model && new Bag(model) };
    }
    const tokens = tokenize(chunk.text);
    noteLongWords(tokens, words);
    const field = fieldOf(chunk.section);
    (field === 'lead' ? open.lead : open.body).push(stems(tokens));
    if (chunk.title) {
      const title = tokenize(chunk.title);
      open.title = stems(title);
      open.bag?.addTokens(title, FIELD_WEIGHT.title);
    }
    if (chunk.identifiers) open.title = [open.title, stems(tokenize(chunk.identifiers))].filter(Boolean).join(' ');
    open.bag?.addTokens(tokens, FIELD_WEIGHT[field]);
    open.chunks++;
  }
  if (open) decisions.push(closed(open));
  return { decisions, words: [...words] };
}

/**
 * A trained model as a worker thread receives it with every task: its vectors and counts in shared memory (not
 * copied), its words as one string (one copy); the worker rebuilds the model once per training (modelOf).
 */
export interface SharedModel {
  record: TrainedRecord;
  words: string;
  counts: Uint32Array;
  vectors: Float32Array;
}

export function shareModel(model: TrainedModel): SharedModel {
  const words: string[] = [];
  for (const [word, i] of model.index) words[i] = word;
  const counts = new Uint32Array(new SharedArrayBuffer(model.counts.byteLength));
  counts.set(model.counts);
  const vectors = new Float32Array(new SharedArrayBuffer(model.vectors.byteLength));
  vectors.set(model.vectors);
  // Stems are letters and digits only: a newline separates them safely.
  return { record: model.record, words: words.join('\n'), counts, vectors };
}

let received: TrainedModel | null = null;

function modelOf(shared: SharedModel): TrainedModel {
  if (received?.record.id !== shared.record.id) {
    received = {
      record: shared.record, index: new Map(shared.words.split('\n').map((word, i) => [word, i])), counts: shared.counts,
      vectors: shared.vectors, center: Float32Array.from(shared.record.center), unknown: new Map(),
    };
  }
  return received;
}

/** A batch of chunks for a worker thread. */
export interface AnalysisTask {
  chunks: ChunkText[];
  model: SharedModel | null;
}

/** The worker threads' entry (src/ingest/prepare-worker.ts). */
export function analyzeTask(task: AnalysisTask): ChunkAnalysis {
  return analyzeChunks(task.chunks, task.model && modelOf(task.model));
}
