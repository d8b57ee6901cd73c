// Decision vectors follow the imports (called by syncSearchIndex, so by Importer.finish and by the upgrade of an older
// corpus). The rule: every decision has a vector made by the corpus's embedder, or none at all.
//
// - Corpus-trained embedder (default): trained once the corpus holds enough text (MIN_TRAIN_TOKENS), on a bounded
//   sample (SAMPLE_TOKENS), and trained anew when the corpus holds RETRAIN_GROWTH times the passages it was trained
//   on, or when the search analysis changed (SEARCH_INDEX_VERSION). A model trained while completing what a killed
//   import left (the queues drained on open) is provisional: the next import's own pass trains anew, so the model
//   depends on the corpus, not on where the import was killed. Decisions written by this import are pooled by the
//   drain's analysis from the tokens of their FTS5 row (src/search/chunk-analysis.ts: no second pass over their text);
//   decisions without a vector (imported before the first training, or after a retraining) are pooled from their
//   chunks afterwards.
// - External embedder (JURALITE_EMBEDDINGS_URL): decisions written by this import lose their old vector in the FTS5
//   transaction; then every decision without a vector is embedded, a batch per request and per transaction, so a
//   failing endpoint leaves the decisions it did not reach without vectors, to be embedded by the next import.
// - Switching embedders (the environment names another one than the corpus records) drops every vector and makes
//   them anew: vectors of two embedders never share a corpus.
import type Database from 'better-sqlite3';
import type { EmbeddingsConfig } from '../config.ts';
import { sql } from '../db/statements.ts';
import { chunkTexts } from '../corpus/stored-text.ts';
import { tokenize } from './analyze.ts';
import {
  Bag, FIELD_WEIGHT, fieldOf, passageCount, RETRAIN_GROWTH, storeCorpusModel, trainCorpusModel, type TrainedModel,
} from './corpus-model.ts';
import { recordedEmbedder, recordEmbedder, rememberModel, trainedModelOf, type EmbedderRecord } from './embedder.ts';
import { describeEndpoint, embedRemoteSync, EmbedderError } from './external-embedder.ts';
import { centeredUnit } from './vector-math.ts';
import { decisionsWithoutVector, dropVectors, ensureVectorTable, putDecisionVector, removeOrphanVectors } from './vector-store.ts';

/** The vector side of one sync: what the drain's analysis pools with, a sink for it, then the decisions still lacking vectors. */
export interface VectorSync {
  /** The trained model the drain's analysis pools decision vectors with (null: it pools none). */
  readonly model: TrainedModel | null;
  /**
   * A decision the drain indexed, with the vector its analysis pooled (or null); `complete`: the analysis saw all of
   * its chunks (otherwise the vector pools only some, and the decision is made from its stored chunks by fillMissing).
   */
  decision(id: string, vector: Float32Array | null, complete: boolean): void;
  /** Ends the drain's part (inside its transaction). */
  endOfDrain(): void;
  /** Makes the vectors still missing; returns how many vectors this sync wrote. */
  fillMissing(): number;
}

/** Decides the embedder for this sync and prepares its model (training it when due). */
export function beginVectorSync(db: Database.Database, embeddings: EmbeddingsConfig | null, rebuild: boolean, byImport = false): VectorSync {
  const recorded = recordedEmbedder(db);
  removeOrphanVectors(db);
  return embeddings ? externalSync(db, embeddings, recorded, rebuild) : trainedSync(db, recorded, rebuild, byImport);
}

function forgetVectors(db: Database.Database): void {
  dropVectors(db);
  db.exec('DELETE FROM search_model_words');
  recordEmbedder(db, null);
}

function trainedSync(db: Database.Database, recorded: EmbedderRecord | null, rebuild: boolean, byImport: boolean): VectorSync {
  let model: TrainedModel | null = null;
  const due = rebuild || recorded?.kind !== 'trained' || passageCount(db) >= RETRAIN_GROWTH * recorded.trained_passages
    || (byImport && recorded.provisional === true);
  if (!due && recorded?.kind === 'trained') {
    model = trainedModelOf(db, recorded);
    ensureVectorTable(db, recorded.dims);
  } else {
    model = trainCorpusModel(db);
    forgetVectors(db);
    // Neither an import's own pass nor a rebuild: completing the index a killed import left, on part of its documents.
    if (model && !byImport && !rebuild) model.record.provisional = true;
    if (model) {
      storeCorpusModel(db, model);
      recordEmbedder(db, model.record);
      ensureVectorTable(db, model.record.dims);
      rememberModel(db, model);
    }
  }
  let written = 0;
  return {
    model,
    decision(id, vector, complete) {
      if (!model) return;
      if (putDecisionVector(db, id, complete ? vector : null)) written++;
    },
    endOfDrain() {},
    fillMissing() {
      if (!model) return written;
      const trained = model;
      return written + db.transaction(() => {
        let made = 0;
        for (const id of missingDecisions(db)) if (putDecisionVector(db, id, pooledFromChunks(db, trained, id))) made++;
        return made;
      })();
    },
  };
}

/** Every decision without a vector, read in id order by pages (a decision that gets none is not asked for again). */
function* missingDecisions(db: Database.Database, page = 500): Generator<string> {
  let after = '';
  for (;;) {
    const ids = decisionsWithoutVector(db, page, after);
    if (ids.length === 0) return;
    yield* ids;
    after = ids.at(-1)!;
  }
}

/** A decision's vector from its stored chunks (as the drain would have pooled it). */
function pooledFromChunks(db: Database.Database, model: TrainedModel, decisionId: string): Float32Array | null {
  const bag = new Bag(model);
  const title = sql<[string], { title: string | null }>(db, 'SELECT title FROM decisions WHERE id = ?').get(decisionId)?.title;
  if (title) bag.addTokens(tokenize(title), FIELD_WEIGHT.title);
  for (const chunk of chunkTexts(db, decisionId)) {
    bag.addTokens(tokenize(chunk.text), FIELD_WEIGHT[fieldOf(chunk.section)]);
  }
  return bag.vector();
}

function externalSync(db: Database.Database, config: EmbeddingsConfig, recorded: EmbedderRecord | null, rebuild: boolean): VectorSync {
  if (recorded && (recorded.kind !== 'external' || recorded.model !== config.model)) forgetVectors(db);
  // The text of a re-imported decision changed: its vector goes now, and is made again below. A rebuild of the FTS5
  // index (a new analysis) leaves external vectors as they are.
  const touched = new Set<string>();
  return {
    model: null,
    decision(id) {
      if (!rebuild) touched.add(id);
    },
    endOfDrain() {
      for (const id of touched) putDecisionVector(db, id, null);
    },
    fillMissing: () => embedMissing(db, config),
  };
}

/** The text an external embedder gets for a decision: its title, then its chunks in order (Leitsatz and Tenor first), cut. */
function decisionText(db: Database.Database, decisionId: string, maxChars: number): string {
  const title = sql<[string], { title: string | null; aktenzeichen: string | null }>(db,
    'SELECT title, aktenzeichen FROM decisions WHERE id = ?').get(decisionId);
  const parts = [title?.title ?? title?.aktenzeichen ?? ''];
  let length = parts[0].length;
  for (const chunk of chunkTexts(db, decisionId)) {
    if (length >= maxChars) break;
    parts.push(chunk.text);
    length += chunk.text.length + 1;
  }
  return parts.join('\n').slice(0, maxChars).trim() || decisionId;
}

function embedMissing(db: Database.Database, config: EmbeddingsConfig): number {
  let made = 0;
  let after = '';
  for (;;) {
    const ids = decisionsWithoutVector(db, config.batchSize, after);
    if (ids.length === 0) return made;
    after = ids.at(-1)!;
    let vectors: Float32Array[];
    try {
      vectors = embedRemoteSync(config, ids.map((id) => decisionText(db, id, config.maxChars)));
    } catch (error) {
      if (!(error instanceof EmbedderError)) throw error;
      const pending = (sql<[], { n: number }>(db, `SELECT count(*) AS n FROM decisions d
        WHERE NOT EXISTS (SELECT 1 FROM search_vectors v WHERE v.decision_id = d.id)`).get()!).n;
      throw new Error(`semantic search vectors: ${error.message}. The import itself is complete and keyword search is `
        + `up to date; ${pending} decisions have no vector yet and are embedded by the next import.`);
    }
    made += db.transaction(() => {
      const record = recordedEmbedder(db);
      const dims = vectors[0].length;
      if (!record) {
        recordEmbedder(db, { kind: 'external', model: config.model, dims, endpoint: describeEndpoint(config) });
        ensureVectorTable(db, dims);
      } else if (record.dims !== dims) {
        throw new Error(`semantic search vectors: the embeddings endpoint ${describeEndpoint(config)} answered ${dims} `
          + `dimensions, but this corpus's vectors have ${record.dims}; set JURALITE_EMBEDDINGS_MODEL to a new name to re-embed.`);
      }
      let count = 0;
      ids.forEach((id, i) => { if (putDecisionVector(db, id, centeredUnit(vectors[i], null))) count++; });
      return count;
    })();
  }
}
