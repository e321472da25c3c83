import type { Limits } from '../../config.js';
import { createLegacyReader, type LegacyReadDeps } from './legacy.read.js';
import { createLegacyWriter, type LegacyWriteDeps } from './legacy.write.js';

/**
 * The v0 and v1 APIs as one service: the reads (adapters over the texts reader and the exporters)
 * and the writes (through the components service). Imports are checked against the configured
 * limits, so the writer is made with them.
 */
export function createLegacyService(deps: LegacyReadDeps & LegacyWriteDeps, limits: Limits) {
  return { read: createLegacyReader(deps), write: createLegacyWriter(deps, limits) };
}

export type LegacyService = ReturnType<typeof createLegacyService>;
