/**
 * A clock a test moves by hand, for code that takes one (the search indexer's `clock`): time
 * stands still until `advance`, which runs the timers that fall due in order, each at its moment.
 */
export interface ManualClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  /** Moves the time on by `ms`, running every timer due meanwhile (and those they set that fall due). */
  advance(ms: number): Promise<void>;
  /** Timers set and neither run nor cleared. */
  pending(): number;
}

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = next++;
      timers.set(id, { at: now + Math.max(0, ms), run });
      return id;
    },
    clearTimeout(timer) {
      timers.delete(timer as number);
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        let first: [number, { at: number; run: () => void }] | undefined;
        for (const entry of timers) if (entry[1].at <= until && (!first || entry[1].at < first[1].at)) first = entry;
        if (!first) break;
        timers.delete(first[0]);
        now = first[1].at;
        first[1].run();
        // Lets what the timer started run up to its next wait on I/O.
        await new Promise((resolve) => setImmediate(resolve));
      }
      now = until;
    },
    pending: () => timers.size,
  };
}
