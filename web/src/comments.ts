/**
 * The pure parts of comments in the app: threads from the API's flat list, a selection's range
 * in the stored text, whether a thread still matches its passage, @mention autocomplete, and
 * the links to a thread. Unit-tested in test/web/comments.test.ts.
 */
import { can } from './roles.js';
import { componentUrl, textUrl } from './routes.js';

export interface CommentRange {
  start: number;
  end: number;
  quote: string;
}

/** One comment as `/v2/comments` answers it. */
export interface Comment {
  id: string;
  threadId: string;
  textItemId: string | null;
  componentId: string | null;
  projectId: string | null;
  variantId: string | null;
  recordDeleted: boolean;
  body: string;
  mentions: string[];
  range: CommentRange | null;
  author: string;
  createdAt: string;
  editedAt: string | null;
  resolved: boolean;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export interface Thread {
  id: string;
  first: Comment;
  replies: Comment[];
  resolved: boolean;
  variantId: string | null;
}

/** Threads in the order of their first comments, each with its replies oldest first. */
export function groupThreads(comments: readonly Comment[]): Thread[] {
  const threads = new Map<string, Thread>();
  const orphans: Comment[] = [];
  for (const c of comments) {
    if (c.id === c.threadId)
      threads.set(c.id, { id: c.id, first: c, replies: [], resolved: c.resolved, variantId: c.variantId });
    else orphans.push(c);
  }
  for (const c of orphans) threads.get(c.threadId)?.replies.push(c);
  return [...threads.values()];
}

/**
 * The range of a selected passage in the stored plain text. `approxStart` is where the browser's
 * selection starts in the rendered text, which can differ from the stored text's offsets (a line
 * break is a `<br>`, not a character, in the page): the quote's occurrence nearest to it wins.
 * Null when the quote is not in the text at all.
 */
export function anchorRange(plain: string, approxStart: number, quote: string): CommentRange | null {
  if (!quote) return null;
  let best = -1;
  for (let at = plain.indexOf(quote); at !== -1; at = plain.indexOf(quote, at + 1)) {
    if (best === -1 || Math.abs(at - approxStart) < Math.abs(best - approxStart)) best = at;
  }
  return best === -1 ? null : { start: best, end: best + quote.length, quote };
}

/** A thread is detached when its passage no longer reads as it did at its range. */
export const isDetached = (plain: string, range: CommentRange | null) =>
  range !== null && plain.slice(range.start, range.end) !== range.quote;

/** The mention being typed just before the caret: from its `@` to the caret, or null. */
export function mentionAt(value: string, caret: number): { start: number; query: string } | null {
  const before = value.slice(0, caret);
  const match = /(^|[^\w.@])@([^\s@]*(?:@[^\s@]*)?)$/.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

export interface Person {
  email: string;
  name: string;
}

/**
 * Workspace users to offer for a mention being typed (`query`, any case): those whose email
 * starts with it (its local part, or the whole address once an `@` is typed) first, then those
 * with a word of their name starting with it; the domain alone never matches (every address
 * ends in the same ".com"). The writer (`me`) is left out: nobody mentions themselves.
 */
export function suggestPeople(
  people: readonly Person[],
  query: string,
  { me = '', max = 8 }: { me?: string; max?: number } = {},
): Person[] {
  const q = query.toLowerCase();
  const rank = (p: Person) => {
    if (p.email.toLowerCase().startsWith(q)) return 0;
    if (
      p.name
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .some((word) => word.startsWith(q))
    )
      return 1;
    return -1;
  };
  return people
    .filter((p) => p.email.toLowerCase() !== me.toLowerCase())
    .map((p) => ({ p, rank: rank(p) }))
    .filter((hit) => hit.rank !== -1)
    .sort((a, b) => a.rank - b.rank || a.p.email.localeCompare(b.p.email))
    .slice(0, max)
    .map((hit) => hit.p);
}

/** How the app names a person by email: their name when the workspace knows it, else the email. */
export function nameOf(people: readonly Person[], email: string): string {
  const key = email.toLowerCase();
  return people.find((p) => p.email.toLowerCase() === key)?.name.trim() || email;
}

/** `value` with the mention typed from `start` to `caret` replaced by `@email `; the new caret. */
export function insertMention(value: string, start: number, caret: number, email: string) {
  const mention = `@${email} `;
  const after = value.slice(caret).replace(/^\S*/, '');
  const next = `${value.slice(0, start)}${mention}${after.replace(/^ /, '')}`;
  return { value: next, caret: start + mention.length };
}

/** Where a comment's thread is: its text open with the thread focused. */
export function threadUrl(c: Pick<Comment, 'threadId' | 'textItemId' | 'componentId' | 'projectId'>): string {
  const thread = `thread=${encodeURIComponent(c.threadId)}`;
  if (c.componentId) return `${componentUrl(c.componentId)}?${thread}`;
  return `${textUrl(c.projectId ?? '', c.textItemId ?? '')}?${thread}`;
}

/** Whether the signed-in person may edit or delete this comment: their own, or anyone's for an admin. */
export const mayChange = (c: Pick<Comment, 'author'>, me: { email: string; role: string }) =>
  can(me.role, 'moderate') || (can(me.role, 'comment') && c.author.toLowerCase() === me.email.toLowerCase());

/** A passage to mark in a value's display text (drawn as the editor draws its other marks). */
export interface PassageMark {
  start: number;
  end: number;
  message: string;
  /** The passage as quoted: a mark whose words no longer read so is not drawn (detached). */
  words: string;
  className: 'comment-mark';
}

/** The passages of open threads, per value (`base` or a variant's id). */
export function passageMarks(threads: readonly Thread[]): Record<string, PassageMark[]> {
  const marks: Record<string, PassageMark[]> = {};
  for (const t of threads) {
    const range = t.first.range;
    if (t.resolved || !range || range.end <= range.start) continue;
    const key = t.variantId ?? 'base';
    const more = t.replies.length ? ` (${t.replies.length} ${t.replies.length === 1 ? 'reply' : 'replies'})` : '';
    const list = marks[key] ?? [];
    marks[key] = list;
    list.push({
      start: range.start,
      end: range.end,
      message: `Comment by ${t.first.author}: ${t.first.body}${more}`,
      words: range.quote,
      className: 'comment-mark',
    });
  }
  return marks;
}

/** The filter "has open comments" of the list: which texts have at least one open thread. */
export interface OpenCounts {
  textItems: Record<string, number>;
  components: Record<string, number>;
}
