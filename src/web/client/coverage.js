import { useEffect, useRef } from './preact-hooks.js';
import uPlot from './uplot.js';
import { html, ProblemBox, Loading, useLoad, useTitle, numberDe, unitHref } from './ui.js';
import { api } from './api.js';

/** A bar chart with uPlot (canvas); `labels` name the x positions. */
function BarChart({ title, labels, values, id }) {
  const box = useRef(null);
  useEffect(() => {
    const width = Math.min(box.current.clientWidth || 600, 900);
    const chart = new uPlot({
      width, height: 220, title,
      scales: { x: { time: false } },
      axes: [{ values: (_, ticks) => ticks.map((i) => labels[i] ?? '') }, { size: 50 }],
      series: [{}, { label: 'Entscheidungen', fill: 'rgba(31, 92, 153, 0.35)', stroke: '#1f5c99', paths: uPlot.paths.bars({ size: [0.7, 40] }), points: { show: false } }],
      legend: { show: false },
    }, [labels.map((_, i) => i), values], box.current);
    return () => chart.destroy();
  }, [labels.join(), values.join()]);
  return html`<figure class="chart" id=${id}><div ref=${box}></div>
    <figcaption class="visually-hidden">${title}: ${labels.map((label, i) => `${label} ${values[i]}`).join(', ')}</figcaption></figure>`;
}

function FacetList({ field, title, link }) {
  const state = useLoad(() => api(`/corpus/facets/${field}`), [field]);
  if (state.loading) return html`<${Loading} />`;
  if (state.error) return html`<${ProblemBox} error=${state.error} />`;
  const values = Object.entries(state.data.values).sort(([, a], [, b]) => b.value - a.value);
  return html`<section class="facet"><h3>${title}</h3><ul>${values.map(([value, count]) => html`<li>
    ${link ? html`<a href=${link(value)}>${value}</a>` : value} <span class="count">${numberDe(count.value)}</span></li>`)}</ul></section>`;
}

export function CoveragePage() {
  useTitle('Bestand');
  const state = useLoad(() => Promise.all([api('/corpus/coverage', { query: { top: 100 } }), api('/corpus/facets/decision_year')]), []);
  if (state.loading) return html`<${Loading} what="Bestand wird geladen" />`;
  if (state.error) return html`<section><h1>Bestand</h1><${ProblemBox} error=${state.error} /></section>`;
  const [coverage, years] = state.data;
  const yearList = Object.keys(years.values).sort();
  const allYears = yearList.length ? Array.from({ length: Number(yearList.at(-1)) - Number(yearList[0]) + 1 }, (_, i) => String(Number(yearList[0]) + i)) : [];
  return html`<section>
    <h1>Bestand</h1>
    <p class="summary">${numberDe(coverage.total_decisions.value)} Entscheidungen aus ${numberDe(coverage.courts_total)} Gerichten · Stand ${new Date(coverage.as_of).toLocaleString('de-DE')}</p>
    <div class="charts">
      <${BarChart} id="chart-years" title="Entscheidungen je Jahr" labels=${allYears} values=${allYears.map((year) => years.values[year]?.value ?? 0)} />
      <${BarChart} id="chart-branches" title="Entscheidungen je Gerichtsbarkeit" labels=${coverage.branches.map((b) => b.branch)} values=${coverage.branches.map((b) => b.count.value ?? b.count)} />
    </div>
    <h2>Gerichte</h2>
    <div class="table-wrap"><table>
      <thead><tr><th scope="col">Gericht</th><th scope="col">Gerichtsbarkeit</th><th scope="col" class="number">Entscheidungen</th><th scope="col">von</th><th scope="col">bis</th></tr></thead>
      <tbody>${coverage.courts.map((court) => html`<tr>
        <td><a href=${`/recherche?${new URLSearchParams({ q: court.court, court: court.court })}`}>${court.court}</a></td><td>${court.branch}</td>
        <td class="number">${numberDe(court.count.value ?? court.count)}</td><td>${court.earliest}</td><td>${court.latest}</td></tr>`)}</tbody>
    </table></div>
    ${coverage.courts_returned < coverage.courts_total ? html`<p class="hint">Die ${coverage.courts_returned} Gerichte mit den meisten Entscheidungen von ${coverage.courts_total}.</p>` : null}
    <h2>Filterwerte</h2>
    <div class="facets">
      <${FacetList} field="document_type" title="Dokumenttypen" />
      <${FacetList} field="branch" title="Gerichtsbarkeiten" />
      <${FacetList} field="law_abbreviation" title="Gesetze (zitierende Entscheidungen und Normen)" link=${(law) => unitHref(law, '1')} />
    </div>
    <h2>Europäisches und internationales Recht</h2>
    <p>${coverage.law_coverage.note}</p>
    <p>EU: ${coverage.law_coverage.eu.join(', ')}. International: ${coverage.law_coverage.international.join(', ')}.</p>
  </section>`;
}
