import { useState } from './preact-hooks.js';
import { html, ProblemBox, decisionHref, useTitle } from './ui.js';
import { api, download } from './api.js';

// Up to 10 decisions collected for one datapackage (the API's limit); kept in localStorage: ids, no secrets.
const KEY = 'juralite.basket';
export const BASKET_MAX = 10;
const listeners = new Set();

export const basket = () => JSON.parse(localStorage.getItem(KEY) ?? '[]');
export const basketSize = () => basket().length;
export const inBasket = (id) => basket().some((item) => item.id === id);
export const onBasket = (listener) => { listeners.add(listener); return () => listeners.delete(listener); };

function save(items) {
  localStorage.setItem(KEY, JSON.stringify(items));
  for (const listener of listeners) listener();
}

/** Adds a decision; false when the basket is full. */
export function addToBasket(item) {
  const items = basket();
  if (items.some((held) => held.id === item.id)) return true;
  if (items.length >= BASKET_MAX) return false;
  save([...items, item]);
  return true;
}

export const removeFromBasket = (id) => save(basket().filter((item) => item.id !== id));

export function BasketPage() {
  useTitle('Korb');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [fullText, setFullText] = useState(false);
  const items = basket();
  const build = async () => {
    setBusy(true);
    setError(null);
    try {
      const pack = await api('/datapackages', { method: 'POST', body: { ids: items.map((item) => item.id), include_citations: true, full_text: fullText } });
      download(`juralite-datenpaket-${new Date().toISOString().slice(0, 10)}.json`, pack);
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  return html`<section class="narrow">
    <h1>Korb für ein Datenpaket</h1>
    <p>Bis zu ${BASKET_MAX} Entscheidungen, als ein JSON-Datenpaket mit ihren Zitierungen herunterzuladen (5 Credits).</p>
    ${items.length === 0 ? html`<p>Der Korb ist leer. Entscheidungen legen Sie auf ihrer Seite in den Korb.</p>` : html`
      <ol class="basket">${items.map((item) => html`<li>
        <a href=${decisionHref(item.id)}>${item.label}</a>
        <button type="button" class="small" onClick=${() => removeFromBasket(item.id)} aria-label=${`${item.label} entfernen`}>Entfernen</button>
      </li>`)}</ol>
      <label class="inline"><input type="checkbox" checked=${fullText} onChange=${(e) => setFullText(e.target.checked)} /> Volltexte statt Auszügen</label>
      <p><button type="button" onClick=${build} disabled=${busy}>Datenpaket herunterladen (JSON)</button></p>`}
    <${ProblemBox} error=${error} />
  </section>`;
}
