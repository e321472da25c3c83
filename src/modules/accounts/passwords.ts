import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt from node:crypto: memory-hard, nothing to install, and the
 * parameters travel with each hash (`scrypt$N$r$p$salt$hash`) so they can be raised later without
 * invalidating the hashes already stored.
 */
const COST = 16_384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_BYTES = 32;

export const PASSWORD_MIN_CHARS = 10;
export const PASSWORD_MAX_CHARS = 200;

function derive(password: string, salt: Buffer, options: ScryptOptions, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, bytes, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: COST, r: BLOCK_SIZE, p: PARALLELISM }, KEY_BYTES);
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash that matches no password: checked against when the user is unknown, so timing says nothing. */
const DECOY = `scrypt$${COST}$${BLOCK_SIZE}$${PARALLELISM}$${randomBytes(16).toString('base64url')}$${randomBytes(KEY_BYTES).toString('base64url')}`;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = (stored ?? DECOY).split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const wanted = Buffer.from(expected, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  const key = await derive(password, Buffer.from(salt, 'base64url'), options, wanted.length);
  return stored !== null && timingSafeEqual(key, wanted);
}

/** Why a new password is refused, or null when it will do. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_CHARS) return `password: must be at least ${PASSWORD_MIN_CHARS} characters`;
  if (password.length > PASSWORD_MAX_CHARS) return `password: must be at most ${PASSWORD_MAX_CHARS} characters`;
  return null;
}
