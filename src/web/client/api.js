// The one way the pages reach the service: the public REST API under /api/v1, with the pasted token as a bearer
// header. The token lives in sessionStorage (gone when the tab closes), never in a URL or a cookie.
const TOKEN_KEY = 'juralite.token';
const listeners = new Set();

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  account: null,
  /** credits_remaining of the latest answer. */
  credits: null,
  signIn(token) { sessionStorage.setItem(TOKEN_KEY, token.trim()); },
  signOut() { sessionStorage.removeItem(TOKEN_KEY); session.account = null; session.credits = null; changed(); },
  subscribe(listener) { listeners.add(listener); return () => listeners.delete(listener); },
};

function changed() { for (const listener of listeners) listener(); }

/** An RFC 9457 problem the API answered, or a network failure as one. */
export class ApiProblem extends Error {
  constructor(problem) { super(problem.detail ?? problem.title ?? 'Fehler'); this.problem = problem; }
}

/**
 * Calls the API. `query` becomes the query string (empty values left out); `body` is sent as JSON; `form` as
 * multipart. Answers the parsed body or throws an ApiProblem.
 */
export async function api(path, { method = 'GET', query, body, form } = {}) {
  const url = new URL(`/api/v1${path}`, location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = { accept: 'application/json' };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let payload;
  if (form) payload = form;
  else if (body !== undefined) { headers['content-type'] = 'application/json'; payload = JSON.stringify(body); }
  let response;
  try {
    response = await fetch(url, { method, headers, body: payload, credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    throw new ApiProblem({ status: 0, code: 'network', detail: `Der Dienst ist nicht erreichbar (${error.message}).` });
  }
  const data = await response.json().catch(() => ({ detail: response.statusText }));
  if (!response.ok) throw new ApiProblem({ status: response.status, ...data });
  if (data.credits) { session.credits = data.credits.credits_remaining; changed(); }
  return data;
}

/** Reads who the token acts for (GET /account); throws an ApiProblem (401 for a wrong token). */
export async function loadAccount() {
  session.account = await api('/account');
  changed();
  return session.account;
}

/** A decision id, ECLI or Aktenzeichen as one path segment (the slash of an Aktenzeichen encoded). */
export const segment = (value) => encodeURIComponent(value);

/** The price of checking a text of `length` code points: 2 up to 5,000, one more per further 5,000 started. */
export const checkPrice = (length) => 2 + Math.max(0, Math.ceil((length - 5000) / 5000));

/** Offers `data` as a file download (no server round trip; the page's own blob URL). */
export function download(name, data, type = 'application/json') {
  const blob = new Blob([typeof data === 'string' ? data : JSON.stringify(data, null, 2)], { type });
  const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
