/**
 * Resolves on the event loop's next turn (after pending I/O): long work on the loop (an export, a
 * run of SQLite queries, the search index's batches) awaits it between pieces so that other
 * requests are answered meanwhile.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
