/**
 * The texts core: what components and text items share (they are one `texts` table, see
 * docs/storage.md). Everything another module may use is exported here; the files behind it are
 * the core's own. Components and text items build on the planning, storage and record functions;
 * every other module (exports, the v0/v1 API, the Swift driver, style guides) reads through a
 * `TextSelection` and the value types, and changes texts only through `TextCascades`.
 */
export {
  type PluralInput,
  pluralCollision,
  pluralFormsOf,
  storedText,
  variantNotFoundMessage,
  type WriteContext,
} from './content.js';
export { loadWriteContext, type WriteContextDeps } from './context.js';
export {
  contentRow,
  type ExistingTexts,
  insertPlanned,
  loadExistingTexts,
  type PlannedContent,
  planContents,
  plannedEntity,
} from './create.js';
export type { TextEntity, TextKind, VariantValue } from './entities.js';
export {
  type FilterContext,
  type FilterKey,
  type ParsedFilter,
  parseFilter,
  resolveFilter,
  selectRecords,
} from './filter.js';
export { detachInstances, showInstances } from './instances.js';
export { inCldrOrder, isPluralForm, PLURAL_FORMS, splitPluralRecordId } from './plurals.js';
export {
  baseOwner,
  byDeveloperId,
  type Owner,
  type OwnerSelection,
  type RecordContext,
  serializeRecords,
  type TextSelection,
} from './records.js';
export { SnapshotCache } from './snapshot.js';
export { createTextCascades, type TextCascades } from './texts.cascades.js';
export { type FieldLookups, type FieldLookupsLoader, textChanges } from './texts.fields.js';
export { type TextPositions, textPositions } from './texts.positions.js';
/** Storage of components and text items, for the two modules built on the core. */
export * as textStore from './texts.repository.js';
export { chunks, type TextChanges } from './texts.repository.js';
export { contentSchemas, RichTextQuery } from './texts.schemas.js';
export {
  applyUpdatePlans,
  type ContentUpdateInput,
  planUpdates,
  targetVariant,
  type UpdatePlan,
  updatedEntity,
} from './update.js';
