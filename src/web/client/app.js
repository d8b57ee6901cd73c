import { render } from './preact.js';
import { useEffect, useState } from './preact-hooks.js';
import { html } from './ui.js';
import { onNavigate } from './router.js';
import { session, loadAccount } from './api.js';
import { AccountBadge, SignInPage, StartPage } from './account.js';
import { SearchPage } from './search.js';
import { DecisionPage } from './decision.js';
import { BasketPage, basketSize, onBasket } from './basket.js';
import { CheckPage } from './check.js';
import { CoveragePage } from './coverage.js';
import { LawPage } from './law.js';
import { McpPage } from './mcp.js';

const NAV = [
  ['/recherche', 'Recherche'], ['/pruefung', 'Zitatprüfung'], ['/bestand', 'Bestand'], ['/korb', 'Korb'],
  ['/referenz', 'API'], ['/mcp-einrichtung', 'MCP'],
];

/** The page for a path; each page has its own stable URL. */
function pageFor(path) {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  switch (parts[0]) {
    case undefined: return html`<${StartPage} />`;
    case 'anmelden': return html`<${SignInPage} />`;
    case 'recherche': return html`<${SearchPage} />`;
    case 'entscheidung': return html`<${DecisionPage} id=${parts.slice(1).join('/')} />`;
    case 'korb': return html`<${BasketPage} />`;
    case 'pruefung': return html`<${CheckPage} run=${parts[1]} />`;
    case 'bestand': return html`<${CoveragePage} />`;
    case 'gesetz': return html`<${LawPage} law=${parts[1]} unit=${parts.slice(2).join('/')} />`;
    case 'mcp-einrichtung': return html`<${McpPage} />`;
    default: return html`<p>Diese Seite gibt es nicht. <a href="/">Zur Startseite</a></p>`;
  }
}

function App() {
  // The whole address: a new query string (another search) is another page too.
  const [, setHref] = useState(location.href);
  const path = location.pathname;
  const [, setTick] = useState(0);
  useEffect(() => onNavigate(() => setHref(location.href)), []);
  useEffect(() => session.subscribe(() => setTick((n) => n + 1)), []);
  useEffect(() => onBasket(() => setTick((n) => n + 1)), []);
  useEffect(() => { if (session.token() && !session.account) loadAccount().catch(() => {}); }, []);
  const current = (href) => (path === href || path.startsWith(`${href}/`) ? 'page' : undefined);
  return html`
    <a class="skip" href="#inhalt">Zum Inhalt</a>
    <header class="top">
      <a class="brand" href="/">juralite</a>
      <nav aria-label="Seiten">
        ${NAV.map(([href, label]) => html`<a href=${href} aria-current=${current(href)}>${label}${href === '/korb' && basketSize() ? ` (${basketSize()})` : ''}</a>`)}
      </nav>
      <${AccountBadge} />
    </header>
    <main id="inhalt" tabindex="-1">${pageFor(path)}</main>
    <footer class="bottom">juralite · Entscheidungen ohne Prüfung der Fortgeltung: eine Entscheidung kann aufgehoben oder überholt sein.</footer>`;
}

render(html`<${App} />`, document.getElementById('app'));
