// Where each source's table of contents lives, and how a mirror (--base-url) serves the same paths.

/** The official tables of contents. */
export const TOC_URLS = {
  gii: 'https://www.gesetze-im-internet.de/gii-toc.xml',
  rii: 'https://www.rechtsprechung-im-internet.de/rii-toc.xml',
} as const;

/** How coverage ranges name the source a sync read. */
export const SOURCE_NAMES = { gii: 'gesetze-im-internet.de', rii: 'rechtsprechung-im-internet.de' } as const;

/**
 * The URL to fetch for a link: on a mirror the same path (and query) under the base URL; on the official hosts,
 * which list their links as http://, https.
 *
 * @example fetchUrl('http://www.gesetze-im-internet.de/gg/xml.zip', 'http://127.0.0.1:8081/m') // 'http://127.0.0.1:8081/m/gg/xml.zip'
 */
export function fetchUrl(link: string, baseUrl?: string): string {
  const url = new URL(link);
  if (baseUrl) return `${baseUrl.replace(/\/+$/u, '')}${url.pathname}${url.search}`;
  if (url.protocol === 'http:' && /(^|\.)(gesetze|rechtsprechung)-im-internet\.de$/u.test(url.hostname)) url.protocol = 'https:';
  return url.toString();
}

/** Checks --base-url: an absolute http(s) URL. */
export function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--base-url ${value} is no absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--base-url ${value} is no http(s) URL`);
  return value;
}
