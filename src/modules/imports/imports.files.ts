/** The request's file(s) read into columns: the texts of the base or of one variant each. */
import type { VariantRow } from '../../db/schema.js';
import { parsers } from '../../formats/parsers/index.js';
import { badRequest } from '../../http/errors.js';
import type { ImportColumn } from './imports.plan.js';
import type { ImportRequest } from './imports.types.js';

type VariantOf = (developerId: string | undefined, field: string) => VariantRow | null;

const columnVariant = (row: VariantRow | null) => (row ? { id: row.id, developerId: row.developer_id } : null);

export function parseColumns(request: ImportRequest, language: string, variantOf: VariantOf): ImportColumn[] {
  const variant = variantOf(request.variantId, 'variantId');
  const locale = variant?.locale_code || language;
  const options = { locale, ...(request.keySeparator !== undefined && { keySeparator: request.keySeparator }) };
  const file = parsers[request.format](request.content, options);
  if (file.variantName !== null && request.variantId === undefined) {
    throw badRequest(
      `the file is an export of the variant "${file.variantName}": give its variantId (or variantId=base to import it as base text)`,
    );
  }
  return [{ variant: columnVariant(variant), file }];
}
