/**
 * get_citation_document over MCP (Streamable HTTP): the same answer as GET /citation-check-documents/{document} for an
 * upload in each state it passes through, and another organization's upload a tool error carrying the 404 problem.
 * The upload itself stays REST-only (a file cannot travel in MCP's JSON arguments).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcpApi, structured, withoutCredits, type McpApi } from './helpers.ts';
import { pdf } from '../helpers/documents.ts';
import { getUpload, pollUntilExtracted, upload } from '../uploads/client.ts';

let mcp: McpApi;

before(async () => {
  mcp = await startMcpApi();
});
after(() => mcp.close());

const client = (token: string) => mcp.connect(token);

test('get_citation_document answers exactly as REST does, apart from credits, whether ready or failed', async () => {
  const org = mcp.api.org();
  const token = () => org.token(['citation-check']);
  const mcpClient = await client(token());
  const ready = await upload(mcp.api, token(), 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB; die Beklagte bestreitet.', 'klage.txt');
  const scan = await upload(mcp.api, token(), pdf([null]), 'scan.pdf');
  for (const accepted of [ready, scan]) {
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    await pollUntilExtracted(mcp.api, token(), accepted.body.id);
    const rest = await getUpload(mcp.api, token(), accepted.body.id);
    const result = await mcpClient.callTool({ name: 'get_citation_document', arguments: { document: accepted.body.id } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(withoutCredits(structured(result)), withoutCredits(rest.body));
    assert.deepEqual(structured(result).credits, rest.body.credits);
  }
  const statuses = await Promise.all([ready, scan].map(async (accepted) => (await getUpload(mcp.api, token(), accepted.body.id)).body.status));
  assert.deepEqual(statuses, ['ready', 'failed']);
});

test("another organization's upload: a tool error with the REST 404 problem", async () => {
  const owner = mcp.api.org();
  const accepted = await upload(mcp.api, owner.token(['citation-check']), 'Die Beklagte beantragt, die Klage abzuweisen; § 823 BGB.', 'a.txt');
  assert.equal(accepted.status, 202);
  const stranger = await client(mcp.api.org().token(['citation-check']));
  const result = await stranger.callTool({ name: 'get_citation_document', arguments: { document: accepted.body.id } });
  assert.equal(result.isError, true);
  assert.equal(structured(result).code, 'not_found');
  assert.equal(structured(result).status, 404);
});
