import type { PluralForm, StoredPlural } from '../../db/schema.js';

/**
 * Components and text items as every module sees them: the domain types of the texts core.
 * Components and text items are one table (see docs/storage.md); these types are what its rows
 * mean, with JSON parsed, flags as booleans and references as row ids. Rows themselves never
 * leave src/modules/texts/ (`npm run check:boundaries` enforces it).
 */

export type TextKind = 'component' | 'text_item';

export type { PluralForm };

/** One plural form of a text: `richText` only when the text is rich. */
export type PluralText = StoredPlural;

/** What the base text and each variant value carry: the content of one record and its plural records. */
export interface TextValue {
  text: string;
  /** Stored markup, null for plain text. */
  richText: string | null;
  /** Null when the text has no plural forms. */
  plurals: PluralText[] | null;
  notes: string;
  characterLimit: number | null;
  status: string;
  /** User row id. */
  assigneeId: number | null;
  /**
   * Translation state (docs/translation-state.md). Of the base text: how many times its text, rich
   * text or plural forms have changed. Of a variant value: the base text's version its text was
   * written against (absent on a value being written: the base as it is now).
   */
  textVersion?: number;
}

/** Whether a variant value translates its text's base as it is now (docs/translation-state.md). */
export type TranslationState = 'missing' | 'outdated' | 'upToDate';

/** The state of a text's value of one variant (`undefined`: the text has none). */
export function translationStateOf(
  text: Pick<TextValue, 'textVersion'>,
  value: VariantValue | undefined,
): TranslationState {
  if (!value) return 'missing';
  // A value without a version is being written now, against the base as it is.
  if (value.textVersion === undefined) return 'upToDate';
  return value.textVersion < (text.textVersion ?? 0) ? 'outdated' : 'upToDate';
}

/** A text's value of one variant. */
export interface VariantValue extends TextValue {
  /** Row id of the variant. */
  variantId: number;
}

/** What components and text items share: the base text, its variant values and listed variables. */
export interface TextCommon extends TextValue {
  /** Row id: the identity of the text inside this server (references, the change log). */
  id: number;
  developerId: string;
  tags: string[];
  integrated: boolean;
  /** In variant creation order (variant row id). */
  variants: VariantValue[];
  /** Row ids of the listed variables, in variable creation order. */
  variableIds: number[];
  /** The workspace revision of the text's last change, 0 if never changed (with `id`, its ETag). */
  revision?: number;
}

export interface Component extends TextCommon {
  kind: 'component';
  name: string;
  /** Row id of the folder, null at the library root. */
  folderId: number | null;
}

export interface TextItem extends TextCommon {
  kind: 'text_item';
  /** Row id of the project or base that holds the item. */
  projectId: number;
  /** Row id of the block, null outside blocks. */
  blockId: number | null;
  /** Place in the project's custom order (`sort=project_order`). */
  position: number;
  /** Row id of the base text item it derives from. */
  baseTextItemId: number | null;
  /** Row id of the component it is a linked instance of. */
  componentId: number | null;
}

/** A component or a text item. */
export type TextEntity = Component | TextItem;

export type TextOfKind<K extends TextKind> = Extract<TextEntity, { kind: K }>;

/** A text not written yet: everything but its row id. */
export type NewText = Omit<Component, 'id'> | Omit<TextItem, 'id'>;

/** The fields an update or a cascade may change; the rest of a text is fixed once created. */
export type TextFieldChanges = Partial<
  TextValue &
    Pick<TextCommon, 'developerId' | 'tags' | 'integrated'> &
    Pick<Component, 'name' | 'folderId'> &
    Pick<TextItem, 'projectId' | 'blockId' | 'position' | 'baseTextItemId' | 'componentId'>
>;

/** Which records of one text a request wants: its base text and which of its variant values. */
export interface OwnerSelection {
  base: boolean;
  variants: readonly VariantValue[];
}
