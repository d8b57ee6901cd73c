/**
 * Hostile input on the command line: generated argument vectors for the administration commands and `check`
 * (in-process, through the same `run` that bin/juralite calls), hostile files for `check --file`, and a folder of
 * hostile documents for `juralite import` (a child process): XML entity bombs, external and parameter entities,
 * DOCTYPE tricks, malformed, truncated, deeply nested and binary XML, archives with traversal member names, a gzip
 * bomb and garbage JSON lines.
 *
 * Guards: the command line answers every input with an exit code 0, 1 or 2 and a message (or the check's problem),
 * never an internal error (src/cli/main.ts run, flags.ts, admin.ts, check.ts); the importers expand no entity, read no
 * external resource, write nothing outside the corpus and report each bad document as failed with a reason while
 * importing the rest (src/ingest/xml.ts, import-paths.ts, zip.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { run } from '../../src/cli/main.ts';
import { registerTextFunctions } from '../../src/corpus/stored-text.ts';
import { buildSmallCorpus } from '../helpers/small-corpus.ts';
import { zip } from '../helpers/documents.ts';
import { NASTY_STRINGS, SEED } from './helpers/nasty.ts';
import { LEGAL_TEXT } from './helpers/plausible.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
const FIXTURE = new URL('../../fixtures/decisions/JURA000000001.xml', import.meta.url).pathname;
const LAW_FIXTURE = new URL('../../fixtures/laws/BJNR000010949.xml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'juralite-hostile-cli-'));
const state = join(dir, 'state.db');
const corpus = join(dir, 'corpus.db');
/** Messages that only an internal error (a bug), never a refusal, would print. */
const INTERNAL = /Cannot read propert|is not a function|is not iterable|undefined is not|Maximum call stack|Invalid string length|SQLITE_|constraint failed|\n\s+at /;

before(() => buildSmallCorpus(corpus));
after(() => rmSync(dir, { recursive: true, force: true }));

/** bin/juralite's `run`, in this process, with its output and exit code captured. */
async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const saved = { log: console.log, error: console.error, warn: console.warn, exitCode: process.exitCode };
  console.log = (...args: unknown[]) => { stdout.push(args.join(' ')); };
  console.error = (...args: unknown[]) => { stderr.push(args.join(' ')); };
  console.warn = console.error;
  process.exitCode = 0;
  try {
    await run(argv);
    return { code: Number(process.exitCode ?? 0), stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  } finally {
    Object.assign(console, { log: saved.log, error: saved.error, warn: saved.warn });
    process.exitCode = saved.exitCode;
  }
}

test('generated argument vectors for the administration commands and check: exit 0, 1 or 2 with a message, never an internal error', async () => {
  const org = JSON.parse((await cli(['org', 'create', '--name', 'Kanzlei', '--json', '--state', state])).stdout);
  // Commands that serve, import or write a file elsewhere are tested on their own; these only touch the temp files.
  const commands = fc.constantFrom(['org', 'create'], ['user', 'create'], ['user', 'verify'], ['user', 'enable-2fa'], ['token', 'create'],
    ['token', 'revoke'], ['credits', 'show'], ['credits', 'grant'], ['check'], ['org'], ['frobnicate'], ['--version'], []);
  const value = fc.oneof(
    fc.constantFrom(...NASTY_STRINGS.filter((text) => !text.includes('\u0000'))),
    fc.constantFrom(org.organization.id, org.user.id, 'all', 'read,search', 'starter', '30', '-5', '1.5', `${LEGAL_TEXT}`, '2020-02-30', dir),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
  );
  const flag = fc.constantFrom('--name', '--plan', '--org', '--user', '--abilities', '--days', '--amount', '--note', '--id', '--email',
    '--text', '--file', '--reference-date', '--json', '--require-2fa', '--help', '--', '---x', '--=', '-n');
  const argv = fc.tuple(commands, fc.array(fc.tuple(flag, fc.option(value, { nil: undefined })), { maxLength: 5 }), fc.array(value, { maxLength: 2 }))
    .map(([command, flags, words]) => [...command, ...words.filter((word) => !word.startsWith('--')),
      ...flags.flatMap(([name, text]) => (text === undefined ? [name] : [name, text]))]);
  await fc.assert(fc.asyncProperty(argv, async (args) => {
    // The temp files last, so that no generated flag points elsewhere.
    const result = await cli([...args, '--state', state, '--db', corpus, '--data', dir]);
    const label = JSON.stringify(args).slice(0, 300);
    assert.ok([0, 1, 2].includes(result.code), `${label}: exit ${result.code}`);
    assert.doesNotMatch(result.stderr, INTERNAL, `${label}: ${result.stderr.slice(0, 300)}`);
    assert.doesNotMatch(result.stdout, INTERNAL, label);
    // A refusal says why: a message, the usage, or the check's problem.
    if (result.code !== 0) {
      assert.ok(result.stderr.startsWith('juralite: ') || result.stdout.startsWith('juralite ') || result.stdout.includes('"code"'), `${label}: no message`);
    }
    // check prints the run (exit 0) or the problem (exit 1) as JSON; --help and --version print text.
    if (args[0] === 'check' && result.stdout.startsWith('{')) {
      const body = JSON.parse(result.stdout);
      assert.ok(result.code === 0 ? body.credits?.metered === false : body.status === 422 || body.status === 503, label);
    }
  }), { numRuns: 120, seed: SEED, endOnFailure: true });
});

test('check --file with hostile files: a run or a 422 problem, or a message; never an internal error', async () => {
  const files: [string, Buffer | string][] = [
    ['nul.txt', `${LEGAL_TEXT}\u0000`],
    ['invalid-utf8.txt', Buffer.concat([Buffer.from(LEGAL_TEXT), Buffer.from([0xc0, 0xaf, 0xff, 0xfe])])],
    ['utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LEGAL_TEXT, 'utf16le')])],
    ['long.txt', `${LEGAL_TEXT} `.repeat(120)],
    ['empty.txt', ''],
    ['bom.txt', `\ufeff${LEGAL_TEXT}`],
    ['rtl-combining.md', `${LEGAL_TEXT} \u202e§ 823 BGB\u202c e\u0301\u0301 \ud800`],
    ['fts-syntax.txt', `${LEGAL_TEXT} NEAR( "a" * -b col:x`],
  ];
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
  for (const name of [...files.map(([file]) => file), '.', 'missing.txt']) {
    const result = await cli(['check', '--file', join(dir, name), '--db', corpus]);
    assert.ok([0, 1, 2].includes(result.code), name);
    assert.doesNotMatch(`${result.stdout}${result.stderr}`, INTERNAL, name);
    if (result.code === 0) assert.equal(JSON.parse(result.stdout).status, 'complete', name);
    if (result.code === 1 && result.stdout) assert.equal(JSON.parse(result.stdout).code, 'validation_failed', name);
  }
});

test('backup never overwrites or escapes its destination; serve with hostile flags exits with a message instead of serving', async () => {
  await cli(['org', 'create', '--name', 'Kanzlei', '--state', state]);
  const existing = join(dir, 'existing.db');
  writeFileSync(existing, 'precious');
  for (const destination of [existing, dir, join(dir, 'missing', 'deeper', 'b.db'), '']) {
    const result = await cli(['backup', destination, '--state', state]);
    assert.notEqual(result.code, 0, destination);
    assert.match(result.stderr, /^juralite: /, destination);
    assert.doesNotMatch(result.stderr, INTERNAL, destination);
  }
  assert.equal(readFileSync(existing, 'utf8'), 'precious');
  const made = await cli(['backup', join(dir, 'ok \u202e name.db'), '--state', state, '--json']);
  assert.equal(made.code, 0, made.stderr);
  writeFileSync(join(dir, 'not-a-database.db'), 'just text, no SQLite');
  for (const flags of [['--port', 'abc'], ['--port', '70000'], ['--host', '999.1.1.1'], ['--db', join(dir, 'not-a-database.db')], ['--db', dir]]) {
    const child = spawn(process.execPath, [BIN, 'serve', '--data', join(dir, 'serve-data'), '--state', join(dir, 'serve-state.db'), '--db', corpus, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    // A hang guard only: a server that starts despite the flag is killed, and the exit code below fails the test.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    // A port that is no port is a usage error (2), found before any work; the others fail while starting (1).
    assert.equal(code, flags[0] === '--port' ? 2 : 1, `${flags.join(' ')}: ${stderr}`);
    assert.match(stderr, /juralite: /, flags.join(' '));
    assert.doesNotMatch(stderr, /\n\s+at /, `${flags.join(' ')}: a stack trace`);
  }
});

// --- import -------------------------------------------------------------------------------------------------------

const LAUGHS = '<!DOCTYPE dokument [<!ENTITY lol "lol">'
  + Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('') + ']>';

/** The fixture decision under another document number and ECLI, its DOCTYPE replaced, `text` in its first paragraph. */
function decisionXml(doknr: string, doctype: string, text: string): string {
  const xml = readFileSync(FIXTURE, 'utf8').replace(/<!DOCTYPE[^>]*>/, doctype).replace('JURA000000001', doknr)
    .replace(/<ecli>[^<]*<\/ecli>/, `<ecli>ECLI:DE:BGH:2004:${doknr.slice(-6)}</ecli>`);
  const at = xml.indexOf('<p>', xml.indexOf('</titelzeile>')) + 3;
  return xml.slice(0, at) + text + xml.slice(at);
}

function runImport(sources: string[], into: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'import', '--db', into, '--json', ...sources], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  // A hang guard only.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    resolve({ code, stdout, stderr });
  }));
}

test('import of hostile documents: entities stay unexpanded, nothing is read or written outside, each bad one fails with a reason', async () => {
  const hostname = existsSync('/etc/hostname') ? readFileSync('/etc/hostname', 'utf8').trim() : null;
  const escapes = ['/tmp/juralite-zip-escape.xml', '/tmp/juralite-zip-absolute.xml', join(dir, 'escaped.xml')];
  for (const path of escapes) rmSync(path, { force: true });
  const folder = join(dir, 'hostile');
  mkdirSync(folder);
  const files: Record<string, string | Buffer> = {
    'laughs.xml': decisionXml('JURA900000001', LAUGHS, 'Gelächter &lol9; Ende. '),
    'external.xml': decisionXml('JURA900000002', '<!DOCTYPE dokument [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>', 'Extern &xxe; Ende. '),
    'parameter.xml': decisionXml('JURA900000003', '<!DOCTYPE dokument [<!ENTITY % p SYSTEM "file:///etc/hostname"> %p;]>', 'Parameter. '),
    'bracket-in-entity.xml': decisionXml('JURA900000004', '<!DOCTYPE dokument [<!ENTITY a "]>"> ]>', 'Klammer &a; Ende. '),
    'public-dtd.xml': decisionXml('JURA900000005', '<!DOCTYPE dokument PUBLIC "-//x//DTD x//EN" "http://169.254.169.254/latest/meta-data/">', 'Öffentlich. '),
    'nested.xml': decisionXml('JURA900000006', '', `${'<div>'.repeat(5000)}tief${'</div>'.repeat(5000)}`),
    'truncated.xml': readFileSync(FIXTURE, 'utf8').slice(0, 1500),
    'empty.xml': '',
    'binary.xml': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
    'utf16.xml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(decisionXml('JURA900000007', '', 'Sechzehn. '), 'utf16le')]),
    'law-laughs.xml': readFileSync(LAW_FIXTURE, 'utf8').replace(/<!DOCTYPE[^>]*>/, LAUGHS.replace('dokument', 'dokumente')).replace(/<enbez>/, '<enbez>&lol9;'),
    'traversal.zip': zip([
      { name: '../../../../../../tmp/juralite-zip-escape.xml', data: decisionXml('JURA900000008', '', 'Zip. ') },
      { name: '/tmp/juralite-zip-absolute.xml', data: decisionXml('JURA900000009', '', 'Absolut. ') },
      { name: '..\\..\\escaped.xml', data: decisionXml('JURA900000010', '', 'Rückwärts. ') },
    ]),
    'bomb.jsonl.gz': gzipSync(Buffer.alloc(16 * 1024 * 1024)),
    'garbage.jsonl': ['{', 'null', '[]', '{"__proto__": {"polluted": true}}', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, '"\\ud800"', '\u0000'].join('\n'),
    'name\u202ewith rtl\nand newline.xml': decisionXml('JURA900000011', '', 'Name. '),
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const into = join(dir, 'imported.db');
  const result = await runImport([folder], into);
  assert.ok(result.code === 0 || result.code === 1, `exit ${result.code}: ${result.stderr.slice(0, 500)}`);
  assert.doesNotMatch(result.stderr, INTERNAL, result.stderr.slice(0, 500));
  const summary = JSON.parse(result.stdout);
  for (const failure of summary.failed) assert.ok(failure.path && failure.reason, JSON.stringify(failure));
  const failedNames = summary.failed.map((failure: { path: string }) => failure.path).join('\n');
  for (const bad of ['truncated.xml', 'garbage.jsonl']) assert.match(failedNames, new RegExp(bad.replace('.', '\\.')), `${bad} reported as failed`);
  assert.ok(summary.imported >= 5, `the harmless documents were imported: ${JSON.stringify(summary)}`);
  for (const path of escapes) assert.ok(!existsSync(path), `${path} was written`);
  const db = new Database(into, { readonly: true });
  registerTextFunctions(db);
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    // Chunks are ranges of the decision's text (schema 3): the text is all there is to search.
    const texts = db.prepare(`SELECT decision_text(text_zstd) AS text FROM decisions
      UNION ALL SELECT coalesce(text, '') || coalesce(heading, '') FROM law_units`).all() as { text: string }[];
    for (const { text } of texts) {
      assert.ok(!text.includes('lollol'), 'an entity was expanded');
      if (hostname) assert.ok(!text.includes(hostname), 'an external file was read');
    }
  } finally {
    db.close();
  }
});
