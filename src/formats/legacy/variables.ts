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

/**
 * A variable in a `structured` body, in the shape the original writes and its React SDK
 * (`ditto-react`) reads: a list is the plain array of its values; a map's keys sit beside
 * `__type: "map"` (a map key named `__type` cannot be carried and is left out); the other types
 * as in `describeVariable`.
 */
export function structuredVariable(variable: Pick<ExportVariable, 'type' | 'data'>): unknown {
  const { type, data } = variable;
  if (type === 'list') return data;
  if (type === 'map') return { ...(data as Record<string, unknown>), __type: type };
  return describeVariable(variable);
}
