import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { type TextEntity, type VariantValue, variantValueRow } from './entities.js';
import { serializePlurals } from './plurals.js';
import * as repo from './texts.repository.js';

/**
 * Linked instances: a text item published to the library, or linked to a
 * component, reads its text, rich text, plurals and variant text through from the component; its
 * status, assignee, notes, tags, limits, integrated flag and block stay its own.
 */

/**
 * The instance as its records show it: the component's text, rich text and plurals; for each of
 * the component's variant values, the instance's own value of that variant (status, assignee,
 * notes, limit) with the component's text, or a copy of the component's value when the instance
 * has none; instance values of variants the component lacks stay as they are. The component's
 * listed variables join the instance's, so its placeholders resolve.
 */
export function readThrough(instance: TextEntity, component: TextEntity): TextEntity {
  const own = new Map(instance.variants.map((v) => [v.variantId, v]));
  for (const value of component.variants) {
    const mine = own.get(value.variantId);
    own.set(
      value.variantId,
      mine ? { ...mine, text: value.text, richText: value.richText, plurals: value.plurals } : { ...value },
    );
  }
  const variants: VariantValue[] = [...own.values()].sort((a, b) => a.variantId - b.variantId);
  const variableIds = [...new Set([...instance.variableIds, ...component.variableIds])].sort((a, b) => a - b);
  return {
    row: {
      ...instance.row,
      text: component.row.text,
      rich_text: component.row.rich_text,
      plurals: component.row.plurals,
    },
    plurals: component.plurals,
    tags: instance.tags,
    variants,
    variableIds,
  };
}

export interface ShownText {
  /** The text as its records show it (`readThrough` for an instance). */
  entity: TextEntity;
  /** The component an instance reads through from. */
  component?: TextEntity;
}

/** Text items as their records show them, loading the components of the instances among them. */
export async function showInstances(
  db: Executor,
  workspaceId: number,
  items: readonly TextEntity[],
): Promise<ShownText[]> {
  const componentIds = items.flatMap((e) => e.row.component_id ?? []);
  if (componentIds.length === 0) return items.map((entity) => ({ entity }));
  const components = new Map(
    (await repo.loadTextsByRowIds(db, workspaceId, 'component', componentIds)).map((c) => [c.row.id, c]),
  );
  return items.map((item) => {
    const component = item.row.component_id === null ? undefined : components.get(item.row.component_id);
    return component ? { entity: readThrough(item, component), component } : { entity: item };
  });
}

/**
 * Detaches the linked instances of components that are about to be deleted (linked instances keep their text
 * and are detached): each keeps exactly what it showed
 * (`readThrough`), now stored as its own.
 */
export async function detachInstances(
  db: Executor,
  workspaceId: number,
  components: readonly TextEntity[],
): Promise<{ before: TextEntity; after: TextEntity }[]> {
  const byId = new Map(components.map((c) => [c.row.id, c]));
  const instances = await repo.loadInstances(
    db,
    workspaceId,
    components.map((c) => c.row.id),
  );
  if (instances.length === 0) return [];
  const updatedAt = now();
  const variantRows = [];
  const variableRows = [];
  const detached: { before: TextEntity; after: TextEntity }[] = [];
  for (const instance of instances) {
    const shown = readThrough(instance, byId.get(instance.row.component_id as number) as TextEntity);
    detached.push({ before: shown, after: { ...shown, row: { ...shown.row, component_id: null } } });
    await repo.updateText(db, workspaceId, instance.row.id, {
      text: shown.row.text,
      rich_text: shown.row.rich_text,
      plurals: serializePlurals(shown.plurals),
      component_id: null,
      updated_at: updatedAt,
    });
    for (const value of shown.variants) variantRows.push(variantValueRow(instance.row.id, value));
    for (const variableId of shown.variableIds)
      variableRows.push({ text_id: instance.row.id, variable_id: variableId });
  }
  const instanceIds = instances.map((i) => i.row.id);
  await repo.deleteVariantValues(db, instanceIds, null);
  await repo.insertVariantValues(db, variantRows);
  await repo.deleteTextVariables(db, instanceIds);
  await repo.insertTextVariables(db, variableRows);
  return detached;
}
