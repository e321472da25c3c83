import { type RichTextMode, richTextOf } from '../../richtext/index.js';
import { usedVariables } from '../../text/placeholders.js';
import { textEtag } from './etags.js';
import { inCldrOrder, pluralRecordId } from './plurals.js';
import {
  type OwnerSelection,
  type PluralForm,
  type TextEntity,
  type TextValue,
  translationStateOf,
  type VariantValue,
} from './texts.types.js';

/**
 * API records of components and text items (pure). One record per base text, per variant value
 * and per plural form: plural records are `<developerId>_<form>`, variant
 * records keep the base record's id and set `variantId`.
 */
export interface RecordContext {
  /** Variant row id -> developer ID. */
  variantDeveloperIds: ReadonlyMap<number, string>;
  /** Variable row id -> name (its developer ID). */
  variableNames: ReadonlyMap<number, string>;
  /** User row id -> email. */
  emails: ReadonlyMap<number, string>;
  /** Set when the request asked for `richText`. */
  richText: RichTextMode | null;
  /** Whether each record carries its text's ETag (`withEtag=true`). */
  etags?: boolean;
  /**
   * Whether records carry their translation state (`withTranslationState=true`): a base record
   * the state of each variant of `variantDeveloperIds` (in its order), a variant record its own.
   */
  translationStates?: boolean;
}

/** The base text or a variant value: what owns a primary record and its plural form records. */
export type Owner = TextValue;

/** One record before rendering. */
export interface RecordSource {
  id: string;
  text: string;
  /** Stored markup, null for plain text. */
  richText: string | null;
  pluralForm: PluralForm | null;
  /** Developer ID of the variant, null for base text. */
  variantId: string | null;
  owner: Owner;
}

/** The base text's value: the text itself, which carries the same fields as a variant value. */
export const baseOwner = (entity: TextEntity): Owner => entity;

/** The records of one owner (base text or variant value): the primary record, then plural forms in CLDR order. */
function ownerSources(developerId: string, owner: Owner, variantId: string | null): RecordSource[] {
  const out: RecordSource[] = [
    { id: developerId, text: owner.text, richText: owner.richText, pluralForm: null, variantId, owner },
  ];
  for (const plural of owner.plurals ? inCldrOrder(owner.plurals) : []) {
    const id = pluralRecordId(developerId, plural.form);
    out.push({ id, text: plural.text, richText: plural.richText ?? null, pluralForm: plural.form, variantId, owner });
  }
  return out;
}

const str = JSON.stringify;

/** `,"translationStates":{...}` of a base record or `,"translationState":"..."` of a variant record. */
function translationJson(entity: TextEntity, owner: Owner, variantId: string | null, context: RecordContext): string {
  if (variantId !== null) return `,"translationState":"${translationStateOf(entity, owner as VariantValue)}"`;
  const states: string[] = [];
  for (const [rowId, developerId] of context.variantDeveloperIds) {
    const value = entity.variants.find((v) => v.variantId === rowId);
    states.push(`${str(developerId)}:"${translationStateOf(entity, value)}"`);
  }
  return `,"translationStates":{${states.join(',')}}`;
}

/** The JSON of every record of one owner, comma-separated. */
function ownerJson(
  entity: TextEntity,
  owner: Owner,
  variantId: string | null,
  context: RecordContext,
  extra: string,
): string {
  const listed = entity.variableIds.flatMap((id) => context.variableNames.get(id) ?? []);
  const assignee = owner.assigneeId === null ? null : (context.emails.get(owner.assigneeId) ?? null);
  const middle = `"notes":${str(owner.notes)},"characterLimit":${owner.characterLimit},"tags":${str(entity.tags)},"integrated":${entity.integrated}`;
  const tail = `"variantId":${str(variantId)}`;
  const etag = context.etags ? `"etag":${str(textEtag(entity.id, entity.revision ?? 0))},` : '';
  const state = context.translationStates ? translationJson(entity, owner, variantId, context) : '';
  const end = `${extra && `${extra},`}${etag}"status":${str(owner.status)},"assignee":${str(assignee)}${state}}`;
  return ownerSources(entity.developerId, owner, variantId)
    .map((source) => {
      const rich = context.richText ? `,"richText":${str(richTextOf(source, context.richText))}` : '';
      const variableIds = listed.length === 0 ? '[]' : str(usedVariables([source.text], listed));
      return `{"id":${str(source.id)},"text":${str(source.text)}${rich},${middle},"variableIds":${variableIds},${tail},"pluralForm":${str(source.pluralForm)},${end}`;
    })
    .join(',');
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * The records of `entities` (in their order) as the bytes of a JSON array, written directly: the
 * largest responses of the API have tens of thousands of records, and writing JSON per owner
 * (base text or variant value) skips building record objects. `extraJson` gives the kind's own
 * fields as a JSON fragment (`"folderId":...,"name":...`), written before `status` as in the
 * record table. With `cache` (keyed by the entity for its base text and by the variant value
 * object), an owner's bytes are reused by later requests over the same loaded entities, and a
 * response is one copy of them.
 */
export function serializeRecords(
  entities: readonly TextEntity[],
  context: RecordContext,
  select: (entity: TextEntity) => OwnerSelection | null,
  extraJson: (entity: TextEntity) => string,
  cache?: WeakMap<object, Buffer>,
): Buffer {
  const parts: Buffer[] = [OPEN];
  let length = 2;
  const json = (entity: TextEntity, key: object, owner: () => Owner, variantId: string | null) => {
    let value = cache?.get(key);
    if (value === undefined) {
      value = Buffer.from(ownerJson(entity, owner(), variantId, context, extraJson(entity)));
      cache?.set(key, value);
    }
    if (parts.length > 1) {
      parts.push(COMMA);
      length += 1;
    }
    parts.push(value);
    length += value.length;
  };
  for (const entity of entities) {
    const selection = select(entity);
    if (!selection) continue;
    if (selection.base) json(entity, entity, () => baseOwner(entity), null);
    for (const value of selection.variants) {
      json(entity, value, () => value, context.variantDeveloperIds.get(value.variantId) ?? null);
    }
  }
  parts.push(CLOSE);
  return Buffer.concat(parts, length);
}

/**
 * The records of `entities` (one page of a read) as JSON, comma-separated without the array's
 * brackets ('' when the page keeps no record): the pages' parts joined by commas inside `[` and
 * `]` are, byte for byte, what `serializeRecords` writes for the whole read.
 */
export function recordsJson(
  entities: readonly TextEntity[],
  context: RecordContext,
  select: (entity: TextEntity) => OwnerSelection | null,
  extraJson: (entity: TextEntity) => string,
): string {
  const out: string[] = [];
  for (const entity of entities) {
    const selection = select(entity);
    if (!selection) continue;
    const extra = selection.base || selection.variants.length > 0 ? extraJson(entity) : '';
    if (selection.base) out.push(ownerJson(entity, baseOwner(entity), null, context, extra));
    for (const value of selection.variants) {
      out.push(ownerJson(entity, value, context.variantDeveloperIds.get(value.variantId) ?? null, context, extra));
    }
  }
  return out.join(',');
}
