import { hash } from 'node:crypto';
import * as v from 'valibot';
import { ApiError, backendUnavailable, unexpectedFailure, validationFailed } from '../errors.ts';
import type { Caller } from '../accounts/tokens.ts';
import { assertRoom, capOf, type RateBucket } from '../accounts/limits.ts';
import type { StateWrite } from '../state/store.ts';
import type { Operation, OperationContext, Services } from './operation.ts';

export interface Credits {
  metered: boolean;
  cost: number;
  credits_remaining: number;
}

/** A successful answer: the operation's result with the envelope (`body`), and the result as the handler gave it. */
export interface Answer {
  status: number;
  body: Record<string, unknown> & { api_version: string; changelog_url: string; credits: Credits };
  result: object;
}

/** Stable JSON: object keys sorted, so equal arguments give equal keys whatever their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// The one-shot form: no Hash object per call (1-3 µs less a call, bench/README Session 21).
const sha256Hex = (text: string) => hash('sha256', text, 'hex');

/** What a value of each schema type must be, in the words of our own messages. */
const EXPECTED: Record<string, string> = {
  string: 'must be a string', number: 'must be a number', boolean: 'must be true or false', array: 'must be an array',
  object: 'must be an object', picklist: 'must be one of the allowed values',
};

/**
 * An issue in the caller's terms. Our schemas word their own messages; valibot's defaults ("Invalid type: Expected
 * string but received Array") remain for missing arguments and wrong types, and are put plainly here.
 */
function messageOf(issue: v.BaseIssue<unknown>): string {
  const [argument, ...inside] = issue.path ?? [];
  // A repeated query parameter arrives as a list, whatever message its schema words for a wrong value.
  if (issue.kind === 'schema' && issue.received === 'Array' && issue.type !== 'array' && inside.length === 0) {
    return 'must be given once, not as a list';
  }
  // Inside an argument, the item is named as the datapackage names its ids: `ids[0] must be a string`.
  const prefix = inside.length === 0 ? ''
    : `${String(argument?.key)}${inside.map((step) => (typeof step.key === 'number' ? `[${step.key}]` : `.${String(step.key)}`)).join('')} `;
  if (issue.kind !== 'schema' || !issue.message.startsWith('Invalid ')) return `${prefix}${issue.message}`;
  if (issue.type === 'object' && issue.received === 'undefined') return `${prefix}is required`;
  if (issue.received === 'Array' && issue.type !== 'array') return `${prefix}must not be a list`;
  return `${prefix}${EXPECTED[issue.type] ?? issue.message}`;
}

/** valibot issues to the 422 `errors` object, keyed by the top-level argument name. */
export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    const name = typeof key === 'string' ? key : 'arguments';
    (errors[name] ??= []).push(messageOf(issue));
  }
  return errors;
}

/** Validates raw arguments against the operation's schema: the normalized arguments, or 422. */
export function parseArgs<TArgs>(operation: Operation<TArgs>, raw: unknown): TArgs {
  const parsed = v.safeParse(operation.args, raw ?? {});
  if (!parsed.success) throw validationFailed(issuesToErrors(parsed.issues));
  return parsed.output;
}

function assertAllowed(operation: Operation, caller: Caller): void {
  if (caller.organization.require_two_factor && !caller.user?.two_factor_enabled) {
    throw new ApiError('two_factor_required',
      'The organization requires two-factor sign-in of all members; set it up for the token\'s user.');
  }
  if (!caller.token.abilities.includes(operation.ability)) {
    throw new ApiError('token_ability_missing', `This token lacks the ability "${operation.ability}".`, {
      required_ability: operation.ability,
    });
  }
}

function insufficientCredits(cost: number, balance: number): ApiError {
  return new ApiError('insufficient_credits', `This call costs ${cost} credits; the organization has ${balance} left this month.`, {
    cost, balance,
  });
}

/** Runs the handler; anything but an ApiError becomes 503, nothing charged. */
async function runHandler<TArgs, TResult extends object>(
  operation: Operation<TArgs, TResult>, args: TArgs, ctx: OperationContext,
): Promise<TResult> {
  try {
    return await operation.handler(args, ctx);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    console.error(`juralite: ${operation.name} failed:`, error);
    throw unexpectedFailure(error);
  }
}

function createContext(services: Services, caller: Caller, now: Date): OperationContext & { writes: StateWrite[]; effects: (() => void)[] } {
  const writes: StateWrite[] = [];
  const effects: (() => void)[] = [];
  return {
    services, caller, now, writes, effects, onCommit: (write) => writes.push(write), afterCommit: (effect) => effects.push(effect),
  };
}

/**
 * The one path every metered call takes, over REST and MCP alike. Refusals come in the contract's order and none of
 * them executes or charges anything:
 * 401 → 409 → 403 two-factor → 403 ability → 429 rate → 422 → 404 (an id naming nothing) → 402 → 429 volume cap.
 * Then the handler runs, and the charge, the paid-result record, the volume and the handler's own writes commit in
 * one transaction (re-checking the balance and the daily cap, so concurrent calls can never overdraw or overshoot).
 */
export async function execute<TArgs, TResult extends object>(
  operation: Operation<TArgs, TResult>,
  request: {
    authorization: string | null | undefined;
    args: unknown | (() => Promise<unknown>);
    /** Told who is calling once the token is accepted (the access log's organization). */
    onCaller?: (caller: Caller) => void;
  },
  services: Services,
): Promise<Answer> {
  const { store, config } = services;
  const now = services.clock();
  // 1. Who is calling, and may they call this? The balance and today's volume are read with the token (one read of
  // the state); they are checked below, in the contract's order, and again in the charging transaction.
  const volume = operation.volume;
  const { caller, ...room } = await store.callerAndRoom(request.authorization, now, { terms: config.plans, unit: volume?.unit });
  request.onCaller?.(caller);
  assertAllowed(operation, caller);
  // 2. Rate limits.
  const buckets: RateBucket[] = operation.heavy ? ['all', 'heavy'] : ['all'];
  await services.rates.take(caller.token.id, buckets, now);
  // 3. Arguments (read lazily: a refused caller never makes the server read a request body).
  const raw = typeof request.args === 'function' ? await (request.args as () => Promise<unknown>)() : request.args;
  const ctx = createContext(services, caller, now);
  const parsed = parseArgs(operation, raw);
  const args = operation.normalize ? operation.normalize(parsed, ctx) : parsed;
  // 4. Price, balance and daily cap, before anything runs.
  const cost = await operation.price(args, ctx);
  const resultKey = sha256Hex(await operation.resultKey?.(args, ctx) ?? canonicalJson(args));
  const organization = caller.organization;
  // The balance first, then whether the result is paid: a charge lowers the balance and records the paid result in
  // one commit, so a balance that fell for this very result (another node's call, between two reads of a shared
  // state) is always seen together with its payment, and the repeat is served free rather than refused.
  if (cost > 0) {
    const balance = room.balance ?? await store.balanceOf(organization, config.plans, now);
    if (balance.total < cost && !await store.alreadyPaid(organization.id, operation.name, resultKey, now)) {
      throw insufficientCredits(cost, balance.total);
    }
  }
  if (volume && (volume.ahead?.(args) ?? true)) {
    assertRoom(capOf(config.plans[organization.plan], volume.unit),
      room.volumeUsed ?? await store.volumeUsed(organization.id, volume.unit, now), volume.unit, now);
  }
  // 5. The work.
  const result = await runHandler(operation, args, ctx);
  // 6. Charge and commit, all or nothing.
  const amount = volume?.amount(result, args) ?? 0;
  const outcome = await recordedOrUnavailable(store.commitCall({
    organization, terms: config.plans, charge: { operation: operation.name, resultKey, cost },
    volume: volume && { unit: volume.unit, amount }, writes: ctx.writes,
  }, now));
  if (!outcome.charged) throw insufficientCredits(outcome.cost, outcome.balance.total);
  for (const effect of ctx.effects) effect();
  const credits = { metered: true, cost: outcome.cost, credits_remaining: outcome.balance.total };
  return { status: operation.status ?? 200, body: envelope(result, credits, config), result };
}

/** The result with the envelope's fields after its own (no result has fields of those names). */
export function envelope(result: object, credits: Credits, config: Services['config']): Answer['body'] {
  return { ...result, api_version: config.release, changelog_url: config.changelogUrl, credits };
}

/** A write to the state; an ApiError passes, any other failure becomes 503 with nothing charged. */
async function recordedOrUnavailable<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw error instanceof ApiError ? error : stateUnavailable(error);
  }
}

/** The state database refused a write (disk full, read-only, locked too long): 503, nothing charged. */
function stateUnavailable(error: unknown): ApiError {
  console.error('juralite: state database write failed:', error);
  return backendUnavailable('The service could not record the call; retry in a few seconds.');
}
