import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import type { EntryFragment } from '../../formats/types.js';
import type { ChangeSubscriber } from '../changes/index.js';
import * as repo from './exports.fragments.repository.js';

/**
 * The fragment store (docs/exports.md#fragments): for each workspace and rendering key, the
 * fragment every text rendered to, stamped with the text's stamp at that time. A fragment is
 * used only while the text's stamp is the same, read in the export's own snapshot, so a write on
 * any server is never answered with the bytes of before; the write path also deletes the
 * fragments of the texts a write touched, so deleted texts leave nothing behind.
 */

/** Rendering keys (sets) kept per workspace; the least recently used beyond go. */
export const MAX_SETS_PER_WORKSPACE = 32;

/** A set's last use is written again when older than this (one write per set and interval). */
const TOUCH_AFTER_MS = 10 * 60_000;

/** What a stored fragment says: its bytes (null: the text gives no entry) and how to place them. */
export interface Fragment {
  stamp: string;
  fragment: EntryFragment | null;
}

/** Everything a rendering depends on besides the texts themselves. */
export interface RenderingKeyParts {
  format: string;
  /** Row id of the exported variant, null for base text. */
  variantId: number | null;
  locale: string;
  fallback: string;
  richText: string | null;
  variableOrder: string;
  /** The workspace's variables in creation order, as stored. */
  variables: readonly { id: number; name: string; type: string; data: unknown }[];
}

/**
 * The key of a rendering: a digest of its parts and of the code that renders (so a new version
 * of a format never reads the fragments of the old one). Variables, variants and the base
 * language are part of it: changing any of them starts a new set, which is how a global change
 * invalidates every fragment at once.
 */
export function renderingKey(parts: RenderingKeyParts): string {
  const variables = parts.variables.map((v) => [v.id, v.name, v.type, v.data]);
  return createHash('sha256')
    .update(
      JSON.stringify([
        rendererVersion(),
        parts.format,
        parts.variantId,
        parts.locale,
        parts.fallback,
        parts.richText,
        parts.variableOrder,
        variables,
      ]),
    )
    .digest('base64url');
}

let version: string | undefined;

/** A digest of the sources (or the build) of everything an entry's rendering runs. */
function rendererVersion(): string {
  if (version !== undefined) return version;
  const file = fileURLToPath(import.meta.url);
  const here = dirname(file);
  const code = (name: string) => /\.(js|ts)$/.test(name) && !name.endsWith('.d.ts');
  const files = readdirSync(here)
    .filter((name) => name.startsWith('exports.document.') && code(name))
    .map((name) => join(here, name));
  for (const dir of ['formats', 'richtext', 'text', 'shared']) {
    const root = join(here, '..', '..', dir);
    for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (code(entry)) files.push(join(root, entry));
    }
  }
  const hash = createHash('sha256');
  for (const path of files.sort()) hash.update(relative(here, path)).update('\0').update(readFileSync(path));
  version = hash.digest('base64url').slice(0, 22);
  return version;
}

/** One rendering's fragments, for one export. */
export interface FragmentSet {
  /** The stored fragments of these texts, by row id, read through the export's snapshot. */
  read(executor: Executor, textIds: readonly number[]): Promise<Map<number, Fragment>>;
  /** Stores fresh fragments (best effort: a failure leaves them unstored, never fails the export). */
  write(fragments: ReadonlyMap<number, Fragment>): Promise<void>;
}

const encodeMeta = (fragment: EntryFragment): string | null => {
  const meta: { v?: readonly string[]; n?: readonly number[] } = {};
  if (fragment.variables.length > 0) meta.v = fragment.variables;
  if (fragment.nameAt && fragment.nameAt.length > 0) meta.n = fragment.nameAt;
  return meta.v || meta.n ? JSON.stringify(meta) : null;
};

const decode = (row: repo.StoredFragment): Fragment => {
  if (row.body === null) return { stamp: row.stamp, fragment: null };
  const meta = row.meta === null ? {} : (JSON.parse(row.meta) as { v?: string[]; n?: number[] });
  return {
    stamp: row.stamp,
    fragment: { body: row.body, variables: meta.v ?? [], ...(meta.n && { nameAt: meta.n }) },
  };
};

/** The text row ids in a write's changes of components and text items (their refs are `<kind>:<row id>`). */
function touchedTexts(changes: Parameters<ChangeSubscriber>[2]): number[] {
  const ids = new Set<number>();
  for (const change of changes) {
    if ((change.kind !== 'textItem' && change.kind !== 'component') || change.action === 'created') continue;
    const id = Number(change.ref.slice(change.ref.indexOf(':') + 1));
    if (Number.isSafeInteger(id)) ids.add(id);
  }
  return [...ids];
}

export function createFragmentStore(db: Kysely<Database>) {
  /** The set of a rendering key, created (and the workspace's oldest sets evicted) on first use. */
  async function open(workspaceId: number, key: string): Promise<FragmentSet> {
    const at = new Date().toISOString();
    const found = await repo.findSet(db, workspaceId, key);
    let id: number;
    if (found) {
      id = found.id;
      if (Date.parse(found.used_at) < Date.now() - TOUCH_AFTER_MS) await repo.touchSet(db, id, at);
    } else {
      id = await repo.createSet(db, workspaceId, key, at);
      await repo.evictSets(db, workspaceId, MAX_SETS_PER_WORKSPACE);
    }
    return {
      async read(executor, textIds) {
        const rows = await repo.readFragments(executor, id, textIds);
        return new Map(rows.map((row) => [row.text_id, decode(row)]));
      },
      async write(fragments) {
        const rows = [...fragments].map(([textId, { stamp, fragment }]) => ({
          text_id: textId,
          stamp,
          body: fragment?.body ?? null,
          meta: fragment ? encodeMeta(fragment) : null,
        }));
        try {
          await repo.writeFragments(db, id, rows);
        } catch {
          // The set was evicted meanwhile, or the database is busy: the next export renders again.
        }
      },
    };
  }

  /**
   * The write path's subscriber: in the write's transaction, deletes the fragments of every text
   * it updated, moved or deleted. Stamps already keep changed texts from being served; this
   * keeps the store from holding what no export will read again.
   */
  const forget: ChangeSubscriber = async (trx, scope, changes) => {
    const ids = touchedTexts(changes);
    if (ids.length > 0) await repo.forgetTexts(trx, scope.workspaceId, ids);
  };

  return { open, forget };
}

export type FragmentStore = ReturnType<typeof createFragmentStore>;
