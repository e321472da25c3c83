import type { BlockPlace, ContainerRef, VariableRef, VariantRef } from './texts.ports.js';
import type { Component, TextItem } from './texts.types.js';

/**
 * Texts frozen for a release (docs/releases.md): plain data, stored as JSON and read back as it
 * was, so that a read of it answers what a read of the workspace answered when it was frozen.
 * Row ids inside it refer only to each other (a text's `projectId` to `basis.containers`...), so
 * a frozen copy needs nothing of the workspace as it is now.
 */
export interface FrozenTexts {
  basis: FrozenBasis;
  /** In response order (by developer ID). */
  components: Component[];
  /** In response order (by developer ID), linked instances showing their components. */
  textItems: TextItem[];
}

/** The workspace as the frozen texts' reads resolve against and their records refer to. */
export interface FrozenBasis {
  statuses: string[];
  /** As the variants module lists them (all their fields: an export writes a variant's name, locale...). */
  variants: VariantRef[];
  /** As the variables module lists them (an export writes a variable's type and data). */
  variables: VariableRef[];
  /** [lower-case email, user row id]. */
  users: [string, number][];
  folders: { id: number; developerId: string; parentId: number | null }[];
  containers: ContainerRef[];
  /** [block row id, block]. */
  blocks: [number, BlockPlace][];
  /** [text row id, developer ID] of the components and base items the text items point at. */
  refs: [number, string][];
}
