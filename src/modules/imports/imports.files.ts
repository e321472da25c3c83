/** The request's file(s) read into columns: the texts of the base or of one variant each. */
import type { VariantRow } from '../../db/schema.js';
import { parseCsv, parsers } from '../../formats/parsers/index.js';
import { compareNames } from '../../formats/shared/variables.js';
import { badRequest } from '../../http/errors.js';
import { findUnstorableText } from '../../http/storable-text.js';
import type { Variable } from '../variables/variables.service.js';
import type { ImportColumn } from './imports.plan.js';
import type { ImportRequest } from './imports.types.js';

type VariantOf = (developerId: string | undefined, field: string) => VariantRow | null;

const columnVariant = (row: VariantRow | null) => (row ? { id: row.id, developerId: row.developer_id } : null);

/** Variable names numbered as the exports number them: creation order, or by name. */
function orderedNames(variables: readonly Variable[], order: 'default' | 'alphabetical'): string[] {
  const names = variables.map((variable) => variable.name);
  return order === 'alphabetical' ? names.sort(compareNames) : names;
}

export function parseColumns(
  request: ImportRequest,
  language: string,
  variables: readonly Variable[],
  variantOf: VariantOf,
): ImportColumn[] {
  const variant = variantOf(request.variantId, 'variantId');
  const locale = variant?.locale_code || language;
  const options = {
    locale,
    variables: orderedNames(variables, request.variableOrder ?? 'default'),
    ...(request.keySeparator !== undefined && { keySeparator: request.keySeparator }),
  };
  if (request.format === 'csv') {
    if (!request.columns)
      throw badRequest('columns is required for csv: which column holds the keys and which the texts');
    const rows = new Map<string, VariantRow | null>();
    for (const id of Object.keys(request.columns.variants ?? {})) rows.set(id, variantOf(id, `columns.variants.${id}`));
    const columns = parseCsv(request.content, request.columns, (target) =>
      target === null ? locale : rows.get(target)?.locale_code || language,
    );
    return columns.map(({ target, file }) => ({
      variant: columnVariant(target === null ? variant : (rows.get(target) ?? null)),
      file,
    }));
  }
  if (request.columns !== undefined) throw badRequest('columns: only a csv import takes a column mapping');
  if (request.stringsdict !== undefined && request.format !== 'ios-strings') {
    throw badRequest('stringsdict: only an ios-strings import takes a .stringsdict');
  }
  const file = parsers[request.format](request.content, options, request.stringsdict);
  // The file's own escapes (`\u0000` in JSON, `&#0;` in XML) get past the check of the request's text.
  for (const entry of file.entries) {
    const problem = findUnstorableText({ key: entry.key, ...entry.value }, 'value');
    if (problem) throw badRequest(`content: ${entry.at}: ${problem}`);
  }
  if (file.variantName !== null && request.variantId === undefined) {
    throw badRequest(
      `the file is an export of the variant "${file.variantName}": give its variantId (or variantId=base to import it as base text)`,
    );
  }
  return [{ variant: columnVariant(variant), file }];
}
