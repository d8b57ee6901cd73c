import { useEffect, useState } from './preact-hooks.js';
import { html, ProblemBox, Loading, useLoad, useTitle, dateDe, decisionHref, unitHref } from './ui.js';
import { api, segment } from './api.js';
import { addToBasket, inBasket, removeFromBasket, BASKET_MAX } from './basket.js';
import { CitationGraph } from './graph.js';

/** Loads the whole text and where it cites what (GET /decisions/{id} and /text-citations, 1 credit each). */
async function loadDecision(id) {
  const decision = await api(`/decisions/${segment(id)}`, { query: { max_chars: 10_000_000 } });
  const marks = await api(`/decisions/${segment(decision.id)}/text-citations`);
  return { decision, marks };
}

/** A statute's text shown beside its citation on hover, focus or click (GET /laws/{law}/units/{unit}, free). */
function StatutePreview({ citation }) {
  const state = useLoad(() => api(`/laws/${segment(citation.law)}/units/${segment(citation.unit)}`), [citation.law, citation.unit]);
  if (state.loading) return html`<${Loading} />`;
  if (state.error) return html`<${ProblemBox} error=${state.error} />`;
  const { unit, law } = state.data;
  return html`<div><strong>${unit.citation}</strong>${unit.heading ? ` – ${unit.heading}` : ''}
    <p class="law-text">${unit.text ?? 'Der Text dieser Vorschrift ist nicht im Bestand.'}</p>
    <a href=${unitHref(law.abbreviation, unit.label)}>Vorschrift öffnen</a></div>`;
}

function Popover({ citation, onClose }) {
  useEffect(() => {
    const close = (event) => event.key === 'Escape' && onClose();
    addEventListener('keydown', close);
    return () => removeEventListener('keydown', close);
  }, []);
  const target = citation.decision;
  return html`<aside class="popover" role="dialog" aria-label=${citation.canonical}>
    <button type="button" class="close" onClick=${onClose} aria-label="Schließen">×</button>
    ${citation.type === 'statute'
      ? html`<${StatutePreview} citation=${citation} />`
      : target
        ? html`<div><strong>${citation.canonical}</strong><p>${target.court}, ${dateDe(target.date)}, ${target.aktenzeichen}</p><a href=${decisionHref(target.id)}>Entscheidung öffnen</a></div>`
        : html`<div><strong>${citation.canonical}</strong><p>Diese Entscheidung ist nicht (eindeutig) im Bestand.</p></div>`}
  </aside>`;
}

function Citation({ citation, text, onShow }) {
  const href = citation.type === 'statute'
    ? (citation.law_text_held ? unitHref(citation.law, citation.unit) : null)
    : (citation.decision ? decisionHref(citation.decision.id) : null);
  const kind = `cite ${citation.type}${href ? '' : ' unresolved'}`;
  const show = () => onShow(citation);
  if (!href) return html`<button type="button" class=${kind} onClick=${show} title=${`${citation.canonical}: nicht im Bestand`}>${text}</button>`;
  return html`<a class=${kind} href=${href} onMouseEnter=${show} onFocus=${show} title=${citation.canonical}>${text}</a>`;
}

/** The text as the court publishes it: sections as headings, Randnummern as anchors (#rn-12), citations linked. */
function DecisionText({ text, marks, onShow }) {
  const points = Array.from(text);
  const slice = (from, to) => points.slice(from, to).join('');
  const rnAt = new Map(marks.randnummern.map((r) => [r.start_offset, r.rn]));
  const sectionAt = new Map(marks.sections.map((s) => [s.start_offset, s.name]));
  const citations = [...marks.citations].sort((a, b) => a.start_offset - b.start_offset);
  const lines = [];
  let start = 0;
  for (let i = 0; i <= points.length; i += 1) {
    if (i === points.length || points[i] === '\n') { if (i > start) lines.push([start, i]); start = i + 1; }
  }
  return lines.map(([from, to]) => {
    const section = sectionAt.get(from);
    if (section && slice(from, to).trim() === section) return html`<h2 id=${`abschnitt-${section}`}>${section}</h2>`;
    const rn = rnAt.get(from);
    let bodyFrom = from;
    if (rn !== undefined) {
      const number = /^\d+\s*/u.exec(slice(from, Math.min(to, from + 8)));
      if (number) bodyFrom += Array.from(number[0]).length;
    }
    const parts = [];
    let at = bodyFrom;
    for (const c of citations) {
      if (c.end_offset <= at || c.start_offset >= to) continue;
      const s = Math.max(c.start_offset, at);
      const e = Math.min(c.end_offset, to);
      if (s > at) parts.push(slice(at, s));
      parts.push(html`<${Citation} citation=${c} text=${slice(s, e)} onShow=${onShow} />`);
      at = e;
    }
    if (at < to) parts.push(slice(at, to));
    return rn !== undefined
      ? html`<p class="rn" id=${`rn-${rn}`}><a class="rn-number" href=${`#rn-${rn}`} aria-label=${`Randnummer ${rn}`}>${rn}</a><span>${parts}</span></p>`
      : html`<p>${parts}</p>`;
  });
}

export function DecisionPage({ id }) {
  const state = useLoad(() => loadDecision(id), [id]);
  const [preview, setPreview] = useState(null);
  const [showGraph, setShowGraph] = useState(false);
  const [, setTick] = useState(0);
  const decision = state.data?.decision;
  useTitle(decision ? `${decision.court} ${decision.aktenzeichen}` : 'Entscheidung');
  useEffect(() => {
    // Opened at a Randnummer (/entscheidung/…#rn-12): there, once the text is drawn.
    // A fragment navigation to the same address scrolls there and makes the paragraph the :target.
    if (decision && location.hash && document.getElementById(location.hash.slice(1))) location.replace(location.href);
  }, [decision]);
  if (state.loading) return html`<${Loading} what="Entscheidung wird geladen" />`;
  if (state.error) {
    // An Aktenzeichen held by several decisions: the service names them; each becomes a link.
    const candidates = [...String(state.error.problem?.errors?.id ?? '').matchAll(/([^;:]+?), (\d{4}-\d{2}-\d{2}) \(id ([0-9a-f-]{36})\)/gu)];
    return html`<section><h1>Entscheidung</h1><${ProblemBox} error=${state.error} />
      ${candidates.length ? html`<ul class="candidates">${candidates.map(([, court, date, uuid]) => html`<li><a href=${decisionHref(uuid)}>${court.trim()}, ${dateDe(date)} – ${id}</a></li>`)}</ul>` : null}</section>`;
  }
  const { marks } = state.data;
  const label = `${decision.court}, ${decision.metadata.document_type} vom ${dateDe(decision.date)} – ${decision.aktenzeichen}`;
  const held = inBasket(decision.id);
  const toggleBasket = () => {
    if (held) removeFromBasket(decision.id);
    else if (!addToBasket({ id: decision.id, label })) alert(`Der Korb fasst ${BASKET_MAX} Entscheidungen.`);
    setTick((n) => n + 1);
  };
  return html`<article class="decision">
    <header>
      <h1>${label}</h1>
      ${decision.metadata.title ? html`<p class="subtitle">${decision.metadata.title}</p>` : null}
      <dl class="facts">
        ${decision.metadata.ecli ? html`<dt>ECLI</dt><dd>${decision.metadata.ecli}</dd>` : null}
        ${decision.metadata.chamber ? html`<dt>Spruchkörper</dt><dd>${decision.metadata.chamber}</dd>` : null}
        ${decision.metadata.norms ? html`<dt>Normen</dt><dd>${decision.metadata.norms}</dd>` : null}
        <dt>Randnummern</dt><dd>${decision.has_rn_anchors ? `Rn. ${decision.available_range.rn_from} bis ${decision.available_range.rn_to}, wie vom Gericht gedruckt` : 'keine gedruckt'}</dd>
      </dl>
      <p class="notice">Fortgeltung nicht geprüft: Die Entscheidung kann aufgehoben oder überholt sein.</p>
      <nav class="toolbar" aria-label="Abschnitte und Werkzeuge">
        ${decision.available_sections.map((name) => html`<a href=${`#abschnitt-${name}`}>${name}</a>`)}
        <button type="button" onClick=${toggleBasket} aria-pressed=${held}>${held ? 'Aus dem Korb' : 'In den Korb'}</button>
        <button type="button" onClick=${() => setShowGraph(true)} disabled=${showGraph}>Zitiergraph (Tiefe 2, 4 Credits)</button>
      </nav>
    </header>
    ${showGraph ? html`<${CitationGraph} id=${decision.id} />` : null}
    <div class="decision-text">
      <${DecisionText} text=${decision.full_text} marks=${marks} onShow=${setPreview} />
    </div>
    ${preview ? html`<${Popover} citation=${preview} onClose=${() => setPreview(null)} key=${preview.start_offset} />` : null}
  </article>`;
}
