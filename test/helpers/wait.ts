/**
 * Waits until `condition` holds, looking again every few milliseconds, and fails with `what` if it
 * does not within `timeoutMs`. For what another process or a background task does in its own
 * time: a test waits for the state it asserts, never for a fixed while (which is too short on a
 * loaded machine and wasted time on a quiet one).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 10_000, everyMs = 5 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
