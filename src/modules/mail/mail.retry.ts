import { retrySchedule } from '../../shared/retry.js';

/**
 * When an email the SMTP server did not take is tried again: on the outboxes' schedule
 * (src/shared/retry.ts: about 30 s, 2 min, 10 min, 1 h and 6 h, then every 12 h, each ±20%),
 * until 72 h after it was queued; a failure then is final.
 */
export const RETRY_WINDOW_MS = 72 * 3_600_000;
/**
 * How long a claim holds an email. Longer than a send can take (connection, greeting and each
 * SMTP command time out well within it), so that a live worker's send is never taken over; a
 * dead worker's emails are sent by another once it runs out.
 */
export const LEASE_MS = 120_000;

/** When try `attempt + 1` is due after try `attempt` failed at `now`, or null: no more. */
export const nextTryAt = retrySchedule(RETRY_WINDOW_MS);
