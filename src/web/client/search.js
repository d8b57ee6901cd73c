import { useState } from './preact-hooks.js';
import { html, ProblemBox, Snippet, Loading, useLoad, useTitle, dateDe, numberDe, decisionHref, unitHref } from './ui.js';
import { api } from './api.js';
import { navigate, queryOf } from './router.js';

const BRANCHES = ['ordentlich', 'verwaltung', 'sozial', 'arbeit', 'finanz', 'verfassung', 'patent', 'unbekannt'];
const DOCUMENT_TYPES = ['Urteil', 'Beschluss', 'Verfügung', 'Sonstige', 'Gerichtsbescheid', 'Schlussanträge'];
const MODES = [['', 'automatisch (hybrid)'], ['keyword', 'Stichwort'], ['semantic', 'Bedeutung'], ['hybrid', 'hybrid']];
const CONFIDENCE = { high: 'hoch', medium: 'mittel', low: 'niedrig' };
const FILTERS = ['court', 'branch', 'document_type', 'date_from', 'date_to', 'cited_norm', 'mode'];

/**
 * An ECLI or an Aktenzeichen (VI ZR 496/18, 1 BvR 123/20, B 4 AS 17/20 R, 7 U 123/18, the Bavarian 11 CS 19.1093 and
 * M 12 K 20.456, I-4 U 22/18, 1Z BR 12/02, a suffix as in 34 Wx 240/23 e): open the decision itself.
 */
export function namesDecision(query) {
  const text = query.trim();
  return /^ECLI:[A-Z]{2}:[A-Z0-9.]+:\d{4}:[A-Z0-9.]+$/iu.test(text)
    || /^(?:I-|[A-Z]{1,2}\s)?(?:\d{1,3}[A-Z]?|[IVXL]{1,6})\s?[A-Za-zÄÖÜ]{1,6}(?:\s?[A-Za-z]{1,4})?\s\d{1,5}[/.]\d{2,4}(?:\s?(?:[A-Z]{1,2}|[a-z]|\(\d\)))?$/u.test(text);
}

function FacetOptions({ field }) {
  const { data } = useLoad(() => api(`/corpus/facets/${field}`, { query: { type: 'decision' } }), [field]);
  const values = data ? Object.entries(data.values).sort(([a], [b]) => a.localeCompare(b, 'de')) : [];
  return values.map(([value, count]) => html`<option value=${value}>${value} (${numberDe(count.value)})</option>`);
}

function DecisionItem({ item }) {
  const rn = item.snippets?.[0]?.rn;
  return html`<li class="result decision">
    <a class="title" href=${decisionHref(item.id, rn)}>${item.court}, ${item.document_type ?? ''} vom ${dateDe(item.date)} – ${item.aktenzeichen}</a>
    ${item.title ? html`<div class="subtitle">${item.title}</div>` : null}
    <p><${Snippet} text=${item.snippet} /></p>
    <div class="meta"><span class=${`confidence c-${item.confidence}`}>Treffersicherheit: ${CONFIDENCE[item.confidence] ?? item.confidence}</span>
      ${item.rn_range ? html` · Rn. ${item.rn_range}` : null}${item.chunk_title ? html` · ${item.chunk_title}` : null}</div>
  </li>`;
}

function LawItem({ item }) {
  const unit = /^(§|Art\.)\s*\S+/u.exec(item.title)?.[0];
  return html`<li class="result law">
    <a class="title" href=${unit ? unitHref(item.abbreviation, unit) : '#'}>${item.title}</a>
    ${item.breadcrumb ? html`<div class="subtitle">${item.breadcrumb}</div>` : null}
    <p><${Snippet} text=${item.snippet} /></p>
  </li>`;
}

function Expansion({ expansion }) {
  if (!expansion) return null;
  // The API's note is English; the page says in German what happened and keeps the codes for the curious.
  if (!expansion.applied) return html`<p class="expansion" title=${expansion.note ?? ''}>Gesucht wie eingegeben (keine Anfrageerweiterung).</p>`;
  return html`<p class="expansion">Anfrageerweiterung angewandt${expansion.note ? html` – ${expansion.note}` : null}</p>`;
}

function Results({ query }) {
  const page = Number(query.page ?? 0);
  const filters = Object.fromEntries(FILTERS.map((name) => [name, query[name]]));
  const state = useLoad(() => (page > 0
    ? api('/decisions/search', { query: { query: query.q, ...filters, page, limit: 20 } })
    : api('/search', { query: { query: query.q, ...filters, limit: 10 } })), [location.search]);
  if (state.loading) return html`<${Loading} what="Suche läuft" />`;
  if (state.error) return html`<${ProblemBox} error=${state.error} />`;
  const data = state.data;
  const decisions = page > 0 ? data.results : data.sections.decisions;
  const total = page > 0 ? data.total_available : data.section_totals.decisions.total_available;
  const goTo = (n) => { const next = new URLSearchParams(location.search); next.set('page', String(n)); navigate(`/recherche?${next}`); };
  return html`<div class="results">
    <p class="summary" role="status">${numberDe(total.value)}${total.is_floor ? '+' : ''} Entscheidungen · Modus ${data.mode} · Treffersicherheit ${CONFIDENCE[data.top_confidence] ?? data.top_confidence}</p>
    <${Expansion} expansion=${data.query_expansion} />
    ${page === 0 && data.sections.laws.length ? html`<h2>Normen</h2><ol class="list">${data.sections.laws.map((item) => html`<${LawItem} item=${item} />`)}</ol>` : null}
    <h2>Entscheidungen${page > 0 ? ` – Seite ${page}` : ''}</h2>
    ${decisions.length ? html`<ol class="list">${decisions.map((item) => html`<${DecisionItem} item=${item} />`)}</ol>` : html`<p>Keine Entscheidungen gefunden.</p>`}
    <nav class="pager" aria-label="Seiten der Ergebnisse">
      ${page > 1 ? html`<button type="button" onClick=${() => goTo(page - 1)}>Vorherige Seite</button>` : null}
      ${page === 0 && total.value > decisions.length ? html`<button type="button" onClick=${() => goTo(1)}>Alle Entscheidungen (je 20, 1 Credit)</button>` : null}
      ${page > 0 && page < 10 && total.value > page * 20 ? html`<button type="button" onClick=${() => goTo(page + 1)}>Nächste Seite</button>` : null}
    </nav>
  </div>`;
}

export function SearchPage() {
  const query = queryOf();
  useTitle(query.q ? `Recherche: ${query.q}` : 'Recherche');
  const [open, setOpen] = useState(FILTERS.some((name) => query[name]));
  const submit = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const q = String(form.get('q')).trim();
    if (namesDecision(q)) return navigate(`/entscheidung/${encodeURIComponent(q)}`);
    const params = new URLSearchParams();
    for (const [name, value] of form) if (String(value).trim()) params.set(name, String(value).trim());
    navigate(`/recherche?${params}`);
  };
  return html`<section>
    <h1>Recherche</h1>
    <form class="search" onSubmit=${submit} role="search" key=${location.search}>
      <label for="q" class="visually-hidden">Suchanfrage</label>
      <input id="q" name="q" type="search" required minlength="2" maxlength="500" value=${query.q ?? ''}
        placeholder="z. B. Mietminderung wegen Baulärm, § 536 BGB, VIII ZR 123/19 oder ECLI" />
      <button type="submit">Suchen</button>
      <details open=${open} onToggle=${(e) => setOpen(e.target.open)}>
        <summary>Filter</summary>
        <div class="filters">
          <label>Gericht<select name="court" value=${query.court ?? ''}><option value="">alle</option><${FacetOptions} field="court_name" /></select></label>
          <label>Gerichtsbarkeit<select name="branch" value=${query.branch ?? ''}><option value="">alle</option>${BRANCHES.map((b) => html`<option>${b}</option>`)}</select></label>
          <label>Dokumenttyp<select name="document_type" value=${query.document_type ?? ''}><option value="">alle</option>${DOCUMENT_TYPES.map((t) => html`<option>${t}</option>`)}</select></label>
          <label>Datum von<input type="date" name="date_from" value=${query.date_from ?? ''} /></label>
          <label>Datum bis<input type="date" name="date_to" value=${query.date_to ?? ''} /></label>
          <label>Zitierte Norm<input name="cited_norm" placeholder="§ 536 BGB" value=${query.cited_norm ?? ''} /></label>
          <label>Modus<select name="mode" value=${query.mode ?? ''}>${MODES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select></label>
        </div>
      </details>
    </form>
    <p class="hint">Eine Suche kostet 1 Credit; dieselbe Suche im selben Monat ist frei.</p>
    ${query.q ? html`<${Results} query=${query} />` : null}
  </section>`;
}
