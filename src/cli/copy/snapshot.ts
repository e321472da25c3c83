import type { StyleguideRecord } from '../../modules/styleguides/styleguides.types.js';
import type { Source } from './source.js';

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

/** The filters that show every record: all variants, rich text alongside plain text. */
export const ALL_VARIANTS = { variants: [{ id: 'all' }] };
const filterOf = (value: unknown) => JSON.stringify(value);

/** Lists some servers wrap in an object (`{ projects: [...] }`) are taken either way. */
function listOf<T>(value: unknown, key: string): T[] {
  if (Array.isArray(value)) return value as T[];
  const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(inner) ? (inner as T[]) : [];
}

/** Reads everything the source's key can see; `chunk` bounds the ids of one filter. */
export async function readSource(source: Source, chunk: number): Promise<Snapshot> {
  const [workspace, users, statuses, variants, variables, folders, bases, projects, components, styleguides] =
    await Promise.all([
      source.optional<Snapshot['workspace']>('workspace'),
      source.optional<unknown>('users'),
      source.get<unknown>('statuses'),
      source.get<unknown>('variants'),
      source.get<unknown>('variables'),
      source.get<unknown>('componentFolders'),
      source.optional<unknown>('bases'),
      source.get<unknown>('projects'),
      source.get<TextRecord[]>('components', { filter: filterOf(ALL_VARIANTS), richText: 'html' }),
      source.optional<unknown>('styleguides'),
    ]);
  const snapshot: Snapshot = {
    workspace: workspace && typeof workspace === 'object' && 'name' in workspace ? workspace : undefined,
    users: users === undefined ? undefined : listOf(users, 'users'),
    statuses: listOf(statuses, 'statuses'),
    variants: listOf(variants, 'variants'),
    variables: listOf(variables, 'variables'),
    folders: listOf(folders, 'folders'),
    bases: bases === undefined ? undefined : listOf(bases, 'bases'),
    projects: listOf(projects, 'projects'),
    components: listOf(components, 'components'),
    textItems: [],
    styleguides: styleguides === undefined ? undefined : listOf(styleguides, 'styleguides'),
  };
  const query = { filter: filterOf(ALL_VARIANTS), sort: 'project_order', richText: 'html' };
  snapshot.textItems = listOf(await source.get<unknown>('textItems', query), 'textItems');
  const baseIds = (snapshot.bases ?? []).map((b) => ({ id: b.id }));
  for (let i = 0; i < baseIds.length; i += chunk) {
    const filter = filterOf({ bases: baseIds.slice(i, i + chunk), ...ALL_VARIANTS });
    const items = await source.get<unknown>('textItems', { ...query, filter });
    snapshot.textItems.push(...listOf<TextRecord>(items, 'textItems'));
  }
  snapshot.blocks = await readBlocks(source, snapshot.projects);
  return snapshot;
}

async function readBlocks(source: Source, projects: Snapshot['projects']) {
  const blocks = new Map<string, { id: string; name: string }[]>();
  for (const project of projects) {
    const list = await source.optional<unknown>('projectBlocks', { projectId: project.id });
    if (list === undefined) return undefined;
    blocks.set(project.id, listOf(list, 'blocks'));
  }
  return blocks;
}
