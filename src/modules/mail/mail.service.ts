import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { MailConfig } from '../../config.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest } from '../../http/errors.js';
import { type Content, renderDigestHtml, renderDigestText, renderHtml, renderItem, renderText } from './mail.render.js';
import * as repo from './mail.repository.js';
import type { EmailMode } from './mail.schemas.js';
import { tokenUser, unsubscribeToken } from './mail.token.js';

export type { EmailMode } from './mail.schemas.js';

/** An email another module queues, inside the transaction of the change that causes it. */
export interface EmailToQueue extends Content {
  workspaceId: number;
  /** The user it is for: their preference decides whether it is sent; null for an address that is no user. */
  userId: number | null;
  to: string;
  subject: string;
  /** What the email is about (`invitation`, `password_link`, ...): kept with it, for the log. */
  kind: string;
  /**
   * A notification that may wait for the user's daily digest (when they chose `daily`). Account
   * emails leave it out: they always go at once.
   */
  digest?: boolean;
}

/** The next digest time after `at`: the configured hour (UTC) today, or tomorrow if it has passed. */
export function nextDigestAt(at: number, hourUtc: number): number {
  const day = new Date(at);
  const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hourUtc);
  return today > at ? today : today + 24 * 3_600_000;
}

export const DEFAULT_MODE: EmailMode = 'instant';

export function createMailService(deps: { db: Kysely<Database>; config: MailConfig; publicUrl: string }) {
  const { db, config, publicUrl } = deps;
  // The key never changes once the migration made it: read once per process, through the
  // caller's transaction when there is one (on SQLite another connection would wait for it).
  let key: string | null = null;
  const signingKey = async (executor: Executor = db) => {
    key ??= await repo.signingKey(executor);
    return key;
  };
  // Message-IDs name the server's host, as RFC 5322 asks of their right-hand side.
  const messageDomain = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost';

  const unsubscribeUrl = async (executor: Executor, userId: number) =>
    `${publicUrl}/v2/email/unsubscribe?token=${unsubscribeToken(await signingKey(executor), userId)}`;

  return {
    /** Whether this server sends email at all. */
    enabled: config.smtpUrl !== null,

    /**
     * Queues an email in `trx`, so it is sent exactly if the change commits. Answers its outbox id,
     * or null when nothing was queued: the server sends no email (no `SMTP_URL`), or the user
     * turned email off. Account emails (invitations, password links) are sent at once whatever the
     * user chose but `off`: a daily digest of a password link would be no use.
     */
    async enqueue(trx: Transaction<Database>, email: EmailToQueue): Promise<number | null> {
      if (config.smtpUrl === null) return null;
      const mode = email.userId === null ? null : await repo.findPreference(trx, email.userId);
      if (mode === 'off') return null;
      const unsubscribe = email.userId === null ? null : await unsubscribeUrl(trx, email.userId);
      const at = Date.now();
      const queued = {
        workspaceId: email.workspaceId,
        userId: email.userId,
        kind: email.kind,
        to: email.to,
        subject: email.subject,
        messageId: `<${randomUUID()}@${messageDomain}>`,
        unsubscribeUrl: unsubscribe,
        at: new Date(at).toISOString(),
      };
      if (email.digest === true && mode === 'daily') {
        // Kept as the digest will show it: its text and link, without a footer of its own.
        return repo.insertEmail(trx, {
          ...queued,
          text: renderItem(email),
          html: null,
          state: 'held',
          dueAt: new Date(nextDigestAt(at, config.digestHourUtc)).toISOString(),
        });
      }
      const footer = { publicUrl, unsubscribeUrl: unsubscribe };
      return repo.insertEmail(trx, {
        ...queued,
        text: renderText(email, footer),
        html: renderHtml(email, footer),
      });
    },

    async preference(userId: number): Promise<EmailMode> {
      return ((await repo.findPreference(db, userId)) as EmailMode | null) ?? DEFAULT_MODE;
    },

    async setPreference(userId: number, mode: EmailMode): Promise<EmailMode> {
      await repo.savePreference(db, userId, mode, now());
      return mode;
    },

    /**
     * Gathers each user's held emails that are due into one digest email, queued to be sent; each
     * held email goes into one digest only, however many servers run this at once. Answers how
     * many digests it queued.
     */
    async queueDueDigests(at: number, workspaceIds?: readonly number[]): Promise<number> {
      const now = new Date(at).toISOString();
      let queued = 0;
      const users = await repo.usersWithDueDigests(db, { now, limit: 100, ...(workspaceIds && { workspaceIds }) });
      for (const userId of users) {
        queued += await db.transaction().execute(async (trx) => {
          const held = await repo.takeHeld(trx, userId, now);
          const last = held.at(-1);
          if (!last) return 0;
          const items = held.map((h) => ({ subject: h.subject, text: h.text }));
          const footer = { publicUrl, unsubscribeUrl: last.unsubscribeUrl };
          await repo.insertEmail(trx, {
            workspaceId: last.workspaceId,
            userId,
            kind: 'digest',
            to: last.to,
            subject: `Your copydesk digest: ${held.length} notification${held.length === 1 ? '' : 's'}`,
            text: renderDigestText(items, footer),
            html: renderDigestHtml(items, footer),
            messageId: `<${randomUUID()}@${messageDomain}>`,
            unsubscribeUrl: last.unsubscribeUrl,
            at: now,
          });
          return 1;
        });
      }
      return queued;
    },

    /** Turns email off for the user an unsubscribe token names; no session needed, the token is the proof. */
    /** Whether `token` is an unsubscribe token this server's key made (what the link's page checks). */
    async isUnsubscribeToken(token: string): Promise<boolean> {
      return tokenUser(await signingKey(), token) !== null;
    },

    async unsubscribe(token: string): Promise<void> {
      const userId = tokenUser(await signingKey(), token);
      if (userId === null) throw badRequest('token: this unsubscribe link is not valid');
      try {
        await repo.savePreference(db, userId, 'off', now());
      } catch (error) {
        // The user was removed: there is nobody left to email, which is what was asked.
        if (!isForeignKeyViolation(error)) throw error;
      }
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
