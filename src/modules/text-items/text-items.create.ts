import { badRequest, conflict } from '../../http/errors.js';
import { slugify } from '../../shared/developer-id.js';
import type { BlockRef } from '../blocks/blocks.service.js';
import type { ProjectRef } from '../projects/projects.service.js';
import {
  checkNewTexts,
  type ExistingTexts,
  type PlannedContent,
  storedText,
  type TextItem,
  type WriteContext,
} from '../texts/index.js';
import type { NewTextItemInput } from './text-items.schemas.js';

/** A text item of a POST, checked and in its stored form; nothing is written yet. */
export interface PlannedTextItem extends PlannedContent {
  blockId: number | null;
  baseTextItemId: number | null;
}

/** Where the items of one POST go, with what their references are checked against. */
export interface CreateTarget {
  container: ProjectRef;
  /** The connected base of a project (null for a base or an unconnected project). */
  base: ProjectRef | null;
  /** Blocks of the container by developer ID. */
  blocks: ReadonlyMap<string, BlockRef>;
  /** Items of the connected base named by the request, developer ID -> row id. */
  baseItems: ReadonlyMap<string, number>;
}

const MAX_SLUG = 64;

export const textItemExists = (developerId: string) =>
  conflict(`Text item with developer ID ${developerId} already exists in workspace`);

/**
 * A generated id is a slug of the first words of the text. Whole words are
 * kept while they fit in 64 characters (a first word longer than that is cut).
 */
export function slugOfFirstWords(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  return slug || slugify(text);
}

/** Checks the whole POST before anything is written; the first bad element is the error. */
export function checkNewTextItems(
  inputs: readonly NewTextItemInput[],
  context: WriteContext,
  target: CreateTarget,
  existing: ExistingTexts,
): PlannedTextItem[] {
  const { container, base } = target;
  return checkNewTexts(inputs, context, existing, {
    field: 'textItems',
    slugOf: (input: NewTextItemInput) => slugOfFirstWords(storedText(context, input.text).text),
    alreadyExists: textItemExists,
    own: (input, at) => {
      let blockId: number | null = null;
      if (input.blockId !== undefined && input.blockId !== null) {
        const block = target.blocks.get(input.blockId);
        if (!block) throw badRequest(`${at}.blockId: Block id not found: ${input.blockId}`);
        blockId = block.id;
      }
      let baseTextItemId: number | null = null;
      const derivesFrom = input.baseTextItemId;
      if (derivesFrom !== undefined && derivesFrom !== null) {
        const path = `${at}.baseTextItemId`;
        if (container.kind === 'base') throw badRequest(`${path}: items of a base do not derive from other items`);
        if (!base) throw badRequest(`${path}: project ${container.developerId} is not connected to a base`);
        const id = target.baseItems.get(derivesFrom);
        if (id === undefined) {
          throw badRequest(`${path}: Text item with developer ID ${derivesFrom} not found in base ${base.developerId}`);
        }
        baseTextItemId = id;
      }
      return { blockId, baseTextItemId };
    },
  });
}

/** A planned item as the texts core creates it, at its place in the project's custom order. */
export const newTextItem = (containerId: number, planned: PlannedTextItem, position: number): Omit<TextItem, 'id'> => ({
  kind: 'text_item',
  ...planned,
  projectId: containerId,
  position,
  componentId: null,
});
