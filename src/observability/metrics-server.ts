import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

/**
 * /metrics on a listener of its own (`--metrics 127.0.0.1:9464`), so that the API's port never shows them: GET and
 * HEAD /metrics, 404 for anything else. Resolves once listening.
 *
 * @example const { url } = await listenMetrics(metrics, '127.0.0.1', 9464);
 */
export async function listenMetrics(metrics: Metrics, host: string, port: number): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Only GET /metrics is served here.\n');
      return;
    }
    metrics.scrape().then(({ text, contentType }) => {
      response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(text);
    }, (error: unknown) => {
      console.error('juralite: collecting the metrics failed:', error);
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected.\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, url: `http://${shownHost}:${address.port}/metrics` };
}
