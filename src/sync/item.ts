// One table-of-contents item: its zip parsed into documents, then written with its manifest row in one transaction,
// so a run killed at any moment leaves every item either wholly imported and recorded, or not at all.
import { createHash } from 'node:crypto';
import type { CorpusDb } from '../corpus/open.ts';
import { writeLaw } from '../corpus/law-store.ts';
import { writeDecision } from '../ingest/store-decision.ts';
import { message, parseDocument, type ParsedItem } from '../ingest/parse-document.ts';
import { isZip, zipMembers } from '../ingest/zip.ts';
import { forgetResolutions } from '../graph/resolve.ts';
import { recordFetched, type ManifestRow, type SyncSource } from './manifest.ts';

/** What writing an item did to its documents. */
export type ItemOutcome = 'imported' | 'updated' | 'unchanged';

type Document = Extract<ParsedItem, { kind: 'decision' | 'law' }>;

/** What a source's item must hold: gii a law, rii a decision. */
const EXPECTED: Record<Exclude<SyncSource, 'oldp'>, Document['kind']> = { gii: 'law', rii: 'decision' };
/** Members of other kinds in a source's zip (the images of a decision, say) are passed over. */
const DOCUMENT_MEMBER = /\.xml$/iu;

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The documents of an item's zip, all of the kind its source holds. Throws, naming the item and the member, when one
 * cannot be read: a changed format is never half imported.
 */
export async function documentsOf(source: Exclude<SyncSource, 'oldp'>, name: string, body: Buffer): Promise<Document[]> {
  if (!isZip(body)) throw new Error(`${name} is no zip archive (${body.length} bytes)`);
  const documents: Document[] = [];
  try {
    for await (const member of zipMembers(body)) {
      if ('error' in member) throw new Error(`${member.name}: ${member.error}`);
      if (!DOCUMENT_MEMBER.test(member.name)) continue;
      for (const item of parseDocument(`${name}!/${member.name}`, member.data, true)) {
        if (item.kind === 'failed') throw new Error(`${item.name}: ${item.reason}`);
        if (item.kind !== EXPECTED[source]) throw new Error(`${item.name}: holds a ${item.kind}, not a ${EXPECTED[source]}`);
        documents.push(item as Document);
      }
    }
  } catch (error) {
    throw new Error(`${message(error).startsWith(name) ? '' : `${name}: `}${message(error)}`);
  }
  if (documents.length === 0) throw new Error(`${name} holds no ${EXPECTED[source]} XML`);
  return documents;
}

/**
 * Writes an item's documents and its manifest row in one transaction (nothing of it when anything fails). A decision
 * already held keeps its id (store-decision.ts), a law its abbreviation's id.
 */
export function writeItem(db: CorpusDb, documents: Document[], row: Omit<ManifestRow, 'documents'>): ItemOutcome {
  try {
    return db.transaction(() => {
      const ids: string[] = [];
      let outcome: ItemOutcome = 'unchanged';
      for (const document of documents) {
        const written = document.kind === 'decision'
          ? writeDecision(db, document.decision, row.imported_at)
          : (({ outcome: o, law_id }) => ({ outcome: o, id: law_id }))(writeLaw(db, document.law, row.imported_at));
        ids.push(written.id);
        if (written.outcome === 'imported' && outcome === 'unchanged') outcome = 'imported';
        if (written.outcome === 'updated') outcome = 'updated';
      }
      recordFetched(db, { ...row, documents: JSON.stringify(ids) });
      return outcome;
    })();
  } catch (error) {
    // Citation targets looked up meanwhile may name a document the rollback took back.
    forgetResolutions(db);
    throw error;
  }
}
