/**
 * Timestamps of rows written by a request. Writes themselves go through the write path
 * (src/modules/changes/write-path.ts): one transaction that advances the workspace's revision,
 * applies the change and records it in the change log.
 */
export const now = () => new Date().toISOString();
