/**
 * Mistyped paths: administration commands and `juralite mcp` make no directory and no empty state database where a
 * typo points; `import` checks its sources before it makes a corpus; and each wrong path is named in plain words, not
 * as EISDIR, EEXIST or SQLite's "file is not a database".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isExecutableDataDir } from '../../src/cli/paths.ts';
import { tempDir } from '../ingest/helpers.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
const TEXT = 'Der Kläger stützt die Räumungsklage auf § 573 Abs. 2 Nr. 2 BGB; vgl. BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10.';
/** What the file system and SQLite say when nobody translates. */
const RAW = /EISDIR|EEXIST|ENOENT|unable to open database|^juralite: file is not a database/m;

function juralite(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env, timeout: 30_000 });
}

/** Asserts a refusal with exit 1 whose message says `message` (a string holds paths, which are no patterns). */
function assertRefused(args: string[], message: string | RegExp, env?: NodeJS.ProcessEnv): void {
  const result = juralite(args, env);
  assert.equal(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
  if (typeof message === 'string') assert.ok(result.stderr.includes(message), `${args.join(' ')}: ${result.stderr}`);
  else assert.match(result.stderr, message, args.join(' '));
  assert.doesNotMatch(result.stderr, RAW, args.join(' '));
}

test('a mistyped --data makes no directory and no state database; the refusal names the path', (t) => {
  const dir = tempDir(t);
  const typo = join(dir, 'nonexistent', 'dir');
  assertRefused(['credits', 'show', '--org', 'x', '--data', typo], `the state database's directory ${typo} does not exist`);
  assertRefused(['org', 'create', '--name', 'A', '--state', join(typo, 'state.db')], /does not exist/);
  assertRefused(['mcp', '--data', typo], `no state database at ${join(typo, 'state.db')}`, { ...process.env, JURALITE_TOKEN: 'jl_x' });
  assert.ok(!existsSync(join(dir, 'nonexistent')), 'a directory was created');
  // An existing directory may receive its state database: the organization comes before the first serve.
  assert.equal(juralite(['org', 'create', '--name', 'A', '--data', dir]).status, 0);
  assert.ok(existsSync(join(dir, 'state.db')));
});

test('only the data directory beside the executable is made by an administration command', () => {
  const beside = join(dirname(process.execPath), 'data');
  assert.equal(isExecutableDataDir(beside, true), true);
  assert.equal(isExecutableDataDir(`${beside}/`, true), true);
  assert.equal(isExecutableDataDir(beside, false), false, 'from a checkout, ./data must exist like any other');
  assert.equal(isExecutableDataDir(join(tmpdir(), 'data'), true), false);
});

test('import checks every source before it makes the corpus', (t) => {
  const dir = tempDir(t);
  const corpus = join(dir, 'x.db');
  assertRefused(['import', '--db', corpus, join(dir, 'nonexistent.xml'), join(dir, 'also-missing')],
    `no such file or directory: ${join(dir, 'nonexistent.xml')}, ${join(dir, 'also-missing')}`);
  assert.ok(!existsSync(corpus), 'an empty corpus was left behind');
});

test('wrong kinds of path are named in plain words', (t) => {
  const dir = tempDir(t);
  const notADatabase = join(dir, 'notadb.db');
  writeFileSync(notADatabase, 'just text, no SQLite');
  const state = join(dir, 'state.db');
  assert.equal(juralite(['org', 'create', '--name', 'A', '--state', state]).status, 0);
  assertRefused(['check', '--file', dir], `--file ${dir} is a directory, not a file`);
  assertRefused(['check', '--file', join(dir, 'missing.md')], /--file \S+missing\.md does not exist/);
  assertRefused(['check', '--db', notADatabase, '--text', TEXT], `${notADatabase} is not a juralite corpus (SQLite: file is not a database)`);
  assertRefused(['check', '--db', dir, '--text', TEXT], `${dir} is a directory, not a juralite corpus`);
  assertRefused(['backup', '--state', state, join(dir, 'missing', 'x.db')], `the backup's directory ${join(dir, 'missing')} does not exist`);
  assertRefused(['credits', 'show', '--org', 'x', '--state', notADatabase], /is not a juralite state database/);
  assertRefused(['serve', '--data', notADatabase, '--port', '0'], `the data directory ${notADatabase} is a file, not a directory`);
  assertRefused(['serve', '--db', notADatabase, '--state', state, '--port', '0'], /notadb\.db is not a juralite corpus/);
});
