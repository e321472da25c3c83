import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Change } from '../changes/index.js';
import type { FolderTree } from '../folders/folders.service.js';
import { folderNotFound } from '../folders/folders.service.js';
import {
  type Component,
  carriedContent,
  createTexts,
  developerIdsByRowIds,
  type FieldLookups,
  loadExistingTexts,
  loadTextsByDeveloperIds,
  type PlannedContent,
  pluralCollision,
  pluralFormsOf,
  type TextEntity,
  type TextItem,
  textChanges,
  updateTextFields,
} from '../texts/index.js';
import type { PublishInput } from './components.schemas.js';

/**
 * POST /components/publish, the state change of the API description: a text item that is not a
 * library instance becomes the first linked instance of a new component that keeps its developer
 * ID and carries over its content. Checks in order: the item exists (404), it is not an instance
 * (400), the folder exists (400), no component has its id (409), no plural-record collision (400).
 */
export async function publishTextItem(
  trx: Executor,
  workspaceId: number,
  input: PublishInput,
  reads: {
    loadFolderTree: (trx: Executor, workspaceId: number) => Promise<FolderTree>;
    lookupsFor: (trx: Executor, workspaceId: number, entities: readonly TextEntity[]) => Promise<FieldLookups>;
  },
): Promise<{ developerId: string; changes: Change[] }> {
  const { loadFolderTree, lookupsFor } = reads;
  const id = input.textItemId;
  const [item] = await loadTextsByDeveloperIds(trx, workspaceId, 'text_item', [id]);
  if (!item) throw notFound(`1 text item with developer ID ${id} not found`);
  if (item.componentId !== null) {
    const component = (await developerIdsByRowIds(trx, workspaceId, [item.componentId])).get(item.componentId);
    throw badRequest(`textItemId: text item ${id} is already a linked instance of component ${component}`);
  }
  let folderId: number | null = null;
  if (input.folderId !== undefined && input.folderId !== null && input.folderId !== 'root') {
    const folder = (await loadFolderTree(trx, workspaceId)).byDeveloperId(input.folderId);
    if (!folder) throw badRequest(`folderId: ${folderNotFound(input.folderId)}`);
    folderId = folder.id;
  }
  const forms = pluralFormsOf([item.plurals, ...item.variants.map((v) => v.plurals)]);
  const existing = await loadExistingTexts(trx, workspaceId, 'component', [{ developerId: id, forms }]);
  if (existing.ids.has(id)) throw conflict(`Component with developer ID ${id} already exists in workspace`);
  const collision = pluralCollision(id, forms, (other) => existing.ids.has(other), existing.formsOf);
  if (collision) throw badRequest(`textItemId: ${collision}`);

  const at = now();
  const [component] = (await createTexts(
    trx,
    workspaceId,
    [{ kind: 'component', ...carriedOver(item), name: input.name ?? id, folderId }],
    at,
  )) as [Component];
  await updateTextFields(trx, workspaceId, { ids: [item.id], changes: { componentId: component.id }, updatedAt: at });
  // The component is `published`; its first instance records its new link.
  const linked: TextItem = { ...item, componentId: component.id };
  const lookups = await lookupsFor(trx, workspaceId, [component, linked]);
  const changes = [
    ...textChanges(null, component, lookups).map((change) =>
      change.variantId === null ? { ...change, action: 'published' as const } : change,
    ),
    ...textChanges(item, linked, lookups),
  ];
  return { developerId: id, changes };
}

/** Everything of the item that a component has: content, variant values, listed variables. */
function carriedOver(item: TextItem): PlannedContent {
  return {
    developerId: item.developerId,
    ...carriedContent(item),
    integrated: item.integrated,
    variants: item.variants,
  };
}
