import { html, ProblemBox, Loading, useLoad, decisionHref, dateDe } from './ui.js';
import { api, segment } from './api.js';

const WIDTH = 960;
const ROW = 34;
const COLUMNS = { 'in-2': 90, 'in-1': 290, source: 480, 'out-1': 670, 'out-2': 870 };

/**
 * The citation graph at depth 2 as a picture: decisions citing this one on the left (their citers further out), the
 * decisions it cites on the right, each node a link. From GET /decisions/{id}/citations?depth=2 (4 credits).
 */
export function CitationGraph({ id }) {
  const state = useLoad(() => api(`/decisions/${segment(id)}/citations`, { query: { depth: 2, direction: 'both' } }), [id]);
  if (state.loading) return html`<${Loading} what="Zitiergraph wird geladen" />`;
  if (state.error) return html`<${ProblemBox} error=${state.error} />`;
  const graph = state.data;
  const nodes = new Map([[graph.source.id, { id: graph.source.id, column: 'source', label: `${graph.source.court} ${graph.source.aktenzeichen}`, date: graph.source.date }]]);
  const links = [];
  const add = (edge, side) => {
    const target = edge.corpus;
    if (!edge.in_corpus || !target) return null;
    const column = `${side}-${edge.hop ?? 1}`;
    if (!nodes.has(target.artifact_id)) nodes.set(target.artifact_id, { id: target.artifact_id, column, label: `${target.court} ${target.az}`, date: target.date });
    return target.artifact_id;
  };
  for (const edge of graph.references) {
    const to = add(edge, 'out');
    if (to) links.push([edge.from_artifact_id, to]);
  }
  for (const edge of graph.referenced_by) {
    const from = add(edge, 'in');
    if (from) links.push([from, edge.from_artifact_id === from ? graph.source.id : edge.from_artifact_id]);
  }
  const byColumn = {};
  for (const node of nodes.values()) (byColumn[node.column] ??= []).push(node);
  const height = Math.max(3, ...Object.values(byColumn).map((list) => list.length)) * ROW + 40;
  for (const [column, list] of Object.entries(byColumn)) {
    list.forEach((node, i) => { node.x = COLUMNS[column]; node.y = (height - list.length * ROW) / 2 + i * ROW + ROW / 2; });
  }
  const unresolved = graph.references.filter((edge) => !edge.in_corpus).length;
  return html`<figure class="graph">
    <figcaption>Zitiergraph: ${graph.referenced_by_total} zitierende, ${graph.references_resolved_total} zitierte Entscheidungen im Bestand
      ${unresolved ? `(${unresolved} weitere Zitate nicht im Bestand)` : ''}${graph.nodes_omitted ? ` · ${graph.nodes_omitted} Knoten ausgelassen` : ''}</figcaption>
    <svg viewBox=${`0 0 ${WIDTH} ${height}`} role="img" aria-label="Zitiergraph">
      <text x="90" y="16" class="column-label">zitiert von (2)</text><text x="290" y="16" class="column-label">zitiert von</text>
      <text x="670" y="16" class="column-label">zitiert</text><text x="870" y="16" class="column-label">zitiert (2)</text>
      ${links.map(([from, to]) => {
        const a = nodes.get(from);
        const b = nodes.get(to);
        return a && b ? html`<line x1=${a.x} y1=${a.y} x2=${b.x} y2=${b.y} class="edge" />` : null;
      })}
      ${[...nodes.values()].map((node) => html`<a href=${decisionHref(node.id)}>
        <title>${node.label}, ${dateDe(node.date)}</title>
        <rect x=${node.x - 88} y=${node.y - 12} width="176" height="24" rx="5" class=${node.column === 'source' ? 'node source' : 'node'} />
        <text x=${node.x} y=${node.y + 4} text-anchor="middle">${node.label.length > 26 ? `${node.label.slice(0, 25)}…` : node.label}</text>
      </a>`)}
    </svg>
  </figure>`;
}
