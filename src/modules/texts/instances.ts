import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { variantValueRow } from './entities.js';
import * as repo from './texts.repository.js';
import { type Component, type TextItem, translationStateOf, type VariantValue } from './texts.types.js';

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
export function readThrough(instance: TextItem, component: Component): TextItem {
  // The instance shows the component's base text, so its version is the component's. A value of
  // a variant the component lacks keeps the state it has against the instance's own base.
  const version = component.textVersion ?? 0;
  const restamped = (value: VariantValue): VariantValue => ({
    ...value,
    textVersion: translationStateOf(instance, value) === 'outdated' ? version - 1 : version,
  });
  const own = new Map(instance.variants.map((v) => [v.variantId, restamped(v)]));
  for (const value of component.variants) {
    const mine = own.get(value.variantId);
    const { text, richText, plurals, textVersion } = value;
    own.set(value.variantId, mine ? { ...mine, text, richText, plurals, textVersion } : { ...value });
  }
  const variants: VariantValue[] = [...own.values()].sort((a, b) => a.variantId - b.variantId);
  const variableIds = [...new Set([...instance.variableIds, ...component.variableIds])].sort((a, b) => a - b);
  return {
    ...instance,
    text: component.text,
    richText: component.richText,
    plurals: component.plurals,
    textVersion: version,
    variants,
    variableIds,
  };
}

export interface ShownText {
  /** The text as its records show it (`readThrough` for an instance). */
  entity: TextItem;
  /** The component an instance reads through from. */
  component?: Component;
}

/**
 * Text items as their records show them, loading the components of the instances among them
 * with their values of `variantIds` (the values the items were read with).
 */
export async function showInstances(
  db: Executor,
  workspaceId: number,
  items: readonly TextItem[],
  variantIds: 'all' | readonly number[] = 'all',
): Promise<ShownText[]> {
  const componentIds = items.flatMap((e) => e.componentId ?? []);
  if (componentIds.length === 0) return items.map((entity) => ({ entity }));
  const loaded = await repo.loadTextsByRowIds(db, workspaceId, 'component', componentIds);
  if (variantIds !== 'all') {
    const wanted = new Set(variantIds);
    for (const component of loaded) component.variants = component.variants.filter((v) => wanted.has(v.variantId));
  }
  const components = new Map(loaded.map((c) => [c.id, c]));
  return items.map((item) => {
    const component = item.componentId === null ? undefined : components.get(item.componentId);
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
  components: readonly Component[],
): Promise<{ before: TextItem; after: TextItem }[]> {
  const instances = await repo.loadInstances(
    db,
    workspaceId,
    components.map((c) => c.id),
  );
  return detach(db, workspaceId, instances, new Map(components.map((c) => [c.id, c])));
}

/**
 * Detaches some linked instances (`POST /v2/textItems/instances/detach`), as a component delete
 * does: each keeps what it showed, stored as its own. `instances` are as stored, each with a
 * `componentId`.
 */
export async function detachTextItems(
  db: Executor,
  workspaceId: number,
  instances: readonly TextItem[],
): Promise<{ before: TextItem; after: TextItem }[]> {
  const componentIds = [...new Set(instances.flatMap((i) => i.componentId ?? []))];
  const components = await repo.loadTextsByRowIds(db, workspaceId, 'component', componentIds);
  return detach(db, workspaceId, instances, new Map(components.map((c) => [c.id, c])));
}

async function detach(
  db: Executor,
  workspaceId: number,
  instances: readonly TextItem[],
  byId: ReadonlyMap<number, Component>,
): Promise<{ before: TextItem; after: TextItem }[]> {
  if (instances.length === 0) return [];
  const updatedAt = now();
  const variantRows = [];
  const variableRows = [];
  const detached: { before: TextItem; after: TextItem }[] = [];
  for (const instance of instances) {
    const shown = readThrough(instance, byId.get(instance.componentId as number) as Component);
    detached.push({ before: shown, after: { ...shown, componentId: null } });
    const { text, richText, plurals, textVersion } = shown;
    // The shown version and values' versions are kept: each value keeps the state it showed.
    await repo.updateTextFields(
      db,
      workspaceId,
      [instance.id],
      { text, richText, plurals, textVersion, componentId: null },
      updatedAt,
    );
    for (const value of shown.variants) variantRows.push(variantValueRow(instance.id, value));
    for (const variableId of shown.variableIds) variableRows.push({ text_id: instance.id, variable_id: variableId });
  }
  const instanceIds = instances.map((i) => i.id);
  await repo.deleteVariantValues(db, instanceIds, null);
  await repo.insertVariantValues(db, variantRows);
  await repo.deleteTextVariables(db, instanceIds);
  await repo.insertTextVariables(db, variableRows);
  return detached;
}

/**
 * Links plain text items to components again (a restore undoing a detach): each shows its
 * component's text, rich text and plurals again, keeping its own fields and variant values.
 */
export async function relinkTextItems(
  db: Executor,
  workspaceId: number,
  links: readonly { item: TextItem; component: Component }[],
): Promise<{ before: TextItem; after: TextItem }[]> {
  const updatedAt = now();
  const linked: { before: TextItem; after: TextItem }[] = [];
  for (const { item, component } of links) {
    const { text, richText, plurals } = component;
    await repo.updateTextFields(
      db,
      workspaceId,
      [item.id],
      { text, richText, plurals, componentId: component.id },
      updatedAt,
    );
    linked.push({ before: item, after: readThrough({ ...item, componentId: component.id }, component) });
  }
  return linked;
}
