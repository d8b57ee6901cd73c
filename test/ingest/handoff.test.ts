import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromColumns, handOff, takeOver, toColumns } from '../../src/ingest/handoff.ts';
import { parseDocument } from '../../src/ingest/parse-document.ts';

test('a prepared decision handed from a worker thread arrives as it was prepared', () => {
  const dir = 'fixtures/decisions';
  const items = readdirSync(dir).filter((name) => name.endsWith('.xml'))
    .flatMap((name) => parseDocument(join(dir, name), readFileSync(join(dir, name)), true));
  const decisions = items.filter((item) => item.kind === 'decision');
  assert.ok(decisions.length > 40, 'the fixtures parse');
  assert.ok(decisions.some((item) => item.decision.edges.length > 0 && item.decision.text.randnummern.length > 0));
  for (const item of items) {
    // structuredClone: what postMessage makes of a value (a Buffer arrives as a Uint8Array either way).
    assert.deepEqual(takeOver(structuredClone(handOff(item))), structuredClone(item), item.name);
  }
});

test('records of one shape survive their columns, empty lists and null values included', () => {
  const records = [{ a: 1, b: null, c: 'x' }, { a: 2, b: 'y', c: '' }];
  assert.deepEqual(toColumns(records), { keys: ['a', 'b', 'c'], values: [1, null, 'x', 2, 'y', ''] });
  assert.deepEqual(fromColumns(toColumns(records)), records);
  assert.deepEqual(fromColumns(toColumns([])), []);
});
