import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { type AppError, badRequest, conflict } from '../../http/errors.js';
import type { Change } from '../changes/index.js';
import {
  assigneeId,
  checkStatus,
  defaultStatus,
  type PluralInput,
  pluralCollision,
  pluralFormsOf,
  storedPlurals,
  storedText,
  variableIds,
  variantNotFoundMessage,
  type WriteContext,
} from './content.js';
import { textColumns, variantValueRow } from './entities.js';
import { baseOwner, type Owner } from './records.js';
import type { VariantLookups, VariantRef } from './texts.ports.js';
import * as repo from './texts.repository.js';
import type { PluralForm, PluralText, TextEntity, TextFieldChanges, VariantValue } from './texts.types.js';

/**
 * The PATCH of components and text items: only provided fields change, with a body-level
 * `variantId` the content fields change that variant's value. Each kind adds its own columns
 * (folder, block) and checks through hooks.
 */
export interface ContentUpdateInput {
  developerId: string;
  text?: string;
  plurals?: PluralInput[];
  tags?: string[];
  status?: string;
  assignee?: string | null;
  notes?: string | null;
  characterLimit?: number | null;
  integrated?: boolean;
  variables?: string[];
  /** Tags to add (after `tags`, when both are given): each one the text lacks goes at the end. */
  addTags?: string[];
  /** Tags to remove (after `tags` and `addTags`); one the text lacks is no error. */
  removeTags?: string[];
  /** A new developer ID for the text (its history follows it). */
  newDeveloperId?: string;
}

/** What one update writes: base fields, the body's variant value, the listed variables. */
export interface UpdatePlan {
  entity: TextEntity;
  changes: TextFieldChanges;
  variantValue: VariantValue | null;
  variables: number[] | null;
}

export interface UpdateRules<U> {
  notFound: (developerId: string) => AppError;
  /** `Component`, `Text item`: how a message names the kind. */
  label: string;
  /** Whether a text of this kind has the developer ID (plural-record collisions, new developer IDs). */
  exists: (developerId: string) => boolean;
  /** The plural forms of a text of this kind, by developer ID, for the new developer IDs that look like plural records. */
  formsOf?: (developerId: string) => ReadonlySet<PluralForm> | undefined;
  /** At most this many tags on a text (`addTags` may not go beyond). */
  maxTags?: number;
  /** Checks of the kind that come before the fields (an instance's text is its component's). */
  check?: (update: U, entity: TextEntity, at: string) => void;
  /** The kind's own fields of one update (folder, block), checked. */
  own?: (update: U, entity: TextEntity, at: string) => TextFieldChanges;
}

/**
 * The content fields of an update applied to a text (the base or a variant value). The display
 * text and the first plural form stay equal: text alone also rewrites the first form, plurals
 * alone make the first form's text the display text, both must agree (as on create).
 */
function applyContent(context: WriteContext, owner: Owner, update: ContentUpdateInput, at: string): Owner {
  const next = { ...owner };
  if (update.text !== undefined) Object.assign(next, storedText(context, update.text));
  if (update.plurals !== undefined) {
    const first = update.plurals[0];
    const display =
      update.text !== undefined || !first ? next.text : (first.kept?.text ?? storedText(context, first.text).text);
    next.plurals = storedPlurals(context, update.plurals, display, `${at}.plurals`);
    const stored = next.plurals?.[0];
    if (stored) Object.assign(next, { text: stored.text, richText: stored.richText ?? null });
  } else if (update.text !== undefined && next.plurals) {
    const [first, ...rest] = next.plurals as [PluralText, ...PluralText[]];
    const rewritten: PluralText = { form: first.form, text: next.text };
    if (next.richText !== null) rewritten.richText = next.richText;
    next.plurals = [rewritten, ...rest];
  }
  if (update.status !== undefined) next.status = checkStatus(context, update.status, `${at}.status`);
  if (update.assignee !== undefined) next.assigneeId = assigneeId(context, update.assignee, `${at}.assignee`);
  if (update.notes !== undefined) next.notes = update.notes ?? '';
  if (update.characterLimit !== undefined) next.characterLimit = update.characterLimit;
  return next;
}

const touchesContent = (u: ContentUpdateInput) =>
  [u.text, u.plurals, u.status, u.assignee, u.notes, u.characterLimit].some((field) => field !== undefined);

/** A variant value the text lacks starts as a copy of the base text, with the variant defaults. */
function freshVariantValue(context: WriteContext, entity: TextEntity, variant: VariantRef, u: ContentUpdateInput) {
  const copyPlurals = u.text === undefined && u.plurals === undefined;
  return {
    variantId: variant.id,
    text: entity.text,
    richText: entity.richText,
    plurals: copyPlurals ? entity.plurals : null,
    status: defaultStatus(context.statuses),
    assigneeId: null,
    notes: '',
    characterLimit: null,
  };
}

/** What a batch of updates is checked against: the texts it names, the variant it writes, the workspace. */
export interface UpdateSubjects {
  /** The texts by developer ID. */
  entities: ReadonlyMap<string, TextEntity>;
  /** The body's `variantId`, or null for the base text. */
  variant: VariantRef | null;
  context: WriteContext;
}

/**
 * Checks a whole PATCH before anything is written; the first bad element is the error. Per
 * element: repeated developer ID (400), unknown text (404), the kind's checks, the fields.
 */
export function checkTextUpdates<U extends ContentUpdateInput>(
  updates: readonly U[],
  { entities, variant, context }: UpdateSubjects,
  rules: UpdateRules<U>,
): UpdatePlan[] {
  const seen = new Set<string>();
  const newIds = new Map<string, number>();
  return updates.map((u, index): UpdatePlan => {
    const at = `updates[${index}]`;
    if (seen.has(u.developerId)) {
      throw badRequest(`${at}.developerId: duplicate developer ID '${u.developerId}'`);
    }
    seen.add(u.developerId);
    const entity = entities.get(u.developerId);
    if (!entity) throw rules.notFound(u.developerId);
    rules.check?.(u, entity, at);

    const changes: TextFieldChanges = {};
    let variantValue: VariantValue | null = null;
    let basePlurals = entity.plurals;
    let pluralsChange = u.plurals !== undefined;
    if (variant) {
      // The API description: a text that lacks the variant gains it.
      const current = entity.variants.find((v) => v.variantId === variant.id);
      if (!current) pluralsChange = true;
      const owner = current ?? freshVariantValue(context, entity, variant, u);
      variantValue = { ...applyContent(context, owner, u, at), variantId: variant.id };
      // Writing the value's text (or plural forms), or making it, translates the base as it is
      // now; a change of its status, assignee, notes or limit alone leaves its state as it was.
      const written = !current || u.text !== undefined || u.plurals !== undefined;
      variantValue.textVersion = written ? (entity.textVersion ?? 0) : (current.textVersion ?? 0);
    } else if (touchesContent(u)) {
      const next = applyContent(context, baseOwner(entity), u, at);
      basePlurals = next.plurals;
      if (u.text !== undefined || u.plurals !== undefined) {
        const plurals = next.plurals && next.plurals.length > 0 ? next.plurals : null;
        Object.assign(changes, { text: next.text, richText: next.richText, plurals });
      }
      if (u.status !== undefined) changes.status = next.status;
      if (u.assignee !== undefined) changes.assigneeId = next.assigneeId;
      if (u.notes !== undefined) changes.notes = next.notes;
      if (u.characterLimit !== undefined) changes.characterLimit = next.characterLimit;
    }
    if (u.tags !== undefined) changes.tags = u.tags;
    const tags = editedTags(entity.tags, u, at, rules.maxTags);
    if (tags) changes.tags = tags;
    if (u.integrated !== undefined) changes.integrated = u.integrated;
    const renamed = u.newDeveloperId !== undefined && u.newDeveloperId !== entity.developerId;
    if (renamed) {
      const wanted = u.newDeveloperId as string;
      const other = newIds.get(wanted);
      if (other !== undefined) {
        throw badRequest(`${at}.newDeveloperId: developer ID '${wanted}' is also given to updates[${other}]`);
      }
      if (rules.exists(wanted)) {
        throw conflict(`${at}.newDeveloperId: ${rules.label} with developer ID ${wanted} already exists in workspace`);
      }
      newIds.set(wanted, index);
      changes.developerId = wanted;
    }
    if (rules.own) Object.assign(changes, rules.own(u, entity, at));
    const variables = u.variables === undefined ? null : variableIds(context, u.variables, `${at}.variables`);

    // Only these updates are asked about: `takenPluralIds` loads the taken ids for no others.
    if (pluralsChange || renamed) {
      const variantPlurals = entity.variants.map((v) => (v.variantId === variantValue?.variantId ? null : v.plurals));
      const forms = pluralFormsOf([basePlurals, variantValue?.plurals, ...variantPlurals]);
      const developerId = changes.developerId ?? u.developerId;
      const formsOf = renamed ? (rules.formsOf ?? (() => undefined)) : () => undefined;
      const collision = pluralCollision(developerId, forms, rules.exists, formsOf);
      if (collision) throw (renamed ? conflict : badRequest)(`${at}${renamed ? '.newDeveloperId' : ''}: ${collision}`);
    }

    return { entity, changes, variantValue, variables };
  });
}

/**
 * The tags an update's `addTags` and `removeTags` leave (applied after `tags`), or null when it
 * has neither or they change nothing.
 */
function editedTags(current: readonly string[], u: ContentUpdateInput, at: string, maxTags?: number): string[] | null {
  if (u.addTags === undefined && u.removeTags === undefined) return null;
  const start = u.tags ?? current;
  const tags = [...start];
  for (const tag of u.addTags ?? []) if (!tags.includes(tag)) tags.push(tag);
  const removed = new Set(u.removeTags ?? []);
  const left = tags.filter((tag) => !removed.has(tag));
  if (maxTags !== undefined && left.length > maxTags) {
    throw badRequest(`${at}.addTags: a text has at most ${maxTags} tags; this would leave ${left.length}`);
  }
  const same = left.length === start.length && left.every((tag, i) => tag === start[i]);
  return same && u.tags === undefined ? null : left;
}

/** Writes checked plans: changed columns, the variant values of `variant`, replaced variable lists. */
export async function applyUpdatePlans(
  trx: Executor,
  workspaceId: number,
  plans: readonly UpdatePlan[],
  variant: VariantRef | null,
): Promise<void> {
  const updatedAt = now();
  const updates = plans.map((plan) => {
    const columns = textColumns(plan.changes);
    if (Object.keys(columns).length > 0 || plan.variantValue || plan.variables) columns.updated_at = updatedAt;
    return { id: plan.entity.id, changes: columns };
  });
  await repo.updateTextsEach(trx, workspaceId, updates);
  const values = plans.flatMap((p) => (p.variantValue ? [variantValueRow(p.entity.id, p.variantValue)] : []));
  if (variant && values.length > 0) {
    await repo.deleteVariantValues(
      trx,
      values.map((v) => v.text_id),
      variant.id,
    );
    await repo.insertVariantValues(trx, values);
  }
  const listed = plans.filter((p) => p.variables !== null);
  await repo.deleteTextVariables(
    trx,
    listed.map((p) => p.entity.id),
  );
  await repo.insertTextVariables(
    trx,
    listed.flatMap((p) => (p.variables ?? []).map((variable_id) => ({ text_id: p.entity.id, variable_id }))),
  );
}

/**
 * The body-level `variantId` of a PATCH or PUT: the variant, created when `forceVariantCreation`
 * is set (inside the request's transaction; `created` is then its change), else a 400.
 */
export async function targetVariant(
  deps: Pick<VariantLookups, 'resolveVariants' | 'ensureVariant'>,
  trx: Executor,
  workspaceId: number,
  input: { variantId?: string; forceVariantCreation?: boolean },
): Promise<{ variant: VariantRef | null; created: Change | null }> {
  if (input.variantId === undefined) return { variant: null, created: null };
  const found = (await deps.resolveVariants(trx, workspaceId, [input.variantId])).get(input.variantId);
  if (found) return { variant: found, created: null };
  if (!input.forceVariantCreation) throw badRequest(variantNotFoundMessage(input.variantId));
  const { variant, change } = await deps.ensureVariant(trx, workspaceId, input.variantId);
  return { variant, created: change };
}

/** The text as a plan leaves it (for the change log). */
export function updatedEntity(plan: UpdatePlan): TextEntity {
  const { entity, changes, variantValue, variables } = plan;
  const variants = variantValue
    ? [...entity.variants.filter((v) => v.variantId !== variantValue.variantId), variantValue].sort(
        (a, b) => a.variantId - b.variantId,
      )
    : entity.variants;
  return {
    ...entity,
    ...changes,
    variants,
    variableIds: variables === null ? entity.variableIds : [...variables].sort((a, b) => a - b),
  } as TextEntity;
}
