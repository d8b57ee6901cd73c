// The default embedder: word vectors trained on this corpus (src/search/word-vectors.ts) and stored inside it
// (search_model_words), pooled into one vector per text with SIF weights (Arora, Liang & Ma 2017: a / (a + p(w)), so
// frequent words count little) and a sublinear term frequency, then centered on the mean decision vector (which every
// pooled text shares and which would otherwise dominate every cosine).
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { chunkTexts } from '../corpus/stored-text.ts';
import { umlautsOf } from './typed-umlauts.ts';
import { tokenize, type Token } from './analyze.ts';
import { blobFloats, centeredUnit, floatBlob, hash32, normalizeInPlace } from './vector-math.ts';
import { isVectorWord, trainWordVectors } from './word-vectors.ts';

export const MODEL_DIMS = 256;
const SEED = 20_241_121;
/** Tokens read for training: bounded, so that training costs seconds at any corpus size. */
export const SAMPLE_TOKENS = 1_500_000;
/** Below this many tokens in the whole corpus there is too little text to learn from: no vectors (semantic: 503). */
export const MIN_TRAIN_TOKENS = 20_000;
/** Retrain (and re-vectorize every decision) when the corpus holds this many times the passages it was trained on. */
export const RETRAIN_GROWTH = 4;
const MAX_VOCABULARY = 30_000;
const SIF_A = 1e-3;
/** Field weights of pooled tokens, as BM25 weighs the FTS5 columns (src/search/lexical.ts). */
export const FIELD_WEIGHT = { title: 4, lead: 2.5, body: 1 } as const;
const LEAD_SECTIONS = new Set(['Leitsatz', 'Orientierungssatz', 'Tenor']);

export const fieldOf = (section: string | null): 'lead' | 'body' => (LEAD_SECTIONS.has(section ?? '') ? 'lead' : 'body');

/** What meta.search_embedder records for a corpus-trained model. */
export interface TrainedRecord {
  kind: 'trained';
  dims: number;
  /** Distinguishes one training from the next (queries cache the model by it). */
  id: string;
  /** Passages (decision chunks and law units) the corpus held when trained: the retraining policy's baseline. */
  trained_passages: number;
  /**
   * Trained while completing the index a killed import left (on part of what it meant to write): the next import's
   * own index pass trains anew, so that the model depends on the corpus, not on where the import was killed.
   */
  provisional?: boolean;
  sample_tokens: number;
  vocabulary: number;
  center: number[];
}

export interface TrainedModel {
  record: TrainedRecord;
  index: Map<string, number>;
  counts: Uint32Array;
  vectors: Float32Array;
  center: Float32Array;
  /** Compound splits of words outside the vocabulary, found once. */
  unknown: Map<string, { vector: Float32Array; weight: number } | null>;
  /** Word frequencies of the bag being filled (see Bag). */
  scratch?: { weights: Float64Array; stamps: Uint32Array; generation: number };
}

/** Passages the corpus holds (decision chunks and law unit texts): cheap counts on indexes. */
export function passageCount(db: Database.Database): number {
  return (sql<[], { n: number }>(db,
    'SELECT (SELECT count(*) FROM row_chunks) + (SELECT count(*) FROM law_units WHERE text IS NOT NULL) AS n').get()!).n;
}

const stemsOf = (text: string | null) => (text ? tokenize(text).map((token) => token.stem) : []);

/**
 * A deterministic sample of the corpus: whole decisions in id order (ids are UUIDs, so this order is as good as
 * random and the same on every run), up to three quarters of the token budget, then law units likewise.
 */
function trainingSample(db: Database.Database) {
  const passages: string[][] = [];
  const decisions: { title: string | null; chunks: { section: string | null; stems: string[] }[] }[] = [];
  let tokens = 0;
  for (const row of sql<[], { id: string; title: string | null }>(db, 'SELECT id, title FROM decisions ORDER BY id').iterate()) {
    if (tokens >= SAMPLE_TOKENS * 0.75) break;
    const chunks = chunkTexts(db, row.id).map((chunk) => ({ section: chunk.section, stems: stemsOf(chunk.text) }));
    for (const chunk of chunks) {
      passages.push(chunk.stems);
      tokens += chunk.stems.length;
    }
    decisions.push({ title: row.title, chunks });
  }
  for (const row of sql<[], { heading: string | null; text: string }>(db,
    'SELECT heading, text FROM law_units WHERE text IS NOT NULL ORDER BY id').iterate()) {
    if (tokens >= SAMPLE_TOKENS) break;
    const stems = [...stemsOf(row.heading), ...stemsOf(row.text)];
    passages.push(stems);
    tokens += stems.length;
  }
  return { passages, decisions, tokens };
}

/**
 * Trains the model on a sample of the corpus, or returns null when the corpus holds too little text.
 *
 * @example const model = trainCorpusModel(db); if (model) storeCorpusModel(db, model);
 */
export function trainCorpusModel(db: Database.Database): TrainedModel | null {
  const sample = trainingSample(db);
  if (sample.tokens < MIN_TRAIN_TOKENS) return null;
  const trained = trainWordVectors(sample.passages, {
    dims: MODEL_DIMS, seed: SEED, maxVocabulary: MAX_VOCABULARY, window: 5,
    minCount: sample.tokens >= 500_000 ? 3 : 2,
  });
  const model: TrainedModel = {
    record: {
      kind: 'trained', dims: MODEL_DIMS, id: '', trained_passages: passageCount(db), sample_tokens: sample.tokens,
      vocabulary: trained.words.length, center: [],
    },
    index: new Map(trained.words.map((word, i) => [word, i])),
    counts: trained.counts,
    vectors: trained.vectors,
    center: new Float32Array(MODEL_DIMS),
    unknown: new Map(),
  };
  // The center: the mean of the sampled decisions' pooled vectors (before centering).
  const mean = new Float64Array(MODEL_DIMS);
  let pooled = 0;
  for (const decision of sample.decisions) {
    const bag = new Bag(model);
    bag.addStems(stemsOf(decision.title), FIELD_WEIGHT.title);
    for (const chunk of decision.chunks) bag.addStems(chunk.stems, FIELD_WEIGHT[fieldOf(chunk.section)]);
    const raw = bag.rawVector();
    if (!raw || !normalizeInPlace(raw)) continue;
    for (let i = 0; i < MODEL_DIMS; i++) mean[i] += raw[i];
    pooled++;
  }
  if (pooled > 0) for (let i = 0; i < MODEL_DIMS; i++) model.center[i] = mean[i] / pooled;
  model.record.center = [...model.center].map((x) => Math.round(x * 1e6) / 1e6);
  model.center = Float32Array.from(model.record.center);
  // Same sample, same words, same vectors: the id is a digest of what was learnt (queries cache the model by it).
  model.record.id = `trained-${hash32(`${trained.words.join(' ')}|${trained.counts.join(',')}|${model.record.center.join(',')}`, SEED).toString(16)}`;
  return model;
}

/** Writes the model's words (replacing any earlier model). */
export function storeCorpusModel(db: Database.Database, model: TrainedModel): void {
  db.exec('DELETE FROM search_model_words');
  const insert = sql(db, 'INSERT INTO search_model_words (stem, count, vector) VALUES (?, ?, ?)');
  const dims = model.record.dims;
  for (const [stem, i] of model.index) {
    insert.run(stem, model.counts[i], floatBlob(model.vectors.subarray(i * dims, (i + 1) * dims)));
  }
}

/** Reads the model a corpus records (its words and vectors from search_model_words). */
export function loadCorpusModel(db: Database.Database, record: TrainedRecord): TrainedModel {
  const rows = sql<[], { stem: string; count: number; vector: Buffer }>(db, 'SELECT stem, count, vector FROM search_model_words').all();
  const dims = record.dims;
  const vectors = new Float32Array(rows.length * dims);
  const counts = new Uint32Array(rows.length);
  const index = new Map<string, number>();
  rows.forEach((row, i) => {
    index.set(row.stem, i);
    counts[i] = row.count;
    vectors.set(blobFloats(row.vector), i * dims);
  });
  return { record, index, counts, vectors, center: Float32Array.from(record.center), unknown: new Map() };
}

function sif(model: TrainedModel, count: number): number {
  return SIF_A / (SIF_A + count / model.record.sample_tokens);
}

const MIN_PART = 4;
const LINKS = ['', 's', 'es', 'n', 'en'];

/**
 * A word outside the vocabulary as the German compound it usually is: the longest known last part (the head, which
 * carries the meaning) and the longest known first part (a linking s/n dropped), e.g. "eigenbedarfskundig" from
 * "kundig" and "eigenbedarf". Null when no part is known.
 */
function unknownWord(model: TrainedModel, stem: string): { vector: Float32Array; weight: number } | null {
  let found = model.unknown.get(stem);
  if (found !== undefined) return found;
  found = null;
  if (stem.length >= 2 * MIN_PART && isVectorWord(stem)) {
    const parts: number[] = [];
    for (let at = MIN_PART; at <= stem.length - MIN_PART; at++) {
      const head = model.index.get(stem.slice(at));
      if (head !== undefined) {
        parts.push(head);
        break;
      }
    }
    for (let end = stem.length - MIN_PART; end >= MIN_PART && parts.length < 2; end--) {
      const first = stem.slice(0, end);
      const link = LINKS.find((l) => first.endsWith(l) && first.length - l.length >= MIN_PART
        && model.index.has(first.slice(0, first.length - l.length)));
      if (link !== undefined) parts.push(model.index.get(first.slice(0, first.length - link.length))!);
    }
    if (parts.length > 0) {
      const dims = model.record.dims;
      const vector = new Float32Array(dims);
      for (const part of parts) for (let i = 0; i < dims; i++) vector[i] += model.vectors[part * dims + i];
      // A compound is rarer than its parts: it weighs as its rarest part.
      if (normalizeInPlace(vector)) found = { vector, weight: Math.max(...parts.map((part) => sif(model, model.counts[part]))) };
    }
  }
  if (model.unknown.size >= 200_000) model.unknown.clear();
  model.unknown.set(stem, found);
  return found;
}

/**
 * The words of one text (a decision, a query) with their field-weighted frequencies, pooled into a vector:
 * sum over distinct words of (1 + ln tf) * SIF weight * word vector. Frequencies of known words accumulate in the
 * model's scratch arrays (a Map per decision cost as much as the pooling itself at 100k decisions), so one bag is
 * filled and read at a time: a bag used after a newer one was made throws instead of reading the other's counts.
 */
export class Bag {
  private readonly ids: number[] = [];
  private readonly unknown = new Map<string, number>();
  private readonly model: TrainedModel;
  private readonly generation: number;
  constructor(model: TrainedModel) {
    this.model = model;
    model.scratch ??= { weights: new Float64Array(model.counts.length), stamps: new Uint32Array(model.counts.length), generation: 0 };
    if (model.scratch.generation === 0xffffffff) {
      model.scratch.stamps.fill(0);
      model.scratch.generation = 0;
    }
    this.generation = ++model.scratch.generation;
  }

  private get scratch() {
    const scratch = this.model.scratch!;
    if (scratch.generation !== this.generation) throw new Error('a Bag was used after a newer one was made');
    return scratch;
  }

  addStems(stems: string[], weight: number): void {
    for (const stem of stems) this.addStem(stem, weight);
  }

  addTokens(tokens: Token[], weight: number): void {
    for (const token of tokens) this.addStem(token.stem, weight);
  }

  addStem(stem: string, weight: number): void {
    const id = this.model.index.get(stem);
    if (id !== undefined) {
      const { weights, stamps } = this.scratch;
      if (stamps[id] === this.generation) {
        weights[id] += weight;
      } else {
        stamps[id] = this.generation;
        weights[id] = weight;
        this.ids.push(id);
      }
    } else if (isVectorWord(stem)) {
      this.unknown.set(stem, (this.unknown.get(stem) ?? 0) + weight);
    }
  }

  get size(): number {
    return this.ids.length + this.unknown.size;
  }

  /** The pooled vector before centering, or null when no word has a vector. */
  rawVector(): Float32Array | null {
    const { model } = this;
    const { weights } = this.scratch;
    const dims = model.record.dims;
    const vectors = model.vectors;
    const sum = new Float32Array(dims);
    let any = false;
    for (const id of this.ids) {
      const scale = (1 + Math.log(weights[id])) * sif(model, model.counts[id]);
      const offset = id * dims;
      for (let i = 0; i < dims; i++) sum[i] += scale * vectors[offset + i];
      any = true;
    }
    for (const [stem, tf] of this.unknown) {
      const part = unknownWord(model, stem);
      if (!part) continue;
      const scale = (1 + Math.log(tf)) * part.weight;
      for (let i = 0; i < dims; i++) sum[i] += scale * part.vector[i];
      any = true;
    }
    return any ? sum : null;
  }

  /** The vector as stored and compared: centered on the mean decision, unit length; null without known words. */
  vector(): Float32Array | null {
    const raw = this.rawVector();
    return raw ? centeredUnit(raw, this.model.center) : null;
  }
}

/**
 * The vector of a query typed by a user (null: no word of it is known to the model). A word the model does not know
 * whose umlauts were typed as ae/oe/ue ('Kuendigung') counts as its umlaut form where the model knows that.
 */
export function embedQueryWithModel(model: TrainedModel, query: string): Float32Array | null {
  const bag = new Bag(model);
  for (const token of tokenize(query)) {
    const umlauted = model.index.has(token.stem) ? null : umlautsOf(token.word);
    const read = umlauted === null ? undefined : tokenize(umlauted)[0]?.stem;
    bag.addStem(read !== undefined && model.index.has(read) ? read : token.stem, 1);
  }
  return bag.vector();
}
