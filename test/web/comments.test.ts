import { describe, expect, it } from 'vitest';
import {
  anchorRange,
  type Comment,
  groupThreads,
  insertMention,
  isDetached,
  mayChange,
  mentionAt,
  nameOf,
  passageMarks,
  suggestPeople,
  threadUrl,
} from '../../web/src/comments.js';

const comment = (id: string, threadId: string, extra: Partial<Comment> = {}): Comment => ({
  id,
  threadId,
  textItemId: 'title',
  componentId: null,
  projectId: 'shop',
  variantId: null,
  recordDeleted: false,
  body: id,
  mentions: [],
  range: null,
  author: 'ana@example.com',
  createdAt: '2026-01-01T00:00:00.000Z',
  editedAt: null,
  resolved: false,
  resolvedAt: null,
  resolvedBy: null,
  ...extra,
});

describe('threads from the flat list', () => {
  it('groups replies under their first comment, in the order of the list', () => {
    const threads = groupThreads([
      comment('a', 'a'),
      comment('b', 'b', { variantId: 'fr', resolved: true }),
      comment('a1', 'a'),
      comment('b1', 'b'),
      comment('a2', 'a'),
    ]);
    expect(threads.map((t) => [t.id, t.replies.map((r) => r.id), t.resolved, t.variantId])).toEqual([
      ['a', ['a1', 'a2'], false, null],
      ['b', ['b1'], true, 'fr'],
    ]);
  });

  it('leaves out a reply whose thread is not in the list', () => {
    expect(groupThreads([comment('x1', 'x')])).toEqual([]);
  });
});

describe('a selection’s range in the stored text', () => {
  it('takes the occurrence of the quote nearest to where the selection starts', () => {
    expect(anchorRange('to go or not to go', 15, 'go')).toEqual({ start: 16, end: 18, quote: 'go' });
    expect(anchorRange('to go or not to go', 0, 'go')).toEqual({ start: 3, end: 5, quote: 'go' });
  });

  it('finds the passage after a line break the page does not count', () => {
    // In the page "Line one<br>Two words": "words" starts at 12; in the stored text at 13.
    expect(anchorRange('Line one\nTwo words', 12, 'words')).toEqual({ start: 13, end: 18, quote: 'words' });
  });

  it('answers null for an empty quote or one that is not in the text', () => {
    expect(anchorRange('Hello', 0, '')).toBeNull();
    expect(anchorRange('Hello', 0, 'Bye')).toBeNull();
  });

  it('calls a thread detached once its passage reads differently', () => {
    expect(isDetached('Pay later', { start: 4, end: 9, quote: 'later' })).toBe(false);
    expect(isDetached('Pay now', { start: 4, end: 9, quote: 'later' })).toBe(true);
    expect(isDetached('Pay now', null)).toBe(false);
  });
});

describe('@mentions', () => {
  it('finds the mention being typed, an email included, but not an address inside a word', () => {
    expect(mentionAt('Hi @', 4)).toEqual({ start: 3, query: '' });
    expect(mentionAt('Hi @an', 6)).toEqual({ start: 3, query: 'an' });
    expect(mentionAt('@ana@exa', 8)).toEqual({ start: 0, query: 'ana@exa' });
    expect(mentionAt('mail ana@exa', 12)).toBeNull();
    expect(mentionAt('Hi @ana done', 12)).toBeNull();
  });

  it('suggests people by the start of their email or of a word of their name, emails first', () => {
    const people = [
      { email: 'bob@example.com', name: 'Anna Bob' },
      { email: 'ana@example.com', name: 'Ana' },
      { email: 'carl@example.com', name: 'Carl' },
    ];
    expect(suggestPeople(people, 'an').map((p) => p.email)).toEqual(['ana@example.com', 'bob@example.com']);
    expect(suggestPeople(people, 'CARL').map((p) => p.email)).toEqual(['carl@example.com']);
    expect(suggestPeople(people, 'bo').map((p) => p.email)).toEqual(['bob@example.com']);
    expect(suggestPeople(people, 'ana@ex').map((p) => p.email)).toEqual(['ana@example.com']);
    expect(suggestPeople(people, '', { max: 2 })).toHaveLength(2);
    // Inside a word, or in a name's middle, is no match.
    expect(suggestPeople(people, 'nna')).toEqual([]);
  });

  it('never narrows on the domain alone, and leaves out the writer', () => {
    const people = [
      { email: 'admin@localhost', name: 'Admin' },
      { email: 'carl@example.com', name: 'Carl Commenter' },
      { email: 'eda@example.com', name: 'Eda Editor' },
      { email: 'cora@corp.example', name: 'Cora' },
    ];
    // "co": every address has ".com" or "corp", but only Carl's name and Cora's email start so.
    expect(suggestPeople(people, 'co').map((p) => p.email)).toEqual(['cora@corp.example', 'carl@example.com']);
    expect(suggestPeople(people, 'example')).toEqual([]);
    expect(suggestPeople(people, 'localhost')).toEqual([]);
    expect(suggestPeople(people, '', { me: 'CARL@example.com' }).map((p) => p.email)).toEqual([
      'admin@localhost',
      'cora@corp.example',
      'eda@example.com',
    ]);
    expect(suggestPeople(people, 'c', { me: 'carl@example.com' }).map((p) => p.email)).toEqual(['cora@corp.example']);
  });

  it('names a person by their name when known, else by the email', () => {
    const people = [
      { email: 'eda@example.com', name: 'Eda Editor' },
      { email: 'admin@localhost', name: '' },
    ];
    expect(nameOf(people, 'eda@example.com')).toBe('Eda Editor');
    expect(nameOf(people, 'EDA@example.com')).toBe('Eda Editor');
    expect(nameOf(people, 'admin@localhost')).toBe('admin@localhost');
    expect(nameOf(people, 'gone@example.com')).toBe('gone@example.com');
  });

  it('inserts the picked email in place of what was typed, with a space after', () => {
    expect(insertMention('Hi @an please', 3, 6, 'ana@example.com')).toEqual({
      value: 'Hi @ana@example.com please',
      caret: 20,
    });
    expect(insertMention('@', 0, 1, 'ana@example.com')).toEqual({ value: '@ana@example.com ', caret: 17 });
  });
});

describe('marking commented passages', () => {
  it('marks the passages of open threads per value, not resolved ones or whole-text ones', () => {
    const threads = groupThreads([
      comment('a', 'a', { range: { start: 4, end: 9, quote: 'later' }, body: 'Sure?' }),
      comment('a1', 'a'),
      comment('b', 'b', { range: { start: 0, end: 3, quote: 'Pay' }, resolved: true }),
      comment('c', 'c', { range: { start: 0, end: 5, quote: 'Payez' }, variantId: 'fr' }),
      comment('d', 'd'),
    ]);
    expect(passageMarks(threads)).toEqual({
      base: [
        {
          start: 4,
          end: 9,
          words: 'later',
          message: 'Comment by ana@example.com: Sure? (1 reply)',
          className: 'comment-mark',
        },
      ],
      fr: [{ start: 0, end: 5, words: 'Payez', message: 'Comment by ana@example.com: c', className: 'comment-mark' }],
    });
  });
});

describe('links and rights', () => {
  it('links a thread to its text, with the thread focused', () => {
    expect(threadUrl(comment('c', 'cm_1'))).toBe('/projects/shop/texts/title?thread=cm_1');
    expect(threadUrl(comment('c', 'cm_2', { textItemId: null, componentId: 'ok button', projectId: null }))).toBe(
      '/library/components/ok%20button?thread=cm_2',
    );
  });

  it('lets people change their own comments, and admins anyone’s', () => {
    const c = comment('c', 'c', { author: 'Ana@Example.com' });
    expect(mayChange(c, { email: 'ana@example.com', role: 'commenter' })).toBe(true);
    expect(mayChange(c, { email: 'bob@example.com', role: 'editor' })).toBe(false);
    expect(mayChange(c, { email: 'bob@example.com', role: 'admin' })).toBe(true);
    expect(mayChange(c, { email: 'ana@example.com', role: 'viewer' })).toBe(false);
  });
});
