import { describe, expect, it } from 'vitest';
import { prepareWorkspace, report, requestFrom, scaled, startServer, statusCounts, stopServer } from './harness.js';

/**
 * Behind one proxy (`TRUST_PROXY=1`), the client is the address the proxy appended: the rightmost
 * entry of X-Forwarded-For. A client that writes its own, ever-changing leftmost entries must still
 * be counted as itself. Before, rotating the leftmost entry gave 600 keyless requests and 350
 * password guesses with no 429. A second client behind the same proxy keeps its own budget.
 */
const KEYLESS = scaled(120, 600);
const GUESSES = scaled(60, 350);
const KEYLESS_PER_MINUTE = 50;

const forged = (i: number, client: string) => `${(i * 7) % 250}.${i % 250}.1.${(i * 3) % 250}, ${client}`;

describe('X-Forwarded-For', () => {
  it('counts a client by the address its proxy appended, whatever it forges to the left', async () => {
    await prepareWorkspace('Forwarded for');
    const server = await startServer({
      TRUST_PROXY: '1',
      RATE_LIMIT_KEYLESS_PER_MINUTE: String(KEYLESS_PER_MINUTE),
    });
    const attacker = '198.51.100.7';
    const keyless = [];
    for (let i = 0; i < KEYLESS; i += 1) {
      keyless.push(
        await requestFrom('127.0.0.1', `${server.base}/v2/components`, {
          headers: { 'x-forwarded-for': forged(i, attacker) },
        }),
      );
    }
    const guesses = [];
    for (let i = 0; i < GUESSES; i += 1) {
      guesses.push(
        await requestFrom('127.0.0.1', `${server.base}/v2/session`, {
          method: 'POST',
          headers: { 'x-forwarded-for': forged(i + KEYLESS, '198.51.100.8') },
          body: JSON.stringify({ email: `guess-${i % 3}@example.com`, password: `wrong password ${i}` }),
        }),
      );
    }
    // Another client behind the same proxy: its own budget, untouched by the attacker's.
    const neighbour = await requestFrom('127.0.0.1', `${server.base}/v2/components`, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    await stopServer(server);

    report('x-forwarded-for', {
      keyless: statusCounts(keyless),
      guesses: statusCounts(guesses),
      neighbour: neighbour.status,
    });
    expect(keyless.filter((a) => a.status === 401)).toHaveLength(KEYLESS_PER_MINUTE);
    expect(keyless.filter((a) => a.status === 429)).toHaveLength(KEYLESS - KEYLESS_PER_MINUTE);
    expect(guesses.filter((a) => a.status === 429).length).toBeGreaterThan(GUESSES / 2);
    expect(neighbour.status).toBe(401);
  });
});
