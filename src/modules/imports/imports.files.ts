/** The request's file(s) read into columns: the texts of the base or of one variant each. */
import { compareNames } from '../../formats/shared/variables.js';
import { badRequest } from '../../http/errors.js';
import type { Variable } from '../variables/variables.service.js';
import type { Variant } from '../variants/variants.service.js';
import { openParse, type ParsedSource } from './imports.parse-thread.js';
import type { ImportColumn } from './imports.plan.js';
import type { ImportRequest } from './imports.types.js';

type VariantOf = (developerId: string | undefined, field: string) => Variant | null;

const columnVariant = (row: Variant | null) => (row ? { id: row.id, developerId: row.developerId } : null);

/** Variable names numbered as the exports number them: creation order, or by name. */
function orderedNames(variables: readonly Variable[], order: 'default' | 'alphabetical'): string[] {
  const names = variables.map((variable) => variable.name);
  return order === 'alphabetical' ? names.sort(compareNames) : names;
}

/**
 * The file's columns, and its parse to read the keys from a slice at a time (`source.next()`);
 * the caller closes the source.
 */
export async function parseColumns(
  request: ImportRequest,
  language: string,
  variables: readonly Variable[],
  variantOf: VariantOf,
): Promise<{ columns: ImportColumn[]; source: ParsedSource }> {
  const variant = variantOf(request.variantId, 'variantId');
  const locale = variant?.localeCode || language;
  const options = {
    locale,
    variables: orderedNames(variables, request.variableOrder ?? 'default'),
    ...(request.keySeparator !== undefined && { keySeparator: request.keySeparator }),
  };
  if (request.format === 'csv') {
    if (!request.columns)
      throw badRequest('columns is required for csv: which column holds the keys and which the texts');
    const rows = new Map<string, Variant | null>();
    const locales: Record<string, string> = {};
    for (const id of Object.keys(request.columns.variants ?? {})) {
      const row = variantOf(id, `columns.variants.${id}`);
      rows.set(id, row);
      locales[id] = row?.localeCode || language;
    }
    const source = await openParse({
      format: 'csv',
      content: request.content,
      options,
      csv: { columns: request.columns, locales },
    });
    const columns = source.columns.map(({ target, carriesPlurals }) => ({
      variant: columnVariant(target === null ? variant : (rows.get(target) ?? null)),
      carriesPlurals,
    }));
    return { columns, source };
  }
  if (request.columns !== undefined) throw badRequest('columns: only a csv import takes a column mapping');
  if (request.stringsdict !== undefined && request.format !== 'ios-strings') {
    throw badRequest('stringsdict: only an ios-strings import takes a .stringsdict');
  }
  const source = await openParse({
    format: request.format,
    content: request.content,
    options,
    ...(request.stringsdict !== undefined && { stringsdict: request.stringsdict }),
  });
  const column = source.columns[0]!;
  if (column.variantName !== null && request.variantId === undefined) {
    source.close();
    throw badRequest(
      `the file is an export of the variant "${column.variantName}": give its variantId (or variantId=base to import it as base text)`,
    );
  }
  return { columns: [{ variant: columnVariant(variant), carriesPlurals: column.carriesPlurals }], source };
}
