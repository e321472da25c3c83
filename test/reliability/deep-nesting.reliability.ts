import { describe, expect, it } from 'vitest';
import { prepareWorkspace, report, startServer, stopServer, watchHealth } from './harness.js';

/**
 * Files nested deeper than the documented limit (64 levels) are refused with a 400 naming the
 * problem, in every import format that nests, and XML depth is measured before any parser sees
 * the file. Before: `{"a":` × 4,000 answered 500 in the JSON formats, 8,000 nested `<b>` in
 * Android XML too, and 100,000 XML levels stalled the event loop 3.2 s.
 */
const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
const deepArray = (levels: number) => `{"a":${'['.repeat(levels)}"x"${']'.repeat(levels)}}`;

const FILES: [name: string, format: string, content: string][] = [
  ['json_nested 4,000 objects', 'json_nested', deepJson(4000)],
  ['json_i18next 4,000 objects', 'json_i18next', deepJson(4000)],
  ['json_vue_i18n 4,000 objects', 'json_vue_i18n', deepJson(4000)],
  ['json_icu 4,000 objects', 'json_icu', deepJson(4000)],
  ['arb 4,000 objects', 'arb', deepJson(4000)],
  ['json_i18next 100,000 arrays', 'json_i18next', deepArray(100_000)],
  [
    'android 8,000 <b>',
    'android',
    `<resources><string name="deep">${'<b>'.repeat(8000)}x${'</b>'.repeat(8000)}</string></resources>`,
  ],
  ['android 100,000 elements', 'android', `<resources>${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}</resources>`],
  [
    'ios-stringsdict 100,000 dicts',
    'ios-stringsdict',
    `<?xml version="1.0"?><plist version="1.0">${'<dict><key>k</key>'.repeat(100_000)}<string>x</string>${'</dict>'.repeat(100_000)}</plist>`,
  ],
];

describe('deep nesting', () => {
  it('refuses files nested past the limit with a 400 in every nesting format, /healthz answering', async () => {
    const ws = await prepareWorkspace('Deep nesting');
    const server = await startServer({ LIMIT_BODY_BYTES: String(20 * 1024 * 1024) });
    const health = watchHealth(server.base, 20);
    const answers: Record<string, { status: number; message: string; ms: number }> = {};
    for (const [name, format, content] of FILES) {
      const started = performance.now();
      const res = await fetch(`${server.base}/v2/import`, {
        method: 'POST',
        headers: { authorization: ws.key, 'content-type': 'application/json' },
        body: JSON.stringify({ format, library: true, content }),
      });
      const body = (await res.json()) as { message?: string };
      answers[name] = {
        status: res.status,
        message: String(body.message).slice(0, 100),
        ms: Math.round(performance.now() - started),
      };
    }
    const healthz = await health.stop();
    const components = await (
      await fetch(`${server.base}/v2/components`, { headers: { authorization: ws.key } })
    ).json();
    await stopServer(server);
    report('deep nesting', { answers, healthz });
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.status, name).toBe(400);
      expect(answer.message, name).toMatch(/nested more than 64 levels deep/);
    }
    expect(healthz.failures).toEqual([]);
    // All or nothing: none of the refused files wrote a component.
    expect(components).toEqual([]);
  });
});
