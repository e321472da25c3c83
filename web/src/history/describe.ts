/**
 * History in a writer's words (pure): what a field is called, a value as text (rich text as its
 * words, never markup or JSON), and one sentence for all the changes of one write.
 */

export interface Change {
  id: string;
  at: string;
  actor: string;
  kind: string;
  developerId: string;
  variantId: string | null;
  action: string;
  fields: Record<string, { before: unknown; after: unknown }>;
  /** The write that made it; every change of one write shares it (null for older changes). */
  revision?: string | null;
}

/** The changes of one write, newest first as the log is. */
export interface Entry {
  key: string;
  revision: string | null;
  at: string;
  actor: string;
  changes: Change[];
  /** The records the write changed, each with its changes, in log order. */
  records: { kind: string; developerId: string; changes: Change[] }[];
}

export const KINDS: Record<string, [string, string]> = {
  textItem: ['text item', 'text items'],
  component: ['component', 'components'],
  folder: ['folder', 'folders'],
  project: ['project', 'projects'],
  block: ['block', 'blocks'],
  variant: ['variant', 'variants'],
  variable: ['variable', 'variables'],
  base: ['base', 'bases'],
  styleGuide: ['style guide', 'style guides'],
  statuses: ['workflow', 'workflows'],
  workspace: ['workspace', 'workspaces'],
  user: ['user', 'users'],
  webhook: ['webhook', 'webhooks'],
};

/** The kinds whose records "Restore this version" brings back. */
export const RESTORABLE = new Set(['textItem', 'component', 'folder', 'block', 'project']);

export const kindName = (kind: string, count = 1) => KINDS[kind]?.[count === 1 ? 0 : 1] ?? kind;

const FIELD_NAMES: Record<string, string> = {
  text: 'Text',
  richText: 'Text',
  notes: 'Notes',
  status: 'Status',
  tags: 'Tags',
  assignee: 'Assignee',
  characterLimit: 'Character limit',
  integrated: 'Integrated',
  plurals: 'Plural forms',
  variableIds: 'Variables',
  blockId: 'Block',
  folderId: 'Folder',
  projectId: 'Project',
  parentId: 'Parent folder',
  componentId: 'Component',
  developerId: 'Developer ID',
  name: 'Name',
  description: 'Description',
  localeCode: 'Locale',
  position: 'Position',
};

export function fieldName(field: string): string {
  const known = FIELD_NAMES[field];
  if (known) return known;
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const VERBS: Record<string, string> = {
  created: 'created',
  updated: 'changed',
  deleted: 'deleted',
  renamed: 'renamed',
  moved: 'moved',
  published: 'published',
};
export const verb = (action: string) => VERBS[action] ?? action;

/** The browser's DOMParser, typed here so that this file also compiles where there is no DOM. */
interface BrowserParser {
  DOMParser: new () => {
    parseFromString(
      html: string,
      type: 'text/html',
    ): {
      body: {
        textContent: string | null;
        querySelectorAll(selector: string): ArrayLike<{ replaceWith(text: string): void; append(text: string): void }>;
      };
    };
  };
}

/** The words of an HTML fragment of the rich-text subset: parsed, never rendered as markup. */
export function htmlToText(html: string): string {
  const doc = new (globalThis as unknown as BrowserParser).DOMParser().parseFromString(html, 'text/html');
  for (const br of Array.from(doc.body.querySelectorAll('br'))) br.replaceWith('\n');
  for (const p of Array.from(doc.body.querySelectorAll('p'))) p.append('\n');
  return (doc.body.textContent ?? '').replace(/\n$/, '');
}

/** A value as a writer reads it: "none", "Yes", names rather than ids, lists joined. */
export function valueText(value: unknown, names: ReadonlyMap<string, string> = new Map()): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return names.get(value) ?? value;
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    return value.map((v) => valueText(v, names)).join(', ');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.form === 'string' && 'text' in record) return `${record.form}: ${textOf(record)}`;
    return Object.entries(record)
      .map(([k, v]) => `${fieldName(k)}: ${valueText(v, names)}`)
      .join('; ');
  }
  return String(value);
}

/** The words of a text value: its rich text's words when it has markup, else its text. */
function textOf(record: Record<string, unknown>): string {
  if (typeof record.richText === 'string' && record.richText) return htmlToText(record.richText);
  return typeof record.text === 'string' ? record.text : '';
}

/** Plural forms as `form -> words`. */
export function pluralForms(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(value)) return out;
  for (const p of value) {
    if (p && typeof p === 'object' && typeof (p as { form?: unknown }).form === 'string') {
      out.set((p as { form: string }).form, textOf(p as Record<string, unknown>));
    }
  }
  return out;
}

/** Consecutive changes of one write become one entry; older changes without a write stay alone. */
export function groupChanges(changes: readonly Change[]): Entry[] {
  const entries: Entry[] = [];
  for (const change of changes) {
    const revision = change.revision ?? null;
    const last = entries[entries.length - 1];
    let entry = last && revision !== null && last.revision === revision ? last : undefined;
    if (!entry) {
      entry = { key: change.id, revision, at: change.at, actor: change.actor, changes: [], records: [] };
      entries.push(entry);
    }
    entry.changes.push(change);
    const record = entry.records.find((r) => r.kind === change.kind && r.developerId === change.developerId);
    if (record) record.changes.push(change);
    else entry.records.push({ kind: change.kind, developerId: change.developerId, changes: [change] });
  }
  return entries;
}

/**
 * Who suggested the text each accept wrote, by revision. Accepting a suggestion is one write: the
 * text's change (by the accepter) and the suggestion's `accepted` change, which names its author
 * in `suggestedBy`, share the write's revision.
 */
export function acceptedSuggestions(changes: readonly Change[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of changes) {
    const by = c.fields.suggestedBy?.after;
    if (c.kind === 'suggestion' && c.action === 'accepted' && c.revision && typeof by === 'string') {
      out.set(c.revision, by);
    }
  }
  return out;
}

/**
 * What a write did to one record, the words after the actor: "changed", "created and deleted",
 * or, for a text changed by accepting a suggestion, "accepted ann@example.com's suggestion on".
 */
export function recordVerb(
  record: { changes: readonly Change[] },
  suggestions: ReadonlyMap<string, string> = new Map(),
): string {
  const revision = record.changes[0]?.revision;
  const suggester = revision ? suggestions.get(revision) : undefined;
  if (suggester !== undefined && record.changes.every((c) => c.action === 'updated')) {
    return `accepted ${suggester}'s suggestion on`;
  }
  return [...new Set(record.changes.map((c) => c.action))].map(verb).join(' and ');
}

const joinWords = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;

/** One sentence for a write of several records: "changed the status of 50 text items". */
export function summary(entry: Entry): string {
  // An accept: the text it wrote and the suggestion it decided, said as one act.
  const suggester = acceptedSuggestions(entry.changes).get(entry.revision ?? '');
  const texts = entry.records.filter((r) => r.kind !== 'suggestion');
  if (suggester !== undefined && texts.length === 1 && texts[0]) {
    return `accepted ${suggester}'s suggestion on ${kindName(texts[0].kind)} ${texts[0].developerId}`;
  }
  const count = entry.records.length;
  const kinds = new Set(entry.records.map((r) => r.kind));
  const what = kinds.size === 1 ? `${count} ${kindName([...kinds][0] ?? '', count)}` : `${count} records`;
  const actions = new Set(entry.changes.map((c) => c.action));
  if (actions.size === 1) {
    const action = [...actions][0] ?? '';
    if (action === 'updated') {
      const fields = [...new Set(entry.changes.flatMap((c) => Object.keys(c.fields)))]
        .filter((f) => !(f === 'richText' && entry.changes.some((c) => 'text' in c.fields)))
        .map((f) => fieldName(f).toLowerCase());
      const unique = [...new Set(fields)];
      if (unique.length > 0 && unique.length <= 3) return `changed the ${joinWords(unique)} of ${what}`;
    }
    return `${verb(action)} ${what}`;
  }
  return `changed ${what}`;
}
