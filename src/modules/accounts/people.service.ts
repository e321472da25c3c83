import { hash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, Executor, Role } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { type Change, changeOf, type WritePath, type WriteScope } from '../changes/index.js';
import type { EnqueueEmail } from '../mail/index.js';
import { findUserByEmail, findWorkspace } from './accounts.repository.js';
import type { AccountsService, Principal } from './accounts.service.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import * as repo from './people.repository.js';
import { signInGuard } from './sign-in-guard.js';

export const ROLES = ['admin', 'editor', 'commenter', 'viewer'] as const satisfies readonly Role[];
const RANK: Record<Role, number> = { viewer: 0, commenter: 1, editor: 2, admin: 3 };

/** Whether `role` may do what `needed` may. */
export function roleAllows(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

export interface SessionPrincipal extends Principal {
  csrfToken: string;
  name: string;
  expiresAt: string;
}

export interface SignedIn {
  /** The cookie's value; only its hash is stored. */
  token: string;
  session: SessionView;
}

export interface SessionView {
  email: string;
  name: string;
  role: Role;
  workspaceId: number;
  csrfToken: string;
  expiresAt: string;
}

export interface PeopleDeps {
  db: Kysely<Database>;
  writes: WritePath;
  accounts: Pick<AccountsService, 'createUser'>;
  /** Clears a removed user as assignee, inside the removal's write (the texts module owns texts). */
  textAssignees: {
    unassignUser: (trx: Transaction<Database>, workspaceId: number, userId: number) => Promise<Change[]>;
  };
  /** How long a session lives without use; each use extends it, up to `sessionMaxMs` from sign-in. */
  sessionIdleMs: number;
  sessionMaxMs: number;
  passwordLinkMs: number;
  /** Queues an email in the caller's transaction (nothing when the server sends no email). */
  enqueueEmail: EnqueueEmail;
  /** Where people reach this server: the links in emails. */
  publicUrl: string;
}

interface LinkUser {
  id: number;
  workspace_id: number;
  email: string;
  role: Role;
}

/**
 * Where a password link's token goes: after `#`, so it reaches the app in the browser but never a
 * server's or proxy's request log, nor another site through the Referer header.
 */
export function passwordLinkUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/set-password#token=${token}`;
}

const digest = (token: string) => hash('sha256', token, 'hex');
const secret = () => randomBytes(32).toString('base64url');
const later = (from: number, ms: number) => new Date(from + ms).toISOString();
/** A session's expiry is written at most this often: reads stay reads. */
const EXTEND_EVERY_MS = 5 * 60 * 1000;

export function createPeopleService(deps: PeopleDeps) {
  const { db, writes } = deps;
  const guard = signInGuard();

  async function openSession(user: { id: number; workspace_id: number; email: string; name: string; role: Role }) {
    const token = secret();
    const csrfToken = secret();
    const at = Date.now();
    const expiresAt = later(at, deps.sessionIdleMs);
    await repo.insertSession(db, {
      id: digest(token),
      userId: user.id,
      csrfToken,
      createdAt: new Date(at).toISOString(),
      expiresAt,
    });
    const session = { email: user.email, name: user.name, role: user.role, workspaceId: user.workspace_id };
    return { token, session: { ...session, csrfToken, expiresAt } };
  }

  /**
   * Stores a new password link for `user` and, when `email` says so, queues the email that carries
   * it, in `trx`: the link exists exactly if its email is queued. Answers the link's token and
   * whether its email was queued (not when the server sends no email or the user turned it off).
   */
  async function storeLink(
    trx: Transaction<Database>,
    user: LinkUser,
    email: { kind: 'invitation' | 'password_link'; by: string } | null,
  ): Promise<{ token: string; emailed: boolean }> {
    const token = secret();
    const at = Date.now();
    await repo.insertPasswordLink(trx, {
      id: digest(token),
      userId: user.id,
      createdAt: new Date(at).toISOString(),
      expiresAt: later(at, deps.passwordLinkMs),
    });
    if (email === null) return { token, emailed: false };
    const workspace = (await findWorkspace(trx, user.workspace_id))?.name ?? 'copydesk';
    const hours = Math.round(deps.passwordLinkMs / 3_600_000);
    const url = passwordLinkUrl(deps.publicUrl, token);
    const invited = email.kind === 'invitation';
    const queued = await deps.enqueueEmail(trx, {
      workspaceId: user.workspace_id,
      userId: user.id,
      to: user.email,
      kind: email.kind,
      subject: invited ? `You are invited to ${workspace} on copydesk` : `Set your copydesk password for ${workspace}`,
      text: invited
        ? `${email.by} invited you to the workspace "${workspace}" on copydesk, as ${user.role}.\n\n` +
          `Follow the link below to set your password; it works once, for ${hours} hours.`
        : `${email.by} sent you a link to set your password for the workspace "${workspace}" on copydesk.\n\n` +
          `It works once, for ${hours} hours. If you did not expect it, you can ignore this email.`,
      link: { url, label: 'Set your password' },
    });
    return { token, emailed: queued !== null };
  }

  async function findPerson(workspaceId: number, email: string, executor: Executor = db) {
    const user = await findUserByEmail(executor, workspaceId, email.trim().toLowerCase());
    if (!user) throw notFound(`User ${email} not found`);
    return user;
  }

  return {
    /**
     * Email and password to a session. One message for every failure, so the answer does not say
     * which emails exist; an email in several workspaces needs `workspaceId`.
     */
    async signIn(input: { email: string; password: string; workspaceId?: number }): Promise<SignedIn> {
      const email = input.email.trim().toLowerCase();
      const wait = guard.waitFor(email);
      if (wait > 0) {
        throw new AppError(
          'rate_limited',
          `Too many failed sign-ins for this account: retry in ${Math.ceil(wait / 1000)} s`,
        );
      }
      const users = (await repo.findUsersByEmail(db, email)).filter(
        (u) => input.workspaceId === undefined || u.workspace_id === input.workspaceId,
      );
      const withPassword = users.filter((u) => u.password_hash !== null);
      if (withPassword.length > 1) {
        throw badRequest('workspaceId: this email belongs to several workspaces; name the one to sign in to');
      }
      const [user] = withPassword;
      const matches = await verifyPassword(input.password, user?.password_hash ?? null);
      if (!user || !matches) {
        guard.failed(email);
        throw new AppError('unauthorized', 'Wrong email or password');
      }
      guard.succeeded(email);
      return openSession(user);
    },

    /** Seconds an account must wait before its next sign-in attempt (after failed ones), or 0. */
    signInWaitSeconds(email: string): number {
      return Math.ceil(guard.waitFor(email.trim().toLowerCase()) / 1000);
    },

    /** The principal of a live session cookie, or null. Use extends the session. */
    async authenticate(token: string): Promise<SessionPrincipal | null> {
      const id = digest(token);
      const at = Date.now();
      const row = await repo.findLiveSession(db, id, new Date(at).toISOString());
      if (!row) return null;
      let expiresAt = row.expires_at;
      const wanted = later(at, deps.sessionIdleMs);
      if (Date.parse(wanted) - Date.parse(expiresAt) > EXTEND_EVERY_MS) {
        const cap = later(Date.parse(row.created_at), deps.sessionMaxMs);
        expiresAt = wanted < cap ? wanted : cap;
        await repo.extendSession(db, id, expiresAt);
      }
      return {
        workspaceId: row.workspace_id,
        userId: row.user_id,
        email: row.email,
        keyId: null,
        role: row.role,
        revision: Number(row.revision),
        csrfToken: row.csrf_token,
        name: row.name,
        expiresAt,
      };
    },

    view(principal: SessionPrincipal): SessionView {
      const { email, name, role, workspaceId, csrfToken, expiresAt } = principal;
      return { email, name, role, workspaceId, csrfToken, expiresAt };
    },

    async signOut(token: string): Promise<void> {
      await repo.deleteSession(db, digest(token));
    },

    async purgeExpired(): Promise<void> {
      await repo.deleteExpiredSessions(db, now());
    },

    /**
     * A one-time token that lets the user set (or reset) their password. With `sentBy`, the link
     * is also emailed to the user (when the server sends email), naming who sent it; `emailed`
     * says whether it was queued.
     */
    async passwordLink(
      workspaceId: number,
      email: string,
      sentBy?: string,
    ): Promise<{ token: string; emailed: boolean }> {
      return db.transaction().execute(async (trx) => {
        const user = await findPerson(workspaceId, email, trx);
        return storeLink(trx, user, sentBy === undefined ? null : { kind: 'password_link', by: sentBy });
      });
    },

    /** Sets the password of the link's user, uses the link up, ends their other sessions, signs in. */
    async setPassword(linkToken: string, password: string): Promise<SignedIn> {
      const problem = passwordProblem(password);
      if (problem) throw badRequest(problem);
      const passwordHash = await hashPassword(password);
      const userId = await db.transaction().execute(async (trx) => {
        const id = await repo.consumePasswordLink(trx, digest(linkToken), now());
        if (id === null) return null;
        await repo.setPasswordHash(trx, id, passwordHash);
        await repo.deleteUserSessions(trx, id);
        return id;
      });
      if (userId === null) throw badRequest('token: this link is unknown, expired or already used');
      const user = await repo.findUserById(db, userId);
      if (!user) throw badRequest('token: this link is unknown, expired or already used');
      return openSession(user);
    },

    async listPeople(workspaceId: number) {
      const rows = await repo.listPeople(db, workspaceId);
      return rows.map((r) => ({ email: r.email, name: r.name, role: r.role, signInEnabled: r.password_hash !== null }));
    },

    /**
     * Adds a user with a role and answers a password link for them, emailed to them when the
     * server sends email: the user, the link and the email are written in one transaction.
     */
    async invite(scope: WriteScope, input: { email: string; name?: string; role: Role }) {
      let link = { token: '', emailed: false };
      const { email } = await deps.accounts.createUser({
        workspaceId: scope.workspaceId,
        ...input,
        actor: scope.actor,
        alsoWrite: async (trx, user) => {
          link = await storeLink(
            trx,
            { ...user, workspace_id: scope.workspaceId },
            { kind: 'invitation', by: scope.actor.email },
          );
        },
      });
      return { email, ...link };
    },

    /** Changes a user's role or name; the workspace always keeps an admin. */
    async update(scope: WriteScope, email: string, input: { role?: Role; name?: string }) {
      return writes.write(scope, async (trx) => {
        const user = await findPerson(scope.workspaceId, email, trx);
        const name = input.name?.trim();
        if (input.name !== undefined && !name) throw badRequest('name: must not be empty');
        const after = { name: name ?? user.name, role: input.role ?? user.role };
        if (user.role === 'admin' && after.role !== 'admin') {
          const admins = (await repo.listPeople(trx, scope.workspaceId)).filter((p) => p.role === 'admin');
          if (admins.length <= 1) throw conflict('role: the workspace must keep at least one admin');
        }
        const identity = { kind: 'user' as const, ref: `user:${user.id}`, developerId: user.email };
        const change = changeOf(identity, { name: user.name, role: user.role }, after);
        return {
          changes: change ? [change as Change] : [],
          apply: (t) => repo.updateUser(t, user.id, after),
          result: { email: user.email, ...after },
        };
      });
    },

    /**
     * Removes a user from the workspace: their sessions, password links and keys end at once, and
     * every text or variant value assigned to them loses its assignee, each recorded as changed.
     * What they wrote stays in history under their email. The workspace keeps an admin, and
     * nobody removes themselves (another admin does), so an admin cannot lock themselves out.
     */
    async remove(scope: WriteScope, email: string): Promise<void> {
      await writes.write(scope, async (trx) => {
        const user = await findPerson(scope.workspaceId, email, trx);
        if (user.email === scope.actor.email) throw conflict('email: you cannot remove yourself; another admin can');
        if (user.role === 'admin') {
          const admins = (await repo.listPeople(trx, scope.workspaceId)).filter((p) => p.role === 'admin');
          if (admins.length <= 1) throw conflict('email: the workspace must keep at least one admin');
        }
        const texts = await deps.textAssignees.unassignUser(trx, scope.workspaceId, user.id);
        const identity = { kind: 'user' as const, ref: `user:${user.id}`, developerId: user.email };
        const removed = changeOf(identity, { email: user.email, name: user.name, role: user.role }, null) as Change;
        return {
          changes: [removed, ...texts],
          apply: (t) => repo.deleteUser(t, user.id),
          result: undefined,
        };
      });
    },
  };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
