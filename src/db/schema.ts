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

/** From most to least: an admin may do all an editor may, an editor all a commenter may, and so on. */
export type Role = 'admin' | 'editor' | 'commenter' | 'viewer';

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

/** A comment on a text (docs/comments.md); the thread's first comment holds its resolution. */
export interface CommentsTable {
  id: Id;
  workspace_id: number;
  /** The comment's id in the API: generated, kept by backups (row ids are not). */
  developer_id: string;
  /** Row id of the thread's first comment; null on that comment. */
  thread_id: number | null;
  record_kind: 'component' | 'text_item';
  /** Row id of the text (no foreign key: a deleted text's threads stay). */
  text_id: number | null;
  /** The text's developer ID when the comment was written, and its last one once it is deleted. */
  record_developer_id: string;
  record_deleted: Defaulted<Bool>;
  /** Row id of a text item's project (text items never change project). */
  project_id: number | null;
  variant_id: number | null;
  variant_developer_id: string | null;
  /** Row id of the author (no foreign key: a removed user's comments stay). */
  author_id: number | null;
  author_email: string;
  body: string;
  /** JSON array of the mentioned users' emails. */
  mentions: Defaulted<Json>;
  range_start: number | null;
  range_end: number | null;
  range_quote: string | null;
  created_at: Timestamp;
  edited_at: Timestamp | null;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
}

/** Who each comment mentions, for "mentions me"; derived from `comments.mentions`. */
export interface CommentMentionsTable {
  comment_id: number;
  workspace_id: number;
  email: string;
}

/** A proposed change to a text's content (docs/suggestions.md). */
export interface SuggestionsTable {
  id: Id;
  workspace_id: number;
  /** The suggestion's id in the API: generated, kept by backups (row ids are not). */
  developer_id: string;
  record_kind: 'component' | 'text_item';
  /** Row id of the text (no foreign key: a deleted text's suggestions stay, `obsolete`). */
  text_id: number | null;
  /** The text's developer ID when suggested, and its last one once it is deleted. */
  record_developer_id: string;
  /** Row id of a text item's project. */
  project_id: number | null;
  variant_id: number | null;
  variant_developer_id: string | null;
  author_id: number | null;
  author_email: string;
  note: string | null;
  /** 1 when the proposed text and plural forms are HTML (`richText: "html"`). */
  rich_text: Defaulted<Bool>;
  /** The proposed text as sent, null when only plural forms are proposed. */
  proposed_text: string | null;
  /** JSON array of the proposed plural forms as sent, null when they are not proposed. */
  proposed_plurals: Json | null;
  /** The text's ETag when suggested (or rebased): what an accept sends as If-Match. */
  base_etag: string;
  /** The content suggested against; text null for a variant value the text did not have. */
  base_text: string | null;
  base_rich_text: string | null;
  base_plurals: Json | null;
  status: 'open' | 'stale' | 'accepted' | 'rejected' | 'withdrawn' | 'obsolete';
  created_at: Timestamp;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_note: string | null;
}

/** One notification of one user (docs/notifications.md). */
export interface NotificationsTable {
  id: Id;
  workspace_id: number;
  user_id: number;
  /** `mention`, `reply`, `assigned`, `suggestion` or `status`. */
  kind: string;
  record_kind: 'component' | 'text_item';
  /** Row id of the text (no foreign key: a notification outlives a deleted text). */
  text_id: number | null;
  /** The text's developer ID when the notification was made. */
  record_developer_id: string;
  project_developer_id: string | null;
  variant_developer_id: string | null;
  /** The comment thread's and the comment's ids (`cm_...`), for mentions and replies. */
  thread_id: string | null;
  comment_id: string | null;
  /** Who made the change (an email). */
  actor: string;
  /** JSON of what the kind adds (a status change's `from` and `to`, a suggestion's id). */
  detail: string | null;
  at: Timestamp;
  read_at: Timestamp | null;
}

/** A user following a text: told of its status changes. */
export interface FollowsTable {
  id: Id;
  workspace_id: number;
  user_id: number;
  record_kind: 'component' | 'text_item';
  text_id: number;
  /** `created`, `assigned` or `explicit`. */
  reason: string;
  created_at: Timestamp;
}

/** One email to send; the `pending` ones are the mail worker's queue (see docs/email.md). */
export interface EmailOutboxTable {
  id: Id;
  workspace_id: number;
  /** Whose preference the email follows and whose unsubscribe link it carries. */
  user_id: number | null;
  kind: string;
  to_address: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  /** Made when the email is queued: every try sends the same one. */
  message_id: string;
  unsubscribe_url: string | null;
  /**
   * `pending`, `sent`, `failed`, `suppressed` (the recipient turned email off meanwhile), `held`
   * (waits for the user's daily digest until `due_at`) or `digested` (went into a digest).
   */
  state: string;
  attempts: Defaulted<number>;
  due_at: Timestamp;
  lease_until: Timestamp | null;
  claimed_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface EmailPreferencesTable {
  user_id: number;
  /** `instant`, `daily` or `off`; a user without a row gets `instant`. */
  mode: string;
  updated_at: Timestamp;
}

/** One row: the key that signs unsubscribe links. */
export interface EmailSigningKeyTable {
  id: number;
  key: string;
}

/** One distinct JSON document of a workspace's releases, by its SHA-256 (docs/releases.md). */
export interface ReleaseContentsTable {
  id: Id;
  workspace_id: number;
  /** Hex SHA-256 of `body`. */
  hash: string;
  body: string;
}

/** A named, immutable set of frozen texts (docs/releases.md). */
export interface ReleasesTable {
  id: Id;
  workspace_id: number;
  name: string;
  /** JSON of the filter the texts were selected with. */
  filter: Json;
  /** The document of the workspace as the texts refer to it (`release_contents.hash`). */
  basis_hash: string;
  /** Hex SHA-256 over the basis and every text's hash, in order: the release's content. */
  content_hash: string;
  components: number;
  text_items: number;
  /** Email of the user (or the key's user) who made it. */
  created_by: string;
  created_at: Timestamp;
}

/** The texts of a release, in response order: each a `release_contents` document. */
export interface ReleaseTextsTable {
  release_id: number;
  seq: number;
  kind: 'component' | 'text_item';
  hash: string;
}

/** A project's pinned release (docs/releases.md#pins). */
export interface ReleasePinsTable {
  project_id: number;
  workspace_id: number;
  release_id: number;
  /** Email of the user (or the key's user) who pinned it. */
  pinned_by: string;
  pinned_at: Timestamp;
}

/** A read-only delivery token and the release published to it (docs/releases.md#delivery). */
export interface DistributionsTable {
  id: Id;
  workspace_id: number;
  name: string;
  /** Hex SHA-256 of the token; the token itself is shown once. */
  token_hash: string;
  /** JSON array of project developer IDs (`components` for the library). */
  projects: Json;
  /** JSON array of format names. */
  formats: Json;
  /** The release `latest` serves; null until one is published. */
  release_id: number | null;
  published_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
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
  comments: CommentsTable;
  comment_mentions: CommentMentionsTable;
  suggestions: SuggestionsTable;
  notifications: NotificationsTable;
  follows: FollowsTable;
  email_outbox: EmailOutboxTable;
  email_preferences: EmailPreferencesTable;
  email_signing_key: EmailSigningKeyTable;
  mt_providers: MtProvidersTable;
  mt_jobs: MtJobsTable;
  mt_job_items: MtJobItemsTable;
  release_contents: ReleaseContentsTable;
  releases: ReleasesTable;
  release_texts: ReleaseTextsTable;
  distributions: DistributionsTable;
  release_pins: ReleasePinsTable;
  presence: PresenceTable;
}

/** A machine translation provider an admin configured (docs/machine-translation.md). */
export interface MtProvidersTable {
  id: Id;
  workspace_id: number;
  developer_id: string;
  name: string;
  /** `deepl`, `libretranslate` or `openai` (any OpenAI-compatible chat-completions server). */
  kind: string;
  /** The base URL: the only address requests go to. */
  url: string;
  model: string | null;
  /** The credential as `webhooks.secret.ts` seals it (never returned by the API). */
  api_key: string | null;
  api_key_last_four: string | null;
  /** The admin allowed a loopback or private address (also needs MT_ALLOW_PRIVATE_NETWORKS). */
  private_network: Defaulted<Bool>;
  requests_per_minute: number;
  concurrency: number;
  timeout_ms: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A translate-missing job; `queued` and `running` ones are the workers' queue. */
export interface MtJobsTable {
  id: Id;
  workspace_id: number;
  developer_id: string;
  provider_id: number | null;
  variant_id: number | null;
  variant_developer_id: string;
  /** `project`, `folder` or `workspace`, and the project's or folder's developer ID. */
  scope_kind: string;
  scope_id: string | null;
  include_outdated: Defaulted<Bool>;
  /** `suggestion` or `wip`. */
  land_as: string;
  overwrite: Defaulted<Bool>;
  /** `queued`, `running`, `done`, `canceled` or `failed`. */
  state: string;
  total: Defaulted<number>;
  error: string | null;
  created_by: string;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  lease_until: Timestamp | null;
  claimed_by: string | null;
}

/** One text of a job: `pending`, then `done`, `failed` or `skipped`. */
export interface MtJobItemsTable {
  id: Id;
  job_id: number;
  text_id: number | null;
  record_kind: 'component' | 'text_item';
  state: string;
  over_limit: Defaulted<Bool>;
  error: string | null;
}

/** Who has which text open, one row per browser tab of a user (docs/events.md#presence). */
export interface PresenceTable {
  workspace_id: number;
  email: string;
  /** The tab's own random id, so two tabs of one person are two rows. */
  client_id: string;
  record_kind: string;
  developer_id: string;
  /** Milliseconds since the epoch; the row counts only until then. */
  expires_at: number;
}

/** What a repository takes as its first argument: the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

// The row types (`Selectable<...Table>`) are declared by the module that owns each table, in its
// repository, and stay in that module: other modules get its domain types.
