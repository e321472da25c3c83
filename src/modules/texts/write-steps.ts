/**
 * The writes of components and text items: the steps both services take, so that each service
 * says only what differs between the two kinds (its containers, its own fields and checks).
 * Read top-down, first in the order a PATCH takes them: `If-Match`, the body's `variantId`, the
 * developer IDs new plural forms would take, every update checked before anything is written,
 * the plan handed to the write path with each text's change as the change log records it
 * (`textChanges`, which creates and the cascades use too), and how it is stored. Then the
 * content rules creates and updates share, with what they are checked against
 * (`loadWriteContext`), and the steps of creates, deletes and imports.
 */

import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor, PluralForm, StoredPlural } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import { parseRichText } from '../../richtext/index.js';
import { appendAll } from '../../shared/arrays.js';
import { variantNotFoundMessage } from '../../shared/not-found.js';
import {
  type Change,
  type ChangeKind,
  changeOf,
  type Fields,
  type PlannedWrite,
  type RecordIdentity,
  type WritePath,
} from '../changes/index.js';
import { inCldrOrder, PLURAL_FORMS, splitPluralRecordId } from './plurals.js';
import type {
  AccountLookups,
  StatusKeys,
  VariableLookups,
  VariableRef,
  VariantLookups,
  VariantRef,
} from './texts.ports.js';
import { baseOwner, type Owner, type TextsReader, textEtag } from './texts.reader.js';
import * as repo from './texts.repository.js';
import type { ContentUpdateInput, PluralInput, VariantValueInput } from './texts.schemas.js';
import type {
  Component,
  PluralText,
  TextEntity,
  TextFieldChanges,
  TextItem,
  TextKind,
  TextOfKind,
  TextValue,
  VariantValue,
} from './texts.types.js';

// The content inputs are derived from the request schemas that check them (texts.schemas.ts).
export type { ContentUpdateInput, PluralInput, VariantValueInput };

/** What loading a write context needs from the other modules. */
export interface WriteContextDeps {
  accounts: Pick<AccountLookups, 'supSubEnabled'>;
  statuses: StatusKeys;
  variants: Pick<VariantLookups, 'resolveVariants'>;
  variables: Pick<VariableLookups, 'resolveVariables'>;
}

/** What the components and the text items services both need, besides their own containers. */
export interface TextsServiceDeps extends WriteContextDeps {
  db: Kysely<Database>;
  writes: WritePath;
  reader: Pick<TextsReader, 'records' | 'recordStream'>;
  /** The lookups of the change log's fields of some texts (the cascades' `lookupsFor`). */
  texts: { lookupsFor(trx: Executor, workspaceId: number, entities: readonly TextEntity[]): Promise<FieldLookups> };
  accounts: AccountLookups;
  variants: Pick<VariantLookups, 'resolveVariants' | 'ensureVariant'>;
  /** At most this many tags on a text (the `LIMIT_TAGS` setting): what `addTags` may not go beyond. */
  maxTags?: number;
}

// A PATCH, step by step: If-Match, the body's variant, plural ids taken, the checks, the plan and
// its changes for the log, the SQL.

/** The ETags an `If-Match` header lists, `*` for any, or null when there is no header. */
export type IfMatch = ReadonlySet<string> | '*' | null;

export function parseIfMatch(header: string | undefined): IfMatch {
  const value = header?.trim();
  if (!value) return null;
  if (value === '*') return '*';
  return new Set(value.split(',').map((tag) => tag.trim().replace(/^W\//, '')));
}

/** The texts of one kind a request names, by developer ID (in the request's order). */
export interface NamedTexts<K extends TextKind = TextKind> {
  kind: K;
  developerIds: readonly string[];
}

/**
 * With `If-Match`, every text a PATCH names must still have one of the listed ETags: otherwise
 * someone changed it since the client read it, and the whole request is a 412 (nothing written).
 * Runs inside the write's transaction, after the workspace's row lock, so no write slips between
 * this check and the update.
 */
export async function assertIfMatch(
  trx: Executor,
  workspaceId: number,
  named: NamedTexts,
  expected: IfMatch,
): Promise<void> {
  const { kind, developerIds } = named;
  if (expected === null || expected === '*' || developerIds.length === 0) return;
  const rows = await repo.textRevisions(trx, workspaceId, kind, developerIds);
  const current = new Map(rows.map((r) => [r.developer_id, textEtag(r.id, Number(r.revision))]));
  developerIds.forEach((developerId, index) => {
    const etag = current.get(developerId);
    if (etag !== undefined && !expected.has(etag)) {
      throw new AppError(
        'precondition_failed',
        `updates[${index}]: ${developerId} changed since it was read (If-Match does not list its ETag ${etag}); read it again`,
      );
    }
  });
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
  return repo.existingDeveloperIds(trx, workspaceId, kind, pluralIds);
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
  const texts = await repo.loadTextsByDeveloperIds(trx, workspaceId, kind, bases);
  return new Map(texts.map((t) => [t.developerId, pluralFormsOf([t.plurals, ...t.variants.map((v) => v.plurals)])]));
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
      // A value's `textVersion` is the version of the base its text translates (the base's own
      // counts the changes of its text, `texts.repository.ts#versionBump`). Writing the value's
      // text (or plural forms), or making it, translates the base as it is now; a change of its
      // status, assignee, notes or limit alone leaves its state as it was.
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

// The change of a text as the log records it (`textChanges`, which `writeOfUpdates` above, the
// creates and the cascades call): fields named as in the GET records, references as developer
// IDs. Pure, given the lookups.

/** Developer IDs (or emails, names) of the rows a text refers to, by row id. */
export interface FieldLookups {
  variants: ReadonlyMap<number, string>;
  variables: ReadonlyMap<number, string>;
  users: ReadonlyMap<number, string>;
  folders: ReadonlyMap<number, string>;
  blocks: ReadonlyMap<number, string>;
  /** Projects and bases. */
  containers: ReadonlyMap<number, string>;
  /** Other texts: the base text items and components that text items point at. */
  texts: ReadonlyMap<number, string>;
}

/** Loads the lookups of one workspace; wired from the modules that own those tables. */
export type FieldLookupsLoader = (executor: Executor, workspaceId: number) => Promise<Omit<FieldLookups, 'texts'>>;

export const changeKindOf = (kind: TextKind): ChangeKind => (kind === 'component' ? 'component' : 'textItem');

/** The change log's identity of a text: stable across its life, shared by its variant values. */
export const textRef = (kind: TextKind, rowId: number) => `${changeKindOf(kind)}:${rowId}`;

const pluralsField = (plurals: readonly PluralText[] | null) =>
  plurals && plurals.length > 0
    ? inCldrOrder(plurals).map((p) =>
        p.richText ? { form: p.form, text: p.text, richText: p.richText } : { form: p.form, text: p.text },
      )
    : null;

/** The names of listed variables (one gone since is left out). */
function variableNames(ids: readonly number[], lookups: FieldLookups): string[] {
  const names: string[] = [];
  for (const id of ids) {
    const name = lookups.variables.get(id);
    if (name !== undefined) names.push(name);
  }
  return names;
}

const ref = (map: ReadonlyMap<number, string>, id: number | null) => (id === null ? null : (map.get(id) ?? null));

/**
 * One field of a record as the log shows it: `value` reads the entity's own value (a row id, a
 * stored list), `shown` turns it into the field (a developer ID, plurals in CLDR order). The
 * entity's value is the field's identity: when a write leaves it the very same (`===`, as an
 * update leaves every property it does not set), the field did not change and is not computed.
 */
interface Field<E> {
  name: string;
  value: (entity: E) => unknown;
  shown?: (value: never, lookups: FieldLookups) => unknown;
}

const field = <E, V>(
  name: string,
  value: (entity: E) => V,
  shown?: (value: V, lookups: FieldLookups) => unknown,
): Field<E> => ({ name, value, shown: shown as Field<E>['shown'] });

/** The content fields of the base text and of every variant value, in the order records list them. */
const content = {
  text: field('text', (e: TextValue) => e.text),
  richText: field('richText', (e: TextValue) => e.richText),
  plurals: field('plurals', (e: TextValue) => e.plurals, pluralsField),
  notes: field('notes', (e: TextValue) => e.notes),
  characterLimit: field('characterLimit', (e: TextValue) => e.characterLimit),
  status: field('status', (e: TextValue) => e.status),
  assignee: field(
    'assignee',
    (e: TextValue) => e.assigneeId,
    (id, l) => ref(l.users, id),
  ),
};

/** What components and text items both have, after their own fields. */
const COMMON_FIELDS: readonly Field<TextEntity>[] = [
  content.text,
  content.richText,
  content.plurals,
  content.notes,
  content.characterLimit,
  field('tags', (e: TextEntity) => e.tags),
  field('integrated', (e: TextEntity) => e.integrated),
  field(
    'variableIds',
    (e: TextEntity) => e.variableIds,
    (ids, l) => variableNames(ids, l),
  ),
  content.status,
  content.assignee,
];

const COMPONENT_FIELDS: readonly Field<Component>[] = [
  field('name', (e: Component) => e.name),
  field(
    'folderId',
    (e: Component) => e.folderId,
    (id, l) => ref(l.folders, id),
  ),
  ...COMMON_FIELDS,
];

const TEXT_ITEM_FIELDS: readonly Field<TextItem>[] = [
  field(
    'projectId',
    (e: TextItem) => e.projectId,
    (id, l) => ref(l.containers, id),
  ),
  field(
    'blockId',
    (e: TextItem) => e.blockId,
    (id, l) => ref(l.blocks, id),
  ),
  field(
    'baseTextItemId',
    (e: TextItem) => e.baseTextItemId,
    (id, l) => ref(l.texts, id),
  ),
  field(
    'componentId',
    (e: TextItem) => e.componentId,
    (id, l) => ref(l.texts, id),
  ),
  ...COMMON_FIELDS,
];

/** A variant value's own fields (tags and variables are the base's). */
const VARIANT_FIELDS: readonly Field<VariantValue>[] = [
  content.text,
  content.richText,
  content.plurals,
  content.notes,
  content.characterLimit,
  content.status,
  content.assignee,
];

const shownValue = <E>(f: Field<E>, entity: E, lookups: FieldLookups): unknown => {
  const value = f.value(entity);
  return f.shown ? f.shown(value as never, lookups) : value;
};

/**
 * What a create or a delete lists: every field the record has, leaving out the null ones (no
 * limit, no assignee, no block), as the change log stores a text's create and delete. Built
 * without them, the values are stored as they are, with no copy per record.
 */
function presentFields<E>(fields: readonly Field<E>[], entity: E, lookups: FieldLookups): Fields {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = shownValue(f, entity, lookups);
    if (value !== null && value !== undefined) out[f.name] = value;
  }
  return out;
}

/**
 * The change of one record between two states (null: not there). An update compares only the
 * fields whose entity values are not the very same; `changeOf` decides, so the change is what a
 * comparison of every field would give.
 */
function recordChange<E>(
  identity: RecordIdentity,
  fields: readonly Field<E>[],
  states: { before: E | null; after: E | null },
  lookups: FieldLookups,
): Change | null {
  const { before, after } = states;
  if (before === null || after === null) {
    return changeOf(
      identity,
      before && presentFields(fields, before, lookups),
      after && presentFields(fields, after, lookups),
    );
  }
  if (before === after) return null;
  let was: Record<string, unknown> | null = null;
  let is: Record<string, unknown> | null = null;
  // A new developer ID: the record's own row, so its history goes on under the new ID (`renamed`).
  const renamed = (before as { developerId?: string }).developerId;
  const renamedTo = (after as { developerId?: string }).developerId;
  if (renamed !== renamedTo) {
    was = { developerId: renamed };
    is = { developerId: renamedTo };
  }
  for (const f of fields) {
    if (f.value(before) === f.value(after)) continue;
    was ??= {};
    is ??= {};
    was[f.name] = shownValue(f, before, lookups);
    is[f.name] = shownValue(f, after, lookups);
  }
  if (!was || !is) return null;
  const change = changeOf(identity, was, is);
  // Only where the record lives changed (another project, block or folder): `moved`.
  if (change?.action === 'updated' && Object.keys(change.fields).every((name) => PLACEMENT.has(name))) {
    change.action = 'moved';
  }
  return change;
}

const PLACEMENT = new Set(['projectId', 'blockId', 'folderId']);

const fieldsOf = (kind: TextKind) =>
  (kind === 'component' ? COMPONENT_FIELDS : TEXT_ITEM_FIELDS) as readonly Field<TextEntity>[];

/**
 * The changes of one text between two states (null: not there): its base record, then one per
 * variant value that appeared, changed or went (in the order of `before`, then the new ones).
 * Unchanged parts record nothing; an update that leaves a variant value the same object (every
 * value but the one a PATCH targets) is not compared at all.
 */
export function textChanges(before: TextEntity | null, after: TextEntity | null, lookups: FieldLookups): Change[] {
  const entity = (after ?? before) as TextEntity;
  const base: RecordIdentity = {
    kind: changeKindOf(entity.kind),
    ref: textRef(entity.kind, entity.id),
    developerId: entity.developerId,
    variantId: null,
  };
  const out: Change[] = [];
  const baseChange = recordChange(base, fieldsOf(entity.kind), { before, after }, lookups);
  if (baseChange) out.push(baseChange);
  const was = before?.variants ?? [];
  const is = after?.variants ?? [];
  for (const old of was) {
    const now = is.find((v) => v.variantId === old.variantId) ?? null;
    if (old === now) continue;
    const change = recordChange(
      variantIdentity(base, old, lookups),
      VARIANT_FIELDS,
      { before: old, after: now },
      lookups,
    );
    if (change) out.push(change);
  }
  for (const now of is) {
    if (was.length > 0 && was.some((v) => v.variantId === now.variantId)) continue;
    const change = recordChange(
      variantIdentity(base, now, lookups),
      VARIANT_FIELDS,
      { before: null, after: now },
      lookups,
    );
    if (change) out.push(change);
  }
  return out;
}

/** A variant value's record: its text's identity, with the variant's developer ID. */
const variantIdentity = (text: RecordIdentity, value: VariantValue, lookups: FieldLookups): RecordIdentity => ({
  kind: text.kind,
  ref: text.ref,
  developerId: text.developerId,
  variantId: lookups.variants.get(value.variantId) ?? null,
});

/** The text row ids a set of texts points at (base text items, components), for `lookups.texts`. */
export function referencedTextIds(entities: readonly TextEntity[]): number[] {
  const ids = new Set<number>();
  for (const entity of entities) {
    if (entity.kind !== 'text_item') continue;
    if (entity.baseTextItemId !== null) ids.add(entity.baseTextItemId);
    if (entity.componentId !== null) ids.add(entity.componentId);
  }
  return [...ids];
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
    const columns = repo.textColumns(plan.changes);
    if (Object.keys(columns).length > 0 || plan.variantValue || plan.variables) columns.updated_at = updatedAt;
    return { id: plan.entity.id, changes: columns };
  });
  await repo.updateTextsEach(trx, workspaceId, updates);
  const values = plans.flatMap((p) => (p.variantValue ? [repo.variantValueRow(p.entity.id, p.variantValue)] : []));
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

// The content rules shared by the writes of components and text items (pure, given the workspace
// as loaded once per request, `loadWriteContext`): statuses, assignees, rich text, plurals,
// variant values and listed variables. Every failure is a 400 whose message starts with the
// field's path.

export interface WriteContext {
  /** Status keys in workflow order. */
  statuses: ReadonlySet<string>;
  /** Lower-case email -> user row id. */
  userIds: ReadonlyMap<string, number>;
  /** Variant developer ID -> variant, for the variants the request names. */
  variants: ReadonlyMap<string, VariantRef>;
  /** Variable name -> variable, for the variables the request names. */
  variables: ReadonlyMap<string, VariableRef>;
  /** Set when the request sent `richText: "html"`. */
  richText: { supSub: boolean } | null;
}

export interface StoredText {
  text: string;
  richText: string | null;
}

const fail = (path: string, message: string): never => {
  throw badRequest(`${path}: ${message}`);
};

/** The default status of a new record or variant value: `NONE`, or the workflow's first status when a workspace has replaced it. */
export function defaultStatus(statuses: ReadonlySet<string>): string {
  return statuses.has('NONE') ? 'NONE' : (statuses.values().next().value ?? 'NONE');
}

export function checkStatus(context: WriteContext, status: string, path: string): string {
  if (!context.statuses.has(status)) fail(path, `'${status}' is not a status of the workspace`);
  return status;
}

/** The user row id of an assignee email (compared case-insensitively); null stays null. */
export function assigneeId(context: WriteContext, email: string | null, path: string): number | null {
  if (email === null) return null;
  const id = context.userIds.get(email.trim().toLowerCase());
  return id ?? fail(path, `'${email}' is not a user of the workspace`);
}

/** Plain text is stored as sent; with `richText: "html"` the markup is sanitised and its plain text derived. */
export function storedText(context: WriteContext, text: string): StoredText {
  if (!context.richText) return { text, richText: null };
  const parsed = parseRichText(text, { supSub: context.richText.supSub });
  return { text: parsed.text, richText: parsed.html };
}

/**
 * The plural list as stored, or null for none (an empty list removes them). Each form once; the
 * first form's text (as stored, so after rich-text parsing) equals the display text.
 */
export function storedPlurals(
  context: WriteContext,
  plurals: readonly PluralInput[],
  displayText: string,
  path: string,
): StoredPlural[] | null {
  if (plurals.length === 0) return null;
  const seen = new Set<PluralForm>();
  const stored = plurals.map((plural, i): StoredPlural => {
    if (seen.has(plural.form)) fail(`${path}[${i}].form`, `plural form '${plural.form}' appears more than once`);
    seen.add(plural.form);
    if (plural.kept) return plural.kept;
    const { text, richText } = storedText(context, plural.text);
    return richText === null ? { form: plural.form, text } : { form: plural.form, text, richText };
  });
  if (stored[0]?.text !== displayText) {
    fail(`${path}[0].text`, "the first plural form's text must equal the text");
  }
  return stored;
}

/** Row ids of the listed variables, in variable creation order; unknown names are a 400 naming them. */
export function variableIds(context: WriteContext, names: readonly string[], path: string): number[] {
  const ids: number[] = [];
  const missing = new Set<string>();
  for (const name of names) {
    const variable = context.variables.get(name);
    if (variable === undefined) missing.add(name);
    else if (!ids.includes(variable.id)) ids.push(variable.id);
  }
  if (missing.size > 0) fail(path, `Variables not found: ${[...missing].join(', ')}`);
  return ids.length > 1 ? ids.sort((a, b) => a - b) : ids;
}

/** `path[i].field`: built only for an error or a nested list, not for every value of a batch. */
const memberPath = (path: string, i: number, field: string) => `${path}[${i}].${field}`;

/** The variant values of a create, each variant once. */
export function variantValues(
  context: WriteContext,
  inputs: readonly VariantValueInput[],
  path: string,
): VariantValue[] {
  const seen = new Set<string>();
  const initialStatus = defaultStatus(context.statuses);
  return inputs.map((input, i) => {
    const variant =
      context.variants.get(input.variantId) ??
      fail(memberPath(path, i, 'variantId'), variantNotFoundMessage(input.variantId));
    if (seen.has(input.variantId)) {
      fail(memberPath(path, i, 'variantId'), `variant ${input.variantId} appears more than once`);
    }
    seen.add(input.variantId);
    const { text, richText } = storedText(context, input.text);
    return {
      variantId: variant.id,
      text,
      richText,
      plurals: input.plurals ? storedPlurals(context, input.plurals, text, memberPath(path, i, 'plurals')) : null,
      status:
        input.status === undefined ? initialStatus : checkStatus(context, input.status, memberPath(path, i, 'status')),
      assigneeId: input.assignee == null ? null : assigneeId(context, input.assignee, memberPath(path, i, 'assignee')),
      notes: input.notes ?? '',
      characterLimit: input.characterLimit ?? null,
    };
  });
}

/** Every plural form used by a text or any of its variant values: the ids of its plural records. */
export function pluralFormsOf(
  plurals: readonly (readonly { form: PluralForm }[] | null | undefined)[],
): Set<PluralForm> {
  const forms = new Set<PluralForm>();
  for (const list of plurals) for (const plural of list ?? []) forms.add(plural.form);
  return forms;
}

/**
 * A developer ID must not equal a plural record id of another text. `forms`
 * answers the plural forms a developer ID has (after the request), `exists` whether an id is
 * taken; the message names both texts.
 */
export function pluralCollision(
  developerId: string,
  ownForms: ReadonlySet<PluralForm>,
  exists: (id: string) => boolean,
  formsOf: (id: string) => ReadonlySet<PluralForm> | undefined,
): string | null {
  const split = splitPluralRecordId(developerId);
  if (split && formsOf(split.base)?.has(split.form)) {
    return `${developerId} collides with the '${split.form}' plural record of ${split.base}`;
  }
  for (const form of ownForms) {
    const recordId = `${developerId}_${form}`;
    if (exists(recordId)) return `the '${form}' plural record of ${developerId} collides with ${recordId}`;
  }
  return null;
}

/**
 * The workspace as the content rules of one write need it, loaded once per request inside its
 * transaction: statuses, the variants and variables the request names, and (for `richText`)
 * whether `sup`/`sub` are enabled. `userIds` is read before the transaction by the caller.
 */
export async function loadWriteContext(
  deps: WriteContextDeps,
  trx: Executor,
  {
    workspaceId,
    userIds,
    names,
    richText,
  }: {
    workspaceId: number;
    userIds: ReadonlyMap<string, number>;
    names: { variants: readonly string[]; variables: readonly string[] };
    richText: boolean;
  },
): Promise<WriteContext> {
  const [statuses, variants, variables, supSub] = await Promise.all([
    deps.statuses.keys(trx, workspaceId),
    deps.variants.resolveVariants(trx, workspaceId, names.variants),
    deps.variables.resolveVariables(trx, workspaceId, names.variables),
    richText ? deps.accounts.supSubEnabled(trx, workspaceId) : false,
  ]);
  return { statuses, userIds, variants, variables, richText: richText ? { supSub } : null };
}

// Creates, deletes and imports.

/** A create as the write path takes it: the change of each new text; its result, the developer IDs. */
export function writeOfCreate(created: readonly TextEntity[], lookups: FieldLookups): PlannedWrite<string[]> {
  return {
    changes: created.flatMap((entity) => textChanges(null, entity, lookups)),
    result: created.map((entity) => entity.developerId),
  };
}

/**
 * The lookups of texts a create has just inserted, from what planning them resolved: the variants
 * and variables the request named, the workspace's users, and the kind's own references (`own`:
 * the folders of components; the project, its blocks and its base's items for text items). A new
 * text refers to nothing else, so a batch create reads nothing more for its change log (the
 * workspace lookups were six reads and the referenced texts a seventh, per batch).
 */
export function lookupsOfCreate(
  context: Pick<WriteContext, 'variants' | 'variables' | 'userIds'>,
  own: Partial<Pick<FieldLookups, 'folders' | 'blocks' | 'containers' | 'texts'>>,
): FieldLookups {
  const variants = new Map<number, string>();
  for (const variant of context.variants.values()) variants.set(variant.id, variant.developerId);
  const variables = new Map<number, string>();
  for (const variable of context.variables.values()) variables.set(variable.id, variable.name);
  const users = new Map<number, string>();
  for (const [email, id] of context.userIds) users.set(id, email);
  const none = new Map<number, string>();
  return {
    variants,
    variables,
    users,
    folders: own.folders ?? none,
    blocks: own.blocks ?? none,
    containers: own.containers ?? none,
    texts: own.texts ?? none,
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

/** The texts of one kind a batch names, every one of them: the first missing is `notFound(id)`. */
export async function requireTexts<K extends TextKind>(
  trx: Executor,
  workspaceId: number,
  named: NamedTexts<K>,
  notFound: (developerId: string) => Error,
): Promise<TextOfKind<K>[]> {
  const { kind, developerIds } = named;
  const entities = await repo.loadTextsByDeveloperIds(trx, workspaceId, kind, developerIds);
  const found = new Set(entities.map((e) => e.developerId));
  const missing = developerIds.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(missing);
  return entities;
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
