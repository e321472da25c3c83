/**
 * The change log's vocabulary. Every write records, in its own transaction, one `Change` per
 * record it touched: who, which record, the action and each changed field before and after.
 * History, webhooks and cache invalidation all read this one log.
 */

export const CHANGE_KINDS = [
  'textItem',
  'component',
  'variant',
  'variable',
  'folder',
  'project',
  'base',
  'block',
  'styleGuide',
  'statuses',
  'workspace',
  'user',
  'webhook',
  'comment',
  'suggestion',
  'distribution',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * `resolved` and `reopened`: a comment thread's (docs/comments.md); `accepted`, `rejected` and
 * `withdrawn`: a suggestion's (docs/suggestions.md).
 */
export const CHANGE_ACTIONS = [
  'created',
  'updated',
  'deleted',
  'published',
  'renamed',
  'moved',
  'resolved',
  'reopened',
  'accepted',
  'rejected',
  'withdrawn',
] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** Who made a write: a key's user (with the key id), a web session's user (no key), or the CLI. */
export interface Actor {
  email: string;
  keyId: string | null;
}

/** The administrator's command-line tool, which acts without a key or session. */
export const CLI_ACTOR: Actor = { email: 'cli', keyId: null };

/** The workspace a write changes and who makes it. */
export interface WriteScope {
  workspaceId: number;
  actor: Actor;
  /**
   * Told, once a write of this scope committed a change, the workspace revision it made (the HTTP
   * layer answers it as `Copydesk-Revision`). Not called for a write that changed nothing.
   */
  onCommitted?: (revision: number) => void;
}

export interface FieldChange {
  before: unknown;
  after: unknown;
}

export type FieldChanges = Record<string, FieldChange>;

export interface Change {
  kind: ChangeKind;
  /**
   * The record's stable identity (`component:42`): unchanged by renames, kept after deletion, so
   * a record's history can be followed across both. Variant values share their text's ref.
   */
  ref: string;
  developerId: string;
  /** Developer ID of the variant when the change is to a variant value, else null. */
  variantId: string | null;
  action: ChangeAction;
  fields: FieldChanges;
}

/** A change as history returns it. */
export interface RecordedChange extends Omit<Change, 'ref'> {
  id: string;
  at: string;
  actor: string;
  keyId: string | null;
  /** The workspace revision the write made (shared by all its changes); null before it was recorded. */
  revision: string | null;
}
