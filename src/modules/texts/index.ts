/**
 * The texts core: what components and text items share (they are one `texts` table, see
 * docs/storage.md). Everything another module may use is exported here, in domain types
 * (`Component`, `TextItem`, `VariantValue`, texts.types.ts); rows and SQL stay behind it.
 *
 * - Reads: one reader for both kinds (`createTextsReader`): GET /components, GET /textItems, the
 *   exports, the v0/v1 API and the Swift driver select through it.
 * - Writes of components and text items: planning (`checkNewTexts`, `checkTextUpdates`), storage
 *   (`createTexts`, `applyUpdatePlans`, the loaders below) and the change log's fields
 *   (`textChanges`), run inside the caller's `writes.write`.
 * - Other modules' writes change texts only through `TextCascades` and `textPositions`.
 * - What the core needs of those modules, it declares (texts.ports.ts) and is handed in
 *   src/services.ts: it imports no module but `changes`.
 */

// Writes of components and text items.
export {
  loadWriteContext,
  type PluralInput,
  pluralCollision,
  pluralFormsOf,
  storedText,
  variantNotFoundMessage,
  type WriteContext,
  type WriteContextDeps,
} from './content.js';

export {
  assertDistinctCreateIds,
  carriedContent,
  checkNewTexts,
  createTexts,
  type ExistingTexts,
  loadExistingTexts,
  type PlannedContent,
  wantedIds,
} from './create.js';
export { assertIfMatch, type IfMatch, parseIfMatch, textEtag } from './etags.js';
export { type FilterKey, type ParsedFilter, parseFilter } from './filter.parse.js';
export { detachInstances, detachTextItems, relinkTextItems, showInstances } from './instances.js';
export { inCldrOrder, isPluralForm, PLURAL_FORMS, splitPluralRecordId } from './plurals.js';
export { baseOwner, type Owner } from './records.js';
export {
  createSearchIndexer,
  type FoundText,
  refreshSearchIndex,
  type SearchIndexer,
  searchTexts,
} from './search.repository.js';
// What other modules' writes do to texts.
export { createTextCascades, type TextCascades } from './texts.cascades.js';
export { type FieldLookups, type FieldLookupsLoader, lookupsOfCreate, textChanges } from './texts.fields.js';
// What the core needs from the modules that own the rows a text refers to (they implement it).
export type * from './texts.ports.js';
export { type TextPositions, textPositions } from './texts.positions.js';
export { createTextsReader, type TextsReaderDeps } from './texts.reader.js';
export {
  deleteTexts,
  derivedItems,
  developerIdsByRowIds,
  existingDeveloperIds,
  itemsOfContainer,
  loadInstances,
  loadTextsByDeveloperIds,
  updateTextFields,
} from './texts.repository.js';
export {
  contentSchemas,
  IfMatchHeader,
  RichTextQuery,
  TranslationStateFields,
  WithEtagQuery,
  WithTranslationStateQuery,
} from './texts.schemas.js';
export * from './texts.types.js';
export {
  applyUpdatePlans,
  type ContentUpdateInput,
  checkTextUpdates,
  targetVariant,
  type UpdatePlan,
  type UpdateSubjects,
  updatedEntity,
} from './update.js';
// Steps both services' writes take (what differs is the kind and its containers).
export * from './write-steps.js';
