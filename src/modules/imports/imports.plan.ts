/**
 * What an import does, decided from the parsed file and the texts that exist (pure): which keys
 * become new texts, which update the base text or a variant's value, which are unchanged, and
 * which are skipped and why. The file is planned a slice of keys at a time (`createPlanner`):
 * each slice's plan is written before the next is read, and its part of the answer goes into
 * the report as it is planned. The services' own planning then checks and writes it.
 */

import { namePrintf, type ParsedForm, type ParsedText } from '../../formats/parsers/index.js';
import { compareNames } from '../../formats/shared/variables.js';
import { DEVELOPER_ID_PATTERN } from '../../http/schemas.js';
import { findPlaceholders } from '../../text/placeholders.js';
import type { PluralText, TextEntity, TextValue } from '../texts/index.js';
import type { Variable } from '../variables/variables.service.js';
import type { FileKey, ParserSkip } from './imports.parse.js';
import type { ImportReportWriter } from './imports.report.js';
import type { ImportKey, ImportSkip, ImportValueChange } from './imports.types.js';

export interface ImportColumn {
  /** The variant the column's texts are values of; null: base text. */
  variant: { id: number; developerId: string } | null;
  /** Whether the format writes plural forms: an entry without them then means "no plurals". */
  carriesPlurals: boolean;
}

export interface PlanInput {
  columns: readonly ImportColumn[];
  /** The workspace's variables in creation order. */
  variables: readonly Variable[];
  variableOrder: 'default' | 'alphabetical';
  /** Text items: the row id of the project they are imported into (null for components). */
  projectRowId: number | null;
  /** The longest text and notes a write takes (`LIMIT_TEXT_CHARS`, `LIMIT_NOTES_CHARS`). */
  limits: { textChars: number; notesChars: number };
  /** Keys the request leaves as they are. */
  skip?: ReadonlySet<string>;
}

/** The reason given for a key the request asked to skip. */
export const SKIPPED_ON_REQUEST = 'left as it is: skipped in the request';

export interface NewContent {
  developerId: string;
  text: string;
  plurals?: ParsedForm[];
  notes?: string;
  variables?: string[];
  variants?: Array<{ variantId: string; text: string; plurals?: ParsedForm[]; notes?: string }>;
}

export interface ContentUpdate {
  developerId: string;
  text?: string;
  plurals?: ParsedForm[];
  notes?: string;
  variables?: string[];
}

/** What one slice of the file writes. */
export interface SlicePlan {
  create: NewContent[];
  /** One batch for the base text (no `variantId`) and one per variant, in column order. */
  updates: Array<{ variantId?: string; updates: ContentUpdate[] }>;
}

const DEVELOPER_ID = new RegExp(DEVELOPER_ID_PATTERN);

/** Where one slice's plan goes, with the texts of its keys that exist. */
interface SliceWrites {
  /** The texts of the slice's keys that exist, by developer ID. */
  entities: ReadonlyMap<string, TextEntity>;
  /** The texts to create. */
  create: NewContent[];
  /** The updates, a batch by variant developer ID (`''` the base text). */
  updates: Map<string, { variantId?: string; updates: ContentUpdate[] }>;
}

/** What one key's plan notes for the answer: the values it changes, and its skips. */
interface KeyNotes {
  /** The values the key changes, before and after. */
  noted: ImportValueChange[];
  /** Takes each of its skips, into the report. */
  skipped: (skip: ImportSkip) => void;
}

/** A key the parser skipped (a value of it): its part of `keys[]` is held until the end. */
interface HeldKey {
  action: ImportKey['action'];
  reasons: string[];
  changes: ImportValueChange[];
}

const reasonOf = (skip: ImportSkip) => (skip.variantId ? `${skip.variantId}: ${skip.reason}` : skip.reason);

const keyJson = (key: string, action: ImportKey['action'], reasons: readonly string[], changes: ImportValueChange[]) =>
  JSON.stringify({
    key,
    action,
    ...(reasons.length > 0 && { reason: reasons.join('; ') }),
    changes,
  } satisfies ImportKey);

/**
 * Plans the file a slice of keys at a time, into `report`. The answer lists the keys the parser
 * skipped first (in the order of their columns), then every other key in the file's order, as
 * it did when the whole file was planned at once: the skipped keys (few; entries the parser
 * could not hold) are held until `finish`, every other key's part goes into the report at once.
 */
export function createPlanner(input: PlanInput, parserSkips: readonly ParserSkip[], report: ImportReportWriter) {
  const variableNames = new Map(input.variables.map((v) => [v.id, v.name]));
  const known = new Set(variableNames.values());
  const order = new Map(input.variables.map((v, index) => [v.name, index]));
  const held = new Map<string, HeldKey>();
  for (const { column, key, reason } of parserSkips) {
    const skip = skipOf(key, input.columns[column]!, reason);
    report.add('skipped', JSON.stringify(skip));
    const entry = held.get(key);
    if (entry) entry.reasons.push(reasonOf(skip));
    else held.set(key, { action: 'skip', reasons: [reasonOf(skip)], changes: [] });
  }

  /** The plan of one slice of keys, with `entities` the texts of those keys that exist. */
  function planSlice(slice: readonly FileKey[], entities: ReadonlyMap<string, TextEntity>): SlicePlan {
    const create: NewContent[] = [];
    const updates = new Map<string, { variantId?: string; updates: ContentUpdate[] }>();
    for (const column of input.columns) {
      const id = column.variant?.developerId ?? '';
      if (!updates.has(id)) updates.set(id, column.variant ? { variantId: id, updates: [] } : { updates: [] });
    }
    for (const fileKey of slice) {
      const reasons: string[] = [];
      const changes: ImportValueChange[] = [];
      const skipped = (skip: ImportSkip) => {
        report.add('skipped', JSON.stringify(skip));
        reasons.push(reasonOf(skip));
      };
      const action = planKey(fileKey, { entities, create, updates }, { noted: changes, skipped });
      const entry = held.get(fileKey.key);
      if (entry) {
        entry.action = action;
        for (const reason of reasons) entry.reasons.push(reason);
        entry.changes = changes;
      } else report.add('keysRest', keyJson(fileKey.key, action, reasons, changes));
    }
    return { create, updates: [...updates.values()] };
  }

  /** One key: what it writes (into `create` and `updates`), what it changes, and its action. */
  function planKey(
    { key, values: columnValues }: FileKey,
    { entities, create, updates }: SliceWrites,
    { noted, skipped }: KeyNotes,
  ): ImportKey['action'] {
    const values = columnValues.map(({ column, value }) => ({ column: input.columns[column]!, value }));
    if (input.skip?.has(key)) {
      skipped({ key, reason: SKIPPED_ON_REQUEST });
      return 'skip';
    }
    if (!DEVELOPER_ID.test(key)) {
      skipped({
        key,
        reason: 'not a developer ID (1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit)',
      });
      return 'skip';
    }
    const tooLong = values.find(({ value }) => overLimit(value, input.limits));
    if (tooLong) {
      skipped(skipOf(key, tooLong.column, overLimit(tooLong.value, input.limits)!));
      return 'skip';
    }
    const entity = entities.get(key) ?? null;
    const listed = entity ? entity.variableIds.flatMap((id) => variableNames.get(id) ?? []) : [];
    const named = values.map(({ column, value }) => ({ column, value: nameArguments(value, listed, input, order) }));
    const used = [...new Set(named.flatMap(({ value }) => textsOf(value)).flatMap(placeholderNames))];
    const unknown = used.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      report.add(
        'warnings',
        JSON.stringify({
          key,
          message: `{{${unknown.join('}}, {{')}}} name no variable of the workspace: kept as text`,
        }),
      );
    }
    const usedKnown = used.filter((name) => known.has(name));
    const base = named.find(({ column }) => column.variant === null)?.value;
    const variantValues = named.filter(({ column }) => column.variant !== null);

    if (entity === null) {
      if (!base) {
        for (const { column } of variantValues) {
          skipped(skipOf(key, column, `no text with developer ID ${key} yet: import its base text first`));
        }
        return 'skip';
      }
      for (const change of valueChanges({ variant: null, current: null, value: base, withPlurals: true })) {
        noted.push(change);
      }
      for (const { column, value } of variantValues) {
        for (const change of valueChanges({ variant: column.variant, current: null, value, withPlurals: true })) {
          noted.push(change);
        }
      }
      create.push({
        developerId: key,
        text: base.text,
        ...(base.plurals.length > 0 && { plurals: base.plurals }),
        ...(base.notes !== undefined && { notes: base.notes }),
        ...(usedKnown.length > 0 && { variables: usedKnown }),
        ...(variantValues.length > 0 && {
          variants: variantValues.map(({ column, value }) => ({
            variantId: column.variant!.developerId,
            text: value.text,
            ...(value.plurals.length > 0 && { plurals: value.plurals }),
            ...(value.notes !== undefined && { notes: value.notes }),
          })),
        }),
      });
      report.add('created', JSON.stringify(key));
      return 'create';
    }

    const refusal = refuse(entity, input.projectRowId);
    if (refusal !== null) {
      for (const { column } of named) skipped(skipOf(key, column, refusal));
      return 'skip';
    }
    const newVariables = usedKnown.filter((name) => !listed.includes(name));
    let variables = newVariables.length > 0 ? [...listed, ...newVariables] : undefined;
    let changed = false;
    for (const { column, value } of named) {
      const current: TextValue | null = column.variant
        ? (entity.variants.find((v) => v.variantId === column.variant!.id) ?? null)
        : entity;
      const update = contentUpdate(key, current, value, column.carriesPlurals);
      if (update === null) continue;
      const withPlurals = update.plurals !== undefined;
      for (const change of valueChanges({ variant: column.variant, current, value, withPlurals, update })) {
        noted.push(change);
      }
      updates.get(column.variant?.developerId ?? '')!.updates.push({ ...update, ...(variables && { variables }) });
      variables = undefined;
      changed = true;
    }
    if (newVariables.length > 0) {
      noted.push({ field: 'variables', before: listed.join(', '), after: [...listed, ...newVariables].join(', ') });
    }
    if (variables !== undefined) {
      // Listing a variable is a change of the text itself, never of a variant's value.
      const batch = updates.get('');
      if (batch) batch.updates.push({ developerId: key, variables });
      else updates.set('', { updates: [{ developerId: key, variables }] });
      changed = true;
    }
    report.add(changed ? 'updated' : 'unchanged', JSON.stringify(key));
    return changed ? 'update' : 'unchanged';
  }

  /** After the last slice: the keys the parser skipped, first in the answer's `keys[]`. */
  function finish(): void {
    for (const [key, { action, reasons, changes }] of held)
      report.add('keysFirst', keyJson(key, action, reasons, changes));
    held.clear();
  }

  return { planSlice, finish };
}

const pluralsText = (plurals: readonly { form: string; text: string }[] | null | undefined) =>
  (plurals ?? []).map((p) => `${p.form}: ${p.text}`).join('\n');

/** One column's value of a key, as it is and as the file has it. */
interface ColumnValue {
  /** The column's variant, null for the base text. */
  variant: ImportColumn['variant'];
  /** The value as it is, null for a text not created yet. */
  current: TextValue | null;
  /** The file's value. */
  value: ParsedText;
  /** Whether the plurals are listed too. */
  withPlurals: boolean;
  /** The update of a text that exists: only the text and notes it writes are listed. */
  update?: ContentUpdate;
}

/** The values a key's import changes in one column, as text before and after. */
function valueChanges({ variant, current, value, withPlurals, update }: ColumnValue): ImportValueChange[] {
  const of = variant ? { variantId: variant.developerId } : {};
  const out: ImportValueChange[] = [];
  if (!update || (update.text !== undefined && current?.text !== value.text)) {
    out.push({ ...of, field: 'text', before: current?.text ?? null, after: value.text });
  }
  if (withPlurals && value.plurals.length + (current?.plurals?.length ?? 0) > 0) {
    out.push({
      ...of,
      field: 'plurals',
      before: current ? pluralsText(current.plurals) : null,
      after: pluralsText(value.plurals),
    });
  }
  if (value.notes && (!update || update.notes !== undefined)) {
    out.push({ ...of, field: 'notes', before: current?.notes ?? null, after: value.notes });
  }
  return out;
}

/** Why a value is longer than a write may store, or null. */
function overLimit(value: ParsedText, limits: PlanInput['limits']): string | null {
  let longest = value.text.length;
  for (const form of value.plurals) longest = Math.max(longest, form.text.length);
  if (longest > limits.textChars) return `a text longer than ${limits.textChars} characters`;
  if ((value.notes?.length ?? 0) > limits.notesChars) return `notes longer than ${limits.notesChars} characters`;
  return null;
}

const skipOf = (key: string, column: ImportColumn, reason: string): ImportSkip =>
  column.variant ? { key, variantId: column.variant.developerId, reason } : { key, reason };

/** Why an existing text cannot take the file's value, or null. */
function refuse(entity: TextEntity, projectRowId: number | null): string | null {
  if (entity.kind !== 'text_item' || projectRowId === null) return null;
  if (entity.projectId !== projectRowId) return `text item ${entity.developerId} belongs to another project`;
  if (entity.componentId !== null) {
    return `text item ${entity.developerId} is a linked instance: its text is its component's`;
  }
  return null;
}

const textsOf = (value: ParsedText) => [value.text, ...value.plurals.map((p) => p.text)];
const placeholderNames = (text: string) => findPlaceholders(text).map((p) => p.name);

/**
 * Arguments the file could not name are named from the existing text's listed variables,
 * numbered as the export numbers them (`variableOrder`); the plural count of a stringsdict form
 * is argument 1. Without an existing text they stay as written.
 */
function nameArguments(
  value: ParsedText,
  listed: readonly string[],
  input: PlanInput,
  order: ReadonlyMap<string, number>,
): ParsedText {
  if (!value.positional) return value;
  const names = [...listed].sort((a, b) =>
    input.variableOrder === 'alphabetical' ? compareNames(a, b) : (order.get(a) ?? 0) - (order.get(b) ?? 0),
  );
  const stringsdict = value.positional.kind === 'stringsdict';
  const nameOf = (position: number) =>
    stringsdict ? (position === 1 ? 'count' : names[position - 2]) : names[position - 1];
  const name = (text: string) => namePrintf(text, nameOf, stringsdict) ?? text;
  const { positional: _positional, ...rest } = value;
  return { ...rest, text: name(value.text), plurals: value.plurals.map((p) => ({ form: p.form, text: name(p.text) })) };
}

function samePlurals(stored: readonly PluralText[] | null, parsed: readonly ParsedForm[]): boolean {
  const current = stored ?? [];
  if (current.length !== parsed.length) return false;
  const byForm = new Map(current.map((p) => [p.form, p.text]));
  return parsed.every((p) => byForm.get(p.form) === p.text) && current[0]?.form === parsed[0]?.form;
}

/** The update that makes `current` the file's value, or null when it already is. */
function contentUpdate(
  developerId: string,
  current: TextValue | null,
  value: ParsedText,
  carriesPlurals: boolean,
): ContentUpdate | null {
  const update: ContentUpdate = { developerId };
  const plurals = value.plurals.length > 0 || carriesPlurals ? value.plurals : undefined;
  const textChanged = current === null || current.text !== value.text;
  const pluralsChanged = plurals !== undefined && (current === null || !samePlurals(current.plurals, plurals));
  if (textChanged || pluralsChanged) update.text = value.text;
  if (pluralsChanged) update.plurals = plurals;
  // A file without a comment says nothing about notes: an update sets notes, never clears them.
  if (value.notes && (current === null || current.notes !== value.notes)) update.notes = value.notes;
  return Object.keys(update).length > 1 ? update : null;
}
