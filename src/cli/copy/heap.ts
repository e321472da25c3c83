import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what was alive at the last full collection, in percent.
 * Left alone, V8 picks up to 300 % on a machine with much memory: the copy keeps about 40 MiB
 * alive (mostly the server's code), and each slice leaves garbage that outlives the young
 * generation, so the heap climbed to about 190 MiB between two full collections. At 50 % it stays
 * near 70 MiB, for a few more full collections (tens of milliseconds each). docs/workspace-copy.md
 * has the figures.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Keeps the heap of this process near what is alive. The CLI runs one command a process, so the
 * setting is the copy's alone; a V8 that no longer knows the flag ignores it (the copy then peaks
 * higher, nothing else changes).
 */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
