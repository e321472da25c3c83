import type { StoredPlural, VariantRow } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { FolderTree } from '../folders/folders.service.js';
import {
  assigneeId,
  checkStatus,
  defaultStatus,
  pluralCollision,
  pluralFormsOf,
  storedPlurals,
  storedText,
  variableIds,
  type WriteContext,
} from '../texts/content.js';
import type { TextEntity, VariantValue } from '../texts/entities.js';
import { serializePlurals } from '../texts/plurals.js';
import { baseOwner, type Owner } from '../texts/records.js';
import type { TextChanges } from '../texts/texts.repository.js';
import type { ComponentUpdateInput } from './components.schemas.js';

export const componentNotFound = (developerId: string) =>
  notFound(`Component with developer ID ${developerId} not found`);

/** What one update of a PATCH writes: base columns, the body's variant value, the listed variables. */
export interface UpdatePlan {
  entity: TextEntity;
  changes: TextChanges;
  variantValue: VariantValue | null;
  variables: number[] | null;
}

/**
 * The content fields of an update applied to a text (the base or a variant value). The display
 * text and the first plural form stay equal: text alone also rewrites the first form, plurals
 * alone make the first form's text the display text, both must agree (as on create).
 */
function applyContent(context: WriteContext, owner: Owner, update: ComponentUpdateInput, at: string): Owner {
  const next = { ...owner };
  if (update.text !== undefined) Object.assign(next, storedText(context, update.text));
  if (update.plurals !== undefined) {
    const first = update.plurals[0];
    const display = update.text !== undefined || !first ? next.text : storedText(context, first.text).text;
    next.plurals = storedPlurals(context, update.plurals, display, `${at}.plurals`);
    const stored = next.plurals?.[0];
    if (stored) Object.assign(next, { text: stored.text, richText: stored.richText ?? null });
  } else if (update.text !== undefined && next.plurals) {
    const [first, ...rest] = next.plurals as [StoredPlural, ...StoredPlural[]];
    const rewritten: StoredPlural = { form: first.form, text: next.text };
    if (next.richText !== null) rewritten.richText = next.richText;
    next.plurals = [rewritten, ...rest];
  }
  if (update.status !== undefined) next.status = checkStatus(context, update.status, `${at}.status`);
  if (update.assignee !== undefined) next.assigneeId = assigneeId(context, update.assignee, `${at}.assignee`);
  if (update.notes !== undefined) next.notes = update.notes ?? '';
  if (update.characterLimit !== undefined) next.characterLimit = update.characterLimit;
  return next;
}

const touchesContent = (u: ComponentUpdateInput) =>
  [u.text, u.plurals, u.status, u.assignee, u.notes, u.characterLimit].some((field) => field !== undefined);

/** A variant value the component lacks starts as a copy of the base text, with the variant defaults. */
function freshVariantValue(context: WriteContext, entity: TextEntity, variant: VariantRow, u: ComponentUpdateInput) {
  const copyPlurals = u.text === undefined && u.plurals === undefined;
  return {
    variantId: variant.id,
    text: entity.row.text,
    richText: entity.row.rich_text,
    plurals: copyPlurals ? entity.plurals : null,
    status: defaultStatus(context.statuses),
    assigneeId: null,
    notes: '',
    characterLimit: null,
  };
}

/** Checks a whole PATCH before anything is written; the first bad element is the error. */
export function planUpdates(
  updates: readonly ComponentUpdateInput[],
  entities: ReadonlyMap<string, TextEntity>,
  variant: VariantRow | null,
  context: WriteContext,
  tree: FolderTree | null,
  componentExists: (developerId: string) => boolean,
): UpdatePlan[] {
  const seen = new Set<string>();
  const updatedAt = now();
  return updates.map((u, index): UpdatePlan => {
    const at = `updates[${index}]`;
    if (seen.has(u.developerId)) {
      throw badRequest(`${at}.developerId: duplicate developer ID '${u.developerId}'`);
    }
    seen.add(u.developerId);
    const entity = entities.get(u.developerId);
    if (!entity) throw componentNotFound(u.developerId);

    const changes: TextChanges = {};
    let variantValue: VariantValue | null = null;
    let basePlurals = entity.plurals;
    let pluralsChange = u.plurals !== undefined;
    if (variant) {
      // The API description: a component that lacks the variant gains it.
      const current = entity.variants.find((v) => v.variantId === variant.id);
      if (!current) pluralsChange = true;
      const owner = current ?? freshVariantValue(context, entity, variant, u);
      variantValue = { ...applyContent(context, owner, u, at), variantId: variant.id };
    } else if (touchesContent(u)) {
      const next = applyContent(context, baseOwner(entity), u, at);
      basePlurals = next.plurals;
      if (u.text !== undefined || u.plurals !== undefined) {
        Object.assign(changes, { text: next.text, rich_text: next.richText, plurals: serializePlurals(next.plurals) });
      }
      if (u.status !== undefined) changes.status = next.status;
      if (u.assignee !== undefined) changes.assignee_id = next.assigneeId;
      if (u.notes !== undefined) changes.notes = next.notes;
      if (u.characterLimit !== undefined) changes.character_limit = next.characterLimit;
    }
    if (u.tags !== undefined) changes.tags = JSON.stringify(u.tags);
    if (u.integrated !== undefined) changes.integrated = u.integrated ? 1 : 0;
    if (u.folderId !== undefined) {
      const folderId = u.folderId === null || u.folderId === 'root' ? null : u.folderId;
      const folder = folderId === null ? null : tree?.byDeveloperId(folderId);
      if (folderId !== null && !folder) throw badRequest(`${at}.folderId: Folder id not found: ${folderId}`);
      changes.folder_id = folder?.id ?? null;
    }
    const variables = u.variables === undefined ? null : variableIds(context, u.variables, `${at}.variables`);

    if (pluralsChange) {
      const variantPlurals = entity.variants.map((v) => (v.variantId === variantValue?.variantId ? null : v.plurals));
      const forms = pluralFormsOf([basePlurals, variantValue?.plurals, ...variantPlurals]);
      const collision = pluralCollision(u.developerId, forms, componentExists, () => undefined);
      if (collision) throw badRequest(`${at}: ${collision}`);
    }

    if (Object.keys(changes).length > 0 || variantValue || variables) changes.updated_at = updatedAt;
    return { entity, changes, variantValue, variables };
  });
}
