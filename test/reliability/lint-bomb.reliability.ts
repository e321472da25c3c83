import { describe, expect, it } from 'vitest';
import { prepareWorkspace, report, scaled, startServer, stopServer, watchHealth } from './harness.js';

/**
 * Lint bombs: a regex rule that matches every character, a wordlist term that matches every word
 * and the case-folding pattern that used to stall V8, over as much text as one request may carry.
 * The answer must stay bounded, and /healthz must keep answering while the lint runs.
 */
const TEXTS = scaled(8, 40); // 50,000 characters each: 2,000,000 in the full form, the default limit

async function call(base: string, key: string, path: string, body: unknown) {
  const res = await fetch(`${base}/v2/${path}`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text };
}

describe('lint bombs', () => {
  it('answer bounded while /healthz keeps answering', async () => {
    const { key } = await prepareWorkspace('Lint bombs');
    const server = await startServer();
    const rules = [
      {
        developerId: 'every',
        check: { type: 'regex', pattern: '.', message: 'every character', replacement: '$&$&$&$&' },
      },
      {
        developerId: 'theta',
        check: { type: 'regex', pattern: '(?:\\u03D1|\\u03F4)+$', flags: 'iu', message: 'theta' },
      },
    ];
    const added = await call(server.base, key, 'styleguides/rules', {
      rules: rules.map((r) => ({ styleguideId: 'default', sectionId: 'rules', name: 'Bomb', ...r })),
    });
    expect(added.status, added.text).toBe(201);
    const term = await call(server.base, key, 'styleguides/terms', {
      terms: [
        { styleguideId: 'default', sectionId: 'wordlist', preferred: 'b', replaces: ['a'], note: 'n'.repeat(5000) },
      ],
    });
    expect(term.status, term.text).toBe(201);

    const texts = Array.from({ length: TEXTS }, (_, i) =>
      i % 2 === 0 ? { text: 'a '.repeat(25_000) } : { text: `${'\u03b8'.repeat(49_999)}!` },
    );
    const health = watchHealth(server.base);
    const started = performance.now();
    const lint = await call(server.base, key, 'styleguides/lint', { texts });
    const lintMs = Math.round(performance.now() - started);
    const healthz = await health.stop();
    expect(lint.status).toBe(200);
    const results = JSON.parse(lint.text) as { findings: unknown[]; truncated: boolean }[];
    const findings = results.reduce((n, r) => n + r.findings.length, 0);

    const over = await call(server.base, key, 'styleguides/lint', {
      texts: Array.from({ length: 41 }, () => ({ text: 'a'.repeat(50_000) })),
    });
    report('lint bomb', {
      characters: TEXTS * 50_000,
      lintMs,
      answerMiB: +(lint.text.length / 2 ** 20).toFixed(1),
      findings,
      truncatedTexts: results.filter((r) => r.truncated).length,
      overLimitStatus: over.status,
      healthz,
      peakRssMiB: server.peakRssMiB(),
    });
    await stopServer(server);
    expect(findings).toBeLessThanOrEqual(100 * TEXTS);
    expect(lint.text.length).toBeLessThan(64 * 2 ** 20);
    expect(over.status).toBe(400);
    expect(healthz.failures).toEqual([]);
  });
});
