import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * Entity tags, as pure functions. A tag is `"<revision>-<digest>"`: the workspace's content
 * revision (advanced by every write, in the write's own transaction) and a digest of the workspace
 * id and the normalised request. It depends on nothing held in memory, so every server sharing the
 * database computes the same tag, and a restart keeps it.
 */

/** Path plus query parameters in a canonical order; a JSON `filter` is re-serialised canonically. */
export function normaliseRequest(url: string): string {
  const [path = '', query = ''] = url.split('?', 2);
  const params = [...new URLSearchParams(query)].map(([name, value]) => [name, canonicalJson(name, value)] as const);
  params.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  return `${path}?${new URLSearchParams(params as [string, string][]).toString()}`;
}

function canonicalJson(name: string, value: string): string {
  if (name !== 'filter') return value;
  try {
    return JSON.stringify(sortKeys(JSON.parse(value)));
  } catch {
    return value;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * Digests of the requests seen lately, by workspace and URL as sent: a client polling with
 * `If-None-Match` repeats the same URL, and normalising it and hashing it again is most of what
 * its 304 would cost. Only short URLs are kept, at most `MAX_DIGESTS` of them, least recently
 * used out first, so the memory is bounded by about 8 MiB whatever the clients send. A digest
 * depends on nothing but its key, so nothing invalidates it.
 */
const MAX_DIGESTS = 4096;

/**
 * The version of what a GET answers for a given revision and URL: part of every response's ETag.
 * Raise it in a release that changes the bytes of any cached answer (a format's output, a record's
 * fields), so that a client's `If-None-Match` from the build before gets the new bytes, not a 304.
 */
export const ANSWER_VERSION = 1;
const MAX_KEPT_URL = 1024;
const digests = new LRUCache<string, string>({ max: MAX_DIGESTS });

function digestOf(workspaceId: number, url: string): string {
  const key = `${workspaceId}\n${url}`;
  const known = digests.get(key);
  if (known !== undefined) return known;
  const digest = createHash('sha256')
    .update(`${ANSWER_VERSION}\n${workspaceId}\n${normaliseRequest(url)}`)
    .digest('base64url')
    .slice(0, 22);
  if (url.length <= MAX_KEPT_URL) digests.set(key, digest);
  return digest;
}

/** The strong ETag of a whole response (workspace, content revision, URL); a text's own ETag is `textEtag` (texts core). */
export function responseEtag(workspaceId: number, revision: number, url: string): string {
  return `"${revision}-${digestOf(workspaceId, url)}"`;
}

/** The tag sent with a compressed body: its bytes differ from the identity form's (nginx does the same). */
export const weak = (etag: string): string => `W/${etag}`;

/** Whether `If-None-Match` names the tag, compared weakly (a `W/` prefix is ignored), or is `*`. */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  // What a client sends back is most often the one tag it was given, as it was given.
  if (ifNoneMatch === etag || (ifNoneMatch.startsWith('W/') && ifNoneMatch.slice(2) === etag)) return true;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
