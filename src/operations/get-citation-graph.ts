import * as v from 'valibot';
import { findDecisionHead, namedByUuid, requireCorpus } from '../corpus/find-decision.ts';
import { citationGraph } from '../graph/neighbours.ts';
import { inTransaction } from '../db/statements.ts';
import { citationGraphAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { courtFilter, decisionRef, int, isoDate } from './schemas.ts';

export const GRAPH_DIRECTIONS = ['outgoing', 'incoming', 'both'] as const;

export default defineOperation({
  name: 'get_citation_graph',
  summary: 'The citation graph of a decision',
  description: 'Decisions this one cites (references) and decisions citing it (referenced_by), at depth 1 or 2, '
    + 'paged by 25 distinct decisions per direction.',
  method: 'GET',
  path: '/decisions/{id}/citations',
  ability: 'graph',
  errors: [401, 402, 403, 404, 409, 422, 429, 503],
  answer: citationGraphAnswer,
  args: v.object({
    id: decisionRef,
    direction: v.optional(v.picklist(GRAPH_DIRECTIONS, `must be one of ${GRAPH_DIRECTIONS.join(', ')}`), 'both'),
    depth: v.optional(int(1, 2), 1),
    court: v.optional(courtFilter),
    date: v.optional(isoDate),
    page: v.optional(int(1, 20), 1),
  }),
  normalize: (args, { services }) => namedByUuid(services.corpus, args),
  // Depth 2 walks a second step and serves up to twice the decisions: twice the price (docs/decisions.md).
  pricing: '2 credits, 4 at depth 2; the same call again in the same month costs nothing',
  price: (args) => (args.depth === 2 ? 4 : 2),
  // Graph neighbours served: the decisions of the corpus in both lists (unresolved references are no decisions).
  volume: { unit: 'rows', amount: (result: { references: { in_corpus: boolean }[]; referenced_by: unknown[] }) =>
    result.references.filter((edge) => edge.in_corpus).length + result.referenced_by.length },
  handler: (args, { services }) => {
    const corpus = requireCorpus(services.corpus);
    // The graph names its source decision and never reads its text: none is decompressed. Its counts and lists are
    // read from one state of the file, SQLite's locks taken once (as GET /decisions/{id} reads).
    return inTransaction(corpus, () => citationGraph(corpus, services.config.publicUrl, findDecisionHead(corpus, args.id, args), args));
  },
});
