// Each operation states its price in words (OpenAPI and MCP tool descriptions) and computes it in price(): the words
// are read here and held against what price() charges, so the two cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATIONS } from '../../src/operations/index.ts';
import type { Operation, OperationContext } from '../../src/operations/operation.ts';

// The prices here need no caller or services (a ready upload's price is its quoted_credits, tested with uploads).
const noContext = {} as OperationContext;
// price() may be asynchronous (an upload's quoted price is read from the state), so every price is awaited.
const priceOf = async (name: string, args: Record<string, unknown>) => operation(name).price(args, noContext);
const operation = (name: string): Operation => OPERATIONS.find((candidate) => candidate.name === name)!;
/** The number of credits the words begin with: 'free' is 0, '2 credits, ...' is 2. */
const statedBase = (pricing: string) => (pricing.startsWith('free') ? 0 : Number(/^(\d+) credits?\b/u.exec(pricing)![1]));

test('every operation states its price in words that begin with what price() charges for its plainest call', async () => {
  const plainest: Record<string, Record<string, unknown>> = {
    check_citations: { text: 'x'.repeat(100) },
    create_datapackage: { ids: ['a'] },
    get_account: {},
    get_decision_text_citations: { id: 'a' },
    get_law_unit: { law: 'BGB', unit: '823' },
    get_citation_check: { check_id: 'c' },
    get_citation_document: { document_id: 'd' },
    get_citation_graph: { id: 'a', depth: 1 },
    get_corpus_coverage: {},
    get_decision: { id: 'a' },
    list_facets: { facet: 'court' },
    search: { query: 'Miete' },
    search_decisions: { query: 'Miete' },
    upload_citation_document: {},
  };
  assert.deepEqual(OPERATIONS.map((op) => op.name).sort(), Object.keys(plainest).sort(), 'every operation is priced here');
  for (const op of OPERATIONS) {
    assert.equal(await op.price(plainest[op.name], noContext), statedBase(op.pricing), `${op.name}: "${op.pricing}"`);
  }
});

test('the citation check costs what its words say at every step of 5,000 characters', async () => {
  const { pricing } = operation('check_citations');
  const [, base, upTo, more, step] = /^(\d+) credits up to ([\d,]+) characters, \+(\d+) per further started ([\d,]+)/u.exec(pricing)!.map((n) => Number(n?.replace(/,/gu, '')));
  for (const chars of [1, upTo, upTo + 1, upTo + step, upTo + step + 1, 100_000]) {
    const expected = base + more * Math.max(0, Math.ceil((chars - upTo) / step));
    assert.equal(await priceOf('check_citations', { text: 'ä'.repeat(chars) }), expected, `${chars} characters`);
  }
  // Code points, not UTF-16 units: 5,000 characters outside the BMP are still 5,000 characters.
  assert.equal(await priceOf('check_citations', { text: '𝔄'.repeat(upTo) }), base);
});

test('the graph costs its second number at depth 2, a datapackage one price for 1 to 10 decisions', async () => {
  const [, depthOne, depthTwo] = /^(\d+) credits, (\d+) at depth 2/u.exec(operation('get_citation_graph').pricing)!.map(Number);
  assert.equal(await priceOf('get_citation_graph', { id: 'a', depth: 1 }), depthOne);
  assert.equal(await priceOf('get_citation_graph', { id: 'a', depth: 2 }), depthTwo);
  const [, packagePrice, fewest, most] = /^(\d+) credits a package of (\d+) to (\d+) decisions/u.exec(operation('create_datapackage').pricing)!.map(Number);
  for (const count of [fewest, most]) {
    assert.equal(await priceOf('create_datapackage', { ids: Array.from({ length: count }, (_, i) => `id${i}`) }), packagePrice);
  }
});
