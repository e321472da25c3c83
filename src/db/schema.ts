import type { Kysely, Transaction } from 'kysely';
import type { Bool, Defaulted, Id, Json, Timestamp } from './schema.columns.js';
import type { TextsTable, TextVariablesTable, TextVariantsTable } from './schema.texts.js';

/**
 * The tables as Kysely sees them. Booleans are stored as 0/1 and JSON as text on both databases,
 * so that rows read the same on SQLite and PostgreSQL (see docs/storage.md).
 */

export type { Bool, Defaulted, Id, Json, Timestamp } from './schema.columns.js';

export interface WorkspacesTable {
  id: Id;
  name: string;
  base_language: Defaulted<string>;
  sup_sub_enabled: Defaulted<Bool>;
  /** The deprecated v0 and v1 APIs may reach the component library. */
  library_developer_mode: Defaulted<Bool>;
  /** Advanced in the transaction of every content write; the basis of ETags. */
  revision: Defaulted<number>;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Id;
  workspace_id: number;
  email: string;
  name: string;
  /** What the user may do, through a session or any of their keys. */
  role: Defaulted<Role>;
  /** `scrypt$N$r$p$salt$hash`; null until the user follows a password link. */
  password_hash: Defaulted<string | null>;
  created_at: Timestamp;
}

export type Role = 'admin' | 'editor' | 'viewer';

export interface SessionsTable {
  /** SHA-256 of the cookie's value. */
  id: string;
  user_id: number;
  csrf_token: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** One-time links that let a user set a password (the first admin's, and invitations). */
export interface PasswordLinksTable {
  /** SHA-256 of the link's token. */
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: number;
  user_id: number;
  name: string;
  /** The first characters of the key, for display; never enough to use it. */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface StatusesTable {
  workspace_id: number;
  status_key: string;
  name: string;
  position: number;
}

export interface VariantsTable {
  id: Id;
  workspace_id: number;
  developer_id: string;
  name: string;
  description: Defaulted<string>;
  locale_code: string | null;
  created_at: Timestamp;
}

export interface VariablesTable {
  id: Id;
  workspace_id: number;
  /** The developer ID of a variable is its name. */
  name: string;
  type: 'string' | 'number' | 'hyperlink' | 'list' | 'map';
  data: Json;
  created_at: Timestamp;
}

export interface ComponentFoldersTable {
  id: Id;
  workspace_id: number;
  developer_id: string;
  name: string;
  parent_id: number | null;
  created_at: Timestamp;
}

/** Projects and bases share one table: both are containers of text items. */
export interface ProjectsTable {
  id: Id;
  workspace_id: number;
  kind: 'project' | 'base';
  developer_id: string;
  name: string;
  base_id: number | null;
  developer_mode: Defaulted<Bool>;
  created_at: Timestamp;
}

export interface BlocksTable {
  id: Id;
  workspace_id: number;
  project_id: number;
  developer_id: string;
  name: string;
  position: number;
}

/** A plural form as stored in the `plurals` JSON of a text or a variant value. */
export interface StoredPlural {
  form: PluralForm;
  text: string;
  richText?: string | null;
}

export type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

export interface StyleguidesTable {
  id: Id;
  workspace_id: number;
  developer_id: string;
  name: string;
  description: Defaulted<string>;
  enabled_by_default: Defaulted<Bool>;
  variant_id: number | null;
  created_at: Timestamp;
}

export interface StyleguideSectionsTable {
  id: Id;
  styleguide_id: number;
  section_id: string;
  kind: 'rules' | 'wordlist';
  name: string;
  position: number;
}

export interface StyleguideRulesTable {
  id: Id;
  styleguide_id: number;
  section_id: number;
  developer_id: string;
  name: string;
  description: Defaulted<string>;
  /** JSON: `{ before, after }` pairs. */
  examples: Defaulted<Json>;
  /** A built-in check name, `regex`, or null for a rule without a machine check. */
  check_kind: string | null;
  /** JSON: the check's settings (pattern, flags, message, limit ...). */
  check_config: Json | null;
  position: number;
}

export interface StyleguideTermsTable {
  id: Id;
  styleguide_id: number;
  section_id: number;
  developer_id: string;
  preferred: string;
  /** JSON array of the terms this one replaces. */
  replaces: Defaulted<Json>;
  case_sensitive: Defaulted<Bool>;
  note: Defaulted<string>;
  position: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** The change log: one row per record changed by a write, written in the write's transaction. */
export interface ChangesTable {
  id: Id;
  workspace_id: number;
  at: Timestamp;
  actor: string;
  key_id: string | null;
  kind: string;
  /** Stable identity of the record (`component:42`), unchanged by renames and deletes. */
  record_ref: string;
  developer_id: string;
  variant_id: string | null;
  action: string;
  /** JSON object: field name -> { before, after }. */
  fields: Json;
  /** The workspace revision the write made (null for rows written before it was recorded). */
  revision: number | null;
}

export interface WebhooksTable {
  id: Id;
  workspace_id: number;
  developer_id: string;
  name: string;
  url: string;
  /** JSON array of event names, or `["*"]`. */
  events: Json;
  enabled: Defaulted<Bool>;
  disabled_reason: string | null;
  /** When the first of an unbroken run of failed attempts happened; null after a success. */
  failing_since: Timestamp | null;
  created_at: Timestamp;
}

export interface WebhookSigningKeysTable {
  workspace_id: number;
  /** `plain:<key>` or `aes-256-gcm:<iv>:<tag>:<ciphertext>` (base64), see webhooks.secret.ts. */
  stored: string;
  last_four: string;
  updated_at: Timestamp;
}

/** The outbox: one row per event, written in the change's transaction. `id` is its sequence. */
export interface WebhookEventsTable {
  id: Id;
  workspace_id: number;
  uuid: string;
  name: string;
  at: Timestamp;
  actor: string;
  /** JSON array of the changes, exactly as the body carries them. */
  changes: Json;
}

export interface WebhookDeliveriesTable {
  id: Id;
  workspace_id: number;
  event_id: number;
  webhook_id: number;
  state: string;
  created_at: Timestamp;
}

/** Every attempt of a delivery; the `pending` ones are the worker's queue. */
export interface WebhookAttemptsTable {
  id: Id;
  workspace_id: number;
  delivery_id: number;
  attempt: number;
  state: string;
  due_at: Timestamp;
  lease_until: Timestamp | null;
  claimed_by: string | null;
  request_id: string | null;
  sent_at: Timestamp | null;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  next_attempt_at: Timestamp | null;
  response_body: string | null;
}

export interface Database {
  workspaces: WorkspacesTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  password_links: PasswordLinksTable;
  statuses: StatusesTable;
  variants: VariantsTable;
  variables: VariablesTable;
  component_folders: ComponentFoldersTable;
  projects: ProjectsTable;
  blocks: BlocksTable;
  texts: TextsTable;
  text_variants: TextVariantsTable;
  text_variables: TextVariablesTable;
  styleguides: StyleguidesTable;
  styleguide_sections: StyleguideSectionsTable;
  styleguide_rules: StyleguideRulesTable;
  styleguide_terms: StyleguideTermsTable;
  meta: MetaTable;
  changes: ChangesTable;
  webhooks: WebhooksTable;
  webhook_signing_keys: WebhookSigningKeysTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** What a repository takes as its first argument: the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

// The row types (`Selectable<...Table>`) are declared by the module that owns each table, in its
// repository, and stay in that module: other modules get its domain types.
