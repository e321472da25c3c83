/**
 * What each role may do in the app, in one place: the same rules as the API's (a write the
 * server would refuse is never offered). Pure: unit-tested in test/web/roles.test.ts.
 */

export const ROLES = ['admin', 'editor', 'commenter', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * - `edit`: change texts, organise, import, settings an editor may change.
 * - `comment`: write comments, reply, resolve and reopen threads.
 * - `moderate`: edit and delete anyone's comment (one's own needs only `comment`).
 * - `suggest`: propose a change of a text's wording (a suggestion), and withdraw one's own.
 * - `review`: accept or reject anyone's suggestion (a stale one with "Apply anyway" too).
 * - `admin`: the workflow, people, webhooks.
 */
export type Action = 'edit' | 'comment' | 'moderate' | 'suggest' | 'review' | 'admin';

const LEAST: Record<Action, Role> = {
  edit: 'editor',
  comment: 'commenter',
  moderate: 'admin',
  suggest: 'commenter',
  review: 'editor',
  admin: 'admin',
};
/** Roles from the least to the most rights. */
const RANK: readonly Role[] = ['viewer', 'commenter', 'editor', 'admin'];

/** Whether `role` may do `action`; an unknown role may do nothing. */
export function can(role: string, action: Action): boolean {
  const rank = RANK.indexOf(role as Role);
  return rank !== -1 && rank >= RANK.indexOf(LEAST[action]);
}

/** How the text editor writes: `edit` saves the text, `suggest` sends the change as a suggestion. */
export type EditorMode = 'edit' | 'suggest';

/**
 * The editor's modes for a role, the first being where it starts: editors and admins edit and
 * may switch to suggesting; a commenter only suggests (the editor is editable for them, and what
 * they send is a suggestion); a viewer has none (the editor is read-only).
 */
export function editorModes(role: string): EditorMode[] {
  if (can(role, 'edit')) return ['edit', 'suggest'];
  if (can(role, 'suggest')) return ['suggest'];
  return [];
}

/** Whether the signed-in person may withdraw a suggestion: their own only, whatever their role. */
export const mayWithdraw = (s: { author: string }, me: { email: string; role: string }) =>
  can(me.role, 'suggest') && s.author.toLowerCase() === me.email.toLowerCase();

/** The roles that may do `action`, least first, as prose: "an editor or admin", "an admin". */
export function rolesThatCan(action: Action): string {
  const roles = RANK.slice(RANK.indexOf(LEAST[action]));
  const article = (role: string) => (/^[aeiou]/.test(role) ? 'an' : 'a');
  const last = roles.pop() ?? '';
  const list = roles.length ? `${roles.join(', ')} or ${last}` : last;
  return `${article(list)} ${list}`;
}

/** Why a page offers nothing to `role`: "Your role (commenter) cannot import; an editor or admin can." */
export const roleCannot = (role: string, doing: string, action: Action) =>
  `Your role (${role}) cannot ${doing}; ${rolesThatCan(action)} can.`;

/** What opening a text is for, as the empty pane says it: an editor edits, a commenter reviews, a viewer reads. */
export function openPurpose(role: string): 'edit' | 'review' | 'read' {
  if (can(role, 'edit')) return 'edit';
  if (can(role, 'comment')) return 'review';
  return 'read';
}
