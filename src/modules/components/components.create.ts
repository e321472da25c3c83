import type { NewTextRow, PluralForm, StoredPlural } from '../../db/schema.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { FolderTree } from '../folders/folders.service.js';
import { slugify } from '../shared/developer-id.js';
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
} from '../texts/content.js';
import type { VariantValue } from '../texts/entities.js';
import { serializePlurals } from '../texts/plurals.js';
import type { NewComponentInput } from './components.schemas.js';

/** A component of a POST, checked and in its stored form; nothing is written yet. */
export interface PlannedComponent {
  developerId: string;
  name: string;
  folderId: number | null;
  text: string;
  richText: string | null;
  plurals: StoredPlural[] | null;
  notes: string;
  tags: string[];
  status: string;
  assigneeId: number | null;
  characterLimit: number | null;
  integrated: boolean;
  variables: number[];
  variants: VariantValue[];
}

export interface ExistingComponents {
  ids: ReadonlySet<string>;
  /** Plural forms (base and variants) of existing components, for those a new id could collide with. */
  formsOf: (developerId: string) => ReadonlySet<PluralForm> | undefined;
}

const NAME_FROM_TEXT_LENGTH = 64;

export const alreadyExists = (developerId: string) =>
  conflict(`Component with developer ID ${developerId} already exists in workspace`);

/** Whitespace runs become one space, then the first 64 characters (code points, never half a pair). */
const nameFromText = (text: string) =>
  Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, NAME_FROM_TEXT_LENGTH).join('');

const inputForms = (input: NewComponentInput): Set<PluralForm> =>
  pluralFormsOf([input.plurals, ...(input.variants ?? []).map((v) => v.plurals)]);

/**
 * Developer IDs of the request: explicit ones as given (a repeat is a conflict, reported when its
 * element's turn comes), generated ones as slugs of the name that avoid every existing and
 * explicit id and whose plural records collide with nothing.
 */
function assignDeveloperIds(inputs: readonly NewComponentInput[], context: WriteContext, existing: ExistingComponents) {
  const taken = new Set([...existing.ids, ...inputs.flatMap((c) => c.developerId ?? [])]);
  const seen = new Set<string>();
  const conflicts = new Map<number, string>();
  const ids = inputs.map((input, index) => {
    if (input.developerId !== undefined) {
      if (existing.ids.has(input.developerId) || seen.has(input.developerId)) conflicts.set(index, input.developerId);
      seen.add(input.developerId);
      return input.developerId;
    }
    const forms = inputForms(input);
    const base = slugify(input.name ?? nameFromText(storedText(context, input.text).text));
    let candidate = base;
    for (let n = 2; taken.has(candidate) || [...forms].some((f) => taken.has(`${candidate}_${f}`)); n += 1) {
      candidate = `${base}-${n}`;
    }
    taken.add(candidate);
    return candidate;
  });
  return { ids, conflicts };
}

/** Checks the whole POST before anything is written; the first bad element is the error. */
export function planCreate(
  inputs: readonly NewComponentInput[],
  context: WriteContext,
  tree: FolderTree,
  existing: ExistingComponents,
): PlannedComponent[] {
  const { ids, conflicts } = assignDeveloperIds(inputs, context, existing);
  const requestIndex = new Map(ids.map((id, index) => [id, index]));
  const formsInRequest = inputs.map(inputForms);
  const formsOf = (id: string) => {
    const index = requestIndex.get(id);
    return index === undefined ? existing.formsOf(id) : formsInRequest[index];
  };
  const exists = (id: string) => existing.ids.has(id) || requestIndex.has(id);

  return inputs.map((input, index): PlannedComponent => {
    const at = `components[${index}]`;
    const developerId = ids[index] as string;
    const repeated = conflicts.get(index);
    if (repeated !== undefined) throw alreadyExists(repeated);

    const { text, richText } = storedText(context, input.text);
    const plurals = input.plurals ? storedPlurals(context, input.plurals, text, `${at}.plurals`) : null;
    const status = input.status === undefined ? defaultStatus(context.statuses) : input.status;
    let folderId: number | null = null;
    if (input.folderId !== undefined && input.folderId !== null && input.folderId !== 'root') {
      const folder = tree.byDeveloperId(input.folderId);
      if (!folder) throw badRequest(`${at}.folderId: Folder id not found: ${input.folderId}`);
      folderId = folder.id;
    }
    const planned: PlannedComponent = {
      developerId,
      name: input.name ?? input.developerId ?? (nameFromText(text) || developerId),
      folderId,
      text,
      richText,
      plurals,
      notes: input.notes ?? '',
      tags: input.tags ?? [],
      status: checkStatus(context, status, `${at}.status`),
      assigneeId: assigneeId(context, input.assignee ?? null, `${at}.assignee`),
      characterLimit: input.characterLimit ?? null,
      integrated: input.integrated ?? false,
      variables: variableIds(context, input.variables ?? [], `${at}.variables`),
      variants: variantValues(context, input.variants ?? [], `${at}.variants`),
    };
    const collision = pluralCollision(developerId, formsInRequest[index] as Set<PluralForm>, exists, formsOf);
    if (collision) throw badRequest(`${at}: ${collision}`);
    return planned;
  });
}

/** The `texts` row of a planned component; every row has the same columns, for multi-row inserts. */
export function componentRow(workspaceId: number, planned: PlannedComponent, at: string): NewTextRow {
  return {
    workspace_id: workspaceId,
    kind: 'component',
    developer_id: planned.developerId,
    name: planned.name,
    folder_id: planned.folderId,
    project_id: null,
    block_id: null,
    base_text_item_id: null,
    component_id: null,
    position: 0,
    text: planned.text,
    rich_text: planned.richText,
    plurals: serializePlurals(planned.plurals),
    notes: planned.notes,
    tags: JSON.stringify(planned.tags),
    status: planned.status,
    assignee_id: planned.assigneeId,
    character_limit: planned.characterLimit,
    integrated: planned.integrated ? 1 : 0,
    created_at: at,
    updated_at: at,
  };
}
