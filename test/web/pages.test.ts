/**
 * The pages at / in a real browser: Debian's Chromium driven by playwright-core against a real server on 127.0.0.1
 * with the demo corpus. One browser for the whole suite; one screenshot per page under .tmp/screenshots/ for a human
 * to look at. Skips (with the reason) only where no Chromium is installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startApi, type Api } from '../helpers/api.ts';
import { docx } from '../helpers/documents.ts';

// Browser globals of the callbacks run in the page by evaluate(), declared here alone: a `/// <reference lib="dom" />`
// would give every file of the project the DOM's types (and its `performance` in place of Node's).
declare const document: any, window: any, getComputedStyle: any;

const CHROMIUM = process.env.JURALITE_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '../../.tmp/screenshots');
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set JURALITE_CHROMIUM)`;

const CHECK_TEXT = 'Der Anspruch der Klägerin folgt aus § 823 Abs. 1 BGB. Die Berufung hat keinen Erfolg (vgl. KG, Urteil vom '
  + '12. September 2019 – 7 U 123/18). Anders § 9999 BGB und § 5 FantasieG sowie BGH, Urteil vom 3. März 1951 – I ZR 99/50.';

describe('the pages in Chromium', { skip }, () => {
  let api: Api;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let profile: string;
  const outside: string[] = [];
  const policyViolations: string[] = [];
  const urlsWithToken: string[] = [];

  before(async () => {
    api = await startApi({ corpus: 'demo' });
    token = api.org({ plan: 'enterprise' }).token();
    mkdirSync(SHOTS, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), 'juralite-chromium-'));
    // A fresh profile (platform.md); playwright passes it as --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 900 }, locale: 'de-DE', acceptDownloads: true,
    });
    context.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(api.url) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
      if (url.includes(token) || url.includes(token.slice(3, 19))) urlsWithToken.push(url);
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/iu.test(message.text())) policyViolations.push(message.text());
    });
  });

  after(async () => {
    await context?.close();
    await api?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const shot = (name: string, target: Page = page) => target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  test('the start page offers sign-in; a pasted token shows organization, abilities and credits, kept in sessionStorage only', async () => {
    await page.goto(`${api.url}/`);
    await page.getByRole('link', { name: 'Anmelden' }).first().waitFor();
    await shot('start');
    await page.goto(`${api.url}/anmelden`);
    await page.fill('#token', token);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.locator('.org-name').waitFor();
    assert.match(await page.locator('.org-name').innerText(), /Test org \(Tarif enterprise\)/u);
    assert.match(await page.locator('.abilities').innerText(), /Suche.*Lesen.*Zitiergraph.*Datenpakete.*Zitatprüfung/su);
    assert.match(await page.locator('.balance').innerText(), /^10[.,]?0(?:00|30)$/u);
    assert.match(await page.locator('header .credits').innerText(), /Credits/u);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('juralite.token')), token);
    assert.equal(await page.evaluate(() => document.cookie), '');
    assert.deepEqual((await context.cookies()), []);
    await shot('anmelden');
  });

  test('Recherche: results with highlighted snippets and confidence; an Aktenzeichen goes straight to the decision', async () => {
    await page.goto(`${api.url}/recherche`);
    await page.fill('#q', 'Mietminderung Baulärm');
    await page.press('#q', 'Enter');
    await page.locator('.result.decision').first().waitFor();
    assert.match(page.url(), /\/recherche\?q=Mietminderung\+Bau/u);
    assert.ok(await page.locator('.result mark').count() > 0, 'snippets mark the matched terms');
    assert.match(await page.locator('.result.decision .meta').first().innerText(), /Treffersicherheit/u);
    assert.ok(await page.locator('.expansion').count() === 1, 'what the query expansion did is shown');
    await shot('recherche');
    await page.fill('#q', '7 U 123/18');
    await page.press('#q', 'Enter');
    await page.waitForURL(/\/entscheidung\/7%20U%20123%2F18$/u);
    // Two courts hold this Aktenzeichen: both are offered.
    await page.locator('.candidates a').nth(1).waitFor();
    await page.locator('.candidates a', { hasText: 'KG' }).click();
    await page.locator('article.decision h1').waitFor();
    assert.match(await page.locator('article.decision h1').innerText(), /^KG, Urteil vom 12\.09\.2019 – 7 U 123\/18$/u);
    // A Berlin-Brandenburg Aktenzeichen with the court's letters in front and the year after a dot.
    await page.goto(`${api.url}/recherche`);
    await page.fill('#q', 'VG 3 K 123.16');
    await page.press('#q', 'Enter');
    await page.waitForURL(/\/entscheidung\/VG%203%20K%20123\.16$/u);
    await page.locator('article.decision h1').waitFor();
    assert.match(await page.locator('article.decision h1').innerText(), /VG 3 K 123\.16$/u);
  });

  test('Entscheidung: opened at a Randnummer, citations linked, a cited decision followed, the graph drawn, the basket filled', async () => {
    const edge = api.services.corpus!.prepare(`SELECT from_decision_id AS source, to_decision_id AS target FROM citation_edges
      WHERE to_decision_id IS NOT NULL AND reference_type = 'case' LIMIT 1`).get() as { source: string; target: string };
    await page.goto(`${api.url}/entscheidung/${edge.source}#rn-3`);
    await page.locator('#rn-3').waitFor();
    await page.waitForFunction(() => document.getElementById('rn-3')!.getBoundingClientRect().top < 200);
    assert.equal(await page.evaluate(() => document.querySelector(':target')?.id), 'rn-3');
    assert.ok(await page.locator('a.cite.statute').count() > 0, 'statute citations link to the law unit');
    // A statute's text shows on hover.
    await page.locator('a.cite.statute').first().hover();
    await page.locator('.popover .law-text').waitFor();
    await shot('entscheidung');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'In den Korb' }).click();
    await page.getByRole('button', { name: /Zitiergraph/u }).click();
    await page.locator('.graph svg rect').nth(1).waitFor();
    await page.locator('.graph').screenshot({ path: join(SHOTS, 'zitiergraph.png') });
    await page.locator(`a.cite.case[href="/entscheidung/${edge.target}"]`).first().click();
    await page.waitForURL(`${api.url}/entscheidung/${edge.target}`);
    await page.locator('article.decision h1').waitFor();
    // The heading comes with the decision's metadata; its text may render a moment later: wait for its paragraphs.
    await page.locator('.decision-text p').nth(3).waitFor();
    await page.goto(`${api.url}/korb`);
    assert.equal(await page.locator('.basket li').count(), 1);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /Datenpaket herunterladen/u }).click();
    const pack = JSON.parse(await (await download).createReadStream().then(async (stream) => {
      let text = '';
      for await (const chunk of stream) text += chunk;
      return text;
    }));
    assert.equal(pack.decisions[0].id, edge.source);
    await shot('korb');
  });

  test('Zitatprüfung: the price before running, every verdict highlighted with a list, jumping between findings, export', async () => {
    await page.goto(`${api.url}/pruefung`);
    await page.fill('#check-text', CHECK_TEXT);
    assert.match(await page.locator('.price').innerText(), /Preis: 2 Credits/u);
    await page.getByRole('button', { name: 'Text prüfen (2 Credits)' }).click();
    await page.locator('mark.finding').first().waitFor();
    assert.match(page.url(), /\/pruefung\/[^/]+$/u);
    const verdicts = await page.locator('mark.finding').evaluateAll((marks) => marks.map((mark) => [mark.textContent, mark.getAttribute('data-verdict'), getComputedStyle(mark).backgroundColor]));
    assert.deepEqual(verdicts.map(([text, verdict]) => [text, verdict]), [
      ['§ 823 Abs. 1 BGB', 'verified'], ['KG, Urteil vom 12. September 2019 – 7 U 123/18', 'verified'],
      ['§ 9999 BGB', 'not_found'], ['§ 5 FantasieG', 'out_of_coverage'], ['BGH, Urteil vom 3. März 1951 – I ZR 99/50', 'out_of_coverage'],
    ]);
    const colours = new Map(verdicts.map(([, verdict, colour]) => [verdict, colour]));
    assert.equal(new Set(colours.values()).size, 3, 'each verdict has its own highlight');
    assert.equal(await page.locator('.findings li').count(), 5);
    await page.locator('body').press('n');
    assert.equal(await page.locator('mark.finding.current').innerText(), 'KG, Urteil vom 12. September 2019 – 7 U 123/18');
    await shot('pruefung');
    const json = page.waitForEvent('download');
    await page.getByRole('button', { name: 'JSON' }).click();
    assert.match((await json).suggestedFilename(), /^zitatpruefung-.+\.json$/u);
    const report = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Bericht (HTML)' }).click();
    assert.match((await report).suggestedFilename(), /\.html$/u);
    // The run's own URL reads it back (free), its text kept in this tab.
    await page.reload();
    await page.locator('mark.finding').nth(4).waitFor();
  });

  test('Zitatprüfung: an uploaded DOCX is read, its price quoted, then checked', async () => {
    await page.goto(`${api.url}/pruefung`);
    const file = docx({ paragraphs: ['Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB und verweist auf das Urteil des KG vom 12. September 2019 – 7 U 123/18.'] });
    await page.setInputFiles('input[type=file]', { name: 'schriftsatz.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: file });
    await page.locator('.upload .quoted').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.upload .quoted').innerText(), '2');
    await page.getByRole('button', { name: 'Datei prüfen (2 Credits)' }).click();
    await page.locator('.findings li').first().waitFor();
    assert.ok(await page.locator('.findings .badge.v-verified').count() >= 2);
  });

  test('Bestand: holdings per year drawn as a chart, courts and facet lists', async () => {
    await page.goto(`${api.url}/bestand`);
    await page.locator('#chart-years canvas').waitFor();
    const drawn = await page.locator('#chart-years canvas').evaluate((canvas: any) => {
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let coloured = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3] > 0) coloured += 1;
      return coloured;
    });
    assert.ok(drawn > 1000, `the chart has pixels drawn (${drawn})`);
    assert.ok(await page.locator('table tbody tr').count() > 3);
    assert.ok(await page.locator('.facet li').count() > 3);
    await shot('bestand');
  });

  test('Gesetz: /gesetz/BGB/823 reads the unit with its neighbours and citing decisions', async () => {
    await page.goto(`${api.url}/gesetz/BGB/823`);
    await page.locator('article.law h1').waitFor();
    assert.match(await page.locator('article.law h1').innerText(), /^§ 823 BGB/u);
    assert.match(await page.locator('.absatz').first().innerText(), /^\(1\) Wer vorsätzlich/u);
    await shot('gesetz');
  });

  test('API reference rendered by Scalar from the live OpenAPI document; the MCP set-up page', async () => {
    await page.goto(`${api.url}/referenz`);
    await page.getByText('Read a decision, whole or by Randnummer or section').first().waitFor({ timeout: 60_000 });
    await shot('referenz');
    await page.goto(`${api.url}/mcp-einrichtung`);
    assert.match(await page.locator('main').innerText(), new RegExp(`${api.url}/mcp`, 'u'));
    await shot('mcp-einrichtung');
  });

  test('on a phone: search results fit the width, the menu wraps', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    // sessionStorage is per tab: a new tab signs in anew.
    await phone.goto(`${api.url}/anmelden`);
    await phone.evaluate((value) => sessionStorage.setItem('juralite.token', value), token);
    await phone.goto(`${api.url}/recherche?q=Mietminderung`);
    await phone.locator('.result').first().waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px too wide)`);
    await shot('recherche-telefon', phone);
    if (process.env.JURALITE_README_SCREENSHOT) {
      await page.setViewportSize({ width: 1000, height: 640 });
      await page.goto(`${api.url}/recherche?q=Mietminderung%20Baul%C3%A4rm`);
      await page.locator('.result').first().waitFor();
      writeFileSync(process.env.JURALITE_README_SCREENSHOT, await page.screenshot({ type: 'png' }));
    }
    await phone.close();
  });

  test('nothing was asked of another host, no policy was violated, no URL carried the token', () => {
    assert.deepEqual(outside, []);
    assert.deepEqual(policyViolations, []);
    assert.deepEqual(urlsWithToken, []);
  });
});
