/**
 * A provider's limits in this process: at most `concurrency` requests at once and
 * `requestsPerMinute` started per minute (evenly spaced). Single translations and the job this
 * server runs share it; a provider's jobs run one at a time across servers (mt.repository.ts's
 * claim), so a job's requests are the provider's requests.
 */
export interface Gate {
  acquire(): Promise<() => void>;
}

export function createGate(limits: { concurrency: number; requestsPerMinute: number }): Gate {
  const interval = 60_000 / Math.max(1, limits.requestsPerMinute);
  let running = 0;
  let nextStart = 0;
  const waiting: (() => void)[] = [];
  // A freed place goes straight to the first waiter, so none can be taken in between.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    async acquire() {
      if (running < limits.concurrency) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      const now = Date.now();
      const at = Math.max(now, nextStart);
      nextStart = at + interval;
      if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
  };
}

/** The gates of this process, by provider and its limits (changed limits get a new gate). */
const gates = new Map<string, Gate>();

export function gateOf(provider: { id: number; concurrency: number; requestsPerMinute: number }): Gate {
  const key = `${provider.id}:${provider.concurrency}:${provider.requestsPerMinute}`;
  let gate = gates.get(key);
  if (!gate) {
    gate = createGate(provider);
    gates.set(key, gate);
  }
  return gate;
}
