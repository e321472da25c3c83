import { retrySchedule } from '../../shared/retry.js';

/**
 * When a failed delivery is tried again: on the outboxes' schedule (src/shared/retry.ts: about
 * 30 s, 2 min, 10 min, 1 h and 6 h, then every 12 h, each ±20%), until 24 h after the delivery
 * was queued; the last try is at that mark, and a failure then is final.
 */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
export const LEASE_MS = 30_000;

/** When attempt `attempt + 1` is due after attempt `attempt` failed at `now`, or null: no more. */
export const nextAttemptAt = retrySchedule(RETRY_WINDOW_MS);
