import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK_MAX, CHUNK_MIN, buildDecisionText } from '../../src/ingest/decision-text.ts';
import { codePointLength } from '../../src/text/code-points.ts';
import type { Block, SectionBlocks } from '../../src/ingest/blocks.ts';
import { renderBlocks, renderMarkdownBlocks } from '../../src/ingest/blocks.ts';
import { htmlEvents } from '../../src/ingest/xml.ts';

// A deterministic pseudo-random paragraph length.
function lengths(n: number, seed = 7): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(40 + (x % 1400));
  }
  return out;
}

const para = (len: number, tag: string) => `${tag} ${'Satz mit Inhalt. '.repeat(Math.ceil(len / 17))}`.slice(0, len).trim();

test('chunks hold whole Randnummern, cover every Randnummer once, and stay within the size band', () => {
  const blocks: Block[] = lengths(80).map((len, i) => ({ text: para(i === 40 ? 5000 : len, `P${i}`), rn: i + 1, heading: false }));
  blocks.splice(10, 0, { text: 'III.', rn: null, heading: true });
  const built = buildDecisionText([{ name: 'Tenor', blocks: [{ text: 'Die Klage wird abgewiesen.', rn: null, heading: false }] }, { name: 'Gründe', blocks }]);
  const cps = [...built.fullText];
  assert.equal(built.textLength, cps.length);
  let previousEnd = -1;
  for (const c of built.chunks) {
    assert.equal(c.text, cps.slice(c.start, c.end).join(''));
    assert.ok(c.start > previousEnd, 'chunks are ordered and do not overlap');
    previousEnd = c.end;
    const len = c.end - c.start;
    const single = c.rn_from === c.rn_to;
    if (!single) assert.ok(len <= CHUNK_MAX * 1.25, `chunk ${c.position} (${len}) holds several Rn only when short enough`);
  }
  for (const r of built.randnummern) {
    const holders = built.chunks.filter((c) => c.start <= r.start && r.end <= c.end);
    assert.equal(holders.length, 1, `Rn ${r.rn}`);
  }
  const gruende = built.chunks.filter((c) => c.section === 'Gründe');
  const len = (c?: { start: number; end: number }) => (c ? c.end - c.start : Infinity);
  gruende.forEach((c, i) => {
    if (len(c) >= CHUNK_MIN) return;
    // A small chunk stays only where neither neighbour could take it within CHUNK_MAX * 1.25.
    assert.ok(len(gruende[i - 1]) + len(c) > CHUNK_MAX * 1.25, `small chunk ${c.position} could join the one before`);
    assert.ok(len(c) + len(gruende[i + 1]) > CHUNK_MAX * 1.25, `small chunk ${c.position} could join the one after`);
  });
  const multi = gruende.filter((c) => c.rn_from !== c.rn_to);
  assert.ok(multi.length > 10, 'short Randnummern are grouped');
  const huge = built.chunks.find((c) => c.rn_from === 41);
  assert.deepEqual([huge?.rn_to, (huge?.end ?? 0) - (huge?.start ?? 0) > 5000], [41, true], 'a Randnummer longer than CHUNK_MAX stays whole');
  assert.equal(built.rnFrom, 1);
  assert.equal(built.rnTo, 80);
  assert.ok(built.hasRnAnchors);
});

test('a long paragraph without Randnummer is cut at sentence ends', () => {
  const text = 'Dies ist ein Satz, der etwas länger ist als nötig. '.repeat(120).trim();
  const built = buildDecisionText([{ name: 'Gründe', blocks: [{ text, rn: null, heading: false }] }]);
  assert.ok(built.chunks.length >= 4);
  for (const c of built.chunks) {
    assert.ok(c.end - c.start <= CHUNK_MAX, `${c.end - c.start}`);
    assert.equal(c.rn_from, null);
  }
  for (const c of built.chunks.slice(1)) assert.match(c.text, /^Dies ist/u);
  assert.equal(built.hasRnAnchors, false);
});

test('offsets are code points even with characters outside the BMP', () => {
  const sections: SectionBlocks[] = [
    { name: 'Tenor', blocks: [{ text: '𝔄𝔅 Tenor', rn: null, heading: false }] },
    { name: 'Gründe', blocks: [{ text: '𝔄 eins', rn: 1, heading: false }, { text: 'zwei', rn: 2, heading: false }] },
  ];
  const built = buildDecisionText(sections);
  assert.equal(built.textLength, codePointLength(built.fullText));
  const cps = [...built.fullText];
  assert.deepEqual(built.sections.map((s) => cps.slice(s.start, s.end).join('')), ['Tenor\n𝔄𝔅 Tenor', 'Gründe\n1\t𝔄 eins\n2\tzwei']);
  assert.deepEqual(built.randnummern.map((r) => cps.slice(r.start, r.end).join('')), ['1\t𝔄 eins', '2\tzwei']);
});

test('HTML with <rd nr> markers, section headings and reference markers renders to sections and Randnummern', () => {
  const html = '<h2>Tenor</h2><div><p>1. Die Klage wird abgewiesen.</p></div><h2>Tatbestand</h2><div>'
    + '<p><rd nr="1"/>Die Klägerin macht &#167; 800 BGB geltend.</p><p>Weiter.</p><p><rd nr="2"/>Zweitens.<br>Zeile</p></div>'
    + '<h2>Entscheidungsgründe</h2><p>A.</p><p><rd nr="3"/>Die Klage ist unbegründet.</p><script>alert(1)</script>';
  const sections = renderBlocks(htmlEvents(html), { detectSections: true, defaultSection: 'Volltext' });
  assert.deepEqual(sections.map((s) => s.name), ['Tenor', 'Tatbestand', 'Entscheidungsgründe']);
  assert.deepEqual(sections[1].blocks, [
    { text: 'Die Klägerin macht § 800 BGB geltend.', rn: 1, heading: false },
    { text: 'Weiter.', rn: null, heading: false },
    { text: 'Zweitens.\nZeile', rn: 2, heading: false },
  ]);
  assert.deepEqual(sections[2].blocks, [{ text: 'A.', rn: null, heading: true }, { text: 'Die Klage ist unbegründet.', rn: 3, heading: false }]);
});

test('the Markdown-like Open Legal Data text renders sections and "N|" Randnummern', () => {
  const md = '## Tenor\n\nDie Kosten trägt der Beklagte.\n\n## Gründe\n\n| I.\n1| Erstens.\n2| 1\\. Zweitens.\n\n:| Unterschriften';
  const sections = renderMarkdownBlocks(md, 'Volltext');
  assert.deepEqual(sections.map((s) => s.name), ['Tenor', 'Gründe']);
  assert.deepEqual(sections[1].blocks.map((b) => [b.rn, b.text]), [[null, 'I.'], [1, 'Erstens.'], [2, '1. Zweitens.'], [null, 'Unterschriften']]);
});
