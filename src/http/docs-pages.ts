// The two documentation pages the answers link to, served by the service itself (it runs offline, so the links must
// not lead elsewhere): the problem `type` URIs `{docs_url}/api/errors#<code>` and the envelope's `changelog_url`.
import { STATUS_OF, type ProblemCode } from '../errors.ts';
import type { Config } from '../config.ts';

/** What each problem code means and what a client does about it (api-v1.md, "Errors"). */
const MEANINGS: Record<ProblemCode | 'request_unreadable', string> = {
  unauthenticated: 'No valid bearer token: missing, malformed, unknown, revoked or expired. Send `Authorization: Bearer <token>`.',
  insufficient_credits: 'The organization\'s remaining monthly credits are below the call\'s cost (`cost`, `balance`). Nothing was charged.',
  token_ability_missing: 'The token lacks the ability the endpoint needs (`required_ability`). Nothing was executed or charged.',
  two_factor_required: 'The organization requires two-factor sign-in and the token\'s user has none set up.',
  not_found: 'The resource does not exist, or belongs to another organization.',
  method_not_allowed: 'The path exists, with other methods (header `Allow`).',
  token_org_missing: 'The token predates the binding of tokens to organizations; create a new one.',
  validation_failed: 'An argument is invalid; `errors` names each argument with what is wrong with it. Nothing was charged.',
  rate_limited: 'The token\'s requests per minute are used up (60; 10 for heavy operations). Retry after `retry_after_seconds` (header `Retry-After`). Nothing was executed or charged.',
  volume_cap: 'The organization\'s daily cap on rows or documents is reached, or this call would pass it (`unit`, `cap`, `resets_at`: midnight Europe/Berlin). Nothing was charged.',
  backend_unavailable: 'The backend could not complete the call. Nothing was charged; retry after a few seconds.',
  request_unreadable: 'The request could not be read as HTTP (400), or its head is larger than 16 KB (431).',
};

/** Changes per release, newest first. */
const CHANGES: { release: string; changes: string[] }[] = [
  {
    release: '0.1.0',
    changes: [
      'First release: the eleven operations of API v1 over REST, and all but the document upload as MCP tools, '
        + 'bearer tokens with abilities, '
        + 'organizations with monthly credits, rate limits and daily caps, RFC 9457 problems.',
    ],
  },
];

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const inlineCode = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`
    + `<body><h1>${escapeHtml(title)}</h1>\n${body}\n</body></html>\n`;
}

/** `{docs_url}/api/errors`: one section per problem code, its anchor the code. */
export function errorsPage(config: Config): string {
  const sections = Object.entries(MEANINGS).map(([code, meaning]) => {
    const status = code === 'request_unreadable' ? '400, 431' : String(STATUS_OF[code as ProblemCode]);
    return `<h2 id="${code}">${code} (${status})</h2>\n<p>${inlineCode(meaning)}</p>`;
  });
  return page(`juralite ${config.release}: problem codes`, [
    '<p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) whose <code>type</code> links to its code below; <code>code</code> is stable, <code>detail</code> is prose.</p>',
    ...sections,
  ].join('\n'));
}

/** `changelog_url`: the releases and what changed in each. */
export function changelogPage(config: Config): string {
  const releases = CHANGES.map(({ release, changes }) =>
    `<h2 id="${release}">${release}</h2>\n<ul>${changes.map((change) => `<li>${inlineCode(change)}</li>`).join('')}</ul>`);
  return page(`juralite changelog (serving ${config.release})`, releases.join('\n'));
}
