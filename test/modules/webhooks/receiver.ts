import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  path: string;
}

/**
 * A webhook receiver on 127.0.0.1, as a customer would write one: it records every request and
 * answers what `respond` says (200 by default).
 */
export async function startReceiver() {
  const received: Received[] = [];
  let respond: (request: Received) => number = () => 200;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const entry: Received = { headers: req.headers, raw, body: JSON.parse(raw), path: req.url ?? '' };
      received.push(entry);
      const status = respond(entry);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    respondWith(fn: (request: Received) => number) {
      respond = fn;
    },
    /** Resolves once `count` requests in all have arrived. */
    waitFor(count: number, timeoutMs = 15_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} requests, expected ${count}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    /** Events (not tests) to `path`. */
    events(path = '/hook') {
      return received.filter((r) => r.path === path && r.body.event !== 'webhook.test');
    },
  };
}

/** Verifies a request the way the original's documentation tells receivers to. */
export function verifiedBy(signingKey: string, request: Received): boolean {
  const requestId = request.headers['x-ditto-request-id'];
  const timestamp = request.headers['x-ditto-timestamp'];
  const expected = createHmac('sha256', signingKey)
    .update(`${requestId}.${timestamp}.${JSON.stringify(request.body)}`)
    .digest('hex');
  return expected === request.headers['x-ditto-signature'];
}
