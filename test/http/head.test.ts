import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../helpers/app.js';

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
    // Written, not ended: a client that half-closes at once may see a streamed answer cut short.
    socket.write(request);
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

/** The value of a response header in a raw head, or undefined. */
const header = (head: string, name: string) =>
  head
    .split('\r\n')
    .find((line) => line.toLowerCase().startsWith(`${name}:`))
    ?.slice(name.length + 1)
    .trim();

/** The bytes of a chunked body (as read in latin1). */
function unchunk(body: string): Buffer {
  const raw = Buffer.from(body, 'latin1');
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

describe('HEAD of an export', async () => {
  const ws = await createWorkspace(ctx);
  await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
  // 600 texts of 150 characters: an android file well past the 64 KiB a file is sent whole within.
  const textItems = Array.from({ length: 600 }, (_, n) => ({
    developerId: `item-${String(n).padStart(3, '0')}`,
    text: `Text ${n} `.padEnd(150, 'x'),
  }));
  const created = await ws.api.post('textItems', { projectId: 'web', textItems });
  expect(created.status).toBe(201);
  const path = '/v2/textItems/export?format=android';
  const auth = `Authorization: ${ws.key}`;

  it('answers the headers of a streamed file without a body or a length', async () => {
    const head = await exchange(request('HEAD', path, [auth]));
    expect(head.status, head.head).toBe(200);
    expect(head.body).toBe('');
    expect(header(head.head, 'content-type')).toBe('text/xml; charset=utf-8');
    expect(header(head.head, 'content-length')).toBeUndefined();
    const etag = header(head.head, 'etag');
    expect(etag).toMatch(/^"\d+-[\w-]+"$/);

    const get = await exchange(request('GET', path, [auth]));
    expect(get.status).toBe(200);
    expect(header(get.head, 'etag')).toBe(etag);
    expect(get.body.length).toBeGreaterThan(64 * 1024);
  });

  it('gives the length of bytes already kept, and the coding the GET would use', async () => {
    const gzip = 'Accept-Encoding: gzip';
    const get = await exchange(request('GET', path, [auth, gzip]));
    expect(get.status).toBe(200);
    expect(header(get.head, 'content-encoding')).toBe('gzip');
    const head = await exchange(request('HEAD', path, [auth, gzip]));
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(header(head.head, 'content-encoding')).toBe('gzip');
    expect(header(head.head, 'etag')).toBe(header(get.head, 'etag'));
    // The GET streamed (chunked); its kept bytes now tell the HEAD their exact length.
    expect(header(get.head, 'transfer-encoding')).toBe('chunked');
    expect(Number(header(head.head, 'content-length'))).toBe(unchunk(get.body).length);
  });

  it("is a 304 for a current If-None-Match, and the GET's 400 for a bad query", async () => {
    const first = await exchange(request('HEAD', path, [auth]));
    const etag = header(first.head, 'etag') as string;
    const fresh = await exchange(request('HEAD', path, [auth, `If-None-Match: ${etag}`]));
    expect(fresh.status).toBe(304);
    expect(fresh.body).toBe('');
    const unknown = await exchange(request('HEAD', `${path}&variantId=nope`, [auth]));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toBe('');
    const anonymous = await exchange(request('HEAD', path));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toBe('');
  });
});
