import { describe, expect, it } from 'vitest';
import { FREE_FAILURES, signInGuard } from '../../../src/modules/accounts/sign-in-guard.js';

describe('the per-account sign-in guard (an injected clock)', () => {
  it('lets the first failures through, then waits 1 s, 2 s, 4 s ... up to 15 minutes', () => {
    let now = 1_000_000;
    const guard = signInGuard(() => now);
    for (let i = 1; i < FREE_FAILURES; i += 1) {
      guard.failed('a@example.com');
      expect(guard.waitFor('a@example.com')).toBe(0);
    }
    const waits: number[] = [];
    for (let i = 0; i < 14; i += 1) {
      guard.failed('a@example.com');
      waits.push(guard.waitFor('a@example.com'));
      now += waits.at(-1) ?? 0;
    }
    expect(waits.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 16_000]);
    expect(Math.max(...waits)).toBe(15 * 60 * 1000);
    expect(guard.waitFor('b@example.com')).toBe(0);
  });

  it('a success clears the count; fifteen quiet minutes forget it', () => {
    let now = 0;
    const guard = signInGuard(() => now);
    for (let i = 0; i < FREE_FAILURES; i += 1) guard.failed('a@example.com');
    expect(guard.waitFor('a@example.com')).toBeGreaterThan(0);
    guard.succeeded('a@example.com');
    expect(guard.waitFor('a@example.com')).toBe(0);
    for (let i = 0; i < FREE_FAILURES + 3; i += 1) guard.failed('b@example.com');
    now += 15 * 60 * 1000 + 1;
    expect(guard.waitFor('b@example.com')).toBe(0);
    guard.failed('b@example.com');
    expect(guard.waitFor('b@example.com')).toBe(0);
  });
});
