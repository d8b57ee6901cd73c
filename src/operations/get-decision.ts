import * as v from 'valibot';
import { findDecision, requireCorpus } from '../corpus/find-decision.ts';
import { canonicalReadRequest, readDecision } from '../corpus/read-decision.ts';
import { inTransaction } from '../db/statements.ts';
import { ApiError } from '../errors.ts';
import { decisionAnswer } from './answers.ts';
import { defineOperation } from './operation.ts';
import { courtFilter, decisionRef, int, isoDate } from './schemas.ts';

/** A read narrowed to a Randnummer range or a section. */
const isNarrowed = (args: { rn_from?: number; rn_to?: number; section?: string }) =>
  args.rn_from !== undefined || args.rn_to !== undefined || args.section !== undefined;

/**
 * The answer a call's normalize read with its canonical request, carried on that request (the handler's own args) under
 * a symbol: not an argument (canonicalJson and JSON skip symbol keys), and no WeakMap (whose entries cost the garbage
 * collector more than the read saved). One read transaction of the corpus per call instead of two (bench/README,
 * Session 21).
 */
const READ_AHEAD = Symbol('get_decision read ahead');
type ReadAhead = { [READ_AHEAD]?: ReturnType<typeof readDecision> };

export const DECISION_SECTIONS = ['Tenor', 'Leitsatz', 'Tatbestand', 'Gründe', 'Entscheidungsgründe'] as const;

export default defineOperation({
  name: 'get_decision',
  summary: 'Read a decision, whole or by Randnummer or section',
  description: 'The text of one decision by UUID, ECLI or Aktenzeichen (court and date disambiguate), whole up to '
    + 'max_chars, by Randnummer range (whole chunks) or by named section.',
  method: 'GET',
  path: '/decisions/{id}',
  ability: 'read',
  errors: [401, 402, 403, 404, 409, 422, 429, 503],
  answer: decisionAnswer,
  args: v.pipe(
    v.object({
      id: decisionRef,
      max_chars: v.optional(int(500), 40_000),
      rn_from: v.optional(int(1)),
      rn_to: v.optional(int(1)),
      // Any case: `tenor` is read as `Tenor`.
      section: v.optional(v.pipe(v.string(),
        v.transform((value) => DECISION_SECTIONS.find((name) => name.toLowerCase() === value.trim().toLowerCase()) ?? value),
        v.picklist(DECISION_SECTIONS, `must be one of ${DECISION_SECTIONS.join(', ')}`))),
      court: v.optional(courtFilter),
      date: v.optional(isoDate),
    }),
    v.forward(v.partialCheck([['rn_from'], ['rn_to']],
      (input) => input.rn_from === undefined || input.rn_to === undefined || input.rn_to >= input.rn_from,
      'must be >= rn_from'), ['rn_to']),
  ),
  // The decision as named, found once (namedByUuid's lookup, with what the canonical request needs besides), and
  // read with it: the canonical request and the answer come from one state of the file, in one read transaction.
  normalize: (args, { services }) => {
    const corpus = requireCorpus(services.corpus);
    return inTransaction(corpus, () => {
      const decision = findDecision(corpus, args.id, args);
      const request = canonicalReadRequest(corpus, decision, { ...args, id: decision.id, court: undefined, date: undefined });
      try {
        (request as ReadAhead)[READ_AHEAD] = readDecision(corpus, decision, request);
      } catch (error) {
        // A range the decision lacks (422) is refused by the handler, where it always was: after 402 and the cap.
        if (!(error instanceof ApiError)) throw error;
      }
      return request;
    });
  },
  pricing: '1 credit; the same call again in the same month costs nothing',
  price: () => 1,
  // A full text against the daily cap: a read from the start, even one cut at max_chars (else max_chars one short of
  // the text would serve it uncounted), and a Randnummer range or section serving at least half of the text (else
  // rn_from=1 would). A smaller part is how a citation is followed, and is not counted.
  volume: { unit: 'documents', ahead: (args) => !isNarrowed(args),
    amount: (result: { text_length: number; returned_range: { chars: number } }, args) =>
      (!isNarrowed(args) || 2 * result.returned_range.chars >= result.text_length ? 1 : 0) },
  handler: (args, { services }) => {
    const read = (args as ReadAhead)[READ_AHEAD];
    if (read) return read;
    const corpus = requireCorpus(services.corpus);
    // The decision and its parts read from one state of the file (a sync may commit between two statements).
    return inTransaction(corpus, () => readDecision(corpus, findDecision(corpus, args.id, args), args));
  },
});
