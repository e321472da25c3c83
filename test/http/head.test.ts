import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { setupApp } from '../helpers/app.js';

const ctx = await setupApp();
await ctx.app.listen({ host: '127.0.0.1', port: 0 });
const { port } = ctx.app.server.address() as { port: number };

/** Sends raw bytes and reads everything the server writes until it closes the connection. */
function exchange(request: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const head = split === -1 ? raw : raw.slice(0, split);
      resolve({ status: Number(head.split(' ')[1]), head, body: split === -1 ? '' : raw.slice(split + 4) });
    });
    socket.end(request);
  });
}

const request = (method: string, path: string, headers: string[] = []) =>
  [`${method} ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers, '', ''].join('\r\n');

describe('HEAD responses', () => {
  it('carry no body, whatever the status', async () => {
    const huge = `X-Filler: ${'a'.repeat(20_000)}`;
    const cases: [string, number][] = [
      [request('HEAD', '/healthz'), 200],
      [request('HEAD', '/v2/components'), 401],
      [request('HEAD', '/no/such/route'), 404],
      [request('HEAD', '/v2/components', [huge]), 431],
      [request('HEAD', '/healthz', ['Bad Header: x']), 400],
    ];
    for (const [raw, status] of cases) {
      const res = await exchange(raw);
      expect(res.status, res.head).toBe(status);
      expect(res.body, res.head).toBe('');
    }
  });

  it('the same errors to a GET carry our error body', async () => {
    const huge = await exchange(request('GET', '/v2/components', [`X-Filler: ${'a'.repeat(20_000)}`]));
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toEqual({
      message: 'The request headers are larger than the limit',
      code: 'headers_too_large',
    });
    const missing = await exchange(request('GET', '/no/such/route'));
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ code: 'not_found' });
  });
});
