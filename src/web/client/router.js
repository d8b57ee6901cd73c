// Paths are the pages' stable URLs: links are ordinary <a href>, followed in place without reloading.
const listeners = new Set();

export function navigate(href, { replace = false } = {}) {
  const url = new URL(href, location.href);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
  if (url.hash) requestAnimationFrame(() => document.getElementById(url.hash.slice(1))?.scrollIntoView());
  else window.scrollTo(0, 0);
}

export function onNavigate(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

addEventListener('popstate', () => { for (const listener of listeners) listener(); });

// Same-origin links to a page are followed in place; downloads, new tabs, the API and the reference page are not.
addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target.closest?.('a[href]');
  if (!link || link.target || link.hasAttribute('download')) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname === '/referenz'
    || url.pathname.startsWith('/docs/')) return;
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
  event.preventDefault();
  navigate(url.href);
});

/** The query parameters of the current URL as an object. */
export const queryOf = () => Object.fromEntries(new URLSearchParams(location.search));
