import { describe, expect, it } from 'vitest';
import { prepareWorkspace, report, scaled, startServer, statusCounts, stopServer, watchHealth } from './harness.js';

/**
 * The smaller defects of the last attack run, black box against a server process:
 * - security headers (`nosniff`, a CSP) on the API's JSON, its errors and the /docs page;
 * - webhook addresses in IPv6's special-purpose ranges (NAT64, 6to4, IPv4-mapped and -compatible,
 *   multicast) refused when the webhook is made, whatever the private-network setting;
 * - a UTF-16 `.strings` file with a byte order mark (what Xcode writes) imported;
 * - parallel lints of 2 MB each by a viewer: bounded work, the server's memory bounded and
 *   /healthz answering (before: 24 of them took the server to 1 GB).
 */
const LINTS = scaled(6, 24);
const LINT_CHARS = 2_000_000;

const REFUSED_HOOKS = [
  'http://[::ffff:0:a00:1]/hook',
  'http://[64:ff9b::a00:1]/hook',
  'http://[2002:a00:1::1]/hook',
  'http://[::a00:1]/hook',
  'http://[::]/hook',
  'http://[ff02::1]/hook',
  'http://224.0.0.251/hook',
  'http://[2001:db8::1]/hook',
  'http://169.254.169.254/latest/meta-data',
];

describe('smaller defects', () => {
  it('headers, webhook ranges, UTF-16 .strings and parallel lints', async () => {
    const ws = await prepareWorkspace('Small defects');
    const server = await startServer({ RATE_LIMIT_KEYLESS_PER_MINUTE: '0' });
    const auth = { authorization: ws.key };
    const json = { ...auth, 'content-type': 'application/json' };

    const headersOf = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${server.base}${path}`, { headers });
      await res.arrayBuffer();
      return {
        status: res.status,
        nosniff: res.headers.get('x-content-type-options'),
        csp: res.headers.get('content-security-policy'),
      };
    };
    const headers = {
      apiJson: await headersOf('/v2/components', auth),
      apiError: await headersOf('/v2/components'),
      openapi: await headersOf('/v2/openapi.json'),
      docs: await headersOf('/docs/'),
    };

    const signingKey = await fetch(`${server.base}/v2/webhooks/signingKey`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ signingKey: 'reliability-signing-key-0123456789-abcdef' }),
    });
    expect(signingKey.status).toBe(200);
    const hooks: Record<string, number> = {};
    for (const url of REFUSED_HOOKS) {
      const res = await fetch(`${server.base}/v2/webhooks`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ webhooks: [{ name: 'Probe', url, events: ['textItem.updated'] }] }),
      });
      await res.arrayBuffer();
      hooks[url] = res.status;
    }

    const strings = '/* Greeting */\n"hello" = "Grüß dich 👋";\n"bye" = "Tschüs";\n';
    const form = new FormData();
    form.set('format', 'ios-strings');
    form.set('library', 'true');
    form.set('file', new Blob([Buffer.from([0xff, 0xfe]), Buffer.from(strings, 'utf16le')]), 'Localizable.strings');
    const imported = await fetch(`${server.base}/v2/import`, { method: 'POST', headers: auth, body: form });
    const importBody = (await imported.json()) as { created?: string[] };

    const health = watchHealth(server.base, 50);
    // 40 texts of 50,000 characters (the longest a text may be): 2,000,000 characters a request.
    const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(900).slice(0, 50_000);
    const texts = Array.from({ length: LINT_CHARS / 50_000 }, () => ({ text }));
    const lints = await Promise.all(
      Array.from({ length: LINTS }, async () => {
        const res = await fetch(`${server.base}/v2/styleguides/lint`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ texts }),
        });
        const body = await res.text();
        return { status: res.status, ...(res.status === 200 ? {} : { message: body.slice(0, 200) }) };
      }),
    );
    const healthz = await health.stop();
    const peakRssMiB = server.peakRssMiB();
    await stopServer(server);

    report('smaller defects', {
      headers,
      hooks,
      utf16Strings: { status: imported.status, created: importBody.created },
      lints: {
        parallel: LINTS,
        chars: LINT_CHARS,
        statuses: statusCounts(lints),
        refused: lints.find((l) => l.status !== 200),
      },
      healthz,
      peakRssMiB,
    });
    for (const [name, seen] of Object.entries(headers)) {
      expect(seen.nosniff, name).toBe('nosniff');
      expect(seen.csp, name).toBeTruthy();
    }
    for (const [url, status] of Object.entries(hooks)) expect(status, url).toBe(400);
    expect(imported.status).toBe(200);
    expect(importBody.created).toEqual(['hello', 'bye']);
    // Every lint answered: done, or turned away while the server is busy (429/503 with Retry-After).
    for (const { status } of lints) expect([200, 429, 503]).toContain(status);
    expect(lints.some((l) => l.status === 200)).toBe(true);
    expect(healthz.failures).toEqual([]);
  });
});
