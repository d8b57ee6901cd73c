/**
 * The standalone executable (docs/install.md): `scripts/build-exe.ts` builds it, it is copied ALONE into an empty
 * folder and run there with a PATH that holds no Node at all. Its first `serve` builds the demo corpus beside itself
 * from the files it carries, and its native files are unpacked into the cache directory (another one where the first
 * cannot be written, a clear error where none can). From that folder it imports a law and a decision into the corpus,
 * creates an organization and a token in its data directory, serves, and answers over HTTP: search, a decision, a
 * citation check, the upload of a DOCX (extracted by the pool's worker processes, which are the executable again)
 * and the MCP tools list; `juralite mcp` answers over stdio too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { docx } from '../helpers/documents.ts';
import { decisionId } from '../../src/corpus/ids.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const RELEASE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

const SKIP = process.platform === 'linux' && process.arch === 'x64'
  ? false
  : `the test builds the linux-x64 executable and runs it; this machine is ${process.platform}-${process.arch}`;

/** A statute of our own: nothing in the demo corpus uses its abbreviation or its words. */
const LAW = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE dokumente SYSTEM "http://www.gesetze-im-internet.de/dtd/1.01/gii-norm.dtd">
<dokumente builddate="20250601120000" doknr="BJNR999990001"><norm builddate="20250601120000" doknr="BJNR999990001"><metadaten><jurabk>EigProgG</jurabk><ausfertigung-datum manuell="ja">2025-01-15</ausfertigung-datum><langue>Gesetz über eigenständige Programme</langue></metadaten><textdaten><text format="XML"><Content><P></P></Content></text></textdaten></norm>
<norm builddate="20250601120000" doknr="BJNR999990001BJNE000017777"><metadaten><jurabk>EigProgG</jurabk><enbez>§ 1</enbez><titel format="parat">Einzeldateiprogramm</titel></metadaten><textdaten><text format="XML"><Content><P>(1) Ein Einzeldateiprogramm ist ein Programm, das ohne weitere Laufzeitumgebung ausgeführt werden kann.</P></Content></text></textdaten></norm>
</dokumente>
`;

/** A decision: the first fixture decision under a new doknr, ECLI and Aktenzeichen, with a word no other one has. */
const AKTENZEICHEN = 'VIII ZR 999/25';
function decisionXml(): string {
  return readFileSync(join(ROOT, 'fixtures', 'decisions', 'JURA000000001.xml'), 'utf8')
    .replaceAll('JURA000000001', 'JURA900000001')
    .replaceAll('ECLI:DE:BGH:2004:230604UVIIIZR361.03.0', 'ECLI:DE:BGH:2004:230604UVIIIZR999.25.0')
    .replaceAll('VIII ZR 361/03', AKTENZEICHEN)
    .replace('Schönheitsreparaturklausel', 'Schönheitsreparaturklausel im Quellcodemietvertrag');
}
const DECISION_ID = decisionId({ doknr: 'JURA900000001' });
const CHECK_TEXT = `Die Klausel ist unwirksam; vgl. BGH, Urteil vom 23. Juni 2004 - ${AKTENZEICHEN}, und § 573 Abs. 2 Nr. 2 BGB.`;

/** Waits for the "serving http://…/api/v1" line; the server's output so far is in the error otherwise. */
function servingUrl(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "serving" line:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /serving (http:\/\/\S+)\/api\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
}

/** Stops a server and waits for it. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

test('the executable, alone in a folder without Node, imports, serves, checks, extracts and speaks MCP', { skip: SKIP, timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-exe-'));
  let server: ChildProcess | undefined;
  t.after(async () => {
    if (server) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  });

  // Built into a folder of its own, then the executable alone is copied into an empty one.
  const built = join(dir, 'built');
  const build = await run(process.execPath, [join(ROOT, 'scripts', 'build-exe.ts'), '--out', built], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const size = Number(/juralite: Node \S+ for linux-x64, ([\d.]+) MB/.exec(build.stdout)?.[1]);
  assert.ok(size > 100 && size < 140, `the build prints the size, under 140 MB: ${size} MB\n${build.stdout}`);
  assert.deepEqual(readdirSync(built), ['juralite'], 'one file');
  const install = join(dir, 'install');
  mkdirSync(install);
  copyFileSync(join(built, 'juralite'), join(install, 'juralite'));
  rmSync(built, { recursive: true });
  const exe = join(install, 'juralite');
  const emptyBin = join(dir, 'bin');
  mkdirSync(emptyBin);
  // Started from elsewhere: the executable finds its files beside itself, not in the working directory.
  const env = { PATH: emptyBin, HOME: dir, LANG: 'C.UTF-8', TMPDIR: join(dir, 'tmp') };
  mkdirSync(env.TMPDIR);
  const juralite = async (...args: string[]) => (await run(exe, args, { cwd: dir, env })).stdout;

  assert.equal((await juralite('--version')).trim(), RELEASE);

  // The first start, in a folder holding nothing but the executable: the demo corpus is built beside it.
  server = spawn(exe, ['serve', '--port', '0'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  await servingUrl(server);
  await stop(server);
  assert.ok(existsSync(join(install, 'corpus.db')), 'the demo corpus beside the executable');
  const [cache] = readdirSync(join(dir, '.cache', 'juralite'));
  assert.match(cache, new RegExp(`^${RELEASE.replaceAll('.', '\\.')}-[0-9a-f]{12}$`), 'a cache directory per release and build');
  assert.deepEqual(readdirSync(join(dir, '.cache', 'juralite', cache)).sort(), ['better_sqlite3.node', 'vec0.so']);

  const sources = join(dir, 'sources');
  mkdirSync(sources);
  writeFileSync(join(sources, 'BJNR999990001.xml'), LAW);
  writeFileSync(join(sources, 'JURA900000001.xml'), decisionXml());
  const imported = JSON.parse(await juralite('import', '--json', join(sources, 'BJNR999990001.xml'), join(sources, 'JURA900000001.xml')));
  assert.equal(imported.imported, 2, JSON.stringify(imported));
  assert.equal(imported.laws, 25);
  assert.equal(imported.decisions, 51);

  const organization = JSON.parse(await juralite('org', 'create', '--name', 'Kanzlei', '--plan', 'enterprise', '--json')).organization;
  const { token } = JSON.parse(await juralite('token', 'create', '--org', organization.id, '--abilities', 'all', '--json'));
  assert.ok(existsSync(join(install, 'data', 'state.db')), 'the state lives in data/ beside the executable');

  const offline = JSON.parse(await juralite('check', '--text', CHECK_TEXT, '--json'));
  assert.equal(offline.verdict_counts.verified, 2, JSON.stringify(offline.verdict_counts));

  await t.test('where the cache directory cannot be written the next is taken; where none can, a clear error', async () => {
    // Paths below a file cannot be made even by root (ENOTDIR), unlike directories without write permission.
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const fallback = await run(exe, ['check', '--text', CHECK_TEXT, '--json'], { cwd: dir, env: { ...env, XDG_CACHE_HOME: join(file, 'cache') } });
    assert.equal(JSON.parse(fallback.stdout).verdict_counts.verified, 2);
    assert.ok(readdirSync(env.TMPDIR).some((name) => name.startsWith('juralite-')), 'unpacked into the temporary directory');
    const nowhere = await run(exe, ['check', '--text', CHECK_TEXT], {
      cwd: dir, env: { ...env, JURALITE_CACHE_DIR: join(file, 'a'), XDG_CACHE_HOME: join(file, 'b'), TMPDIR: join(file, 'c') },
    }).then(() => assert.fail('check ran without its native files'), (error) => error);
    assert.equal(nowhere.code, 1);
    assert.match(nowhere.stderr, /cannot write the executable's native files \(better_sqlite3\.node, vec0\.so\) to any cache directory/);
    assert.match(nowhere.stderr, /a-file\/a\/[\d.]+-[0-9a-f]{12}: ENOTDIR/);
    assert.match(nowhere.stderr, /set JURALITE_CACHE_DIR/);
  });

  server = spawn(exe, ['serve', '--port', '0'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await servingUrl(server);
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() as any };
  };

  await t.test('search finds the imported law and decision', async () => {
    const law = await api('GET', '/api/v1/search?query=Einzeldateiprogramm');
    assert.equal(law.status, 200, JSON.stringify(law.body));
    assert.ok(law.body.sections.laws.some((item: any) => JSON.stringify(item).includes('EigProgG')), JSON.stringify(law.body.sections.laws));
    const decisions = await api('GET', `/api/v1/decisions/search?query=${encodeURIComponent('Quellcodemietvertrag')}`);
    assert.equal(decisions.status, 200, JSON.stringify(decisions.body));
    assert.equal(decisions.body.results[0]?.id, DECISION_ID, JSON.stringify(decisions.body.results));
  });

  await t.test('the pages for people and their assets are served from inside the executable', async () => {
    const page = await fetch(`${url}/recherche`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" src="\/assets\/app\.js">/u);
    for (const [asset, type] of [['app.js', 'javascript'], ['preact.js', 'javascript'], ['uplot.css', 'css'], ['scalar.js', 'javascript']]) {
      const response = await fetch(`${url}/assets/${asset}`);
      assert.equal(response.status, 200, asset);
      assert.match(response.headers.get('content-type') ?? '', new RegExp(type, 'u'), asset);
      assert.ok((await response.arrayBuffer()).byteLength > 1000, `${asset} has its content`);
    }
  });

  await t.test('get_decision reads it', async () => {
    const read = await api('GET', `/api/v1/decisions/${DECISION_ID}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.id, DECISION_ID);
    assert.ok(JSON.stringify(read.body).includes(AKTENZEICHEN));
  });

  await t.test('a citation check verifies the new decision and a statute', async () => {
    const check = await api('POST', '/api/v1/citation-checks', { text: CHECK_TEXT });
    assert.equal(check.status, 200, JSON.stringify(check.body));
    assert.equal(check.body.status, 'complete');
    assert.deepEqual(check.body.verdict_counts, { verified: 2 });
  });

  await t.test('a DOCX upload is extracted by the worker processes and checked', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(docx({ paragraphs: ['Schriftsatz', CHECK_TEXT] }))]), 'schriftsatz.docx');
    const uploaded = await api('POST', '/api/v1/citation-check-documents', form);
    assert.equal(uploaded.status, 202, JSON.stringify(uploaded.body));
    let document = uploaded.body;
    // Polled within the token's 60 calls a minute (a sliding minute: a tight loop on a slow machine ran into 429).
    for (let attempt = 0; attempt < 120 && document.status === 'uploaded'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const polled = await api('GET', `/api/v1/citation-check-documents/${uploaded.body.id}`);
      if (polled.status === 429) await new Promise((resolve) => setTimeout(resolve, polled.body.retry_after_seconds * 1000));
      else document = polled.body;
    }
    assert.equal(document.status, 'ready', JSON.stringify(document));
    const check = await api('POST', '/api/v1/citation-checks', { document_id: document.id });
    assert.equal(check.status, 200, JSON.stringify(check.body));
    assert.deepEqual(check.body.verdict_counts, { verified: 2 });
  });

  await t.test('MCP over HTTP lists the tools', async () => {
    const client = new Client({ name: 'juralite-exe-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of ['search', 'get_decision', 'check_citations']) assert.ok(names.includes(name), names.join(', '));
    } finally {
      await client.close();
    }
  });

  await t.test('juralite backup copies the state while the server runs', async () => {
    const backup = join(dir, 'state-backup.db');
    assert.equal(JSON.parse(await juralite('backup', backup, '--json')).backup, backup);
    const copy = new Database(backup, { readonly: true });
    try {
      assert.equal(copy.prepare('SELECT name FROM organizations WHERE id = ?').pluck().get(organization.id), 'Kanzlei');
      assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete', 'one self-contained file');
    } finally {
      copy.close();
    }
  });

  await t.test('juralite mcp lists the tools over stdio', async () => {
    const client = new Client({ name: 'juralite-exe-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: exe, args: ['mcp'], cwd: dir, env: { ...env, JURALITE_TOKEN: token }, stderr: 'ignore' }));
    try {
      assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'get_decision'));
    } finally {
      await client.close();
    }
  });
});
