import type * as v from 'valibot';
import type Database from 'better-sqlite3';
import type { StateDb } from '../accounts/state-db.ts';
import type { Ability, Caller } from '../accounts/tokens.ts';
import type { VolumeUnit } from '../accounts/limits.ts';
import type { RateLimiter, StateStore, StateWrite } from '../state/store.ts';
import type { Config } from '../config.ts';

/** What every operation may use: the state, the corpus, the configuration, the clock and the rate limits. */
export interface Services {
  /** The state (SQLite or PostgreSQL): the request path reaches it only through this. */
  store: StateStore;
  /** The SQLite state database itself, for the tools that work on the file (CLI, tests); throws on PostgreSQL. */
  readonly state: StateDb;
  /** The corpus; null when no corpus file is open (operations that need it answer 503). */
  corpus: Database.Database | null;
  config: Config;
  clock: () => Date;
  /** Requests per token and minute (in memory per process on SQLite, shared on PostgreSQL). */
  rates: RateLimiter;
}

export interface OperationContext {
  services: Services;
  /** The authenticated caller. */
  caller: Caller;
  now: Date;
  /** Registers a write to the state that commits in the same transaction as the charge, or not at all. */
  onCommit(write: StateWrite): void;
  /** Runs `effect` once the call's transaction has committed (never when it rolled back). */
  afterCommit(effect: () => void): void;
}

/** HTTP statuses besides success that an operation can answer, as the contract lists them per endpoint. */
export type ErrorStatus = 401 | 402 | 403 | 404 | 409 | 422 | 429 | 503;

/**
 * One operation of the API, declared once. REST routes, OpenAPI, MCP tools and the CLI are generated from it.
 *
 * @example
 * export default defineOperation({
 *   name: 'get_corpus_coverage', method: 'GET', path: '/corpus/coverage', ability: 'read',
 *   args: v.object({ top: v.optional(v.number(), 20) }), price: () => 0, errors: [401, 403, 409, 422, 429, 503],
 *   handler: (args, ctx) => coverage(ctx.services.corpus, args),
 * });
 */
export interface Operation<TArgs = any, TResult extends object = object> {
  /** The MCP tool name (snake_case). */
  name: string;
  summary: string;
  description: string;
  /** The price in words, for the OpenAPI and tool descriptions (`price` computes it). */
  pricing: string;
  method: 'GET' | 'POST';
  /** Path under /api/v1 with `{param}` placeholders; placeholders are arguments too. */
  path: string;
  ability: Ability;
  /** The arguments (path, query or body), as a valibot object schema with defaults applied on output. */
  args: v.GenericSchema<unknown, TArgs>;
  /**
   * The answer's fields (the envelope aside), as a valibot schema (src/operations/answers.ts): the OpenAPI document
   * states it, and a test holds real answers to it.
   */
  answer?: v.GenericSchema;
  /** Arguments carried as multipart/form-data files instead of JSON (REST only). */
  files?: string[];
  /** Counts also against the 10-per-minute limit (datapackages, citation checks, uploads). */
  heavy?: boolean;
  /** Success status; 200 unless stated. */
  status?: 200 | 202;
  errors: ErrorStatus[];
  /** Credits this call costs before any free repeat (known before the handler runs). */
  price(args: TArgs, ctx: OperationContext): number | Promise<number>;
  /**
   * The arguments in their one canonical form, before price, free repeats and the handler: decisions named by UUID,
   * ECLI or Aktenzeichen become their UUID, disambiguating court and date go, what cannot change the answer is
   * dropped. Two calls with the same canonical arguments get the same answer, so the second is free. May answer 404
   * or 422 (an id naming no decision or several), before anything is priced.
   */
  normalize?(args: TArgs, ctx: OperationContext): TArgs;
  /** What identifies "the same result" for free repeats within a month; default: the normalized arguments. */
  resultKey?(args: TArgs, ctx: OperationContext): string | Promise<string>;
  /**
   * The daily cap this operation draws on: how much a result uses (0: nothing counted), and whether a call is refused
   * up front when the cap is full (`ahead`, default always; false where the call may well serve nothing counted).
   */
  volume?: { unit: VolumeUnit; ahead?(args: TArgs): boolean; amount(result: TResult, args: TArgs): number };
  /** Announces the end of the operation (`Deprecation` and `Sunset` headers). */
  deprecation?: { deprecation: string; sunset: string };
  handler(args: TArgs, ctx: OperationContext): TResult | Promise<TResult>;
}

/** Declares an operation; a typed identity, so a declaration reads as one object. */
export function defineOperation<TArgs, TResult extends object>(operation: Operation<TArgs, TResult>): Operation<TArgs, TResult> {
  return operation;
}
