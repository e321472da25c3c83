import { describe, expect, it } from 'vitest';
import { ApiError, messageOf, withoutBodyPath } from '../../web/src/apiErrors.js';

describe('what a form shows of a refused request', () => {
  it('drops the path into the body that was sent, whatever its depth', () => {
    expect(
      withoutBodyPath('comments[0].body: mentions nobody@example.com, who is not a user of this workspace', [
        'comments',
      ]),
    ).toBe('Mentions nobody@example.com, who is not a user of this workspace');
    expect(withoutBodyPath('suggestions[2].text: must not be empty', ['suggestions'])).toBe('Must not be empty');
    expect(withoutBodyPath('threadIds: Thread 7 not found', ['threadIds'])).toBe('Thread 7 not found');
  });

  it('keeps any other message as it is', () => {
    // Not a field of the body sent: the words are the message's own.
    expect(withoutBodyPath('Conflict: the text changed', ['comments'])).toBe('Conflict: the text changed');
    expect(withoutBodyPath('comments[0].body: x', [])).toBe('comments[0].body: x');
    expect(withoutBodyPath('This needs the editor role', ['comments'])).toBe('This needs the editor role');
    expect(withoutBodyPath('comments:', ['comments'])).toBe('comments:');
  });

  it('reads an ApiError by the body it was sent with, any other error as it is', () => {
    expect(messageOf(new ApiError(400, 'updates[0].body: too long', 'bad_request', ['updates']))).toBe('Too long');
    expect(messageOf(new ApiError(400, 'updates[0].body: too long'))).toBe('updates[0].body: too long');
    expect(messageOf(new Error('Failed to fetch'))).toBe('Failed to fetch');
    expect(messageOf('offline')).toBe('offline');
  });
});
