/**
 * When a failed delivery is tried again: after about 30 s, 2 min, 10 min, 1 h and 6 h, then every
 * 12 h, each ±20% so that many deliveries failing together do not return together, until 24 h
 * after the delivery was queued; the last try is at that mark, and a failure then is final.
 * `scale` multiplies every delay and the window (tests shrink the schedule with it).
 */
const DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];
const LATER_DELAY_MS = 43_200_000;
export const RETRY_WINDOW_MS = 24 * 3_600_000;
export const LEASE_MS = 30_000;

/** When attempt `attempt + 1` is due after attempt `attempt` failed at `now`, or null: no more. */
export function nextAttemptAt(
  attempt: number,
  queuedAt: number,
  now: number,
  scale: number,
  random: () => number = Math.random,
): number | null {
  const end = queuedAt + RETRY_WINDOW_MS * scale;
  if (now >= end) return null;
  const delay = (DELAYS_MS[attempt - 1] ?? LATER_DELAY_MS) * scale * (0.8 + 0.4 * random());
  return Math.min(Math.round(now + delay), end);
}
