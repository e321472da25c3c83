/**
 * Items that finish close together, handed to `handleAll` in one call (an outbox worker records
 * its sends' outcomes in one transaction: on SQLite a commit per item, not the sending, is what
 * would bound items a second). Each item's promise settles once the call that took it is over;
 * a call that fails is given to `onError` and its items settle all the same (an outbox's
 * unrecorded items are still claimed, and sent again once their lease runs out).
 */
export function batched<T>(
  handleAll: (items: readonly T[]) => Promise<void>,
  onError: (error: unknown, items: readonly T[]) => void,
): (item: T) => Promise<void> {
  const waiting: { item: T; done: () => void }[] = [];
  let running = false;
  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.splice(0);
      const items = batch.map((w) => w.item);
      try {
        await handleAll(items);
      } catch (error) {
        onError(error, items);
      }
      for (const { done } of batch) done();
    }
    running = false;
  }
  return (item) =>
    new Promise((done) => {
      waiting.push({ item, done });
      if (!running) {
        running = true;
        void drain();
      }
    });
}
