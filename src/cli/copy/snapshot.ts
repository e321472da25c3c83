import type { Limits } from '../../config.js';
import { IdMap, IdSet } from './id-set.js';
import type { Progress } from './report.js';
import type { Snapshot, Styleguide, TextRecord } from './snapshot.types.js';
import { type Source, SourceError } from './source.js';
import { IdList, SliceWriter, Spool, type SpoolRef } from './spool.js';
import { checkElement, checkList, checkRecord, type RecordKind, textIdOf, writeChecker } from './validate.js';

export type { Snapshot, Styleguide, TextRecord };

/** The filters that show every record: all variants, rich text alongside plain text. */
export const ALL_VARIANTS = { variants: [{ id: 'all' }] };
const filterOf = (value: unknown) => JSON.stringify(value);

/** Lists some servers wrap in an object (`{ projects: [...] }`) are taken either way; anything else is refused. */
function listOf<T>(request: string, value: unknown, key: string, kind: RecordKind): T[] {
  const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  const list = Array.isArray(value) ? value : Array.isArray(inner) ? inner : undefined;
  if (!list) throw new SourceError(`source: ${request}: the answer is not a list of ${key}`);
  checkList(request, kind, list);
  return list as T[];
}

export interface ReadOptions {
  limits: Limits;
  progress?: Progress;
  /** Texts in a slice (default `TEXTS_PER_SLICE`). */
  sliceTexts?: number;
}

/**
 * One project's (or base's) text items, checked and kept on disk until they are written, in
 * slices of whole texts (`TEXTS_PER_SLICE`): the writes take one slice at a time.
 */
export interface TextPage {
  container: string;
  kind: 'project' | 'base';
  /** Each slice's records, as segments of the spool. */
  slices: SpoolRef[][];
  /** Each slice's texts (developer IDs). */
  ids: SpoolRef[];
  /** The project's items (developer IDs) in the source's order, in parts (`IdList`). */
  order: SpoolRef[];
}

/** Texts a slice holds: a few write batches, each of whole texts with all their records. */
export const TEXTS_PER_SLICE = 2_000;

/**
 * The source's text items, kept out of memory: its pages on disk, and the few facts the writes
 * need about all of them.
 */
export interface SourceTexts {
  /** Base pages first: project items derive from base items. */
  pages: TextPage[];
  /** How many texts (developer IDs) the pages hold. */
  count: number;
  /** Emails of the assignees of every text item and component (lower case). */
  assignees: Set<string>;
  /** Text items published to the library (a component of the same developer ID). */
  published: IdSet;
  /** Block names of each project in the order items first name them (for a source without blocks). */
  blockNames: Map<string, string[]>;
  /** The records of one slice of a page. */
  slice(page: TextPage, index: number): TextRecord[];
  /** Which slice each text of a page is in. */
  sliceOf(page: TextPage): IdMap;
  /** The page's items in the source's order, read from disk as they are taken. */
  order(page: TextPage): Iterable<string>;
  /** The spool, for the target's records sliced like the source's. */
  spool: Spool;
  close(): void;
}

/**
 * Reads everything the source's key can see and checks it, before anything is written. Texts are
 * read a project (a base, a folder) at a time, so that no single answer holds the whole
 * workspace; text items are kept on disk between the check and the writes.
 */
export async function readSource(
  source: Source,
  options: ReadOptions,
): Promise<{ snapshot: Snapshot; texts: SourceTexts }> {
  const progress = options.progress;
  progress?.phase('reading the structure', 9);
  const step = async <T>(work: Promise<T>) => {
    const value = await work;
    progress?.advance(1);
    return value;
  };
  const [workspace, users, statuses, variants, variables, folders, bases, projects, styleguides] = await Promise.all([
    step(source.optional<unknown>('workspace')),
    step(source.optional<unknown>('users')),
    step(source.get<unknown>('statuses')),
    step(source.get<unknown>('variants')),
    step(source.get<unknown>('variables')),
    step(source.get<unknown>('componentFolders')),
    step(source.optional<unknown>('bases')),
    step(source.get<unknown>('projects')),
    step(source.optional<unknown>('styleguides')),
  ]);
  if (workspace !== undefined) checkRecord('GET /v2/workspace', 'workspace', workspace);
  const snapshot: Snapshot = {
    workspace: workspace as Snapshot['workspace'],
    users: users === undefined ? undefined : listOf('GET /v2/users', users, 'users', 'users'),
    statuses: listOf('GET /v2/statuses', statuses, 'statuses', 'statuses'),
    variants: listOf('GET /v2/variants', variants, 'variants', 'variants'),
    variables: listOf('GET /v2/variables', variables, 'variables', 'variables'),
    folders: listOf('GET /v2/componentFolders', folders, 'folders', 'folders'),
    bases: bases === undefined ? undefined : listOf('GET /v2/bases', bases, 'bases', 'bases'),
    projects: listOf('GET /v2/projects', projects, 'projects', 'projects'),
    components: [],
    textItems: [],
    styleguides:
      styleguides === undefined ? undefined : listOf('GET /v2/styleguides', styleguides, 'styleguides', 'styleguides'),
  };
  progress?.phase('reading blocks', snapshot.projects.length);
  snapshot.blocks = await readBlocks(source, snapshot.projects, progress);
  const checker = writeChecker(snapshot, options.limits);

  const assignees = new Set<string>();
  const noteAssignee = (r: TextRecord) => {
    if (r.assignee) assignees.add(r.assignee.toLowerCase());
  };
  // Components a folder at a time (its own components only), then those at the library root.
  const folderPages = [{ id: 'root', label: 'the library root' }];
  for (const f of snapshot.folders) folderPages.push({ id: f.id, label: `folder ${f.id}` });
  progress?.phase('reading components', folderPages.length);
  for (const folder of folderPages) {
    const filter = filterOf({ folders: [{ id: folder.id, excludeNestedFolders: true }], ...ALL_VARIANTS });
    const answer = await source.get<unknown>('components', { filter, richText: 'html' });
    const list = listOf<TextRecord>(`GET /v2/components (${folder.label})`, answer, 'components', 'components');
    for (const r of list) {
      checker.text('component', r);
      noteAssignee(r);
    }
    checker.endPage('component');
    append(snapshot.components, list);
    progress?.advance(1);
  }

  // Text items a base at a time, then a project at a time: checked, noted, and put on disk.
  const query = { sort: 'project_order', richText: 'html' };
  const containers: { filter: Record<string, unknown>; container: string; kind: TextPage['kind'] }[] = [];
  for (const b of snapshot.bases ?? [])
    containers.push({ filter: { bases: [{ id: b.id }] }, container: b.id, kind: 'base' });
  for (const p of snapshot.projects) {
    containers.push({ filter: { projects: [{ id: p.id }] }, container: p.id, kind: 'project' });
  }
  progress?.phase('reading text items', containers.length);
  const texts = spooledTexts(Spool.open(), assignees);
  const spool = texts.spool;
  try {
    for (const { filter, container, kind } of containers) {
      const label = `GET /v2/textItems (${kind} ${container})`;
      const writer = new SliceWriter(spool, options.sliceTexts ?? TEXTS_PER_SLICE);
      const order = new IdList(spool);
      // Each record is checked, noted and put on disk as it arrives: the answer is never whole.
      await source.list(
        'textItems',
        { ...query, filter: filterOf({ ...filter, ...ALL_VARIANTS }) },
        'textItems',
        (value, index) => {
          checkElement(label, 'textItems', value, index);
          const r = value as TextRecord;
          checker.text('text item', r, container);
          noteAssignee(r);
          writer.add(textIdOf(r), r);
          if (r.variantId !== null) return;
          if (r.pluralForm === null) {
            texts.count += 1;
            if (r.projectId) order.add(r.id);
          }
          if (r.componentId === r.id) texts.published.add(r.id);
          if (kind === 'project' && r.blockName) {
            const names = texts.blockNames.get(container) ?? [];
            if (!names.includes(r.blockName)) names.push(r.blockName);
            texts.blockNames.set(container, names);
          }
        },
      );
      checker.endPage('text item');
      texts.pages.push({ container, kind, ...writer.finish(), order: order.finish() });
      progress?.advance(1);
    }
  } catch (error) {
    spool.close();
    throw error;
  }
  return { snapshot, texts };
}

/**
 * The text items' holder, made outside `readSource` so that it keeps the spool only, not what the
 * reading needed (the checker's ids): a closure keeps every variable its scope shares with others.
 */
function spooledTexts(spool: Spool, assignees: Set<string>): SourceTexts {
  return {
    pages: [],
    count: 0,
    assignees,
    published: new IdSet(),
    blockNames: new Map(),
    slice: (page, index) => spool.lines<TextRecord>(page.slices[index] ?? []),
    sliceOf: (page) => {
      const slices = new IdMap();
      page.ids.forEach((ref, index) => {
        for (const id of spool.get<string>(ref)) slices.set(id, index);
      });
      return slices;
    },
    order: (page) => spool.ids(page.order),
    spool,
    close: () => spool.close(),
  };
}

/** Appends in a loop: a spread of a large list into `push` overflows the call stack. */
export function append<T>(into: T[], items: readonly T[]): void {
  for (const item of items) into.push(item);
}

async function readBlocks(source: Source, projects: Snapshot['projects'], progress: Progress | undefined) {
  const blocks = new Map<string, { id: string; name: string }[]>();
  for (const project of projects) {
    const list = await source.optional<unknown>('projectBlocks', { projectId: project.id });
    if (list === undefined) return undefined;
    blocks.set(project.id, listOf(`GET /v2/projectBlocks?projectId=${project.id}`, list, 'blocks', 'blocks'));
    progress?.advance(1);
  }
  return blocks;
}
