import { usedVariables } from '../../text/placeholders.js';
import type { TextEntity } from '../texts/index.js';
import type { Variable } from '../variables/variables.service.js';

export type { ParsedFilter, TextEntity, TextSelection } from '../texts/index.js';

/**
 * What `Ditto.swift` is written from (pure): one entry per exported key, grouped in tables as
 * the command-line clients name their `.strings` files.
 */

export interface DriverArgument {
  /** The variable's name (its developer ID). */
  name: string;
  type: Variable['type'];
  /** The variable's fallback text, the parameter's default; null when it has none. */
  fallback: string | null;
}

export interface DriverEntry {
  developerId: string;
  /** Base text, for the accessor's documentation. */
  text: string;
  notes: string;
  /** The base text or a variant value has plural forms: the accessor takes the plural count first. */
  plural: boolean;
  /** The string arguments, in the exports' positional order (after the plural count). */
  args: DriverArgument[];
}

export interface DriverTable {
  /** `NSLocalizedString`'s table: the name of the `.strings` / `.stringsdict` files. */
  name: string;
  /** What the table holds, for a comment: `Components`, `Project Web (web)`. */
  title: string;
  entries: DriverEntry[];
}

export interface DriverDocument {
  tables: DriverTable[];
  /** Lines for the file's header comment (locales the client maps to `.lproj` folders). */
  notes: string[];
}

/** Variables by row id, with their position in the workspace's creation order. */
export interface VariableIndex {
  byRowId: ReadonlyMap<number, { variable: Variable; position: number }>;
}

export function indexVariables(variables: readonly Variable[]): VariableIndex {
  return { byRowId: new Map(variables.map((variable, position) => [variable.id, { variable, position }])) };
}

function fallbackOf(variable: Variable): string | null {
  if (variable.type !== 'string' && variable.type !== 'number') return null;
  const fallback = (variable.data as { fallback?: unknown }).fallback;
  return typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : null;
}

/**
 * The accessor of one component or text item. Its arguments are the listed variables that any of
 * its texts uses (base, plural forms, every variant value), in the workspace's creation order,
 * which is how the Apple exports number them; in a plural record a number variable named `count`
 * is the plural count itself, not a string argument.
 */
export function driverEntry(entity: TextEntity, variables: VariableIndex): DriverEntry {
  const owners = [entity, ...entity.variants];
  const plural = owners.some((owner) => (owner.plurals?.length ?? 0) > 0);
  const texts = owners.flatMap((owner) => [owner.text, ...(owner.plurals ?? []).map((p) => p.text)]);
  const listed = entity.variableIds
    .flatMap((id) => variables.byRowId.get(id) ?? [])
    .sort((a, b) => a.position - b.position)
    .map((entry) => entry.variable);
  const used = new Set(
    usedVariables(
      texts,
      listed.map((v) => v.name),
    ),
  );
  const args = listed
    .filter((v) => used.has(v.name))
    .filter((v) => !(plural && v.name === 'count' && v.type === 'number'))
    .map((v) => ({ name: v.name, type: v.type, fallback: fallbackOf(v) }));
  return { developerId: entity.developerId, text: entity.text, notes: entity.notes, plural, args };
}
