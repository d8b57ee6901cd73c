/** `juralite check`: the offline citation check prints the same body as POST /citation-checks, credits unmetered. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCorpus } from '../helpers/demo-corpus.ts';
import { docx, pdf } from '../helpers/documents.ts';
import { startApi } from '../helpers/api.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;
const TEXT = 'Der Kläger stützt die Räumungsklage auf § 573 Abs. 2 Nr. 2 BGB; vgl. BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10.';

function check(args: string[]) {
  const run = spawnSync(process.execPath, [BIN, 'check', ...args, '--json'], { encoding: 'utf8' });
  return { code: run.status, body: run.stdout ? JSON.parse(run.stdout) : undefined, stderr: run.stderr };
}

/** The parts of a run that do not depend on when and how it was made. */
function comparable(body: Record<string, unknown>) {
  const { id: _id, source: _s, submitted_at: _a, completed_at: _b, created_at: _c, credits: _credits, ...rest } = body;
  return rest;
}

test('check --text prints the run the API answers, with credits.metered false', async () => {
  const db = await demoCorpus();
  const cli = check(['--db', db, '--text', TEXT, '--reference-date', '2024-02-01']);
  assert.equal(cli.code, 0, cli.stderr);
  assert.deepEqual(cli.body.credits, { metered: false, cost: 0, credits_remaining: 0 });
  assert.equal(cli.body.source, 'cli');
  assert.deepEqual(cli.body.verdict_counts, { verified: 2 });

  const api = await startApi({ corpus: 'demo' });
  try {
    const token = api.org({ plan: 'starter' }).token();
    const rest = await api.call('POST', '/api/v1/citation-checks', { token, body: { text: TEXT, reference_date: '2024-02-01' } });
    assert.equal(rest.status, 200);
    assert.deepEqual(comparable(cli.body), comparable(rest.body));
  } finally {
    await api.close();
  }
});

test('check --file reads a UTF-8 text file; refusals print the problem and exit 1', async () => {
  const db = await demoCorpus();
  const dir = mkdtempSync(join(tmpdir(), 'juralite-check-'));
  try {
    const file = join(dir, 'schriftsatz.md');
    writeFileSync(file, `# Schriftsatz\n\n${TEXT}\n`);
    assert.equal(check(['--db', db, '--file', file]).body.progress.citations_total, 2);

    const short = check(['--db', db, '--text', 'zu kurz']);
    assert.equal(short.code, 1);
    assert.equal(short.body.status, 422);
    assert.match(short.body.errors.text[0], /at least 50 characters/);

    const image = join(dir, 'scan.png');
    writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    const refused = check(['--db', db, '--file', image]);
    assert.equal(refused.code, 1);
    assert.match(refused.body.errors.file[0], /^is a PNG image; accepted are PDF, DOCX, Markdown/, 'the upload\'s own words');

    const noCorpus = check(['--db', join(dir, 'missing.db'), '--text', TEXT]);
    assert.equal(noCorpus.body.status, 503);

    const usage = spawnSync(process.execPath, [BIN, 'check', '--db', db], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /exactly one of --file PATH and --text STRING/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check --file reads a DOCX and a PDF as the upload does; a scan without text is the upload\'s no_text refusal', async () => {
  const db = await demoCorpus();
  const dir = mkdtempSync(join(tmpdir(), 'juralite-check-'));
  try {
    const brief = join(dir, 'Schriftsatz.docx');
    writeFileSync(brief, docx({ paragraphs: ['Schriftsatz', TEXT] }));
    const fromDocx = check(['--db', db, '--file', brief, '--reference-date', '2024-02-01']);
    assert.equal(fromDocx.code, 0, fromDocx.stderr);
    assert.deepEqual(fromDocx.body.verdict_counts, { verified: 2 });

    // Named .txt: the content decides, as for an upload.
    const scanned = join(dir, 'Klage.txt');
    writeFileSync(scanned, pdf([['Klageschrift', 'Der Kläger stützt die Räumungsklage auf § 573 Abs. 2 Nr. 2 BGB;'], ['vgl. BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10.']]));
    const fromPdf = check(['--db', db, '--file', scanned, '--reference-date', '2024-02-01']);
    assert.equal(fromPdf.code, 0, fromPdf.stderr);
    assert.deepEqual(fromPdf.body.verdict_counts, { verified: 2 });

    const scan = join(dir, 'scan.pdf');
    writeFileSync(scan, pdf([null, null]));
    const refused = check(['--db', db, '--file', scan]);
    assert.equal(refused.code, 1);
    assert.equal(refused.body.status, 422);
    assert.match(refused.body.errors.file[0], /no page of 2 has a text layer/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
