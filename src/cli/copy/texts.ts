import { plainToRichText } from '../../richtext/index.js';
import type { TextRecord } from './snapshot.js';

/**
 * The GETs answer one record per base text, variant value and plural form; a write takes one text
 * with its plurals and variant values. These functions turn the first into the second.
 */

type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

export interface TextValue {
  record: TextRecord;
  plurals: TextRecord[];
}

export interface TextGroup extends TextValue {
  id: string;
  variants: Map<string, TextValue>;
  /** Every record of the text as the GET answered them, for comparison. */
  records: TextRecord[];
}

/** Records grouped by developer ID, in the order their first record came. */
export function groupRecords(records: readonly TextRecord[]): Map<string, TextGroup> {
  const groups = new Map<string, TextGroup>();
  for (const record of records) {
    const form = record.pluralForm;
    const id = form !== null && record.id.endsWith(`_${form}`) ? record.id.slice(0, -form.length - 1) : record.id;
    let group = groups.get(id);
    if (!group) {
      group = { id, record, plurals: [], variants: new Map(), records: [] };
      groups.set(id, group);
    }
    group.records.push(record);
    const value = record.variantId === null ? group : variantValue(group, record);
    if (form === null) value.record = record;
    else value.plurals.push(record);
  }
  return groups;
}

function variantValue(group: TextGroup, record: TextRecord): TextValue {
  const variantId = record.variantId as string;
  let value = group.variants.get(variantId);
  if (!value) {
    value = { record, plurals: [] };
    group.variants.set(variantId, value);
  }
  return value;
}

/** True when some text of the group carries formatting its plain text cannot express. */
export function isRich(group: TextGroup): boolean {
  return group.records.some((r) => r.richText !== undefined && r.richText !== plainToRichText(r.text, 'html'));
}

const textOf = (record: TextRecord, rich: boolean) => (rich ? (record.richText ?? record.text) : record.text);

const pluralsOf = (value: TextValue, rich: boolean) =>
  value.plurals.map((p) => ({ form: p.pluralForm as PluralForm, text: textOf(p, rich) }));

/** Variables are listed on every record that uses them; the text lists their union. */
export function variablesOf(group: TextGroup): string[] {
  return [...new Set(group.records.flatMap((r) => r.variableIds))];
}

/** The content of a text's own values, as a create or a PATCH of base text takes it. */
export function baseContent(group: TextGroup, rich: boolean) {
  const r = group.record;
  return {
    text: textOf(r, rich),
    plurals: pluralsOf(group, rich),
    notes: r.notes,
    tags: r.tags,
    status: r.status,
    assignee: r.assignee,
    characterLimit: r.characterLimit,
    integrated: r.integrated,
    variables: variablesOf(group),
  };
}

/** One variant value, as a create's `variants` element takes it. */
export function variantContent(variantId: string, value: TextValue, rich: boolean) {
  const r = value.record;
  return {
    variantId,
    text: textOf(r, rich),
    status: r.status,
    assignee: r.assignee,
    notes: r.notes,
    characterLimit: r.characterLimit,
    plurals: pluralsOf(value, rich),
  };
}

/** A group's records as JSON, for "is it the same" (order included: plural order is content). */
export const fingerprint = (group: TextGroup | undefined) => (group ? JSON.stringify(group.records) : '');

/** The base text's own records (variant records repeat base fields such as tags). */
export const baseFingerprint = (group: TextGroup | undefined) =>
  group ? JSON.stringify([group.record, ...group.plurals]) : '';

const ownFields = (r: TextRecord) => [
  r.text,
  r.richText,
  r.notes,
  r.characterLimit,
  r.status,
  r.assignee,
  r.variableIds,
  r.pluralForm,
];

/** The fields a variant value holds of its own, with its plural forms. */
export function variantFingerprint(group: TextGroup | undefined, variantId: string): string {
  const value = group?.variants.get(variantId);
  return value ? JSON.stringify([value.record, ...value.plurals].map(ownFields)) : '';
}
