import { type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Limits } from '../../config.js';
import { DEVELOPER_ID_PATTERN } from '../../http/schemas.js';
import { User } from '../../modules/accounts/users.routes.js';
import { Settings } from '../../modules/accounts/workspace.routes.js';
import { Block } from '../../modules/blocks/blocks.routes.js';
import { ComponentRecord } from '../../modules/components/index.js';
import { Folder } from '../../modules/folders/folders.routes.js';
import { Base } from '../../modules/projects/bases.routes.js';
import { Project } from '../../modules/projects/projects.routes.js';
import { Status } from '../../modules/statuses/statuses.routes.js';
import { StyleguideRecord } from '../../modules/styleguides/styleguides.schemas.js';
import { TextItemRecord } from '../../modules/text-items/text-items.schemas.js';
import { VARIABLE_TYPES, variableDataError, variableNameError } from '../../modules/variables/variable-data.js';
import { Variable } from '../../modules/variables/variables.routes.js';
import { Variant } from '../../modules/variants/variants.routes.js';
import { IdMap, IdSet } from './id-set.js';
import type { Snapshot, TextRecord } from './snapshot.types.js';
import { SourceError } from './source.js';

/**
 * A source is checked whole before anything is written: each record against the schema of the
 * GET that answered it (the same TypeBox schemas this server's own answers follow), then against
 * what the writes will need (ids usable as developer IDs, statuses and variants that exist,
 * lengths within this server's limits). A source that fails is refused with the record and field.
 *
 * Fields this server added to API v2 (a project's `developerMode`, a user's `role`, a text item's
 * `blockId`...) are optional here: a server that speaks only the published API does not send them.
 */
const optional = <T extends Record<string, TSchema>>(schema: { properties: T }, ...names: (keyof T)[]) => {
  const properties: Record<string, TSchema> = { ...schema.properties };
  for (const name of names) properties[name as string] = Type.Optional(schema.properties[name] as TSchema);
  return Type.Object(properties);
};

export const recordSchemas = {
  workspace: Compile(optional(Settings, 'baseLanguage', 'libraryDeveloperMode')),
  users: Compile(optional(User, 'role')),
  statuses: Compile(Status),
  variants: Compile(Variant),
  variables: Compile(Variable),
  folders: Compile(Folder),
  bases: Compile(Base),
  projects: Compile(optional(Project, 'baseId', 'developerMode')),
  blocks: Compile(Block),
  components: Compile(ComponentRecord),
  textItems: Compile(optional(TextItemRecord, 'blockId', 'componentId')),
  styleguides: Compile(StyleguideRecord),
};

export type RecordKind = keyof typeof recordSchemas;

/** `/tags/0` as `.tags[0]`. */
function fieldOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) =>
      /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`,
    )
    .join('');
}

/** The first problem of a record: `.tags` and "must be array", `.characterLimit` and "must be >= 1 or null". */
function problemOf(kind: RecordKind, value: unknown): { field: string; message: string } | undefined {
  const schema = recordSchemas[kind];
  if (schema.Check(value)) return undefined;
  const errors = [...schema.Errors(value)];
  const first = errors.find((e) => e.keyword !== 'anyOf') ?? errors[0];
  if (!first) return { field: '', message: 'does not match its schema' };
  if (first.keyword === 'required') {
    const missing = (first.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? '';
    return { field: `${fieldOf(first.instancePath)}${fieldOf(`/${missing}`)}`, message: 'is missing' };
  }
  const messages: string[] = [];
  for (const e of errors) {
    if (e.instancePath === first.instancePath && e.keyword !== 'anyOf' && !messages.includes(e.message)) {
      messages.push(e.message);
    }
  }
  const message = messages.map((m, i) => (i === 0 ? m : m.replace(/^must be /, ''))).join(' or ');
  return { field: fieldOf(first.instancePath), message };
}

const idOf = (value: unknown) =>
  value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
    ? ` (id ${JSON.stringify((value as { id: string }).id)})`
    : '';

/** Each element of a list against its record schema; the first failure is refused. */
export function checkList(request: string, kind: RecordKind, list: readonly unknown[]): void {
  for (let i = 0; i < list.length; i += 1) checkElement(request, kind, list[i], i);
}

/** One element of a list, `index` its position in the answer (a list read as it arrives). */
export function checkElement(request: string, kind: RecordKind, value: unknown, index: number): void {
  const problem = problemOf(kind, value);
  if (problem) {
    throw new SourceError(`source: ${request}: ${kind}[${index}]${idOf(value)}${problem.field}: ${problem.message}`);
  }
}

/** A record that is not a list element (`GET /workspace`). */
export function checkRecord(request: string, kind: RecordKind, value: unknown): void {
  const problem = problemOf(kind, value);
  if (problem) throw new SourceError(`source: ${request}: ${kind}${problem.field}: ${problem.message}`);
}

const developerId = new RegExp(DEVELOPER_ID_PATTERN);

/** The developer ID a text's records share (`welcome_one` is the `one` form of `welcome`). */
export const textIdOf = (r: Pick<TextRecord, 'id' | 'pluralForm'>) =>
  r.pluralForm !== null && r.id.endsWith(`_${r.pluralForm}`) ? r.id.slice(0, -r.pluralForm.length - 1) : r.id;

export interface WriteChecker {
  /**
   * One record of a text, as a page answered it; `container` is the project or base the page was
   * asked for. A text listed in two pages is refused, like a record listed twice in one.
   */
  text(kind: 'component' | 'text item', r: TextRecord, container?: string): void;
  /** Ends a page: a text of this page may not appear in a later one. */
  endPage(kind: 'component' | 'text item'): void;
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;

/**
 * What the writes need beyond each record's shape: references that resolve, ids and lengths this
 * server takes. The structure is checked at once; texts as their pages arrive.
 */
export function writeChecker(source: Snapshot, limits: Limits): WriteChecker {
  const refuse = (what: string, problem: string): never => {
    throw new SourceError(`source: ${what}: ${problem}`);
  };
  const ids = (what: string, list: readonly { id: string }[]) => {
    const seen = new Set<string>();
    for (const r of list) {
      if (!developerId.test(r.id)) refuse(`${what} ${JSON.stringify(r.id)}`, 'id: not a valid developer ID');
      if (seen.has(r.id)) refuse(`${what} ${JSON.stringify(r.id)}`, 'id: listed twice');
      seen.add(r.id);
    }
    return seen;
  };
  for (const u of source.users ?? []) {
    if (!EMAIL.test(u.email)) refuse(`user ${JSON.stringify(u.email)}`, 'email: not an email');
  }
  const statuses = new Set(source.statuses.map((s) => s.id));
  const variants = ids('variant', source.variants);
  const folders = ids('component folder', source.folders);
  ids('base', source.bases ?? []);
  ids('project', source.projects);
  for (const f of source.folders) {
    if (f.parentId !== null && !folders.has(f.parentId)) {
      refuse(
        `component folder ${JSON.stringify(f.id)}`,
        `parentId: ${JSON.stringify(f.parentId)} is not a folder of the source`,
      );
    }
  }
  for (const v of source.variables) {
    const what = `variable ${JSON.stringify(v.id)}`;
    const nameError = variableNameError(v.name, 'name');
    if (nameError) refuse(what, nameError);
    if (!(VARIABLE_TYPES as readonly string[]).includes(v.type)) {
      refuse(what, `type: ${JSON.stringify(v.type)} is not a variable type`);
    }
    const dataError = variableDataError(v.type as (typeof VARIABLE_TYPES)[number], v.data, 'data');
    if (dataError) refuse(what, dataError);
  }
  for (const [projectId, list] of source.blocks ?? []) ids(`block of project ${JSON.stringify(projectId)}:`, list);

  // The page each text was first seen in, by id; the records of this page, by text, the rest of
  // the record's id (`_one` of `welcome_one`) and variant. Both compact: an entry per text of the
  // workspace, and a key of about 10 bytes per record of the page being read.
  const variantNumbers = new Map(source.variants.map((v, i) => [v.id, i.toString(36)]));
  let pageNumber = 0;
  const records = new IdSet();
  const texts = { component: new IdMap(), 'text item': new IdMap() };
  return {
    endPage() {
      records.clear();
      pageNumber += 1;
    },
    text(kind, r, container) {
      const variant = r.variantId === null ? '' : ` (variant ${r.variantId})`;
      const what = `${kind} ${JSON.stringify(r.id)}${variant}`;
      const id = textIdOf(r);
      if (!developerId.test(id)) refuse(what, 'id: not a valid developer ID');
      const firstPage = texts[kind].get(id);
      if (firstPage === undefined) texts[kind].set(id, pageNumber);
      else if (firstPage !== pageNumber) refuse(what, 'listed twice');
      // The text's entry number stands for its id; `r.id` is the id and what follows it. A variant the
      // source does not have keeps its name (and is refused just below).
      const variantKey = r.variantId === null ? '' : (variantNumbers.get(r.variantId) ?? `?${r.variantId}`);
      const key = `${texts[kind].indexOf(id).toString(36)}\u0000${r.id.slice(id.length)}\u0000${variantKey}`;
      if (!records.add(key)) refuse(what, 'listed twice');
      if (r.variantId !== null && !variants.has(r.variantId)) {
        refuse(what, `variantId: ${JSON.stringify(r.variantId)} is not a variant of the source`);
      }
      if (!statuses.has(r.status)) refuse(what, `status: ${JSON.stringify(r.status)} is not a status of the source`);
      if (r.text.length > limits.textChars) {
        refuse(what, `text: longer than ${limits.textChars} characters (LIMIT_TEXT_CHARS)`);
      }
      if (r.notes.length > limits.notesChars) {
        refuse(what, `notes: longer than ${limits.notesChars} characters (LIMIT_NOTES_CHARS)`);
      }
      for (const tag of r.tags) {
        if (tag.length > limits.tagChars) {
          refuse(what, `tags: ${JSON.stringify(tag.slice(0, 40))} is longer than ${limits.tagChars} characters`);
        }
      }
      if (r.assignee !== null && !EMAIL.test(r.assignee)) {
        refuse(what, `assignee: ${JSON.stringify(r.assignee)} is not an email`);
      }
      if (kind === 'component' && r.folderId != null && !folders.has(r.folderId)) {
        refuse(what, `folderId: ${JSON.stringify(r.folderId)} is not a folder of the source`);
      }
      if (kind === 'text item' && r.projectId !== container) {
        refuse(what, `projectId: ${JSON.stringify(r.projectId)}, in the answer for ${JSON.stringify(container)}`);
      }
    },
  };
}
