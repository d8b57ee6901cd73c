import { useState } from './preact-hooks.js';
import { html, ProblemBox, abilityName, numberDe, useTitle, dateDe } from './ui.js';
import { session, loadAccount } from './api.js';
import { navigate } from './router.js';

/** Organization and credits left in the header, or the way to sign in. */
export function AccountBadge() {
  const account = session.account;
  if (!session.token()) return html`<a class="account" href="/anmelden">Anmelden</a>`;
  return html`<a class="account" href="/anmelden" title="Konto">
    ${account ? account.organization.name : 'Angemeldet'}
    ${session.credits !== null ? html` · <span class="credits" data-credits=${session.credits}>${numberDe(session.credits)} Credits</span>` : null}
  </a>`;
}

function AccountDetails({ account }) {
  return html`<dl class="facts account-details">
    <dt>Organisation</dt><dd class="org-name">${account.organization.name} (Tarif ${account.organization.plan})</dd>
    <dt>Fähigkeiten</dt><dd class="abilities">${account.token.abilities.map((a) => html`<span class="chip">${abilityName(a)}</span>`)}</dd>
    <dt>Guthaben</dt><dd><strong class="balance">${numberDe(account.balance.total)}</strong> Credits
      (${numberDe(account.balance.monthly)} aus dem Monatskontingent von ${numberDe(account.balance.monthly_allotment)}, ${numberDe(account.balance.bonus)} Startguthaben)</dd>
    <dt>Heute</dt><dd>${numberDe(account.daily_caps.rows.used)} von ${numberDe(account.daily_caps.rows.cap)} Trefferzeilen,
      ${numberDe(account.daily_caps.documents.used)} von ${numberDe(account.daily_caps.documents.cap)} Volltexten</dd>
    <dt>Token gültig bis</dt><dd>${dateDe(account.token.expires_at)}</dd>
  </dl>`;
}

export function SignInPage() {
  useTitle('Anmelden');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const token = new FormData(event.target).get('token').trim();
    setBusy(true);
    setError(null);
    session.signIn(token);
    try {
      await loadAccount();
      event.target.reset();
    } catch (problem) {
      // A token without `read` still works for what it may do; only the account stays unknown.
      if (problem.problem?.code !== 'token_ability_missing') session.signOut();
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  const account = session.account;
  return html`<section class="narrow">
    <h1>Anmelden</h1>
    ${account ? html`<${AccountDetails} account=${account} />
      <p><button type="button" onClick=${() => { session.signOut(); navigate('/anmelden'); }}>Abmelden</button></p>` : null}
    <form onSubmit=${submit} class="stack">
      <label for="token">API-Token</label>
      <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required placeholder="jl_…" />
      <p class="hint">Das Token bleibt nur in diesem Tab (sessionStorage) und wird als Bearer-Header an die API gesendet;
        es steht nie in einer Adresse. Ein Token erzeugt <code>juralite token create</code>; beim ersten Start liegt eines in <code>data/token.txt</code>.</p>
      <button type="submit" disabled=${busy}>${account ? 'Anderes Token verwenden' : 'Anmelden'}</button>
    </form>
    <${ProblemBox} error=${error} />
  </section>`;
}

export function StartPage() {
  useTitle('');
  const tiles = [
    ['/recherche', 'Recherche', 'Entscheidungen und Gesetze durchsuchen; Aktenzeichen oder ECLI führen direkt zur Entscheidung.'],
    ['/pruefung', 'Zitatprüfung', 'Schriftsatz einfügen oder hochladen: jedes Zitat wird gegen den Bestand geprüft.'],
    ['/bestand', 'Bestand', 'Welche Gerichte und Jahre der Bestand abdeckt, mit Diagrammen.'],
    ['/gesetz/BGB/823', 'Gesetze', 'Normen lesen, z. B. § 823 BGB, mit den Entscheidungen, die sie zitieren.'],
    ['/referenz', 'API-Referenz', 'Alle Endpunkte, aus dem OpenAPI-Dokument dieses Dienstes.'],
    ['/mcp-einrichtung', 'MCP', 'Den Dienst in Claude, Cursor oder VS Code als Werkzeug einbinden.'],
  ];
  return html`<section>
    <h1>Rechtsprechung und Gesetze, selbst betrieben</h1>
    ${session.token() ? null : html`<p class="notice">Zum Suchen und Prüfen bitte zuerst <a href="/anmelden">mit einem API-Token anmelden</a>.</p>`}
    <ul class="tiles">${tiles.map(([href, title, text]) => html`<li><a href=${href}><strong>${title}</strong><span>${text}</span></a></li>`)}</ul>
  </section>`;
}
