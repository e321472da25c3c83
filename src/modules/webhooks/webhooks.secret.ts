import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The signing key at rest. With COPYDESK_SECRET it is sealed with AES-256-GCM (a random 12-byte
 * IV per key, the tag checked on opening); without, it is kept as it is and the server warns at
 * start. The stored form says which, so setting the secret later still reads the plain keys.
 */
const PLAIN = 'plain:';
const SEALED = 'aes-256-gcm:';

export function sealKey(key: string, secret: Buffer | null): string {
  if (secret === null) return `${PLAIN}${key}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const data = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
  return `${SEALED}${[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64')).join(':')}`;
}

/** The key, or null when it cannot be read (sealed with another secret, or no secret now). */
export function openKey(stored: string, secret: Buffer | null): string | null {
  if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
  if (!stored.startsWith(SEALED) || secret === null) return null;
  const [iv, tag, data] = stored
    .slice(SEALED.length)
    .split(':')
    .map((part) => Buffer.from(part, 'base64'));
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, iv as Buffer);
    decipher.setAuthTag(tag as Buffer);
    return Buffer.concat([decipher.update(data as Buffer), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export const UNREADABLE_KEY =
  'the signing key cannot be read with the current COPYDESK_SECRET (it was changed or removed since the key was set): set the key again with PUT /v2/webhooks/signingKey';
