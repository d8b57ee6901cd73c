/**
 * Errors are values with a stable `code` until an edge (HTTP or MCP) turns them into a problem (RFC 9457).
 * Handlers throw `ApiError`; anything else a handler throws becomes 503 backend_unavailable at the edge.
 *
 * @example throw notFound('No decision with id "abc".')
 */

export type ProblemCode =
  | 'unauthenticated'
  | 'insufficient_credits'
  | 'token_ability_missing'
  | 'two_factor_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'token_org_missing'
  | 'validation_failed'
  | 'rate_limited'
  | 'volume_cap'
  | 'backend_unavailable';

export const STATUS_OF: Record<ProblemCode, number> = {
  unauthenticated: 401,
  insufficient_credits: 402,
  token_ability_missing: 403,
  two_factor_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  token_org_missing: 409,
  validation_failed: 422,
  rate_limited: 429,
  volume_cap: 429,
  backend_unavailable: 503,
};

/** Extra problem members allowed per code (the contract's "Extra fields"). */
export interface ProblemExtras {
  cost?: number;
  balance?: number;
  required_ability?: string;
  errors?: Record<string, string[]>;
  retry_after_seconds?: number;
  unit?: 'rows' | 'documents';
  cap?: number;
  resets_at?: string;
}

export class ApiError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly extras: ProblemExtras;

  constructor(code: ProblemCode, detail: string, extras: ProblemExtras = {}) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = STATUS_OF[code];
    this.extras = extras;
  }
}

export const unauthenticated = (detail = 'A valid bearer token is required (Authorization: Bearer <API_TOKEN>).') =>
  new ApiError('unauthenticated', detail);

export const notFound = (detail: string) => new ApiError('not_found', detail);

/** 422 with messages keyed by argument name. */
export const validationFailed = (errors: Record<string, string[]>) => {
  const names = Object.keys(errors);
  return new ApiError('validation_failed', `Invalid argument${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`, {
    errors,
  });
};

/** 422 for a single argument. */
export const invalidArgument = (name: string, message: string) => validationFailed({ [name]: [message] });

export const backendUnavailable = (detail: string) => new ApiError('backend_unavailable', detail);

/** Error codes of failures that pass by themselves (a busy database, exhausted descriptors, a reset connection). */
const TRANSIENT_CODES = /^(?:SQLITE_BUSY|SQLITE_LOCKED|SQLITE_FULL|SQLITE_IOERR|SQLITE_CANTOPEN|ENOSPC|EAGAIN|EBUSY|EMFILE|ENFILE|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE)/u;

/**
 * The 503 for an error that is not an ApiError. Only a failure that may pass (a busy database, a full disk) says
 * "retry"; any other (a defect such as a stack overflow on one input) fails the same way again, and says so.
 */
export function unexpectedFailure(error: unknown): ApiError {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TRANSIENT_CODES.test(code)) {
    return backendUnavailable('The backend could not complete the call; retry in a few seconds.');
  }
  // "Nothing was charged." is added by the problem's body (problemBody, src/http/responses.ts), as for every 503.
  return backendUnavailable('The backend failed on this call with an internal error (logged); the same call will fail '
    + 'again, so retrying it unchanged does not help.');
}

/** An operation whose capability this release does not have yet: 503, never a fake answer. */
export const notYetAvailable = (capability: string) =>
  backendUnavailable(`${capability} is not available in this release of juralite yet.`);
