import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import { appendAll } from '../../shared/arrays.js';
import type { Change, PlannedWrite, WritePath } from '../changes/index.js';
import type { WriteContextDeps } from './content.js';
import { pluralFormsOf } from './content.js';
import { PLURAL_FORMS, splitPluralRecordId } from './plurals.js';
import type { TextCascades } from './texts.cascades.js';
import type { FieldLookups } from './texts.fields.js';
import { textChanges } from './texts.fields.js';
import type { AccountLookups, VariantLookups, VariantRef } from './texts.ports.js';
import { existingDeveloperIds, loadTextsByDeveloperIds } from './texts.repository.js';
import type { PluralForm, TextEntity, TextKind, TextOfKind, TextsReader } from './texts.types.js';
import { applyUpdatePlans, type UpdatePlan, updatedEntity } from './update.js';

/*
 * The steps the components and the text items services take alike in their writes, so that each
 * service says only what differs between the two kinds.
 */

/** What the components and the text items services both need, besides their own containers. */
export interface TextsServiceDeps extends WriteContextDeps {
  db: Kysely<Database>;
  writes: WritePath;
  reader: Pick<TextsReader, 'records' | 'recordStream'>;
  texts: Pick<TextCascades, 'lookupsFor'>;
  accounts: AccountLookups;
  variants: Pick<VariantLookups, 'resolveVariants' | 'ensureVariant'>;
  /** At most this many tags on a text (the `LIMIT_TAGS` setting): what `addTags` may not go beyond. */
  maxTags?: number;
}

/** A create as the write path takes it: the change of each new text; its result, the developer IDs. */
export function writeOfCreate(created: readonly TextEntity[], lookups: FieldLookups): PlannedWrite<string[]> {
  return {
    changes: created.flatMap((entity) => textChanges(null, entity, lookups)),
    result: created.map((entity) => entity.developerId),
  };
}

/** The variants and variables a batch of new texts names, to resolve in one read each. */
export function namesOfNewTexts(
  elements: readonly { variants?: readonly { variantId: string }[]; variables?: readonly string[] }[],
): { variants: string[]; variables: string[] } {
  const variants: string[] = [];
  const variables: string[] = [];
  for (const element of elements) {
    for (const value of element.variants ?? []) variants.push(value.variantId);
    for (const name of element.variables ?? []) variables.push(name);
  }
  return { variants, variables };
}

/** The texts of one kind a batch names, every one of them: the first missing is `notFound(id)`. */
export async function requireTexts<K extends TextKind>(
  trx: Executor,
  workspaceId: number,
  kind: K,
  developerIds: readonly string[],
  notFound: (developerId: string) => Error,
): Promise<TextOfKind<K>[]> {
  const entities = await loadTextsByDeveloperIds(trx, workspaceId, kind, developerIds);
  const found = new Set(entities.map((e) => e.developerId));
  const missing = developerIds.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(missing);
  return entities;
}

/** An update as far as plural forms go: PATCH's list, PUT's operations; and a new developer ID. */
export interface PluralsUpdate {
  developerId: string;
  plurals?: unknown;
  newDeveloperId?: string;
}

/**
 * Which `<id>_<form>` developer IDs exist already: plural forms an update adds may not take them.
 * Only an update that sets plurals can add forms, or any update of a variant value (a text that
 * lacks the value gains it, with the base's plurals): `checkTextUpdates` asks about no other.
 */
export function takenPluralIds(
  trx: Executor,
  workspaceId: number,
  { kind, updates, variant }: { kind: TextKind; updates: readonly PluralsUpdate[]; variant: VariantRef | null },
): Promise<Set<string>> {
  const adding = variant ? updates : updates.filter((u) => u.plurals !== undefined);
  // A new developer ID must be free, and so must the plural records it brings.
  const renames = updates.flatMap((u) => (u.newDeveloperId === undefined ? [] : [u.newDeveloperId]));
  if (adding.length === 0 && renames.length === 0) return Promise.resolve(new Set());
  const pluralIds = adding.flatMap((u) => PLURAL_FORMS.map((form) => `${u.developerId}_${form}`));
  for (const id of renames) {
    pluralIds.push(id);
    for (const form of PLURAL_FORMS) pluralIds.push(`${id}_${form}`);
  }
  return existingDeveloperIds(trx, workspaceId, kind, pluralIds);
}

/**
 * The plural forms of the texts whose plural records the new developer IDs of a batch would take
 * (`cart_one` names the `one` record of `cart`), by their developer ID.
 */
export async function pluralFormsOfRenameTargets(
  trx: Executor,
  workspaceId: number,
  kind: TextKind,
  updates: readonly PluralsUpdate[],
): Promise<Map<string, Set<PluralForm>>> {
  const bases = updates.flatMap((u) => {
    const split = u.newDeveloperId === undefined ? null : splitPluralRecordId(u.newDeveloperId);
    return split ? [split.base] : [];
  });
  if (bases.length === 0) return new Map();
  const texts = await loadTextsByDeveloperIds(trx, workspaceId, kind, bases);
  return new Map(texts.map((t) => [t.developerId, pluralFormsOf([t.plurals, ...t.variants.map((v) => v.plurals)])]));
}

/** A checked batch of updates as the write path takes it: the change of each text (after the variant created for it, if any) and how to store them. */
export function writeOfUpdates(
  workspaceId: number,
  {
    plans,
    variant,
    createdVariant,
    lookups,
  }: {
    plans: UpdatePlan[];
    variant: VariantRef | null;
    /** The change of the variant the request created (`forceVariantCreation`), if it did. */
    createdVariant: Change | null;
    lookups: FieldLookups;
  },
): PlannedWrite<undefined> {
  const changes = [
    ...(createdVariant ? [createdVariant] : []),
    ...plans.flatMap((plan) => textChanges(plan.entity, updatedEntity(plan), lookups)),
  ];
  return { changes, apply: (trx) => applyUpdatePlans(trx, workspaceId, plans, variant), result: undefined };
}

/**
 * A write that inserts texts. Writers to one workspace queue on its row, so a unique violation is
 * only a safety net: it answers 409 with `message`.
 */
export async function insertingTexts<T>(write: () => Promise<T>, message: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

/** What a file import writes of one kind: new texts, then updates of the base text or of one variant each. */
export interface TextsImport<New, Update> {
  richText?: 'html';
  create: New[];
  updates: Array<{ variantId?: string; updates: Update[] }>;
}

/**
 * The writes of a file import inside its one transaction: the create, then one batch of updates
 * per variant, each planned by the routes' own rules and applied before the next is planned. No
 * batch limit: that is the HTTP routes' bound on one request, and an import is as large as its file.
 */
export async function importTexts<New, Update>(
  trx: Transaction<Database>,
  input: TextsImport<New, Update>,
  create: (elements: New[], richText: { richText?: 'html' }) => Promise<PlannedWrite<unknown>>,
  update: (updates: Update[], options: { variantId?: string; richText?: 'html' }) => Promise<PlannedWrite<undefined>>,
): Promise<Change[]> {
  const changes: Change[] = [];
  const richText = input.richText === 'html' ? { richText: 'html' as const } : {};
  if (input.create.length > 0) appendAll(changes, (await create(input.create, richText)).changes);
  for (const batch of input.updates) {
    if (batch.updates.length === 0) continue;
    const variant = batch.variantId === undefined ? {} : { variantId: batch.variantId };
    const planned = await update(batch.updates, { ...variant, ...richText });
    await planned.apply?.(trx);
    appendAll(changes, planned.changes);
  }
  return changes;
}
