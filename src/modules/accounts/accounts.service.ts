import type { Kysely, Transaction } from 'kysely';
import type { ChangeEvents } from '../../db/change-feed.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor, Role } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { Actor, WritePath } from '../changes/index.js';
import { type Change, CLI_ACTOR, changeOf } from '../changes/index.js';
import type { StatusesService } from '../statuses/statuses.service.js';
import type { StyleguideHooks } from '../styleguides/styleguides.service.js';
import * as repo from './accounts.repository.js';
import { displayPrefix, generateKey, generateKeyId, hashKey } from './keys.js';
import { PrincipalCache } from './principal-cache.js';

export interface Principal {
  workspaceId: number;
  userId: number;
  /** The user's email: who the change log says made a write. */
  email: string;
  /** The key the request came with; null for a signed-in person's session. */
  keyId: string | null;
  /** What the user may do, whether through a key or a session. */
  role: Role;
  /** The workspace's content revision when the request was authenticated. */
  revision: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** How often a key's `last_used_at` is written at most; reads stay reads. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;
const MAX_MEMOISED_KEYS = 10_000;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The email of each user of the workspace, by user id. */
export async function userEmails(executor: Executor, workspaceId: number): Promise<Map<number, string>> {
  const rows = await repo.listUsers(executor, workspaceId);
  return new Map(rows.map((row) => [row.id, row.email]));
}

export interface AccountsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** What a new workspace starts with, from the modules that own it. */
  statuses: Pick<StatusesService, 'seedDefaults'>;
  styleguides: Pick<StyleguideHooks, 'seedWorkspace'>;
  /** See DatabaseHandle.changeToken: when given, key lookups are memoised until the next write. */
  changeToken?: () => Promise<string | null> | null;
}

export function createAccountsService(deps: AccountsDeps) {
  const { db, writes, statuses, changeToken = () => null } = deps;
  const lookups = new Map<string, { token: string; row: repo.ActiveKey | undefined }>();
  const principals = new PrincipalCache();
  // This process's own write is seen by its next request even before the database announces it.
  writes.afterCommit((workspaceId, revision) => principals.revision(workspaceId, revision));

  async function requireWorkspace(workspaceId: number) {
    const workspace = Number.isInteger(workspaceId) ? await repo.findWorkspace(db, workspaceId) : undefined;
    if (!workspace) throw notFound(`Workspace ${workspaceId} not found`);
    return workspace;
  }

  async function createWorkspace(name: string): Promise<{ id: number }> {
    if (!name.trim()) throw badRequest('name: must not be empty');
    return db.transaction().execute(async (trx) => {
      const createdAt = now();
      const id = await repo.insertWorkspace(trx, name.trim(), createdAt);
      await statuses.seedDefaults(trx, id);
      await deps.styleguides.seedWorkspace(trx, id);
      return { id };
    });
  }

  /**
   * Users are the valid assignees, so adding one is a content change: it goes through the write
   * path and the change log records it, made by the administrator's tool (the CLI, or the first
   * start), with the email as the user's developer ID.
   */
  async function createUser(input: {
    workspaceId: number;
    email: string;
    name?: string;
    role?: Role;
    actor?: Actor;
    /** More to write in the same transaction, once the user exists (an invitation's link and email). */
    alsoWrite?: (trx: Transaction<Database>, user: { id: number; email: string; role: Role }) => Promise<void>;
  }) {
    const { workspaceId, role = 'editor', actor = CLI_ACTOR } = input;
    await requireWorkspace(workspaceId);
    const email = normaliseEmail(input.email);
    if (!EMAIL.test(email)) throw badRequest(`email: '${input.email}' is not an email address`);
    const name = input.name?.trim() || email.split('@')[0] || email;
    try {
      await writes.write({ workspaceId, actor }, async (trx) => {
        const id = await repo.insertUser(trx, { workspaceId, email, name, role, createdAt: now() });
        await input.alsoWrite?.(trx, { id, email, role });
        const identity = { kind: 'user' as const, ref: `user:${id}`, developerId: email };
        return { changes: [changeOf(identity, null, { email, name, role }) as Change], result: undefined };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`User ${email} already exists in workspace`);
      throw error;
    }
    return { email, role };
  }

  async function createKey(input: { workspaceId: number; email: string; name?: string }) {
    await requireWorkspace(input.workspaceId);
    const email = normaliseEmail(input.email);
    const user = await repo.findUserByEmail(db, input.workspaceId, email);
    if (!user) throw notFound(`User ${email} not found in workspace ${input.workspaceId}`);
    const key = generateKey();
    const id = generateKeyId();
    await repo.insertKey(db, {
      id,
      workspace_id: input.workspaceId,
      user_id: user.id,
      name: input.name?.trim() || 'API key',
      prefix: displayPrefix(key),
      hash: hashKey(key),
      created_at: now(),
      last_used_at: null,
      revoked_at: null,
    });
    return { id, key };
  }

  async function listKeys(workspaceId: number, email?: string) {
    await requireWorkspace(workspaceId);
    const rows = (await repo.listKeys(db, workspaceId)).filter((row) => email === undefined || row.email === email);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      email: row.email,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    }));
  }

  async function revokeKey(keyId: string): Promise<void> {
    const key = await repo.findKey(db, keyId);
    if (!key) throw notFound(`Key ${keyId} not found`);
    if (key.revoked_at === null) await repo.revokeKey(db, keyId, now());
    forgetKeys();
  }

  /** Other processes hear of a revocation from the database; this one need not wait for that. */
  function forgetKeys(): void {
    principals.keys();
    lookups.clear();
  }

  /** Revokes a key of the principal's workspace: their own, or anyone's for an admin. */
  async function revokeKeyOf(principal: Principal, keyId: string): Promise<void> {
    const key = (await repo.listKeys(db, principal.workspaceId)).find((row) => row.id === keyId);
    if (!key) throw notFound(`Key ${keyId} not found`);
    if (key.email !== principal.email && principal.role !== 'admin') {
      throw forbidden(`Key ${keyId} belongs to another user: only an admin may revoke it`);
    }
    if (key.revoked_at === null) await repo.revokeKey(db, keyId, now());
    forgetKeys();
  }

  /**
   * The key's principal and its workspace's revision. Where the database offers a change token
   * (SQLite), the lookup is reused until any connection writes, so a revocation made anywhere,
   * the CLI included, still takes effect on the very next request. On PostgreSQL it is kept while
   * the database's change feed listens (see PrincipalCache).
   */
  async function findKey(hash: string): Promise<repo.ActiveKey | undefined> {
    const pending = changeToken();
    if (pending === null) return principals.lookup(hash, () => repo.findActiveKeyByHash(db, hash));
    const token = await pending;
    if (token === null) return repo.findActiveKeyByHash(db, hash);
    const memo = lookups.get(hash);
    if (memo && memo.token === token) return memo.row;
    // Read after the token: a write in between leaves a newer row under an older token, which
    // the next request's token then fails to match.
    const row = await repo.findActiveKeyByHash(db, hash);
    if (lookups.size >= MAX_MEMOISED_KEYS) lookups.clear();
    lookups.set(hash, { token, row });
    return row;
  }

  async function authenticate(rawKey: string): Promise<Principal | null> {
    if (!rawKey) return null;
    const hash = hashKey(rawKey);
    const row = await findKey(hash);
    if (!row) return null;
    const usedAt = Date.now();
    if (!row.last_used_at || usedAt - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
      const at = new Date(usedAt).toISOString();
      await repo.touchKey(db, row.id, at);
      principals.touched(hash, at);
    }
    return {
      workspaceId: row.workspace_id,
      userId: row.user_id,
      email: row.email,
      keyId: row.id,
      role: row.role,
      revision: Number(row.revision),
    };
  }

  /**
   * On the very first start of an empty database: a workspace, a user and a key. The `meta` row
   * makes this happen once even when several servers start together on one PostgreSQL database.
   */
  async function bootstrapIfEmpty(options: { email: string; workspaceName: string }) {
    if ((await repo.countWorkspaces(db)) > 0) return null;
    try {
      await repo.claimMetaKey(db, 'bootstrapped_at', now());
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
    const workspace = await createWorkspace(options.workspaceName);
    const { email } = await createUser({
      workspaceId: workspace.id,
      email: options.email,
      name: 'Administrator',
      role: 'admin',
    });
    const key = await createKey({ workspaceId: workspace.id, email, name: 'First key' });
    return { workspaceId: workspace.id, email, keyId: key.id, key: key.key };
  }

  return {
    /** What the database's change feed tells this process (see DatabaseHandle.watchChanges). */
    changeEvents: principals as ChangeEvents,
    createWorkspace,
    createUser,
    createKey,
    listKeys,
    revokeKey,
    revokeKeyOf,
    authenticate,
    bootstrapIfEmpty,
    async listUsers(workspaceId: number) {
      const rows = await repo.listUsers(db, workspaceId);
      return rows.map((row) => ({ email: row.email, name: row.name, role: row.role }));
    },
    userEmails,
    /** The workspace's base language (BCP 47): the locale of exports of base text. */
    async baseLanguage(executor: Executor, workspaceId: number): Promise<string> {
      return (await repo.findTextSettings(executor, workspaceId))?.base_language ?? 'en';
    },
    /** Whether the workspace enables `sup` and `sub` in rich text. */
    async supSubEnabled(executor: Executor, workspaceId: number): Promise<boolean> {
      return Number((await repo.findTextSettings(executor, workspaceId))?.sup_sub_enabled ?? 0) === 1;
    },
    /** The user id of each of `emails` that belongs to the workspace (lower-cased keys). */
    async userIdsByEmail(workspaceId: number): Promise<Map<string, number>> {
      const rows = await repo.listUsers(db, workspaceId);
      return new Map(rows.map((row) => [row.email, row.id]));
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
