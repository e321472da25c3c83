import type { ExportOptions, ExportVariable } from '../types.js';

/**
 * An entry's variables in `variableOrder`: `default` is the workspace's creation order,
 * `alphabetical` sorts by name (case-insensitively, then by code unit so the order is total).
 * Duplicates by name are dropped.
 */
export function orderVariables(
  variables: readonly ExportVariable[],
  order: ExportOptions['variableOrder'],
): ExportVariable[] {
  // Most lists are already in creation order (the order they are read in), without duplicates.
  if (order === 'default' && inCreationOrder(variables)) return variables.slice();
  const unique = [...new Map(variables.map((variable) => [variable.name, variable])).values()];
  if (order === 'alphabetical') return unique.sort((a, b) => compareNames(a.name, b.name));
  return unique.sort((a, b) => a.creationIndex - b.creationIndex || compareNames(a.name, b.name));
}

/** Whether each variable comes after the one before in creation order (so none is listed twice). */
function inCreationOrder(variables: readonly ExportVariable[]): boolean {
  for (let index = 1; index < variables.length; index++) {
    if ((variables[index - 1] as ExportVariable).creationIndex >= (variables[index] as ExportVariable).creationIndex) {
      return false;
    }
  }
  return true;
}

/** Alphabetical regardless of case, then by code unit, so the order is total. */
export function compareNames(a: string, b: string): number {
  const lower = a.toLowerCase().localeCompare(b.toLowerCase(), 'en');
  if (lower !== 0) return lower;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A sample value of a variable, for comments and `example` attributes. */
export function variableExample(variable: ExportVariable): string {
  const data = variable.data as unknown;
  if (Array.isArray(data)) return String(data[0] ?? '');
  if (data === null || typeof data !== 'object') return '';
  const record = data as Record<string, unknown>;
  if (variable.type === 'hyperlink') return String(record.text ?? '');
  if (variable.type === 'map') return String(Object.values(record)[0] ?? '');
  return record.example === undefined ? '' : String(record.example);
}
