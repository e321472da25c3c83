import type { ExportVariable } from '../types.js';

/**
 * A variable as the legacy bodies describe it: its type under `__type`, beside the data. String
 * and number variables show `example` and `fallback`, hyperlinks `text` and `url`; list and map
 * data go under `values` and `entries`, so no list value or map key can collide with `__type`.
 */
export function describeVariable(variable: Pick<ExportVariable, 'type' | 'data'>): Record<string, unknown> {
  const { type, data } = variable;
  if (type === 'list') return { values: data, __type: type };
  if (type === 'map') return { entries: data, __type: type };
  return { ...(data as Record<string, unknown>), __type: type };
}
