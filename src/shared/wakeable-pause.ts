/**
 * A worker loop's wait between polls that `wake()` cuts short (when new work is queued, or the
 * worker stops). One pause at a time.
 */
export function wakeablePause() {
  let wakeUp: (() => void) | null = null;
  return {
    pause: (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        wakeUp = done;
      }),
    wake: () => wakeUp?.(),
  };
}
