import { html, ProblemBox, Loading, useLoad, useTitle, dateDe, decisionHref, unitHref } from './ui.js';
import { api, segment } from './api.js';

/** One § or article: /gesetz/BGB/823, /gesetz/DSGVO/Art. 6 (GET /laws/{law}/units/{unit}, free). */
export function LawPage({ law, unit }) {
  const state = useLoad(() => api(`/laws/${segment(law)}/units/${segment(unit || '1')}`), [law, unit]);
  const data = state.data;
  useTitle(data ? data.unit.citation : `${law} ${unit}`);
  if (state.loading) return html`<${Loading} />`;
  if (state.error) return html`<section><h1>${unit} ${law}</h1><${ProblemBox} error=${state.error} /></section>`;
  const { unit: u, law: l } = data;
  return html`<article class="law">
    <p class="breadcrumb">${l.title ?? l.abbreviation}${u.breadcrumb ? ` › ${u.breadcrumb}` : ''}</p>
    <h1>${u.citation}${u.heading ? html` <small>${u.heading}</small>` : null}</h1>
    ${u.repealed ? html`<p class="notice">(weggefallen)</p>` : null}
    ${u.text ? u.text.split('\n').map((line) => html`<p class="absatz">${line}</p>`) : html`<p class="notice">Der Text dieser Vorschrift ist nicht im Bestand (nur das Verzeichnis der Artikel).</p>`}
    <nav class="pager" aria-label="Benachbarte Vorschriften">
      ${data.previous ? html`<a rel="prev" href=${unitHref(l.abbreviation, data.previous.label)}>← ${data.previous.label}</a>` : null}
      ${data.next ? html`<a rel="next" href=${unitHref(l.abbreviation, data.next.label)}>${data.next.label} →</a>` : null}
    </nav>
    <h2>Zitiert in ${data.cited_by_total} Entscheidungen des Bestands</h2>
    <ul>${data.cited_by.map((d) => html`<li><a href=${decisionHref(d.id)}>${d.court}, ${dateDe(d.date)} – ${d.aktenzeichen}</a></li>`)}</ul>
    <p class="hint">${l.stand ?? ''}</p>
  </article>`;
}
