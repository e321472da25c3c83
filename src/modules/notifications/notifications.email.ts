/**
 * A notification as an email: its subject, a few lines of text and the link into the app. The
 * service hands every notification it makes to its `onNotified` hook; src/services.ts wires that
 * hook to the mail module's outbox, which sends it at once, keeps it for the daily digest or
 * drops it, as the recipient chose (docs/notifications.md#email).
 */

import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { NotificationRecord } from './notifications.schemas.js';

/** A notification just made, as the email hook gets it (with the recipient's email). */
export interface MadeNotification {
  id: number;
  workspaceId: number;
  userId: number;
  email: string;
  record: NotificationRecord;
  /**
   * What an email quotes: the comment's body for mentions and replies, the proposed text (and its
   * note) for a suggestion, the note of a rejected one.
   */
  excerpt: string | null;
}

export interface NotificationEmail {
  subject: string;
  text: string;
  link: { url: string; label: string };
}

const EXCERPT_MAX = 500;

/** The email of one notification; `excerpt` is what it quotes (see `MadeNotification`). */
export function notificationEmail(
  n: NotificationRecord,
  options: { publicUrl: string; excerpt?: string | null },
): NotificationEmail {
  const text = n.textItemId !== null ? `text item ${n.textItemId}` : `component ${n.componentId}`;
  const where = `${text}${n.projectId === null ? '' : ` (project ${n.projectId})`}${n.variantId === null ? '' : `, variant ${n.variantId}`}`;
  const detail = n.detail ?? {};
  const lines: Record<NotificationRecord['kind'], [string, string]> = {
    mention: [`${n.actor} mentioned you on ${text}`, `${n.actor} mentioned you in a comment on ${where}.`],
    reply: [`${n.actor} replied on ${text}`, `${n.actor} replied in a thread you are in, on ${where}.`],
    assigned: [`${n.actor} assigned ${text} to you`, `${n.actor} assigned ${where} to you.`],
    suggestion: [`${n.actor} suggested a change to ${text}`, `${n.actor} suggested a change to ${where}:`],
    suggestion_decided:
      detail.decision === 'rejected'
        ? [
            `${n.actor} rejected your suggestion on ${text}`,
            `${n.actor} rejected your suggestion on ${where}${options.excerpt?.trim() ? ', noting:' : '.'}`,
          ]
        : [
            `${n.actor} accepted your suggestion on ${text}`,
            detail.forced === true
              ? `${n.actor} accepted your suggestion on ${where}, applying it over the text as it had changed since.`
              : `${n.actor} accepted your suggestion on ${where}.`,
          ],
    status: [
      `${text} is now ${String(detail.to)}`,
      `${n.actor} changed the status of ${where}, which you follow, from ${String(detail.from)} to ${String(detail.to)}.`,
    ],
  };
  const [subject, first] = lines[n.kind];
  const excerpt = options.excerpt?.trim();
  const quoted =
    excerpt === undefined || excerpt === ''
      ? ''
      : `\n\n${(excerpt.length > EXCERPT_MAX ? `${excerpt.slice(0, EXCERPT_MAX)}…` : excerpt)
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n')}`;
  return {
    subject,
    text: `${first}${quoted}`,
    link: { url: `${options.publicUrl.replace(/\/$/, '')}${n.link}`, label: 'Open in copydesk' },
  };
}

/**
 * What the notifications need of an email outbox (the mail module's `enqueue` matches it): queue
 * one email in the caller's transaction; `digest: true` lets a user who chose a daily email get it
 * in their digest, and one who turned email off get nothing.
 */
export type QueueEmail = (
  trx: Transaction<Database>,
  email: NotificationEmail & {
    workspaceId: number;
    userId: number;
    to: string;
    kind: string;
    digest: true;
  },
) => Promise<unknown>;

/** The service's `onNotified` hook that emails every notification through `queue`. */
export function emailNotifications(queue: QueueEmail, publicUrl: string) {
  return async (trx: Transaction<Database>, made: readonly MadeNotification[]): Promise<void> => {
    for (const m of made) {
      await queue(trx, {
        ...notificationEmail(m.record, { publicUrl, excerpt: m.excerpt }),
        workspaceId: m.workspaceId,
        userId: m.userId,
        to: m.email,
        kind: `notification.${m.record.kind}`,
        digest: true,
      });
    }
  };
}
