import { hash, randomBytes } from 'node:crypto';

/**
 * API keys: 32 random bytes, shown once. Only the SHA-256 of the key and a short display prefix
 * are stored. A fast hash is right here: the key has 256 bits of entropy, so there is nothing for
 * a slow password hash to protect, and it keeps authentication off the hot path's budget.
 */
export const KEY_PREFIX = 'cdk_';
const DISPLAY_CHARS = KEY_PREFIX.length + 8;

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_CHARS);
}

export function generateKeyId(): string {
  return `key_${randomBytes(9).toString('base64url')}`;
}
