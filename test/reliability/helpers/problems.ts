/**
 * What every answer of the API must be, whatever the request: a success with the envelope, or an RFC 9457 problem
 * whose status the operation declares and whose code belongs to that status. Plus the means to keep a fuzzing run
 * under the rate limits (a pool of tokens) and to notice errors the server only logs.
 */
import assert from 'node:assert/strict';
import type { Api, Reply, TestOrg } from '../../helpers/api.ts';
import type { Ability } from '../../../src/accounts/tokens.ts';

/** The contract's problem codes per status (405 for a wrong method on a known path). */
export const CODES_OF_STATUS: Record<number, readonly string[]> = {
  401: ['unauthenticated'],
  402: ['insufficient_credits'],
  403: ['token_ability_missing', 'two_factor_required'],
  404: ['not_found'],
  405: ['method_not_allowed'],
  409: ['token_org_missing'],
  422: ['validation_failed'],
  429: ['rate_limited', 'volume_cap'],
  503: ['backend_unavailable'],
};

/** A problem body as the contract describes it; `allowed` lists the statuses this request may be refused with. */
export function assertProblemBody(body: any, status: number, allowed: readonly number[], label: string): void {
  assert.ok(allowed.includes(status), `${label}: status ${status} is not one of ${allowed.join(', ')}: ${JSON.stringify(body).slice(0, 400)}`);
  assert.ok(body && typeof body === 'object', `${label}: problem body is not an object: ${String(body).slice(0, 200)}`);
  assert.equal(body.status, status, label);
  assert.ok(CODES_OF_STATUS[status]?.includes(body.code), `${label}: code ${body.code} does not belong to ${status}`);
  assert.ok(typeof body.type === 'string' && body.type.endsWith(`#${body.code}`), `${label}: type ${body.type}`);
  assert.equal(typeof body.title, 'string', label);
  assert.equal(typeof body.detail, 'string', label);
  if (status === 422) {
    assert.ok(body.errors && typeof body.errors === 'object', `${label}: 422 without errors`);
    for (const [name, messages] of Object.entries(body.errors)) {
      assert.ok(Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string'), `${label}: errors.${name}`);
    }
  }
}

/** An HTTP answer: 2xx JSON with the envelope, or a problem+json allowed for this request. */
export function assertAnswer(reply: Reply, allowed: readonly number[], label: string): void {
  assert.ok(reply.headers.get('x-service-api-release'), `${label}: no X-Service-Api-Release`);
  const type = reply.headers.get('content-type') ?? '';
  if (reply.status >= 200 && reply.status < 300) {
    assert.match(type, /^application\/json/, label);
    assert.equal(typeof reply.body?.credits?.cost, 'number', `${label}: success without credits`);
    return;
  }
  assert.match(type, /^application\/problem\+json/, `${label}: ${reply.status} is not a problem: ${String(reply.body).slice(0, 200)}`);
  assertProblemBody(reply.body, reply.status, allowed, label);
}

/**
 * Tokens of one organization, each used at most `uses` times, so that a long fuzzing run stays under the per-token
 * rate limits (60 a minute, 10 for heavy operations) without moving the clock.
 */
export function tokenPool(org: TestOrg, abilities?: Ability[], uses = 9): () => string {
  let token = '';
  let used = uses;
  return () => {
    if (used++ >= uses) {
      token = org.token(abilities);
      used = 1;
    }
    return token;
  };
}

/** The server still answers a plain, valid call. */
export async function assertServing(api: Api, org: TestOrg): Promise<void> {
  const reply = await api.call('GET', '/api/v1/corpus/coverage', { token: org.token(['read']) });
  assert.equal(reply.status, 200, `the server stopped serving: ${JSON.stringify(reply.body).slice(0, 300)}`);
}

/**
 * Collects what the server logs through console.error while `work` runs: in-process servers log every unexpected
 * exception there before turning it into a 503, so a hostile request that found a bug leaves a trace even when the
 * answer looks orderly.
 */
export async function withLoggedErrors<T>(work: () => Promise<T>): Promise<{ result: T; logged: string[] }> {
  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    logged.push(args.map((arg) => (arg instanceof Error ? arg.stack ?? arg.message : String(arg))).join(' '));
  };
  try {
    return { result: await work(), logged };
  } finally {
    console.error = original;
  }
}
