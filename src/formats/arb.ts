/**
 * arb: Flutter's Application Resource Bundle. ICU messages as in json_icu, with an `@<id>` object
 * per record declaring its placeholders (rules and choices in docs/formats/arb.md).
 */
import { icuMessage } from './shared/icu.js';
import { JSON_CONTENT_TYPE, JsonObjectWriter } from './shared/json.js';
import { orderVariables, variableExample } from './shared/variables.js';
import { type DocumentHeader, type ExportEntry, type ExportVariable, type FileFormat, wholeFile } from './types.js';

interface Placeholder {
  type: 'String' | 'int' | 'double' | 'num';
  /** A string even for numbers: the ARB schema allows no other type. */
  example?: string;
}

function placeholder(variable: ExportVariable): Placeholder {
  const example = variableExample(variable);
  if (variable.type !== 'number') return example === '' ? { type: 'String' } : { type: 'String', example };
  const value = (variable.data as { example?: unknown } | null)?.example;
  if (typeof value !== 'number') return { type: 'num' };
  return { type: Number.isInteger(value) ? 'int' : 'double', example: String(value) };
}

/**
 * Flutter's generator makes the placeholders the parameters of a method, in declaration order:
 * the plural `count` (always `num`, which Flutter requires of a plural selector) comes first, as
 * argument 1 of the Apple formats, then the variables in `variableOrder`.
 */
function placeholders(entry: ExportEntry, document: DocumentHeader): Record<string, Placeholder> {
  const result: Record<string, Placeholder> = {};
  const variables = orderVariables(entry.variables, document.options.variableOrder);
  if (entry.plurals.length > 0) {
    const count = variables.find((variable) => variable.name === 'count');
    const example = count ? placeholder(count).example : undefined;
    result.count = example === undefined ? { type: 'num' } : { type: 'num', example };
  }
  for (const variable of variables) if (!(variable.name in result)) result[variable.name] = placeholder(variable);
  return result;
}

/** `en-US` is `en_US` in ARB, as Flutter names its locales. */
const arbLocale = (locale: string) => locale.replaceAll('-', '_');

export const arbFormat: FileFormat = {
  contentType: JSON_CONTENT_TYPE,
  writer(header) {
    const json = new JsonObjectWriter();
    return {
      head() {
        let out = json.member('@@locale', arbLocale(header.locale));
        // `__variant-name` keys would be messages to Flutter (and not Dart identifiers); the
        // schema's custom attributes `@@x-...` carry the variant instead.
        if (header.variant !== null && !header.options.excludeVariantMetadata) {
          out += json.member('@@x-variant-name', header.variant.name);
          out += json.member('@@x-variant-description', header.variant.description);
        }
        return out;
      },
      entry(entry) {
        const message = icuMessage(entry, header, { collectionsAsSelect: false });
        const description = entry.notes === '' ? {} : { description: entry.notes };
        return (
          json.member(entry.id, message) +
          json.member(`@${entry.id}`, { ...description, placeholders: placeholders(entry, header) })
        );
      },
      tail: () => json.end(),
    };
  },
};

export const arb = wholeFile(arbFormat);
