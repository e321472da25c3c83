import { describe, expect, it } from 'vitest';
import { userWithPassword } from './accounts.js';
import {
  latencies,
  prepareWorkspace,
  report,
  requestFrom,
  scaled,
  startServer,
  statusCounts,
  stopServer,
} from './harness.js';

/**
 * Password guessing on one account from eight addresses (127.0.0.2 … 127.0.0.9), while another
 * user signs in now and then from a ninth. The account's own limit must refuse the guesses with
 * 429 whatever address they come from, and since a refused guess is answered before any hashing,
 * the other user's sign-in keeps working. Before: 800 wrong passwords in 70 s were all answered
 * 401, and everyone's sign-in took 7.3 s at the median meanwhile.
 */
const GUESSES = scaled(160, 800);
const ADDRESSES = 8;
const BYSTANDER_SIGN_INS = scaled(5, 20);

describe('sign-in guessing', () => {
  it(`answers ${GUESSES} guesses from ${ADDRESSES} addresses with 429s; another user still signs in`, async () => {
    const ws = await prepareWorkspace('Sign-in guessing');
    // Keyless limits per address high enough that only the account's own limit can answer 429.
    const server = await startServer({ RATE_LIMIT_KEYLESS_PER_MINUTE: '100000' });
    await userWithPassword(server.base, ws, 'victim@example.com', 'the right horse battery');
    await userWithPassword(server.base, ws, 'bystander@example.com', 'another long passphrase');
    const signIn = (from: string, email: string, password: string) =>
      requestFrom(from, `${server.base}/v2/session`, {
        method: 'POST',
        body: JSON.stringify({ email, password }),
        timeoutMs: 30_000,
      });

    const guessing = Promise.all(
      Array.from({ length: ADDRESSES }, async (_, a) => {
        const answers = [];
        for (let i = 0; i < GUESSES / ADDRESSES; i += 1) {
          answers.push(await signIn(`127.0.0.${a + 2}`, 'victim@example.com', `wrong guess ${a}-${i}`));
        }
        return answers;
      }),
    );
    const bystander = [];
    for (let i = 0; i < BYSTANDER_SIGN_INS; i += 1) {
      bystander.push(await signIn('127.0.0.10', 'bystander@example.com', 'another long passphrase'));
    }
    const guesses = (await guessing).flat();
    const afterwards = await signIn('127.0.0.11', 'victim@example.com', 'the right horse battery');
    await stopServer(server);

    const refused = guesses.filter((g) => g.status === 429);
    report('sign-in guessing', {
      guesses: statusCounts(guesses),
      retryAfter: refused[0]?.headers['retry-after'],
      guessTimes: latencies(guesses.map((g) => g.ms)),
      bystander: { ...statusCounts(bystander), ...latencies(bystander.map((b) => b.ms)) },
      rightPasswordDuringBackoff: afterwards.status,
    });
    // Five failures are free, then the account waits: nearly every guess is a 429.
    expect(guesses.filter((g) => g.status === 401).length).toBeLessThan(GUESSES / 4);
    expect(refused.length).toBeGreaterThan((GUESSES * 3) / 4);
    expect(refused[0]?.headers['retry-after']).toMatch(/^\d+$/);
    expect(statusCounts(bystander)).toEqual({ 200: BYSTANDER_SIGN_INS });
    // The account stays locked for its backoff even for the right password.
    expect(afterwards.status).toBe(429);
  });
});
