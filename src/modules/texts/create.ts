import type { Executor } from '../../db/schema.js';
import { type AppError, badRequest } from '../../http/errors.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import { splitPluralRecordId } from './plurals.js';
import * as repo from './texts.repository.js';
import type { NewContentInput } from './texts.schemas.js';
import type { NewText, PluralForm, TextCommon, TextEntity, TextKind } from './texts.types.js';
import {
  assigneeId,
  checkStatus,
  defaultStatus,
  pluralCollision,
  pluralFormsOf,
  storedPlurals,
  storedText,
  variableIds,
  variantValues,
  type WriteContext,
} from './write-steps.js';

/**
 * The create of components and text items (pure planning, then one batched insert): developer
 * IDs given or generated, the content fields checked and in their stored form, plural-record
 * collisions. Each kind adds its own columns (folder, project, block ...) through a hook.
 */

/** One text of a create, checked and in its stored form, without its kind's own fields; nothing is written yet. */
export type PlannedContent = Omit<TextCommon, 'id'>;

/** What a text made from another one takes of it (publishing an item, placing an instance): all but its identity, integration and variant values. */
export type CarriedContent = Omit<PlannedContent, 'developerId' | 'integrated' | 'variants'>;

export function carriedContent(from: TextCommon): CarriedContent {
  const { text, richText, plurals, notes, tags, status, assigneeId, characterLimit, variableIds } = from;
  // The base text's version goes along, so that variant values carried with it keep their state.
  const textVersion = from.textVersion ?? 0;
  return { text, richText, plurals, notes, tags, status, assigneeId, characterLimit, variableIds, textVersion };
}

export interface ExistingTexts {
  ids: ReadonlySet<string>;
  /** Plural forms (base and variants) of existing texts, for those a new id could collide with. */
  formsOf: (developerId: string) => ReadonlySet<PluralForm> | undefined;
}

export interface CreateRules<I, T extends object = object> {
  /** The body array, for error paths: `components`, `textItems`. */
  field: string;
  /** The slug a generated developer ID starts from. */
  slugOf: (input: I) => string;
  alreadyExists: (developerId: string) => AppError;
  /** The kind's own fields of an element (`at` is its error path), added to its planned text. */
  own: (input: I, at: string, developerId: string) => T;
}

/**
 * The same explicit developer ID twice in one create is a 400 naming the second: a fault of the
 * request itself, checked first by each create, before anything is read (a 409 is for ids that exist).
 */
export const assertDistinctCreateIds = (inputs: readonly { developerId?: string }[], field: string) =>
  assertDistinctIds(
    inputs.map((input) => input.developerId),
    (index) => `${field}[${index}].developerId`,
  );

const inputForms = (input: NewContentInput): Set<PluralForm> =>
  pluralFormsOf([input.plurals, ...(input.variants ?? []).map((v) => v.plurals)]);

/**
 * Developer IDs of the request: explicit ones as given (one that exists is a conflict, reported
 * when its element's turn comes; a repeat within the request was refused before), generated ones
 * as slugs that avoid every existing and explicit id and whose plural records collide with nothing.
 */
function assignDeveloperIds<I extends NewContentInput>(
  inputs: readonly I[],
  existing: ExistingTexts,
  slugOf: (input: I) => string,
) {
  const taken = new Set([...existing.ids, ...inputs.flatMap((c) => c.developerId ?? [])]);
  const conflicts = new Map<number, string>();
  const ids = inputs.map((input, index) => {
    if (input.developerId !== undefined) {
      if (existing.ids.has(input.developerId)) conflicts.set(index, input.developerId);
      return input.developerId;
    }
    const forms = inputForms(input);
    const base = slugOf(input);
    let candidate = base;
    for (let n = 2; taken.has(candidate) || [...forms].some((f) => taken.has(`${candidate}_${f}`)); n += 1) {
      candidate = `${base}-${n}`;
    }
    taken.add(candidate);
    return candidate;
  });
  return { ids, conflicts };
}

/**
 * Checks a whole create before anything is written; the first bad element is the error. The
 * request's ids are distinct (`assertDistinctCreateIds`). Per element: a developer ID that exists (409), then the kind's own fields (`rules.own`, whose
 * answer is added to the planned text), then the content fields, then plural-record collisions.
 */
export function checkNewTexts<I extends NewContentInput, T extends object>(
  inputs: readonly I[],
  context: WriteContext,
  existing: ExistingTexts,
  rules: CreateRules<I, T>,
): (PlannedContent & T)[] {
  const { own } = rules;
  const { ids, conflicts } = assignDeveloperIds(inputs, existing, rules.slugOf);
  const requestIndex = new Map(ids.map((id, index) => [id, index]));
  const formsInRequest = inputs.map(inputForms);
  const formsOf = (id: string) => {
    const index = requestIndex.get(id);
    return index === undefined ? existing.formsOf(id) : formsInRequest[index];
  };
  const exists = (id: string) => existing.ids.has(id) || requestIndex.has(id);
  const initialStatus = defaultStatus(context.statuses);

  return inputs.map((input, index) => {
    const at = `${rules.field}[${index}]`;
    const developerId = ids[index] as string;
    const repeated = conflicts.get(index);
    if (repeated !== undefined) throw rules.alreadyExists(repeated);
    const ownFields = own(input, at, developerId);

    const { text, richText } = storedText(context, input.text);
    const plurals = input.plurals ? storedPlurals(context, input.plurals, text, `${at}.plurals`) : null;
    const planned: PlannedContent = {
      developerId,
      text,
      richText,
      plurals,
      notes: input.notes ?? '',
      tags: input.tags ?? [],
      status:
        input.status === undefined && context.statuses.has(initialStatus)
          ? initialStatus
          : checkStatus(context, input.status ?? initialStatus, `${at}.status`),
      assigneeId: input.assignee == null ? null : assigneeId(context, input.assignee, `${at}.assignee`),
      characterLimit: input.characterLimit ?? null,
      integrated: input.integrated ?? false,
      variableIds: input.variables ? variableIds(context, input.variables, `${at}.variables`) : [],
      variants: input.variants ? variantValues(context, input.variants, `${at}.variants`) : [],
    };
    const collision = pluralCollision(developerId, formsInRequest[index] as Set<PluralForm>, exists, formsOf);
    if (collision) throw badRequest(`${at}: ${collision}`);
    // The kind's own fields join the content (one object per text: no copy of the content).
    return Object.assign(planned, ownFields);
  });
}

/** A developer ID a write asks for (none: one is generated), with the plural forms its text has. */
export interface WantedId {
  developerId: string | undefined;
  forms: ReadonlySet<PluralForm>;
}

export const wantedIds = (inputs: readonly NewContentInput[]): WantedId[] =>
  inputs.map((input) => ({ developerId: input.developerId, forms: inputForms(input) }));

/**
 * What a create's developer IDs are checked against: the existing ids that matter (every id of
 * the kind when one is generated; else the ids asked for, their plural record ids and the texts
 * whose plural records they could be) and the plural forms of those texts (`cart` for `cart_one`).
 */
export async function loadExistingTexts(
  trx: Executor,
  workspaceId: number,
  kind: TextKind,
  wanted: readonly WantedId[],
): Promise<ExistingTexts> {
  const bases = wanted.flatMap((w) => splitPluralRecordId(w.developerId ?? '')?.base ?? []);
  const ids = wanted.some((w) => w.developerId === undefined)
    ? await repo.listDeveloperIds(trx, workspaceId, kind)
    : await repo.existingDeveloperIds(trx, workspaceId, kind, [
        ...bases,
        ...wanted.flatMap(({ developerId, forms }) => [
          developerId as string,
          ...[...forms].map((f) => `${developerId}_${f}`),
        ]),
      ]);
  const entities = await repo.loadTextsByDeveloperIds(
    trx,
    workspaceId,
    kind,
    bases.filter((id) => ids.has(id)),
  );
  const forms = new Map(
    entities.map((e) => [e.developerId, pluralFormsOf([e.plurals, ...e.variants.map((v) => v.plurals)])]),
  );
  return { ids, formsOf: (id) => forms.get(id) };
}

/**
 * Inserts new texts (in one batch per table) with their variant values and listed variables;
 * answers them as created, with their row ids, in the same order.
 */
export async function createTexts(trx: Executor, workspaceId: number, texts: readonly NewText[], at: string) {
  const rowIds = await repo.insertTexts(
    trx,
    texts.map((text) => repo.newTextRow(workspaceId, text, at)),
  );
  const created = texts.map(
    (text) =>
      ({
        ...text,
        id: rowIds.get(text.developerId) as number,
        variableIds: [...text.variableIds].sort((a, b) => a - b),
      }) as TextEntity,
  );
  // Loops rather than flatMap: these run once per variant value of a batch of thousands.
  const values: ReturnType<typeof repo.variantValueRow>[] = [];
  const links: { text_id: number; variable_id: number }[] = [];
  for (const t of created) {
    for (const v of t.variants) values.push(repo.variantValueRow(t.id, v, t.textVersion ?? 0));
    for (const variable_id of t.variableIds) links.push({ text_id: t.id, variable_id });
  }
  await repo.insertVariantValues(trx, values);
  await repo.insertTextVariables(trx, links);
  return created;
}
