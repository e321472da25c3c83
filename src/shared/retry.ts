/**
 * The retry schedule of the outboxes (webhook deliveries, emails): a failed try is tried again
 * after about 30 s, 2 min, 10 min, 1 h and 6 h, then every 12 h, each ±20% so that many failing
 * together do not return together, until the window after it was queued runs out; the last try
 * is at that mark, and a failure then is final. `scale` multiplies every delay and the window
 * (tests shrink the schedule with it).
 */
const DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];
const LATER_DELAY_MS = 43_200_000;

/** A failed try of an outbox item. */
export interface FailedTry {
  attempt: number;
  /** When the item was queued (epoch ms): the window runs from there. */
  queuedAt: number;
  now: number;
  scale: number;
  random?: () => number;
}

/**
 * The schedule of an outbox whose tries go on for `windowMs` after an item is queued: when try
 * `attempt + 1` is due after try `attempt` failed at `now`, or null: no more.
 */
export function retrySchedule(windowMs: number): (failed: FailedTry) => number | null {
  return ({ attempt, queuedAt, now, scale, random = Math.random }) => {
    const end = queuedAt + windowMs * scale;
    if (now >= end) return null;
    const delay = (DELAYS_MS[attempt - 1] ?? LATER_DELAY_MS) * scale * (0.8 + 0.4 * random());
    return Math.min(Math.round(now + delay), end);
  };
}
