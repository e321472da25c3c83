import { renderTemplate, splitTemplate } from '../../text/placeholders.js';
import type { ExportEntry, ExportOptions } from '../types.js';
import { orderVariables, printfConversion } from './variables.js';

/** The argument list that an Apple app passes for one record (`String(format:)` arguments). */
export interface AppleArguments {
  /** `%N$conversion` of each variable the record uses. */
  specs: Map<string, string>;
  /** The arguments in position order, for the comment that documents them: `1 count`, `2 name`. */
  labels: string[];
  /** A plural record is always formatted (the count is an argument), so `%` is always `%%`. */
  plural: boolean;
}

/**
 * Plural records take the count as argument 1 and their variables from 2 on, in `variableOrder`
 * (a number variable named `count` is argument 1 itself); other records number their variables
 * from 1. The .strings entry of a plural record uses the same list as its stringsdict entry, so
 * one call site serves both files.
 */
export function appleArguments(entry: ExportEntry, order: ExportOptions['variableOrder']): AppleArguments {
  const plural = entry.plurals.length > 0;
  const specs = new Map<string, string>();
  const labels: string[] = [];
  let position = 1;
  const variables = orderVariables(entry.variables, order);
  if (plural) {
    const count = variables.find((variable) => variable.name === 'count' && variable.type === 'number');
    labels.push(count ? '1 count (plural count)' : '1 (plural count)');
    if (count) specs.set('count', '%1$lld');
    position = 2;
  }
  for (const variable of variables) {
    if (specs.has(variable.name)) continue;
    specs.set(variable.name, `%${position}$${printfConversion(variable, 'apple')}`);
    labels.push(`${position} ${variable.name}`);
    position++;
  }
  return { specs, labels, plural };
}

/**
 * A stored text as an Apple format string: known placeholders become their `%N$` spec, and a
 * literal `%` becomes `%%` whenever the string will be formatted (it has placeholders, or the
 * record is plural). Unknown `{{name}}` placeholders stay literal text.
 */
export function appleFormat(text: string, args: AppleArguments): string {
  const known = new Set(args.specs.keys());
  const formatted = args.plural || splitTemplate(text, known).some((part) => part.kind === 'variable');
  return renderTemplate(
    text,
    known,
    (name) => args.specs.get(name)!,
    (literal) => (formatted ? literal.replaceAll('%', '%%') : literal),
  );
}
