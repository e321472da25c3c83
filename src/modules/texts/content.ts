import type { Executor, PluralForm, StoredPlural } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { parseRichText } from '../../richtext/index.js';
import { splitPluralRecordId } from './plurals.js';
import type {
  AccountLookups,
  StatusKeys,
  VariableLookups,
  VariableRef,
  VariantLookups,
  VariantRef,
} from './texts.ports.js';
import type { VariantValue } from './texts.types.js';

/**
 * Content rules shared by the writes of components and text items (pure, given the workspace
 * as loaded once per request): statuses, assignees, rich text, plurals, variant values and
 * listed variables. Every failure is a 400 whose message starts with the field's path.
 */
export interface PluralInput {
  form: PluralForm;
  text: string;
  /** A form kept as it is stored (PUT /textItems keeps the forms its upsert does not name). */
  kept?: StoredPlural;
}

export interface VariantValueInput {
  variantId: string;
  text: string;
  status?: string;
  assignee?: string | null;
  notes?: string | null;
  characterLimit?: number | null;
  plurals?: PluralInput[];
}

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

export const variantNotFoundMessage = (developerId: string) => `Variant with id ${developerId} not found`;

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

/** What loading a write context needs from the other modules. */
export interface WriteContextDeps {
  accounts: Pick<AccountLookups, 'supSubEnabled'>;
  statuses: StatusKeys;
  variants: Pick<VariantLookups, 'resolveVariants'>;
  variables: Pick<VariableLookups, 'resolveVariables'>;
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
