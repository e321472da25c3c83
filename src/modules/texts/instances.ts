import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { type TextEntity, type VariantValue, variantValueRow } from './entities.js';
import { serializePlurals } from './plurals.js';
import * as repo from './texts.repository.js';

/**
 * Detaches the linked instances of components that are about to be deleted (contract section 5:
 * "linked instances keep their text and are detached"). An instance reads its text, plurals and
 * variant text through its component, so those are copied into it first; its own status,
 * assignee, notes and limits (base and per variant) stay. The component's listed variables
 * join the instance's, so its placeholders keep resolving.
 */
export async function detachInstances(
  db: Executor,
  workspaceId: number,
  components: readonly TextEntity[],
): Promise<void> {
  const byId = new Map(components.map((c) => [c.row.id, c]));
  const instances = await repo.loadInstances(
    db,
    workspaceId,
    components.map((c) => c.row.id),
  );
  if (instances.length === 0) return;
  const updatedAt = now();
  const variantRows = [];
  const variableRows = [];
  for (const instance of instances) {
    const component = byId.get(instance.row.component_id as number) as TextEntity;
    await repo.updateText(db, workspaceId, instance.row.id, {
      text: component.row.text,
      rich_text: component.row.rich_text,
      plurals: serializePlurals(component.plurals),
      component_id: null,
      updated_at: updatedAt,
    });
    const own = new Map(instance.variants.map((v) => [v.variantId, v]));
    for (const value of component.variants) {
      const mine = own.get(value.variantId);
      const copied: VariantValue = mine
        ? { ...mine, text: value.text, richText: value.richText, plurals: value.plurals }
        : { ...value };
      own.set(value.variantId, copied);
    }
    for (const value of own.values()) variantRows.push(variantValueRow(instance.row.id, value));
    for (const variableId of new Set([...instance.variableIds, ...component.variableIds])) {
      variableRows.push({ text_id: instance.row.id, variable_id: variableId });
    }
  }
  const instanceIds = instances.map((i) => i.row.id);
  await repo.deleteVariantValues(db, instanceIds, null);
  await repo.insertVariantValues(db, variantRows);
  await repo.deleteTextVariables(db, instanceIds);
  await repo.insertTextVariables(db, variableRows);
}
