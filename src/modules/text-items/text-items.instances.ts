import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest } from '../../http/errors.js';
import { uniqueDeveloperId } from '../../shared/developer-id.js';
import type { BlockRef } from '../blocks/blocks.service.js';
import type { Change } from '../changes/index.js';
import type { ProjectRef } from '../projects/projects.service.js';
import { projectNotFound } from '../projects/projects.service.js';
import {
  type Component,
  carriedContent,
  createTexts,
  type FieldLookups,
  loadExistingTexts,
  loadInstances,
  loadTextsByDeveloperIds,
  pluralCollision,
  pluralFormsOf,
  type TextEntity,
  type TextItem,
  textChanges,
} from '../texts/index.js';
import { textItemExists } from './text-items.create.js';
import type { PlaceInstanceInput } from './text-items.schemas.js';

/**
 * Library instances placed into a project (`POST /v2/textItems/instances`) and listed per
 * component (`GET /v2/textItems/instances`). An instance is a text item with `componentId` set:
 * the texts core reads its text, rich text, plurals and variant text through from the component
 * (`readThrough`), and detaches it, keeping what it showed, when the component is deleted.
 */

export interface InstanceDeps {
  resolveProjects: (trx: Executor, workspaceId: number, ids: readonly string[]) => Promise<Map<string, ProjectRef>>;
  resolveBlocks: (
    trx: Executor,
    workspaceId: number,
    projectId: number,
    ids: readonly string[],
  ) => Promise<Map<string, BlockRef>>;
  nextItemPosition: (trx: Executor, workspaceId: number, projectId: number) => Promise<number>;
  lookupsFor: (trx: Executor, workspaceId: number, entities: readonly TextEntity[]) => Promise<FieldLookups>;
}

export const componentNotFound = (developerId: string) =>
  badRequest(`componentId: Component with developer ID ${developerId} not found`);

/**
 * Places a component into a project as a new linked instance, at the end of the project order.
 * Checks in order: the component (400), the project (400), the block (400), a developer ID that
 * exists (409), a plural-record collision (400). The item stores a copy of the component's base
 * text, plurals, listed variables, notes, tags, status, assignee and limit (what it shows until
 * it diverges in its own fields); it has no variant values of its own, so the component's show
 * through whole. `integrated` starts false: the new place is not in any code yet.
 */
export async function placeInstance(
  trx: Executor,
  workspaceId: number,
  input: PlaceInstanceInput,
  deps: InstanceDeps,
): Promise<{ developerId: string; changes: Change[] }> {
  const [component] = (await loadTextsByDeveloperIds(trx, workspaceId, 'component', [input.componentId])) as [
    Component?,
  ];
  if (!component) throw componentNotFound(input.componentId);
  const project = (await deps.resolveProjects(trx, workspaceId, [input.projectId])).get(input.projectId);
  if (!project) throw badRequest(`projectId: ${projectNotFound(input.projectId)}`);
  let blockId: number | null = null;
  if (input.blockId !== undefined && input.blockId !== null) {
    const block = (await deps.resolveBlocks(trx, workspaceId, project.id, [input.blockId])).get(input.blockId);
    if (!block) throw badRequest(`blockId: Block id not found: ${input.blockId}`);
    blockId = block.id;
  }

  // The item's plural records are the component's: its base forms and every variant's.
  const forms = pluralFormsOf([component.plurals, ...component.variants.map((v) => v.plurals)]);
  const existing = await loadExistingTexts(trx, workspaceId, 'text_item', [{ developerId: input.developerId, forms }]);
  const exists = (id: string) => existing.ids.has(id);
  let developerId: string;
  if (input.developerId !== undefined) {
    developerId = input.developerId;
    if (exists(developerId)) throw textItemExists(developerId);
    const collision = pluralCollision(developerId, forms, exists, existing.formsOf);
    if (collision) throw badRequest(`developerId: ${collision}`);
  } else {
    // The component's id, stepped (-2, -3...) past taken ids and plural-record collisions.
    const taken = new Set(existing.ids);
    developerId = uniqueDeveloperId(component.developerId, taken);
    while (pluralCollision(developerId, forms, exists, existing.formsOf)) {
      developerId = uniqueDeveloperId(component.developerId, taken);
    }
  }

  const position = await deps.nextItemPosition(trx, workspaceId, project.id);
  const [item] = (await createTexts(
    trx,
    workspaceId,
    [
      {
        kind: 'text_item',
        developerId,
        ...carriedContent(component),
        integrated: false,
        variants: [],
        projectId: project.id,
        blockId,
        position,
        baseTextItemId: null,
        componentId: component.id,
      },
    ],
    now(),
  )) as [TextItem];
  const lookups = await deps.lookupsFor(trx, workspaceId, [item, component]);
  return { developerId, changes: textChanges(null, item, lookups) };
}

/** One linked instance of a component, as `GET /v2/textItems/instances` answers it. */
export interface InstanceRef {
  id: string;
  projectId: string;
  blockId: string | null;
  blockName: string | null;
  status: string;
}

/**
 * The linked instances of a component: by project developer ID, then by developer ID. The status
 * is the instance's own (instances keep their own workflow); the text is the component's.
 */
export async function listInstances(
  db: Executor,
  workspaceId: number,
  componentId: string,
  deps: {
    listProjectRefs: (db: Executor, workspaceId: number) => Promise<ProjectRef[]>;
    loadBlocks: (db: Executor, workspaceId: number, projectIds: readonly number[]) => Promise<Map<number, BlockRef>>;
  },
): Promise<InstanceRef[]> {
  const [component] = await loadTextsByDeveloperIds(db, workspaceId, 'component', [componentId]);
  if (!component) throw componentNotFound(componentId);
  const items = await loadInstances(db, workspaceId, [component.id]);
  if (items.length === 0) return [];
  const projects = new Map((await deps.listProjectRefs(db, workspaceId)).map((p) => [p.id, p.developerId]));
  const blocks = await deps.loadBlocks(db, workspaceId, [...new Set(items.map((i) => i.projectId))]);
  const refs = items.map((item) => {
    const block = item.blockId === null ? undefined : blocks.get(item.blockId);
    return {
      id: item.developerId,
      projectId: projects.get(item.projectId) ?? String(item.projectId),
      blockId: block?.developerId ?? null,
      blockName: block?.name ?? null,
      status: item.status,
    };
  });
  // By code unit, as every developer-ID order of the API (not the locale's collation).
  const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return refs.sort((a, b) => byCodeUnit(a.projectId, b.projectId) || byCodeUnit(a.id, b.id));
}
