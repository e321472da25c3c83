/**
 * Failed sign-ins counted per account (the email), whatever address they come from: after
 * `FREE_FAILURES` failures an account's next attempt must wait, 1 s after the first failure past
 * them, doubling each time up to 15 minutes. A refused attempt is answered before any password is
 * hashed, so guessing one account's password costs the server nothing and cannot queue everyone
 * else's sign-ins behind scrypt. A success clears the count; a count with no failure for 15
 * minutes is forgotten. Per process: with several servers each keeps its own count, so the
 * attacker gains at most a factor of the number of servers.
 */
export const FREE_FAILURES = 5;
const MAX_WAIT_MS = 15 * 60 * 1000;
const FORGET_MS = 15 * 60 * 1000;
/** Accounts tracked at once; past it the oldest are forgotten first. */
const MAX_TRACKED = 50_000;

interface Failures {
  count: number;
  lastAt: number;
  lockedUntil: number;
}

export interface SignInGuard {
  /** Milliseconds the account must still wait, or 0. */
  waitFor(email: string): number;
  failed(email: string): void;
  succeeded(email: string): void;
}

export function signInGuard(now: () => number = Date.now): SignInGuard {
  const accounts = new Map<string, Failures>();
  const current = (email: string) => {
    const entry = accounts.get(email);
    if (entry && now() - entry.lastAt > FORGET_MS) {
      accounts.delete(email);
      return undefined;
    }
    return entry;
  };
  return {
    waitFor(email) {
      const entry = current(email);
      return entry ? Math.max(0, entry.lockedUntil - now()) : 0;
    },
    failed(email) {
      const at = now();
      const entry = current(email) ?? { count: 0, lastAt: at, lockedUntil: 0 };
      entry.count += 1;
      entry.lastAt = at;
      if (entry.count >= FREE_FAILURES) {
        entry.lockedUntil = at + Math.min(MAX_WAIT_MS, 1000 * 2 ** (entry.count - FREE_FAILURES));
      }
      accounts.delete(email);
      accounts.set(email, entry);
      if (accounts.size > MAX_TRACKED) accounts.delete(accounts.keys().next().value as string);
    },
    succeeded(email) {
      accounts.delete(email);
    },
  };
}
