import { badRequest } from '../../http/errors.js';
import { ROOT_FOLDER_ID } from '../folders/folders.service.js';

/**
 * The body of `POST /v1/ios/swift-driver` as the 4.x command-line client sends it (pure): its
 * config's projects and component sources, which come in several shapes, checked here so that a
 * 400 names the element and the problem.
 */

export interface LegacyProject {
  id: string;
  /** The name the client gave the project's files (`fileName`, else `name`), if it sent one. */
  fileName: string | null;
  /** `exclude_components`: the project's files leave out library instances. */
  excludeComponents: boolean;
}

/**
 * Which components: none, or a folder list (null: every folder; `null` in it: the library root)
 * with `root` as the client's config gives it (null when absent).
 */
export type LegacyComponents = { folders: (string | null)[] | null; root: boolean | null } | null;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function optional(item: Json, key: string, type: 'string' | 'boolean', at: string): void {
  const value = item[key];
  if (value !== undefined && value !== null && typeof value !== type) throw badRequest(`${at}.${key} must be ${type}`);
}

export function parseLegacyProjects(items: readonly unknown[]): LegacyProject[] {
  return items.map((item, i) => {
    const at = `projects[${i}]`;
    if (typeof item === 'string') return { id: item, fileName: null, excludeComponents: false };
    if (!isObject(item)) throw badRequest(`${at} must be a project id or an object with an id`);
    if (typeof item.id !== 'string' || item.id === '') throw badRequest(`${at}.id must be a non-empty string`);
    for (const key of ['name', 'fileName', 'status', 'url']) optional(item, key, 'string', at);
    optional(item, 'exclude_components', 'boolean', at);
    const fileName = (item.fileName ?? item.name ?? null) as string | null;
    return {
      id: item.id,
      fileName: fileName === '' ? null : fileName,
      excludeComponents: item.exclude_components === true,
    };
  });
}

function parseFolder(item: unknown, at: string): string | null {
  if (typeof item === 'string') return item === ROOT_FOLDER_ID ? null : item;
  if (!isObject(item) || !('id' in item)) throw badRequest(`${at} must be a folder id or an object with an id`);
  if (item.id !== null && typeof item.id !== 'string') throw badRequest(`${at}.id must be string or null`);
  optional(item, 'name', 'string', at);
  optional(item, 'status', 'string', at);
  return item.id === null || item.id === ROOT_FOLDER_ID ? null : item.id;
}

export function parseLegacyComponents(value: unknown, maxFolders: number): LegacyComponents {
  if (value === undefined || value === null || value === false) return null;
  if (value === true) return { folders: null, root: null };
  if (!isObject(value)) throw badRequest('components must be true, false or an object with folders and root');
  for (const key of Object.keys(value)) {
    if (key !== 'folders' && key !== 'root') throw badRequest(`components.${key} is not a known field`);
  }
  let folders: (string | null)[] | null = null;
  if (value.folders !== undefined && value.folders !== null) {
    if (!Array.isArray(value.folders)) throw badRequest('components.folders must be array');
    if (value.folders.length > maxFolders) {
      throw badRequest(`components.folders must NOT have more than ${maxFolders} items`);
    }
    folders = value.folders.map((item, i) => parseFolder(item, `components.folders[${i}]`));
  }
  const root = value.root;
  if (root !== undefined && root !== null && typeof root !== 'boolean' && !isObject(root)) {
    throw badRequest('components.root must be boolean or an object');
  }
  // `root: { status }` means "the root, with this status": the root is wanted.
  return { folders, root: root === undefined || root === null ? null : root !== false };
}

/**
 * Which folder a component may sit in (row id, null for the root), from the client's rules:
 * listed folders hold the components directly in them (`folderRowIds`: the listed folders' row
 * ids, null for the root), plus the root when `root` is set; with no list, every component, or
 * only those in folders (`root: false`), or only the root (`root: true`).
 */
export function legacyFolderPredicate(
  root: boolean | null,
  folderRowIds: readonly (number | null)[] | null,
): (folderRowId: number | null) => boolean {
  if (folderRowIds === null) {
    if (root === null) return () => true;
    return root ? (id) => id === null : (id) => id !== null;
  }
  const allowed = new Set<number | null>(root ? [null, ...folderRowIds] : folderRowIds);
  return (id) => allowed.has(id);
}

/**
 * The table of a project as the 4.x client names its files: the name split at whitespace runs,
 * each part stripped of characters other than ASCII letters, digits, `-`, `_` and `.` and lower
 * cased, empty parts dropped, joined with `-`; the bundle step then keeps what comes before the
 * first `.` and before the first `__` (`Web App` -> `web-app`).
 */
export function legacyTableName(fileName: string): string {
  const cleaned = `${fileName}__base.strings`
    .split(/\s+/)
    .map((part) => part.replace(/[^a-zA-Z0-9\-_.]/g, '').toLowerCase())
    .filter((part) => part !== '')
    .join('-');
  return (cleaned.split('.')[0] ?? '').split('__')[0] ?? '';
}

/** The client's file name for a project it names twice: `Web`, `Web-1`, `Web-2`. */
export function dedupeName(name: string, taken: Set<string>): string {
  let candidate = name;
  while (taken.has(candidate)) {
    const match = /-(\d+)$/.exec(candidate);
    candidate = match ? `${candidate.slice(0, match.index)}-${Number(match[1]) + 1}` : `${candidate}-1`;
  }
  taken.add(candidate);
  return candidate;
}

/** The `.lproj` folders the 4.x client makes from its `iosLocales`, for the file's header. */
export function localeNotes(localeByVariantId: Readonly<Record<string, string>> | undefined): string[] {
  const locales = Object.entries(localeByVariantId ?? {});
  if (locales.length === 0) return [];
  const list = locales.map(([variant, locale]) => `${locale}.lproj (${variant === 'base' ? 'base text' : variant})`);
  return [`Locales (values of localeOverride): ${list.join(', ')}`];
}
