import { badRequest, conflict } from '../../http/errors.js';
import { slugify } from '../../shared/developer-id.js';
import type { FolderTree } from '../folders/folders.service.js';
import {
  type Component,
  checkNewTexts,
  type ExistingTexts,
  type PlannedContent,
  storedText,
  type WriteContext,
} from '../texts/index.js';
import type { NewComponentInput } from './components.schemas.js';

/** A component of a POST, checked and in its stored form; nothing is written yet. */
export interface PlannedComponent extends PlannedContent {
  name: string;
  folderId: number | null;
}

export type ExistingComponents = ExistingTexts;

const NAME_FROM_TEXT_LENGTH = 64;

export const alreadyExists = (developerId: string) =>
  conflict(`Component with developer ID ${developerId} already exists in workspace`);

/** Whitespace runs become one space, then the first 64 characters (code points, never half a pair). */
export const nameFromText = (text: string) =>
  Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, NAME_FROM_TEXT_LENGTH).join('');

/** Checks the whole POST before anything is written; the first bad element is the error. */
export function checkNewComponents(
  inputs: readonly NewComponentInput[],
  context: WriteContext,
  tree: FolderTree,
  existing: ExistingComponents,
): PlannedComponent[] {
  const planned = checkNewTexts(inputs, context, existing, {
    field: 'components',
    // The name, else the text as stored (plain text for rich text).
    slugOf: (input: NewComponentInput) => slugify(input.name ?? nameFromText(storedText(context, input.text).text)),
    alreadyExists,
    own: (input, at) => {
      let folderId: number | null = null;
      if (input.folderId !== undefined && input.folderId !== null && input.folderId !== 'root') {
        const folder = tree.byDeveloperId(input.folderId);
        if (!folder) throw badRequest(`${at}.folderId: Folder id not found: ${input.folderId}`);
        folderId = folder.id;
      }
      return { folderId, name: input.name ?? input.developerId ?? null };
    },
  });
  // Without a name or developer ID, the name comes from the text as stored.
  for (const p of planned) p.name ??= nameFromText(p.text) || p.developerId;
  return planned as PlannedComponent[];
}

/** A planned component as the texts core creates it. */
export const newComponent = (planned: PlannedComponent): Omit<Component, 'id'> => ({ kind: 'component', ...planned });
