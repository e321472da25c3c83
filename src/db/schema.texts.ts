import type { Insertable, Selectable } from 'kysely';
import type { Bool, Defaulted, Id, Json, Timestamp } from './schema.columns.js';

/**
 * The tables of components and text items. Their rows belong to the texts core
 * (src/modules/texts/): every other module works from its domain types (texts.types.ts), and
 * `npm run check:boundaries` fails when anything else imports this file.
 */

/**
 * Components and text items share this table (`kind`), because they carry the same content:
 * text, rich text, plurals, variant values, variables, status, assignee, tags and limits.
 */
export interface TextsTable {
  id: Id;
  workspace_id: number;
  kind: 'component' | 'text_item';
  developer_id: string;
  /** Components only. */
  name: string | null;
  /** Components only. */
  folder_id: number | null;
  /** Text items only: the project or base that holds the item. */
  project_id: number | null;
  block_id: number | null;
  base_text_item_id: number | null;
  /** Text items only: the component this item is a linked instance of. */
  component_id: number | null;
  /** Custom order within the project (sort=project_order). */
  position: Defaulted<number>;
  text: string;
  rich_text: string | null;
  plurals: Json | null;
  notes: Defaulted<string>;
  tags: Defaulted<Json>;
  status: string;
  assignee_id: number | null;
  character_limit: number | null;
  integrated: Defaulted<Bool>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The workspace revision of the text's last change (0: never changed); its ETag's basis. */
  revision: Defaulted<number>;
  /** How many times the base text (text, rich text or plural forms) has changed. */
  text_version: Defaulted<number>;
}

export interface TextVariantsTable {
  text_id: number;
  variant_id: number;
  text: string;
  rich_text: string | null;
  plurals: Json | null;
  status: string;
  assignee_id: number | null;
  notes: Defaulted<string>;
  character_limit: number | null;
  /** The `texts.text_version` this value's text was written against: below it, the value is outdated. */
  text_version: Defaulted<number>;
}

export interface TextVariablesTable {
  text_id: number;
  variable_id: number;
}

export type TextRow = Selectable<TextsTable>;
export type NewTextRow = Insertable<TextsTable>;
export type TextVariantRow = Selectable<TextVariantsTable>;
