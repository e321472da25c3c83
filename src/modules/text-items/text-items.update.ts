import { type AppError, badRequest, notFound } from '../../http/errors.js';
import type { BlockRef } from '../blocks/blocks.service.js';
import { type ProjectRef, projectNotFound } from '../projects/projects.service.js';
import {
  type ContentUpdateInput,
  checkTextUpdates,
  type PluralForm,
  type PluralInput,
  storedText,
  type TextFieldChanges,
  type TextItem,
  type UpdatePlan,
  type VariantRef,
  type WriteContext,
} from '../texts/index.js';
import type { PutTextItemInput } from './text-items.schemas.js';

export const textItemNotFound = (developerId: string) =>
  notFound(`Text item with developer ID ${developerId} not found`);

export interface TextItemUpdate extends ContentUpdateInput {
  blockId?: string | null;
  /** Another project to move the item to. */
  projectId?: string;
}

/** What the updates of one PATCH or PUT are checked against, loaded by the service. */
export interface UpdateTargets {
  entities: ReadonlyMap<string, TextItem>;
  /** A block of the project (row id) by developer ID. */
  blockOf: (projectId: number, developerId: string) => BlockRef | undefined;
  /** A project or base by developer ID, and by row id (the containers of the items). */
  projectOf: (developerId: string) => ProjectRef | undefined;
  containerOf: (rowId: number) => ProjectRef | undefined;
  /** The plural forms of a text item, by developer ID, for new developer IDs that look like plural records. */
  formsOf?: (developerId: string) => ReadonlySet<PluralForm> | undefined;
  maxTags?: number;
  /** Component developer ID by row id, for the items that are linked instances. */
  componentIds: ReadonlyMap<number, string>;
  /** Whether a text item has the developer ID (plural-record collisions). */
  exists: (developerId: string) => boolean;
  /** The next free place at the end of a project's custom order; each call takes one. */
  takePosition: (projectId: number) => number;
}

/**
 * Checks a whole PATCH (or translated PUT) before anything is written. An instance's text and
 * plurals are its component's: changing them is a 400 naming the component. An item moved to
 * another block (or out of blocks) goes to the end of the project's custom order.
 */
export function checkTextItemUpdates(
  updates: readonly TextItemUpdate[],
  {
    variant,
    context,
    targets,
    deferred = new Map(),
  }: {
    variant: VariantRef | null;
    context: WriteContext;
    targets: UpdateTargets;
    /** Errors found earlier (the PUT's plural operations), reported at their element's turn. */
    deferred?: ReadonlyMap<TextItemUpdate, AppError>;
  },
): UpdatePlan[] {
  return checkTextUpdates(
    updates,
    { entities: targets.entities, variant, context },
    {
      notFound: textItemNotFound,
      label: 'Text item',
      exists: targets.exists,
      ...(targets.formsOf && { formsOf: targets.formsOf }),
      ...(targets.maxTags !== undefined && { maxTags: targets.maxTags }),
      check: (u, entity, at) => {
        const { componentId } = entity as TextItem;
        if (componentId !== null && (u.text !== undefined || u.plurals !== undefined)) {
          const component = targets.componentIds.get(componentId) ?? String(componentId);
          throw badRequest(
            `${at}: text item ${u.developerId} is a linked instance of component ${component}; its text and plurals are the component's (PATCH /v2/components)`,
          );
        }
        const error = deferred.get(u);
        if (error) throw error;
      },
      own: (u, entity, at): TextFieldChanges => {
        const moved = u.projectId === undefined ? null : toProject(u, entity as TextItem, targets, at);
        if (moved) return moved;
        if (u.blockId === undefined) return {};
        const { projectId } = entity as TextItem;
        let blockId: number | null = null;
        if (u.blockId !== null) {
          const block = targets.blockOf(projectId, u.blockId);
          if (!block) throw badRequest(`${at}.blockId: Block id not found: ${u.blockId}`);
          blockId = block.id;
        }
        if (blockId === (entity as TextItem).blockId) return {};
        return { blockId, position: targets.takePosition(projectId) };
      },
    },
  );
}

/**
 * An update's `projectId`: the item moves to the end of another project, into the named block of
 * that project or outside blocks. It keeps the base text item it derives from only when the new
 * project is connected to the same base. Null when `projectId` names the item's own project
 * (then `blockId` means what it always means).
 */
function toProject(u: TextItemUpdate, item: TextItem, targets: UpdateTargets, at: string): TextFieldChanges | null {
  const target = targets.projectOf(u.projectId as string);
  if (target?.kind !== 'project') throw badRequest(`${at}.projectId: ${projectNotFound(u.projectId as string)}`);
  if (target.id === item.projectId) return null;
  const from = targets.containerOf(item.projectId);
  if (from?.kind === 'base') {
    throw badRequest(
      `${at}.projectId: text item ${item.developerId} belongs to base ${from.developerId}; the items of a base stay in it`,
    );
  }
  let blockId: number | null = null;
  if (u.blockId != null) {
    const block = targets.blockOf(target.id, u.blockId);
    if (!block) throw badRequest(`${at}.blockId: Block id not found in project ${target.developerId}: ${u.blockId}`);
    blockId = block.id;
  }
  const changes: TextFieldChanges = { projectId: target.id, blockId, position: targets.takePosition(target.id) };
  if (item.baseTextItemId !== null && target.baseId !== (from?.baseId ?? null)) changes.baseTextItemId = null;
  return changes;
}

const cannotRemove = (developerId: string, forms: readonly string[]) =>
  badRequest(`Cannot remove plural forms that do not exist on text item ${developerId}: ${forms.join(', ')}`);

/**
 * The plural operations of one PUT update as the whole list PATCH takes. Existing forms keep
 * their place (upserted ones take the new text), new forms follow in request order, removed ones
 * go. With `text`, a kept first form takes that text (as PATCH's text alone does); an upserted
 * first form must agree with it.
 */
function mergePlurals(
  u: PutTextItemInput,
  current: readonly { form: PluralForm; text: string }[],
  context: WriteContext,
  at: string,
): PluralInput[] {
  const upsert = u.plurals?.upsert ?? [];
  const remove = new Set(u.plurals?.remove ?? []);
  const upserted = new Map<PluralForm, number>();
  upsert.forEach((p, k) => {
    if (upserted.has(p.form)) {
      throw badRequest(`${at}.plurals.upsert[${k}].form: plural form '${p.form}' appears more than once`);
    }
    if (remove.has(p.form))
      throw badRequest(`${at}.plurals.upsert[${k}].form: plural form '${p.form}' is also removed`);
    upserted.set(p.form, k);
  });
  const missing = [...remove].filter((form) => !current.some((p) => p.form === form));
  if (missing.length > 0) throw cannotRemove(u.developerId, missing);

  const merged: PluralInput[] = current
    .filter((p) => !remove.has(p.form))
    .map((p) => {
      const k = upserted.get(p.form);
      return k === undefined ? { form: p.form, text: p.text, kept: p } : { form: p.form, text: upsert[k]?.text ?? '' };
    });
  for (const p of upsert) if (!current.some((c) => c.form === p.form)) merged.push({ form: p.form, text: p.text });

  const first = merged[0];
  if (u.text !== undefined && first) {
    if (first.kept) merged[0] = { form: first.form, text: u.text };
    else if (storedText(context, first.text).text !== storedText(context, u.text).text) {
      throw badRequest(
        `${at}.plurals.upsert[${upserted.get(first.form)}].text: the first plural form's text must equal the text`,
      );
    }
  }
  return merged;
}

/**
 * The deprecated PUT's updates as PATCH updates. Errors of the plural operations are deferred to
 * their element's turn in `checkTextItemUpdates`, so the first bad element is still the one reported.
 */
export function translatePut(
  updates: readonly PutTextItemInput[],
  entities: ReadonlyMap<string, TextItem>,
  variant: VariantRef | null,
  context: WriteContext,
): { updates: TextItemUpdate[]; deferred: Map<TextItemUpdate, AppError> } {
  const deferred = new Map<TextItemUpdate, AppError>();
  const translated = updates.map((u, index) => {
    const { plurals, ...fields } = u;
    const update: TextItemUpdate = { ...fields };
    if (plurals === undefined) return update;
    // An unknown item or an instance fails before its plurals are looked at.
    update.plurals = [];
    const entity = entities.get(u.developerId);
    if (!entity || entity.componentId !== null) return update;
    const current = variant ? entity.variants.find((v) => v.variantId === variant.id)?.plurals : entity.plurals;
    try {
      update.plurals = mergePlurals(u, current ?? [], context, `updates[${index}]`);
    } catch (error) {
      deferred.set(update, error as AppError);
    }
    return update;
  });
  return { updates: translated, deferred };
}
