/**
 * A local mirror of gesetze-im-internet.de and rechtsprechung-im-internet.de on 127.0.0.1, built from fixtures/ at
 * test time: gii-toc.xml with one <law>/xml.zip per law, rii-toc.xml with one jb-<doknr>.zip per decision. It answers
 * conditional GETs (ETag, Last-Modified), counts every request, and misbehaves on demand (429, 500, slow, truncated).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zip } from '../helpers/documents.ts';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const GII_PREFIX = 'http://www.gesetze-im-internet.de';
const RII_PREFIX = 'http://www.rechtsprechung-im-internet.de/jportal/docs/bsjrs';

export interface MirrorLaw { slug: string; xml: string }
export interface MirrorDecision { doknr: string; court: string; date: string; aktenzeichen: string; xml: string; modified: string }

/** How one path answers the next `times` requests. */
export type Misbehaviour =
  | { kind: 'status'; status: number; retryAfter?: string; times: number }
  | { kind: 'slow'; ms: number; times: number }
  | { kind: 'truncate'; times: number }
  | { kind: 'body'; body: Buffer | string; times: number };

const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`, 'u').exec(xml)?.[1]?.trim() ?? '';

/** The fixture laws and decisions as a mirror serves them (`count` decisions at most). */
export function fixtureSources(count = Infinity): { laws: MirrorLaw[]; decisions: MirrorDecision[] } {
  const laws = readdirSync(join(FIXTURES, 'laws')).filter((f) => f.endsWith('.xml')).sort().map((file) => {
    const xml = readFileSync(join(FIXTURES, 'laws', file), 'utf8');
    return { slug: tag(xml, 'jurabk').toLowerCase().replace(/[^a-z0-9]+/gu, '_'), xml };
  });
  const decisions = readdirSync(join(FIXTURES, 'decisions')).filter((f) => f.endsWith('.xml')).sort().slice(0, count).map((file) => {
    const xml = readFileSync(join(FIXTURES, 'decisions', file), 'utf8');
    return {
      doknr: tag(xml, 'doknr'), court: `${tag(xml, 'gertyp')} ${tag(xml, 'gerort')} ${tag(xml, 'spruchkoerper')}`.replace(/\s+/gu, ' ').trim(),
      date: tag(xml, 'entsch-datum'), aktenzeichen: tag(xml, 'aktenzeichen'), xml, modified: '2024-01-02T03:04:05Z',
    };
  });
  return { laws, decisions };
}

export class Mirror {
  readonly laws: MirrorLaw[];
  readonly decisions: MirrorDecision[];
  /** Every request's path, in order. */
  readonly requests: string[] = [];
  /** The paths answered 200 with a body. */
  readonly served: string[] = [];
  /** The User-Agent of every request. */
  readonly userAgents: string[] = [];
  readonly misbehaving = new Map<string, Misbehaviour>();
  /** Further files by path (an Open Legal Data dump, say). */
  readonly files = new Map<string, Buffer>();
  /** Called for every answer with a body, before it is sent (a test kills a syncing process here). */
  onServe?: (path: string) => void;
  url = '';
  private server?: Server;
  private readonly zips = new Map<string, Buffer>();

  constructor(sources: { laws: MirrorLaw[]; decisions: MirrorDecision[] }) {
    this.laws = sources.laws;
    this.decisions = sources.decisions;
  }

  giiToc(): string {
    return `<?xml version="1.0" encoding="UTF-8" ?><!DOCTYPE items SYSTEM "http://www.gesetze-im-internet.de/dtd/1.0/gii-toc.dtd">\n<items>\n${
      this.laws.map((law) => `<item>\n<title>${law.slug}</title>\n<link>${GII_PREFIX}/${law.slug}/xml.zip</link>\n</item>`).join('\n')}\n</items>\n`;
  }

  riiToc(): string {
    return `<?xml version="1.0" encoding="utf-8"?>\n<items>\n${this.decisions.map((d) => `<item>\n<gericht>${d.court}</gericht>\n`
      + `<entsch-datum>${d.date}</entsch-datum>\n<aktenzeichen>${d.aktenzeichen}</aktenzeichen>\n`
      + `<link>${RII_PREFIX}/jb-${d.doknr}.zip</link>\n<modified>${d.modified}</modified>\n</item>`).join('\n')}\n</items>\n`;
  }

  /** The bytes at a path (zips are built once per content). */
  body(path: string): Buffer | undefined {
    if (path === '/gii-toc.xml') return Buffer.from(this.giiToc());
    if (path === '/rii-toc.xml') return Buffer.from(this.riiToc());
    if (this.files.has(path)) return this.files.get(path);
    let xml: string | undefined;
    let name = '';
    const law = /^\/([^/]+)\/xml\.zip$/u.exec(path);
    if (law) {
      xml = this.index(this.laws, (l) => l.slug).get(law[1])?.xml;
      name = `${law[1]}.xml`;
    }
    const decision = /\/jb-([A-Z0-9]+)\.zip$/u.exec(path);
    if (decision) {
      xml = this.index(this.decisions, (d) => d.doknr).get(decision[1])?.xml;
      name = `${decision[1]}.xml`;
    }
    if (xml === undefined) return undefined;
    const key = `${path}\u0000${xml}`;
    let bytes = this.zips.get(key);
    if (!bytes) this.zips.set(key, (bytes = zip([{ name, data: xml }])));
    return bytes;
  }

  private readonly indexes = new Map<unknown[], Map<string, unknown>>();

  /** Items by key, built again when items were added (a bench mirror serves 10,000). */
  private index<T>(items: T[], key: (item: T) => string): Map<string, T> {
    let held = this.indexes.get(items) as Map<string, T> | undefined;
    if (!held || held.size !== items.length) this.indexes.set(items, (held = new Map(items.map((item) => [key(item), item]))));
    return held;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://mirror').pathname;
      this.requests.push(path);
      this.userAgents.push(String(request.headers['user-agent']));
      const odd = this.misbehaving.get(path);
      if (odd && --odd.times <= 0) this.misbehaving.delete(path);
      if (odd?.kind === 'status') {
        return void response.writeHead(odd.status, odd.retryAfter ? { 'retry-after': odd.retryAfter } : {}).end('not now');
      }
      const body = odd?.kind === 'body' ? Buffer.from(odd.body) : this.body(path);
      if (!body) return void response.writeHead(404).end('not found');
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      if (request.headers['if-none-match'] === etag) return void response.writeHead(304, { etag }).end();
      this.served.push(path);
      this.onServe?.(path);
      const headers = { etag, 'last-modified': 'Tue, 02 Jan 2024 03:04:05 GMT', 'content-length': String(body.length) };
      if (odd?.kind === 'truncate') {
        response.writeHead(200, headers);
        response.write(body.subarray(0, body.length >> 1), () => response.destroy());
      } else if (odd?.kind === 'slow') {
        response.writeHead(200, headers);
        response.write(body.subarray(0, 10));
        const timer = setTimeout(() => response.end(body.subarray(10)), odd.ms);
        response.on('close', () => clearTimeout(timer));
      } else {
        response.writeHead(200, headers).end(body);
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** The path of a decision's zip on the mirror. */
export const decisionPath = (doknr: string) => `/jportal/docs/bsjrs/jb-${doknr}.zip`;
