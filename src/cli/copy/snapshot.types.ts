import type { StyleguideRecord } from '../../modules/styleguides/styleguides.types.js';

/** What a workspace shows through API v2, in the shapes its GETs answer. */

export interface TextRecord {
  id: string;
  text: string;
  richText?: string;
  notes: string;
  characterLimit: number | null;
  tags: string[];
  integrated: boolean;
  variableIds: string[];
  variantId: string | null;
  pluralForm: string | null;
  status: string;
  assignee: string | null;
  folderId?: string | null;
  name?: string;
  projectId?: string;
  baseId?: string | null;
  baseTextItemId?: string | null;
  blockName?: string | null;
  componentId?: string | null;
}

export interface Snapshot {
  workspace?: { name: string; baseLanguage?: string; libraryDeveloperMode?: boolean };
  users?: { email: string; name: string; role?: string }[];
  statuses: { id: string; name: string }[];
  variants: { id: string; name: string; description: string; localeCode: string | null }[];
  variables: { id: string; name: string; type: string; data: unknown }[];
  folders: { id: string; name: string; parentId: string | null }[];
  bases?: { id: string; name: string }[];
  projects: { id: string; name: string; baseId?: string | null; developerMode?: boolean }[];
  /** Blocks per project, in the project's block order; absent when the source has no such GET. */
  blocks?: Map<string, { id: string; name: string }[]>;
  components: TextRecord[];
  /** Every text item, base items included, each variant and plural form, in project order. */
  textItems: TextRecord[];
  styleguides?: Styleguide[];
}

/** A style guide as `GET /v2/styleguides` answers it. */
export type Styleguide = StyleguideRecord;
