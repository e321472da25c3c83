import { usedVariables } from '../../text/placeholders.js';
import type { ExportEntry, ExportOptions } from '../types.js';
import { placeholderNames, renderKnown, usesKnown } from './template.js';
import { orderVariables } from './variables.js';

/** The argument list an Apple app passes for one string (`String(format:)` arguments). */
export interface AppleArguments {
  /** `%N$conversion` of each variable the string may use. */
  specs: Map<string, string>;
  /** The variables' names in argument order, for the comment that documents them. */
  names: string[];
  /** A stringsdict form is always formatted (the count is an argument), so `%` is always `%%`. */
  alwaysFormatted: boolean;
}

/**
 * The arguments of a `.strings` value: the variables its text uses, numbered from 1 in
 * `variableOrder` with none skipped, every one a string argument (`%1$@`), numbers included, as
 * the original writes them. The primary text of a plural record is numbered the same way: iOS
 * reads the stringsdict entry of that key when there is one.
 */
export function stringsArguments(
  text: string,
  entry: ExportEntry,
  order: ExportOptions['variableOrder'],
): AppleArguments {
  // Most texts use no variable: they share one empty argument list.
  if (entry.variables.length === 0 || !text.includes('{{')) return NO_STRINGS_ARGUMENTS;
  const used = new Set<string>();
  placeholderNames(text, used);
  if (used.size === 0) return NO_STRINGS_ARGUMENTS;
  const specs = new Map<string, string>();
  const names: string[] = [];
  for (const variable of orderVariables(entry.variables, order)) {
    if (!used.has(variable.name)) continue;
    names.push(variable.name);
    specs.set(variable.name, `%${names.length}$@`);
  }
  return names.length === 0 ? NO_STRINGS_ARGUMENTS : { specs, names, alwaysFormatted: false };
}

/** The arguments of a `.strings` value that uses no variable (read only). */
const NO_STRINGS_ARGUMENTS: AppleArguments = { specs: new Map(), names: [], alwaysFormatted: false };

/**
 * The arguments of a stringsdict entry whose forms are `forms`: the plural count is argument 1
 * (`%1$#@count@`), and a number variable named `count` is that argument itself (`%1$lld`), the
 * only argument that is not a string. The variables the forms use follow from 2 in
 * `variableOrder` as `%2$@`, `%3$@`, ..., so the entry skips no position.
 */
export function stringsdictArguments(
  entry: ExportEntry,
  forms: readonly string[],
  order: ExportOptions['variableOrder'],
): AppleArguments {
  const specs = new Map<string, string>();
  const names: string[] = [];
  const listed = entry.variables.map((variable) => variable.name);
  const used = new Set(usedVariables(forms, listed));
  const variables = orderVariables(entry.variables, order).filter((variable) => used.has(variable.name));
  if (variables.some((variable) => variable.name === 'count' && variable.type === 'number')) {
    specs.set('count', '%1$lld');
    names.push('count');
  }
  let position = 2;
  for (const variable of variables) {
    if (specs.has(variable.name)) continue;
    specs.set(variable.name, `%${position++}$@`);
    names.push(variable.name);
  }
  return { specs, names, alwaysFormatted: true };
}

/**
 * A stored text as an Apple format string: known placeholders become their `%N$` spec, and a
 * literal `%` becomes `%%` whenever the string will be formatted (it has placeholders, or it is
 * a stringsdict form). Unknown `{{name}}` placeholders stay literal text.
 */
export function appleFormat(text: string, args: AppleArguments): string {
  const { specs } = args;
  const formatted = args.alwaysFormatted || usesKnown(text, specs);
  // Unformatted, a string without a known placeholder is its own text.
  if (!formatted) return text;
  return renderKnown(text, specs, (name) => specs.get(name)!, doublePercent);
}

const doublePercent = (literal: string) => (literal.includes('%') ? literal.replaceAll('%', '%%') : literal);
