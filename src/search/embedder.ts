// Which embedder made a corpus's vectors (meta.search_embedder), and the query vector made by that same embedder:
// the corpus-trained model (loaded from the corpus once per connection and training), or the external endpoint of
// the configuration when it names the recorded model. Any other combination is a 503 naming both, never a query
// vector from one embedder compared with decision vectors from another.
import type Database from 'better-sqlite3';
import type { EmbeddingsConfig } from '../config.ts';
import { backendUnavailable } from '../errors.ts';
import { sql } from '../db/statements.ts';
import { corpusVersion } from '../db/corpus-version.ts';
import { embedQueryWithModel, loadCorpusModel, type TrainedModel, type TrainedRecord } from './corpus-model.ts';
import { describeEndpoint, embedRemote, EmbedderError } from './external-embedder.ts';
import { centeredUnit } from './vector-math.ts';
import { hasVectors } from './vector-store.ts';

export interface ExternalRecord {
  kind: 'external';
  model: string;
  dims: number;
  /** Where the vectors were made (scheme, host, path), for messages. */
  endpoint: string;
}

export type EmbedderRecord = TrainedRecord | ExternalRecord;

const EMBEDDER_KEY = 'search_embedder';

/**
 * The embedder recorded in the corpus, or null (no vectors made yet); read once a connection while the file is
 * unchanged (a search asks twice; the record, some 2.5 KB of JSON with the centre vector, took 23 µs a read).
 */
export function recordedEmbedder(db: Database.Database): EmbedderRecord | null {
  const version = corpusVersion(db);
  const held = recorded.get(db);
  if (held?.version === version) return held.record;
  const record = readEmbedder(db);
  recorded.set(db, { version, record });
  return record;
}

const recorded = new WeakMap<Database.Database, { version: string; record: EmbedderRecord | null }>();

function readEmbedder(db: Database.Database): EmbedderRecord | null {
  const tables = sql<[], { n: number }>(db, `SELECT count(*) AS n FROM sqlite_master WHERE name = 'meta'`).get()!.n;
  if (tables === 0) return null;
  const row = sql<[string], { value: string | null }>(db, 'SELECT value FROM meta WHERE key = ?').get(EMBEDDER_KEY);
  return row?.value ? JSON.parse(row.value) as EmbedderRecord : null;
}

export function recordEmbedder(db: Database.Database, record: EmbedderRecord | null): void {
  if (!record) sql(db, 'DELETE FROM meta WHERE key = ?').run(EMBEDDER_KEY);
  else sql(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(EMBEDDER_KEY, JSON.stringify(record));
}

/** How an embedder is named in messages. */
export function embedderName(record: EmbedderRecord): string {
  return record.kind === 'trained' ? 'the embedder trained on this corpus' : `the external model "${record.model}" (${record.endpoint})`;
}

const models = new WeakMap<Database.Database, TrainedModel>();

/** The corpus-trained model for `record`, read once per connection and training. */
export function trainedModelOf(db: Database.Database, record: TrainedRecord): TrainedModel {
  const held = models.get(db);
  if (held && held.record.id === record.id) return held;
  const model = loadCorpusModel(db, record);
  models.set(db, model);
  return model;
}

/** Keeps a model just trained (the import's connection need not read it back). */
export function rememberModel(db: Database.Database, model: TrainedModel): void {
  models.set(db, model);
}

/** A query vector, or why there is none. */
export type QueryVector =
  | { status: 'no_vectors' }
  | { status: 'ready'; record: EmbedderRecord; vector: Float32Array | null };

/**
 * The query's vector by the embedder that made the corpus's vectors. `no_vectors`: the corpus holds none (hybrid runs
 * without its vector arm, semantic answers 503). A vector of null: no word of the query is known to the trained model.
 * Throws 503 when the corpus's vectors come from an external model that this server is not configured for, or when
 * that endpoint fails.
 *
 * @example const qv = await queryVector(db, 'Vermieter kündigt wegen Eigenbedarf', config.embeddings);
 */
export async function queryVector(db: Database.Database, query: string, config: EmbeddingsConfig | null): Promise<QueryVector> {
  const record = recordedEmbedder(db);
  if (!record || !hasVectors(db)) return { status: 'no_vectors' };
  if (record.kind === 'trained') return { status: 'ready', record, vector: embedQueryWithModel(trainedModelOf(db, record), query) };
  if (!config) {
    throw backendUnavailable(`This corpus's vectors were made by ${embedderName(record)}; semantic search needs that endpoint `
      + 'configured (JURALITE_EMBEDDINGS_URL, JURALITE_EMBEDDINGS_MODEL); mode=keyword works without it.');
  }
  if (config.model !== record.model) {
    throw backendUnavailable(`This corpus's vectors were made by ${embedderName(record)}, but this server is configured for `
      + `the model "${config.model}" (${describeEndpoint(config)}); vectors of different models are not comparable.`);
  }
  let vector: Float32Array;
  try {
    [vector] = await embedRemote(config, [query]);
  } catch (error) {
    if (!(error instanceof EmbedderError)) throw error;
    throw backendUnavailable(`Semantic search could not embed the query: ${error.message}; retry, or use mode=keyword.`);
  }
  if (vector.length !== record.dims) {
    throw backendUnavailable(`The embeddings endpoint ${describeEndpoint(config)} answered ${vector.length} dimensions; this `
      + `corpus's vectors have ${record.dims} (${embedderName(record)}).`);
  }
  return { status: 'ready', record, vector: centeredUnit(vector, null) };
}
