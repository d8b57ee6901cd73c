import { useEffect, useRef, useState } from './preact-hooks.js';
import { html, ProblemBox, Loading, useTitle, decisionHref, unitHref, dateDe } from './ui.js';
import { api, checkPrice, download, segment } from './api.js';
import { navigate } from './router.js';

const VERDICTS = { verified: 'gefunden', not_found: 'nicht gefunden', not_in_corpus: 'nicht im Bestand', out_of_coverage: 'außerhalb des Bestands', ambiguous: 'mehrdeutig' };
const QUOTATION_CHECKS = { found: 'Zitat gefunden', not_found: 'Zitat nicht gefunden', not_checked: 'Zitat nicht geprüft' };
const verdictName = (verdict) => VERDICTS[verdict] ?? verdict;
/** Formats read in the browser into the text field (offsets then point into exactly that text), and uploaded ones. */
const READ_HERE = /\.(?:txt|md|markdown)$/iu;
const textKey = (run) => `juralite.check-text.${run}`;

/** Why a finding has its verdict, in one line. */
/** What the claims (Randnummer, quotations) came to, in German, where the text claims any (docs/citations.md). */
function claimsOf(finding) {
  if (!finding.claim_check || finding.claim_check === 'not_applicable') return [];
  const lines = [finding.claim_check === 'not_supported' ? 'Angabe nicht belegt' : finding.claim_check === 'supported' ? 'Angabe belegt' : null];
  if (finding.pinpoint) lines.push(`${finding.pinpoint.text}: ${finding.pinpoint_check === 'verified' ? 'vorhanden' : finding.pinpoint_check === 'not_found' ? 'nicht vorhanden' : 'nicht geprüft'}`);
  for (const q of finding.quotations ?? []) {
    const where = q.rn_from ? ` (Rn. ${q.rn_from}${q.rn_to && q.rn_to !== q.rn_from ? `–${q.rn_to}` : ''})` : '';
    const close = q.check === 'not_found' && q.similarity != null ? `, nächste Stelle zu ${Math.round(q.similarity * 100)} % gleich${where}` : where;
    lines.push(`${QUOTATION_CHECKS[q.check] ?? q.check}${q.check === 'found' ? where : close}`);
  }
  return lines.filter(Boolean);
}

function reasonOf(finding) {
  return [...claimsOf(finding), finding.evidence?.reason, finding.subdivision_advisory, finding.pinpoint_advisory,
    finding.ambiguity_advisory, finding.coverage_advisory].filter(Boolean).join(' · ');
}

function targetOf(finding) {
  if (finding.matched_decision) return html`<a href=${decisionHref(finding.matched_decision.artifact_id)}>${finding.matched_decision.court}, ${dateDe(finding.matched_decision.date)}</a>`;
  const statute = /^(§|Art\.)\s*(\S+).*\s(\S+)$/u.exec(finding.type === 'statute' ? finding.canonical : '');
  return statute && finding.verdict === 'verified' ? html`<a href=${unitHref(statute[3], `${statute[1]} ${statute[2]}`)}>Normtext</a>` : null;
}

/** The checked text with each finding marked by verdict; offsets are code points. */
function MarkedText({ text, findings, current }) {
  const points = Array.from(text);
  const parts = [];
  let at = 0;
  for (const [i, f] of findings.entries()) {
    if (f.start_offset < at) continue;
    if (f.start_offset > at) parts.push(points.slice(at, f.start_offset).join(''));
    parts.push(html`<mark id=${`fund-${i}`} class=${`finding v-${f.verdict}${i === current ? ' current' : ''}`} tabindex="-1"
      data-verdict=${f.verdict} title=${`${verdictName(f.verdict)}: ${f.canonical}${reasonOf(f) ? ` (${reasonOf(f)})` : ''}`}>${points.slice(f.start_offset, f.end_offset).join('')}</mark>`);
    at = f.end_offset;
  }
  parts.push(points.slice(at).join(''));
  return html`<div class="checked-text">${parts}</div>`;
}

/** A readable, self-contained HTML report of a run (downloaded; printed from any browser). */
function reportHtml(run, text) {
  const esc = (s) => String(s ?? '').replace(/[&<>"]/gu, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const rows = run.findings.map((f, i) => `<tr class="v-${esc(f.verdict)}"><td>${i + 1}</td><td>${esc(f.raw_text)}</td><td>${esc(f.canonical)}</td><td>${esc(verdictName(f.verdict))}</td><td>${esc(reasonOf(f))}</td></tr>`).join('');
  const counts = Object.entries(run.verdict_counts).map(([v, n]) => `${esc(verdictName(v))}: ${n}`).join(', ');
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Zitatprüfung ${esc(run.id)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem;max-width:60rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
.v-verified td:nth-child(4){color:#126b2f}.v-not_found td:nth-child(4){color:#a11}.v-not_in_corpus td:nth-child(4){color:#35608f}.v-out_of_coverage td:nth-child(4){color:#8a5a00}.v-ambiguous td:nth-child(4){color:#5b2a86}pre{white-space:pre-wrap}</style></head><body>
<h1>Bericht der Zitatprüfung</h1><p>Lauf ${esc(run.id)}, ${esc(run.completed_at)}. ${esc(counts)}.</p>
<table><thead><tr><th>#</th><th>Zitat</th><th>Normalform</th><th>Ergebnis</th><th>Begründung</th></tr></thead><tbody>${rows}</tbody></table>
${text ? `<h2>Geprüfter Text</h2><pre>${esc(text)}</pre>` : ''}<p>Erstellt von juralite. Entscheidungen ohne Prüfung der Fortgeltung.</p></body></html>`;
}

function Result({ run, text }) {
  const [current, setCurrent] = useState(0);
  const [only, setOnly] = useState('');
  const findings = run.findings;
  const shown = findings.map((f, i) => [f, i]).filter(([f]) => !only || f.verdict === only);
  const jump = (i) => {
    setCurrent(i);
    const mark = document.getElementById(`fund-${i}`) ?? document.getElementById(`eintrag-${i}`);
    mark?.scrollIntoView({ block: 'center' });
    mark?.focus({ preventScroll: true });
  };
  const step = (direction) => {
    const order = shown.map(([, i]) => i);
    if (!order.length) return;
    const position = order.indexOf(current);
    jump(order[(position + direction + order.length) % order.length] ?? order[0]);
  };
  useEffect(() => {
    const keys = (event) => {
      if (event.target.closest?.('input, textarea, select')) return;
      if (event.key === 'n' || event.key === 'j') step(1);
      if (event.key === 'p' || event.key === 'k') step(-1);
    };
    addEventListener('keydown', keys);
    return () => removeEventListener('keydown', keys);
  });
  return html`<section class="check-result" aria-label="Ergebnis">
    <div class="toolbar">
      ${Object.entries(run.verdict_counts).map(([verdict, count]) => html`<button type="button" class=${`chip v-${verdict}`} aria-pressed=${only === verdict}
        onClick=${() => setOnly(only === verdict ? '' : verdict)}>${verdictName(verdict)}: ${count}</button>`)}
      <button type="button" onClick=${() => step(-1)} title="Taste p">◀ Vorheriger Fund</button>
      <button type="button" onClick=${() => step(1)} title="Taste n">Nächster Fund ▶</button>
      <button type="button" onClick=${() => download(`zitatpruefung-${run.id}.json`, run)}>JSON</button>
      <button type="button" onClick=${() => download(`zitatpruefung-${run.id}.html`, reportHtml(run, text), 'text/html')}>Bericht (HTML)</button>
      <button type="button" onClick=${() => print()}>Drucken / PDF</button>
    </div>
    <div class="check-grid">
      ${text ? html`<${MarkedText} text=${text} findings=${findings} current=${current} />`
        : html`<p class="hint">Der Text einer hochgeladenen Datei wird nicht ausgeliefert; die Funde stehen in der Liste.</p>`}
      <ol class="findings">${shown.map(([f, i]) => html`<li id=${`eintrag-${i}`} class=${`v-${f.verdict}${i === current ? ' current' : ''}`} tabindex="-1">
        <button type="button" class="link" onClick=${() => jump(i)}><span class=${`badge v-${f.verdict}`}>${verdictName(f.verdict)}</span> ${f.raw_text}</button>
        <div class="meta">${f.canonical}${reasonOf(f) ? ` · ${reasonOf(f)}` : ''} ${targetOf(f)}</div>
      </li>`)}</ol>
    </div>
  </section>`;
}

function CheckForm({ onRun }) {
  const [text, setText] = useState('');
  const [upload, setUpload] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const referenceDate = useRef(null);
  const length = Array.from(text).length;
  const run = async (body, checkedText) => {
    setBusy(true);
    setError(null);
    try {
      onRun(await api('/citation-checks', { method: 'POST', body: { ...body, reference_date: referenceDate.current.value || undefined } }), checkedText);
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  const choose = async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    setError(null);
    setUpload(null);
    if (READ_HERE.test(file.name)) { setText(await file.text()); return; }
    setBusy(true);
    try {
      const form = new FormData();
      form.append('file', file);
      let document = await api('/citation-check-documents', { method: 'POST', form });
      setUpload(document);
      for (let wait = 0; document.status === 'uploaded' && wait < 120; wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        document = await api(`/citation-check-documents/${segment(document.id)}`);
      }
      setUpload(document);
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="stack" onSubmit=${(e) => { e.preventDefault(); run({ text }, text); }}>
    <label for="check-text">Text (50 bis 20.000 Zeichen)</label>
    <textarea id="check-text" rows="10" value=${text} onInput=${(e) => setText(e.target.value)}
      placeholder="Schriftsatz oder Urteil einfügen, z. B. „Der Anspruch folgt aus § 823 Abs. 1 BGB (vgl. BGH, Urteil vom 12. März 2019 – VI ZR 496/18 –).“"></textarea>
    <div class="row">
      <label>Stichtag (optional)<input type="date" ref=${referenceDate} /></label>
      <label>Datei (PDF, DOCX, Markdown, Text)<input type="file" accept=".pdf,.docx,.md,.markdown,.txt" onChange=${choose} /></label>
    </div>
    <p class="price" role="status">${length ? `${length.toLocaleString('de-DE')} Zeichen · Preis: ${checkPrice(length)} Credits` : 'Preis: 2 Credits bis 5.000 Zeichen, je weitere angefangene 5.000 ein Credit mehr'}; dieselbe Prüfung im selben Monat ist frei.</p>
    <button type="submit" disabled=${busy || length < 50}>Text prüfen${length >= 50 ? ` (${checkPrice(length)} Credits)` : ''}</button>
    ${upload ? html`<div class="upload" role="status">
      <strong>${upload.filename}</strong>: ${upload.status === 'ready'
        ? html`${upload.char_count.toLocaleString('de-DE')} Zeichen${upload.page_count ? `, ${upload.page_count} Seiten` : ''} · Preis: <span class="quoted">${upload.quoted_credits}</span> Credits
          <button type="button" disabled=${busy} onClick=${() => run({ document_id: upload.id }, null)}>Datei prüfen (${upload.quoted_credits} Credits)</button>`
        : upload.status === 'uploaded' ? 'Text wird gelesen …' : `nicht lesbar (${upload.error_code ?? upload.status})`}
    </div>` : null}
    ${busy ? html`<${Loading} what="Bitte warten" />` : null}
    <${ProblemBox} error=${error} />
  </form>`;
}

export function CheckPage({ run: runId }) {
  useTitle('Zitatprüfung');
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!runId) { setResult(null); return; }
    if (result?.run.id === runId) return;
    // A run's stable URL: read back (free); its text stays in this tab only.
    api(`/citation-checks/${segment(runId)}`).then((run) => setResult({ run, text: sessionStorage.getItem(textKey(runId)) }), setError);
  }, [runId]);
  const onRun = (run, text) => {
    if (text) sessionStorage.setItem(textKey(run.id), text);
    setResult({ run, text });
    navigate(`/pruefung/${encodeURIComponent(run.id)}`, { replace: false });
  };
  return html`<section>
    <h1>Zitatprüfung</h1>
    ${runId ? html`<p><a href="/pruefung">Neue Prüfung</a></p>` : html`<${CheckForm} onRun=${onRun} />`}
    <${ProblemBox} error=${error} />
    ${runId && !result && !error ? html`<${Loading} />` : null}
    ${result ? html`<${Result} run=${result.run} text=${result.text} />` : null}
  </section>`;
}
