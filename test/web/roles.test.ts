import { describe, expect, it } from 'vitest';
import { can, editorModes, mayWithdraw, openPurpose, ROLES, roleCannot, rolesThatCan } from '../../web/src/roles.js';

describe('what each role may do in the app', () => {
  it('follows the API: commenters comment, editors also edit, admins also moderate', () => {
    const table = Object.fromEntries(
      ROLES.map((role) => [role, (['edit', 'comment', 'moderate', 'admin'] as const).filter((a) => can(role, a))]),
    );
    expect(table).toEqual({
      admin: ['edit', 'comment', 'moderate', 'admin'],
      editor: ['edit', 'comment'],
      commenter: ['comment'],
      viewer: [],
    });
  });

  it('lets commenters suggest and editors review, as the API does', () => {
    const table = Object.fromEntries(
      ROLES.map((role) => [role, (['suggest', 'review'] as const).filter((a) => can(role, a))]),
    );
    expect(table).toEqual({
      admin: ['suggest', 'review'],
      editor: ['suggest', 'review'],
      commenter: ['suggest'],
      viewer: [],
    });
  });

  it('gives editors both modes, commenters only suggesting, viewers none', () => {
    expect(Object.fromEntries(ROLES.map((role) => [role, editorModes(role)]))).toEqual({
      admin: ['edit', 'suggest'],
      editor: ['edit', 'suggest'],
      commenter: ['suggest'],
      viewer: [],
    });
    expect(editorModes('owner')).toEqual([]);
  });

  it("lets only a suggestion's author withdraw it, whatever their role", () => {
    const s = { author: 'Carl@Example.com' };
    expect(mayWithdraw(s, { email: 'carl@example.com', role: 'commenter' })).toBe(true);
    expect(mayWithdraw(s, { email: 'eda@example.com', role: 'admin' })).toBe(false);
    expect(mayWithdraw(s, { email: 'carl@example.com', role: 'viewer' })).toBe(false);
  });

  it('gives an unknown role no rights', () => {
    expect(can('owner', 'comment')).toBe(false);
    expect(can('', 'edit')).toBe(false);
  });
});

describe('what the app says to a role that may not do something', () => {
  it('names the role and the roles that may, whatever the role', () => {
    expect(roleCannot('commenter', 'import', 'edit')).toBe(
      'Your role (commenter) cannot import; an editor or admin can.',
    );
    expect(roleCannot('viewer', 'import', 'edit')).toBe('Your role (viewer) cannot import; an editor or admin can.');
    expect(rolesThatCan('comment')).toBe('a commenter, editor or admin');
    expect(rolesThatCan('admin')).toBe('an admin');
  });

  it('says what opening a text is for: editing, reviewing or reading', () => {
    expect(Object.fromEntries(ROLES.map((role) => [role, openPurpose(role)]))).toEqual({
      admin: 'edit',
      editor: 'edit',
      commenter: 'review',
      viewer: 'read',
    });
    expect(openPurpose('nobody')).toBe('read');
  });
});
