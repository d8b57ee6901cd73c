// Builders for small source documents and archives, written inside the tests (no shared data needed).
import { gzipSync } from 'node:zlib';
import { zip } from '../helpers/documents.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus, type CorpusDb } from '../../src/corpus/open.ts';

export function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-ingest-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function tempCorpus(t: { after: (fn: () => void) => void }): { db: CorpusDb; dir: string } {
  const dir = tempDir(t);
  const db = openCorpus(join(dir, 'corpus.db'));
  t.after(() => db.close());
  return { db, dir };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface RiiParagraph {
  rn?: number;
  text: string;
}

export interface RiiOptions {
  doknr?: string;
  ecli?: string;
  gertyp?: string;
  gerort?: string;
  spruchkoerper?: string;
  datum?: string;
  aktenzeichen?: string;
  doktyp?: string;
  norm?: string;
  titel?: string;
  leitsatz?: string[];
  tenor?: string[];
  tatbestand?: RiiParagraph[];
  entscheidungsgruende?: RiiParagraph[];
  gruende?: RiiParagraph[];
  doctype?: string;
}

function rspdl(paragraphs: RiiParagraph[]): string {
  return paragraphs.map((p) => `
         <dl class="RspDL">
            ${p.rn !== undefined ? `<dt>
               <a name="rd_${p.rn}">${p.rn}</a>
            </dt>` : '<dt/>'}
            <dd>
               <p>
                            ${esc(p.text)}</p>
            </dd>
         </dl>`).join('');
}

function section(tag: string, paragraphs: RiiParagraph[] | undefined): string {
  if (!paragraphs || paragraphs.length === 0) return `   <${tag}/>`;
  return `   <${tag}>
      <div>${rspdl(paragraphs)}
      </div>
   </${tag}>`;
}

/** A rechtsprechung-im-internet.de decision XML like the real ones (DOCTYPE, RspDL lists, rd_N anchors). */
export function riiXml(o: RiiOptions = {}): string {
  const plain = (xs: string[] | undefined) => xs?.map((text) => ({ text }));
  return `<?xml version="1.0" encoding="UTF-8"?>
${o.doctype ?? '<!DOCTYPE dokument\n  SYSTEM "http://www.rechtsprechung-im-internet.de/dtd/v1/rii-dok.dtd">'}
<dokument>
   <doknr>${o.doknr ?? 'TEST000000001'}</doknr>
   <ecli>${o.ecli ?? ''}</ecli>
   <gertyp>${o.gertyp ?? 'BGH'}</gertyp>
   <gerort>${o.gerort ?? ''}</gerort>
   <spruchkoerper>${o.spruchkoerper ?? '8. Zivilsenat'}</spruchkoerper>
   <entsch-datum>${o.datum ?? '20200115'}</entsch-datum>
   <aktenzeichen>${o.aktenzeichen ?? 'VIII ZR 123/19'}</aktenzeichen>
   <doktyp>${o.doktyp ?? 'Urteil'}</doktyp>
   <norm>${esc(o.norm ?? '§ 573 Abs 2 Nr 2 BGB, § 574 BGB')}</norm>
   <vorinstanz/>
   <titelzeile>
      <dl class="RspDL"><dt/><dd><p>${esc(o.titel ?? 'Eigenbedarfskündigung')}</p></dd></dl>
   </titelzeile>
${section('leitsatz', plain(o.leitsatz))}
${section('tenor', plain(o.tenor ?? ['Die Revision wird zurückgewiesen.']))}
${section('tatbestand', o.tatbestand)}
${section('entscheidungsgruende', o.entscheidungsgruende)}
${section('gruende', o.gruende)}
   <abwmeinung/>
   <sonstlt/>
   <identifier>http://www.rechtsprechung-im-internet.de/jportal/?quelle=jlink&amp;docid=${o.doknr ?? 'TEST000000001'}</identifier>
</dokument>
`;
}

export interface GiiUnit {
  enbez: string;
  titel?: string;
  absaetze?: string[];
  gliederung?: { kennzahl: string; bez: string; titel?: string };
}

/** A gesetze-im-internet.de law XML (gii-norm.dtd) with one <norm> per Gliederung heading or unit. */
export function giiXml(o: { bjnr?: string; jurabk: string; amtabk?: string; langue: string; units: GiiUnit[]; doctype?: boolean }): string {
  const bjnr = o.bjnr ?? 'BJNR000000001';
  const norms = [
    `<norm doknr="${bjnr}"><metadaten><jurabk>${esc(o.jurabk)}</jurabk>${o.amtabk ? `<amtabk>${esc(o.amtabk)}</amtabk>` : ''}<langue>${esc(o.langue)}</langue><standangabe><standtyp>Stand</standtyp><standkommentar>zuletzt geändert durch Art. 1 G v. 1.1.2026 I Nr. 1</standkommentar></standangabe></metadaten><textdaten><text format="XML"><Content><P/></Content></text></textdaten></norm>`,
  ];
  for (const u of o.units) {
    if (u.gliederung && !u.enbez) {
      norms.push(`<norm><metadaten><jurabk>${esc(o.jurabk)}</jurabk><gliederungseinheit><gliederungskennzahl>${u.gliederung.kennzahl}</gliederungskennzahl><gliederungsbez>${esc(u.gliederung.bez)}</gliederungsbez><gliederungstitel>${esc(u.gliederung.titel ?? '')}</gliederungstitel></gliederungseinheit></metadaten><textdaten><text format="XML"><Content><P/></Content></text></textdaten></norm>`);
      continue;
    }
    const ps = (u.absaetze ?? []).map((a) => `<P>${a}</P>`).join('');
    norms.push(`<norm><metadaten><jurabk>${esc(o.jurabk)}</jurabk>${u.gliederung ? `<gliederungseinheit><gliederungskennzahl>${u.gliederung.kennzahl}</gliederungskennzahl><gliederungsbez>${esc(u.gliederung.bez)}</gliederungsbez><gliederungstitel/></gliederungseinheit>` : ''}<enbez>${esc(u.enbez)}</enbez>${u.titel ? `<titel format="parat">${esc(u.titel)}</titel>` : ''}</metadaten><textdaten><text format="XML"><Content>${ps}</Content></text><fussnoten/></textdaten></norm>`);
  }
  const doctype = o.doctype ? '<!DOCTYPE dokumente SYSTEM "http://www.gesetze-im-internet.de/dtd/1.01/gii-norm.dtd">\n' : '';
  return `<?xml version="1.0" encoding="UTF-8" ?>${doctype}<dokumente builddate="20260101000000" doknr="${bjnr}">${norms.join('\n')}</dokumente>\n`;
}

/** A zip archive (deflated members) as gesetze-im-internet.de and rechtsprechung-im-internet.de serve them. */
export const makeZip = (entries: { name: string; data: Buffer | string }[]): Buffer => zip(entries);

/** A gzipped ustar archive. */
export function makeTarGz(entries: { name: string; data: Buffer | string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data, 'utf8');
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write('0', 156);
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
