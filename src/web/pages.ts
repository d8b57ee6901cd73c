// The pages for people at `/`: one HTML shell for every page (the client routes by path, so each page has a stable
// URL), the reference page with Scalar, and the assets. The pages call nothing but the public REST API under
// /api/v1, with the token a person pastes (kept in sessionStorage, sent as a bearer header); no cookie is set or read.
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { baseHeaders, problemResponse } from '../http/responses.ts';
import { gunzipped, webAsset } from './assets.ts';

/** The paths of the pages; `**` is the rest of the path (a decision's id, a law and its unit). */
export const PAGE_PATHS = ['/', '/anmelden', '/recherche', '/entscheidung/**', '/korb', '/pruefung', '/pruefung/**',
  '/bestand', '/gesetz/**', '/mcp-einrichtung'] as const;
export const REFERENCE_PATH = '/referenz';

/**
 * Nothing runs but the process's own scripts, nothing is fetched from elsewhere, no page can frame these. The
 * reference page alone allows inline styles: Scalar (Vue) writes style elements and attributes as it renders.
 */
function contentSecurityPolicy(inlineStyles = false): string {
  return [
    "default-src 'none'", "script-src 'self'", `style-src 'self'${inlineStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data: blob:", "font-src 'self'", "connect-src 'self'", "manifest-src 'self'",
    "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
  ].join('; ');
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

const head = (title: string, extra = '') => `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${title}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
${extra}`;

const SHELL = `${head('juralite', `<link rel="stylesheet" href="/assets/style.css">
<link rel="stylesheet" href="/assets/uplot.css">
<script type="module" src="/assets/app.js"></script>`)}
</head>
<body>
<div id="app"><noscript><p>Diese Seiten brauchen JavaScript. Die API steht unter <a href="/api/v1/openapi.json">/api/v1</a>.</p></noscript></div>
</body>
</html>
`;

const REFERENCE_PAGE = `${head('API-Referenz · juralite', `<link rel="stylesheet" href="/assets/style.css">
<script src="/assets/scalar.js" defer></script>
<script type="module" src="/assets/reference.js"></script>`)}
</head>
<body class="reference">
<header class="reference-bar"><a href="/">juralite</a> · API-Referenz (aus <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>)</header>
<div id="api-reference"></div>
</body>
</html>
`;

function html(config: Config, body: string, inlineStyles = false): Response {
  const headers = baseHeaders(config, 'text/html; charset=utf-8', {
    ...SECURITY_HEADERS, 'content-security-policy': contentSecurityPolicy(inlineStyles), 'cache-control': 'no-cache',
  });
  return new FastResponse(body, { status: 200, statusText: 'OK', headers });
}

function asset(config: Config, event: H3Event): Response {
  const name = event.url.pathname.slice('/assets/'.length);
  const file = webAsset(name);
  if (!file) return problemResponse(new ApiError('not_found', `No asset ${name}; the pages start at /.`), config);
  const headers = baseHeaders(config, file.type, {
    ...SECURITY_HEADERS, 'cache-control': 'no-cache', etag: file.etag, vary: 'accept-encoding',
  });
  if (event.req.headers.get('if-none-match') === file.etag) {
    return new FastResponse(null, { status: 304, statusText: 'Not Modified', headers });
  }
  const acceptsGzip = /\bgzip\b/u.test(event.req.headers.get('accept-encoding') ?? '');
  if (file.gzip && acceptsGzip) headers.set('content-encoding', 'gzip');
  const body = file.gzip && !acceptsGzip ? gunzipped(file) : file.body;
  return new FastResponse(new Uint8Array(body), { status: 200, statusText: 'OK', headers });
}

/**
 * Mounts the pages and their assets on the app (GET and HEAD); an asset name not in the table is a 404 problem.
 *
 * @example mountPages(app, services.config)   // before the app's catch-all route
 */
export function mountPages(app: H3, config: Config): void {
  const routes: [string, (event: H3Event) => Response][] = [
    ...PAGE_PATHS.map((path) => [path, () => html(config, SHELL)] as [string, () => Response]),
    [REFERENCE_PATH, () => html(config, REFERENCE_PAGE, true)],
    ['/assets/**', (event) => asset(config, event)],
  ];
  for (const [path, answer] of routes) {
    app.get(path, answer);
    app.on('HEAD', path, answer);
  }
}
