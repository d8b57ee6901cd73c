import { h } from './preact.js';
import { useEffect, useState } from './preact-hooks.js';
import htm from './htm.js';
import { ApiProblem } from './api.js';

export const html = htm.bind(h);

const ABILITY_NAMES = { search: 'Suche', read: 'Lesen', graph: 'Zitiergraph', datapackage: 'Datenpakete', 'citation-check': 'Zitatprüfung' };
export const abilityName = (ability) => ABILITY_NAMES[ability] ?? ability;

const PROBLEM_HINTS = {
  401: 'Bitte melden Sie sich mit einem gültigen Token an.',
  402: 'Das Guthaben der Organisation reicht für diesen Aufruf nicht.',
  403: 'Dem Token fehlt eine Fähigkeit für diesen Aufruf.',
  429: 'Zu viele Aufrufe; bitte kurz warten.',
};

/** A problem as a person reads it: the hint for its status and the service's own words. */
export function ProblemBox({ error }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error.problem : { detail: String(error.message ?? error) };
  const fields = problem.errors ? Object.entries(problem.errors).map(([name, messages]) => `${name}: ${messages.join('; ')}`) : [];
  return html`<div class="problem" role="alert">
    <strong>${PROBLEM_HINTS[problem.status] ?? 'Das hat nicht geklappt.'}</strong>
    <p>${problem.detail}</p>
    ${fields.length ? html`<ul>${fields.map((line) => html`<li>${line}</li>`)}</ul>` : null}
    ${problem.status === 401 ? html`<p><a href="/anmelden">Zur Anmeldung</a></p>` : null}
  </div>`;
}

/** Runs `load` whenever `deps` change: { data, error, loading }. */
export function useLoad(load, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  useEffect(() => {
    let live = true;
    setState({ data: null, error: null, loading: true });
    Promise.resolve().then(load).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ data: null, error, loading: false }));
    return () => { live = false; };
  }, deps);
  return state;
}

/** A snippet with the service's <mark> tags as marks; all else is text (never parsed as HTML). */
export function Snippet({ text }) {
  let marked = false;
  const parts = [];
  for (const part of (text ?? '').split(/(<mark>|<\/mark>)/u)) {
    if (part === '<mark>') marked = true;
    else if (part === '</mark>') marked = false;
    else if (part) parts.push(marked ? html`<mark>${part}</mark>` : part);
  }
  return html`<span class="snippet">${parts}</span>`;
}

export const dateDe = (iso) => (iso ? new Date(`${iso.slice(0, 10)}T12:00:00Z`).toLocaleDateString('de-DE', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }) : '');
export const numberDe = (n) => (typeof n === 'number' ? n.toLocaleString('de-DE') : n);
export const decisionHref = (id, rn) => `/entscheidung/${encodeURIComponent(id)}${rn ? `#rn-${rn}` : ''}`;
export const unitHref = (law, unit) => `/gesetz/${encodeURIComponent(law)}/${encodeURIComponent(unit.replace(/^(§|Art\.)\s*/u, (m) => (m.startsWith('§') ? '' : 'Art. ')))}`;

export function Loading({ what = 'Wird geladen' }) {
  return html`<p class="loading" role="status">${what} …</p>`;
}

/** The page's title in the tab. */
export function useTitle(title) {
  useEffect(() => { document.title = title ? `${title} · juralite` : 'juralite'; }, [title]);
}
