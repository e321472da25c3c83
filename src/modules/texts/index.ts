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

export { variantNotFoundMessage } from '../../shared/not-found.js';
// Writes of components and text items.
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
// Texts frozen for a release, and reads of them.
export { type FrozenSelection, frozenRecords, frozenSelection } from './frozen.js';
export type { FrozenBasis, FrozenTexts } from './frozen.types.js';
// The text and project filters of the lists of things said about texts (comments, suggestions).
export {
  countsPerText,
  type ListScopeFilter,
  type ListScopeLookups,
  type ListScopeQuery,
  resolveListScope,
  type TextCountRow,
  type TextTarget,
  type TextTargetInput,
  textTargets,
} from './list-scope.js';
export { findMemoryMatches, type MemoryMatch, type MemoryRequest } from './memory.repository.js';
export { inCldrOrder, isPluralForm, PLURAL_FORMS, splitPluralRecordId } from './plurals.js';
export { listRowKeys, type RowKey, type RowKeyQuery } from './rows.repository.js';
export {
  createSearchIndexer,
  type FoundText,
  refreshSearchIndex,
  type SearchIndexer,
  searchTextIds,
  searchTexts,
} from './search.repository.js';
// What other modules' writes do to texts.
export { createTextCascades, type TextCascades } from './texts.cascades.js';
// What the core needs from the modules that own the rows a text refers to (they implement it).
export type * from './texts.ports.js';
export { type TextPositions, textPositions } from './texts.positions.js';
export {
  baseOwner,
  createTextsReader,
  type FilterKey,
  type FreezeFilters,
  type Owner,
  type ParsedFilter,
  parseFilter,
  type RecordFormat,
  type TextKey,
  type TextQuery,
  type TextSelection,
  type TextsReader,
  type TextsReaderDeps,
  textEtag,
} from './texts.reader.js';
export {
  deleteTexts,
  derivedItems,
  detachInstances,
  detachTextItems,
  developerIdsByRowIds,
  existingDeveloperIds,
  itemsOfContainer,
  loadInstances,
  loadTextsByDeveloperIds,
  loadTextsByRowIds,
  relinkTextItems,
  showInstances,
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
export { usedVariantIds, type VariantUseScope } from './variant-use.repository.js';
// Steps both services' writes take (what differs is the kind and its containers): If-Match, a
// PATCH's checks, plan and storage, the content rules, and the steps of creates, deletes and imports.
export {
  applyUpdatePlans,
  assertIfMatch,
  type ContentUpdateInput,
  checkTextUpdates,
  type FieldLookups,
  type FieldLookupsLoader,
  type IfMatch,
  importTexts,
  insertingTexts,
  loadWriteContext,
  lookupsOfCreate,
  namesOfNewTexts,
  type PluralInput,
  type PluralsUpdate,
  parseIfMatch,
  pluralCollision,
  pluralFormsOf,
  pluralFormsOfRenameTargets,
  requireTexts,
  storedText,
  type TextsImport,
  type TextsServiceDeps,
  takenPluralIds,
  targetVariant,
  textChanges,
  type UpdatePlan,
  type UpdateSubjects,
  updatedEntity,
  type WriteContext,
  type WriteContextDeps,
  writeOfCreate,
  writeOfUpdates,
} from './write-steps.js';
