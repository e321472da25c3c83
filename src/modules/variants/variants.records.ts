import type { Fields, RecordIdentity } from '../changes/index.js';
import type { VariantChanges, VariantRow } from './variants.repository.js';
import type { Variant } from './variants.types.js';

/** A variant as the API returns it. */
export interface VariantRecord {
  id: string;
  name: string;
  description: string;
  localeCode: string | null;
}

/** The row as other modules see it. */
export const toVariant = (row: VariantRow): Variant => ({
  id: row.id,
  developerId: row.developer_id,
  name: row.name,
  description: row.description,
  localeCode: row.locale_code,
});

export const toVariantRecord = (variant: Variant): VariantRecord => ({
  id: variant.developerId,
  name: variant.name,
  description: variant.description,
  localeCode: variant.localeCode,
});

/** The change log's identity of a variant: its row id survives a `newDeveloperId`. */
export const variantIdentity = (row: Pick<VariantRow, 'id' | 'developer_id'>): RecordIdentity => ({
  kind: 'variant',
  ref: `variant:${row.id}`,
  developerId: row.developer_id,
});

/**
 * A variant's fields in the change log: those of its GET record, with the record's `id` named
 * `developerId` so that a `newDeveloperId` is recorded as a rename.
 */
export const variantFields = (
  row: Pick<VariantRow, 'developer_id' | 'name' | 'description' | 'locale_code'>,
): Fields => ({
  developerId: row.developer_id,
  name: row.name,
  description: row.description,
  localeCode: row.locale_code,
});

/** The row as an update leaves it. */
export const updatedRow = (row: VariantRow, changes: VariantChanges): VariantRow => ({ ...row, ...changes });
