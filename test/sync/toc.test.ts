/** The tables of contents as the official hosts publish them (the shared samples), and where their links are fetched. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readGiiToc, readRiiToc } from '../../src/sync/toc.ts';
import { fetchUrl } from '../../src/sync/sources.ts';
import { documentsOf } from '../../src/sync/item.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';

test('gii-toc.xml (the real sample, with its DOCTYPE): one item per law folder', skipUnlessSharedData('gii/gii-toc.sample.xml'), () => {
  assert.deepEqual(readGiiToc(readFileSync(sharedData('gii/gii-toc.sample.xml'), 'utf8')), [
    { link: 'http://www.gesetze-im-internet.de/gg/xml.zip', label: 'gg' },
    { link: 'http://www.gesetze-im-internet.de/baunvo/xml.zip', label: 'baunvo' },
  ]);
});

test('rii-toc.xml (the documented sample): court, date, Aktenzeichen, link and modified per item', skipUnlessSharedData('decisions/rii_toc.sample.xml'), () => {
  const items = readRiiToc(readFileSync(sharedData('decisions/rii_toc.sample.xml'), 'utf8'));
  assert.equal(items.length, 3);
  assert.deepEqual(items[2], { link: 'http://www.rechtsprechung-im-internet.de/jportal/docs/bsjrs/jb-KORE312042020.zip',
    label: 'BGH 1. Zivilsenat', court: 'BGH 1. Zivilsenat', date: '2020-04-02', aktenzeichen: 'I ZR 14/19', modified: '2020-05-12T09:41:27.000Z' });
});

test('links are fetched over https from the official hosts, or under --base-url with the same path', () => {
  const link = 'http://www.rechtsprechung-im-internet.de/jportal/docs/bsjrs/jb-KORE312042020.zip';
  assert.equal(fetchUrl(link), 'https://www.rechtsprechung-im-internet.de/jportal/docs/bsjrs/jb-KORE312042020.zip');
  assert.equal(fetchUrl(link, 'http://mirror.kanzlei.example/rii/'), 'http://mirror.kanzlei.example/rii/jportal/docs/bsjrs/jb-KORE312042020.zip');
  assert.equal(fetchUrl('http://example.org/x.zip'), 'http://example.org/x.zip', 'other hosts as listed');
});

test('a gii link that is no …/<law>/xml.zip refuses the table, naming the item', () => {
  assert.throws(() => readGiiToc('<items><item><title>Grundgesetz</title><link>http://www.gesetze-im-internet.de/gg/index.html</link></item></items>'),
    /^Error: gii-toc\.xml item 1 \(Grundgesetz\): the link http:\/\/www\.gesetze-im-internet\.de\/gg\/index\.html is not …\/<law>\/xml\.zip; has its format changed\? Nothing was imported$/);
  assert.throws(() => readGiiToc('<items></items>'), /lists no <item>/);
  assert.throws(() => readGiiToc('<items><item><title>x</title>'), /is not readable XML/);
});

test('a raw xml.zip as gesetze-im-internet.de serves it (gg.zip) reads as one law; a decision where a law belongs is refused', skipUnlessSharedData('gii/gg.zip'), async () => {
  const documents = await documentsOf('gii', 'http://www.gesetze-im-internet.de/gg/xml.zip', readFileSync(sharedData('gii/gg.zip')));
  assert.deepEqual(documents.map((d) => d.kind === 'law' && d.law.abbreviation), ['GG']);
  await assert.rejects(documentsOf('rii', 'jb-X.zip', readFileSync(sharedData('gii/gg.zip'))),
    /^Error: jb-X\.zip!\/BJNR000010949\.xml: holds a law, not a decision$/);
});
