import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * On PostgreSQL, the database itself announces what servers may have cached, on the channel
 * `copydesk_changes`, from inside the writing transaction (so the message goes out exactly when
 * the change commits, and never for a rolled-back one):
 *
 * - `r:<workspace>:<revision>` when a workspace's content revision advances;
 * - `k` when a key is revoked, deleted or re-pointed, or a user or workspace behind keys changes
 *   or goes away.
 *
 * Triggers rather than application code, so a revocation made by any tool (an older server, the
 * CLI, plain SQL) reaches every server all the same. SQLite has no such channel and needs none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`
    create or replace function copydesk_notify_revision() returns trigger language plpgsql as $$
    begin
      perform pg_notify('copydesk_changes', 'r:' || new.id || ':' || new.revision);
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function copydesk_notify_keys() returns trigger language plpgsql as $$
    begin
      perform pg_notify('copydesk_changes', 'k');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger copydesk_revision_changed after update of revision on workspaces
    for each row when (new.revision is distinct from old.revision)
    execute function copydesk_notify_revision()`.execute(db);
  await sql`
    create trigger copydesk_workspace_deleted after delete on workspaces
    for each row execute function copydesk_notify_keys()`.execute(db);
  await sql`
    create trigger copydesk_key_changed after update of revoked_at, hash, workspace_id, user_id or delete
    on api_keys for each row execute function copydesk_notify_keys()`.execute(db);
  // Any column: users gain columns later (a role) that a key's lookup reads too.
  await sql`
    create trigger copydesk_user_changed after update or delete
    on users for each row execute function copydesk_notify_keys()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger if exists copydesk_user_changed on users`.execute(db);
  await sql`drop trigger if exists copydesk_key_changed on api_keys`.execute(db);
  await sql`drop trigger if exists copydesk_workspace_deleted on workspaces`.execute(db);
  await sql`drop trigger if exists copydesk_revision_changed on workspaces`.execute(db);
  await sql`drop function if exists copydesk_notify_keys()`.execute(db);
  await sql`drop function if exists copydesk_notify_revision()`.execute(db);
}
