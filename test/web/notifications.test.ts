import { expect, describe as group, it } from 'vitest';
import { describe, type Notification, notificationUrl } from '../../web/src/notifications.js';

const n = (over: Partial<Notification>): Notification => ({
  id: 'n1',
  kind: 'mention',
  textItemId: 'checkout',
  componentId: null,
  projectId: 'shop',
  variantId: null,
  recordDeleted: false,
  threadId: 'c1',
  commentId: 'c1',
  actor: 'eda@example.com',
  at: '2026-11-28T16:00:00.000Z',
  read: false,
  readAt: null,
  detail: null,
  link: '/projects/shop/texts/checkout?thread=c1',
  ...over,
});

group('a notification in words', () => {
  it('says who did what on which text', () => {
    expect(describe(n({}))).toBe('eda@example.com mentioned you on checkout');
    expect(describe(n({ kind: 'reply', variantId: 'fr' }))).toBe(
      'eda@example.com replied in a thread on checkout (fr)',
    );
    expect(describe(n({ kind: 'assigned', textItemId: null, componentId: 'pay' }))).toBe(
      'eda@example.com assigned pay to you',
    );
    expect(describe(n({ kind: 'suggestion' }))).toBe('eda@example.com suggested a change to checkout');
    const decided = { suggestionId: 'sg_1', note: null, forced: false };
    expect(describe(n({ kind: 'suggestion_decided', detail: { ...decided, decision: 'accepted' } }))).toBe(
      'eda@example.com accepted your suggestion on checkout',
    );
    expect(describe(n({ kind: 'suggestion_decided', detail: { ...decided, decision: 'rejected', note: 'No' } }))).toBe(
      'eda@example.com rejected your suggestion on checkout',
    );
  });

  it("names a status change's statuses", () => {
    const status = n({ kind: 'status', detail: { from: 'NONE', to: 'FINAL' } });
    expect(describe(status, (id) => ({ NONE: 'Draft', FINAL: 'Final' })[id] ?? id)).toBe(
      'eda@example.com moved checkout from Draft to Final',
    );
    expect(describe(n({ kind: 'status' }))).toBe('eda@example.com changed the status of checkout');
  });
});

group('where a notification leads', () => {
  it("is the API's link, with the suggestion focused for a suggestion", () => {
    expect(notificationUrl(n({}))).toBe('/projects/shop/texts/checkout?thread=c1');
    const suggestion = n({
      kind: 'suggestion',
      detail: { suggestionId: 'sg_1' },
      link: '/projects/shop/texts/checkout',
    });
    expect(notificationUrl(suggestion)).toBe('/projects/shop/texts/checkout?suggestion=sg_1');
    expect(notificationUrl({ ...suggestion, link: '/library/components/pay?variant=fr' })).toBe(
      '/library/components/pay?variant=fr&suggestion=sg_1',
    );
  });
});
