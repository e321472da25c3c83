import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Unsubscribe tokens: `<user id>.<HMAC-SHA256 of "unsubscribe:<user id>">`, keyed with the
 * database's `email_signing_key`. They name a user and nothing else, never expire, and cannot be
 * made for another user without the key. User ids are never reused, so a token dies with its user.
 */
const mac = (key: string, userId: number) =>
  createHmac('sha256', key).update(`unsubscribe:${userId}`).digest('base64url');

export function unsubscribeToken(key: string, userId: number): string {
  return `${userId}.${mac(key, userId)}`;
}

/** The user a token was made for, or null if it was not made with `key`. */
export function tokenUser(key: string, token: string): number | null {
  const match = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const expected = Buffer.from(mac(key, userId));
  const given = Buffer.from(match[2] as string);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
}
