import { html, useTitle } from './ui.js';

const block = (text) => html`<pre><code>${text}</code></pre>`;

/** How to add this service to common MCP clients; the address is this page's own origin. */
export function McpPage() {
  useTitle('MCP einrichten');
  const url = `${location.origin}/mcp`;
  const json = JSON.stringify({ mcpServers: { juralite: { type: 'http', url, headers: { Authorization: 'Bearer jl_…' } } } }, null, 2);
  return html`<section class="narrow">
    <h1>MCP einrichten</h1>
    <p>Jede Operation der API ist auch ein Werkzeug eines MCP-Servers (Model Context Protocol), mit denselben Argumenten,
      Antworten, Preisen und Fähigkeiten. Der Dienst spricht MCP über HTTP unter <code>${url}</code>; das API-Token steht im
      Header <code>Authorization: Bearer …</code>. Nur das Hochladen von Dateien bleibt der REST-API vorbehalten.</p>
    <h2>Claude Code</h2>
    ${block(`claude mcp add --transport http juralite ${url} \\\n  --header "Authorization: Bearer jl_…"`)}
    <h2>Claude Desktop, Cursor, Windsurf und andere (mcpServers)</h2>
    <p>In die Konfigurationsdatei des Programms (Claude Desktop: <code>claude_desktop_config.json</code>, Cursor: <code>.cursor/mcp.json</code>):</p>
    ${block(json)}
    <p>Programme ohne HTTP-Transport starten den Server selbst über stdio:</p>
    ${block(JSON.stringify({ mcpServers: { juralite: { command: 'juralite', args: ['mcp', '--data', '/srv/juralite/data'], env: { JURALITE_TOKEN: 'jl_…' } } } }, null, 2))}
    <h2>VS Code</h2>
    <p>In <code>.vscode/mcp.json</code>:</p>
    ${block(JSON.stringify({ servers: { juralite: { type: 'http', url, headers: { Authorization: 'Bearer jl_…' } } } }, null, 2))}
    <h2>Prüfen</h2>
    ${block(`curl -s ${url} -H "Authorization: Bearer jl_…" -H "content-type: application/json" \\\n  -H "accept: application/json, text/event-stream" \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`)}
    <p>Mehr in <a href="/referenz">der API-Referenz</a>; die Werkzeuge heißen wie die <code>operationId</code> der Endpunkte.</p>
  </section>`;
}
