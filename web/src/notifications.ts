/**
 * The pure parts of the inbox: the API's notification, what it says in words, where it leads.
 * Unit-tested in test/web/notifications.test.ts.
 */

export type NotificationKind = 'mention' | 'reply' | 'assigned' | 'suggestion' | 'suggestion_decided' | 'status';

/** One notification as `GET /v2/notifications` answers it. */
export interface Notification {
  id: string;
  kind: NotificationKind;
  textItemId: string | null;
  componentId: string | null;
  projectId: string | null;
  variantId: string | null;
  recordDeleted: boolean;
  threadId: string | null;
  commentId: string | null;
  actor: string;
  at: string;
  read: boolean;
  readAt: string | null;
  detail: Record<string, unknown> | null;
  link: string;
}

const text = (n: Notification) => n.textItemId ?? n.componentId ?? 'a text';
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * What happened, in words, with the text named by its developer ID (`names` gives a status's
 * name from its id; a name not known shows the id).
 */
export function describe(n: Notification, names: (statusId: string) => string = (id) => id): string {
  const on = `${text(n)}${n.variantId ? ` (${n.variantId})` : ''}`;
  switch (n.kind) {
    case 'mention':
      return `${n.actor} mentioned you on ${on}`;
    case 'reply':
      return `${n.actor} replied in a thread on ${on}`;
    case 'assigned':
      return `${n.actor} assigned ${on} to you`;
    case 'suggestion':
      return `${n.actor} suggested a change to ${on}`;
    case 'suggestion_decided':
      return n.detail?.decision === 'rejected'
        ? `${n.actor} rejected your suggestion on ${on}`
        : `${n.actor} accepted your suggestion on ${on}`;
    case 'status': {
      const from = str(n.detail?.from);
      const to = str(n.detail?.to);
      return from && to
        ? `${n.actor} moved ${on} from ${names(from)} to ${names(to)}`
        : `${n.actor} changed the status of ${on}`;
    }
    default:
      return `${n.actor} changed ${on}`;
  }
}

/**
 * Where a notification leads: the API's link (the text, with `thread=` for a comment), plus
 * `suggestion=` for a suggestion, so that the suggestion opens focused as its own link does.
 */
export function notificationUrl(n: Pick<Notification, 'link' | 'kind' | 'detail'>): string {
  const suggestionId = n.kind.startsWith('suggestion') ? str(n.detail?.suggestionId) : '';
  if (!suggestionId || /[?&]suggestion=/.test(n.link)) return n.link;
  return `${n.link}${n.link.includes('?') ? '&' : '?'}suggestion=${encodeURIComponent(suggestionId)}`;
}
