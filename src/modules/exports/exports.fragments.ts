import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import type { EntryFragment, SpanEntry, StoredRunShape } from '../../formats/types.js';
import { stampsDigest } from '../texts/index.js';
import * as repo from './exports.fragments.repository.js';
import { type DeflatedBytes, deflateBlocks } from './exports.gzip.js';

/**
 * The fragment store (docs/exports.md#fragments): for each workspace and rendering key, the
 * fragment every text rendered to, stamped with the text's stamp at that time, kept in runs of
 * texts consecutive in developer-ID order (one row per run). A fragment is used only while the
 * text's stamp is the same, read in the export's own snapshot, so a write on any server is never
 * answered with the bytes of before; a run that holds a changed, new or deleted text is stored
 * again by the export that finds it so.
 */

/** Rendering keys (sets) kept per workspace; the least recently used beyond go. */
export const MAX_SETS_PER_WORKSPACE = 32;

/** A set's last use is written again when older than this (one write per set and interval). */
const TOUCH_AFTER_MS = 10 * 60_000;

/** A text as a stored run holds it: what it was rendered from, and where its fragment's bytes are. */
export interface StoredEntry extends SpanEntry {
  textId: number;
  stamp: string;
  /** `id` is the developer ID; `at` and `length` place the fragment's bytes in the run's body (-1: no entry). */
}

/**
 * A stored run: its texts in developer-ID order, their fragments end to end in `body` (null
 * until read: an export that sends the run compressed never reads it as text).
 */
export interface StoredRun extends StoredRunShape {
  id: number;
  body: string | null;
  /** The body's bytes compressed, as a gzip export sends them; null in runs stored before they were kept. */
  deflated: DeflatedBytes | null;
  /** Its entries, decoded on first call (a run placed whole by most formats never needs them). */
  entries(): StoredEntry[];
  /** Its texts' digest, as the texts core gives it for the run's range (`stampsDigest`). */
  stamps: string;
}

/** Where a stored run begins and ends (developer IDs). */
export interface RunBounds {
  id: number;
  first: string;
  last: string;
}

/** A text to store in a new run: what it was rendered from, and its fragment (null: no entry). */
export interface FreshEntry {
  textId: number;
  stamp: string;
  developerId: string;
  fragment: EntryFragment | null;
}

/** Everything a rendering depends on besides the texts themselves. */
export interface RenderingKeyParts {
  /** Text items or components: their developer IDs are separate orders, so their runs are too. */
  kind: string;
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
        parts.kind,
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
  /** Texts per stored run (a new run holds at most this many). */
  runTexts: number;
  /**
   * Where the set's runs are, in developer-ID order, read through the export's snapshot. Runs
   * never overlap in `runs`: one that overlaps another (two exports stored the same texts at
   * once) is in `superseded`, to be deleted.
   */
  runs(executor: Executor): Promise<{ runs: RunBounds[]; superseded: number[] }>;
  /** Runs without their bodies, by id (a run that is gone is not in the map). */
  load(executor: Executor, ids: readonly number[]): Promise<Map<number, StoredRun>>;
  /** The run's body, read once (through the same snapshot as `load`). */
  body(executor: Executor, run: StoredRun): Promise<string>;
  /**
   * Deletes runs and stores new ones (each a list of texts in developer-ID order), best effort:
   * a failure leaves the store as it was and never fails the export.
   */
  replace(remove: readonly number[], add: readonly (readonly FreshEntry[])[]): Promise<void>;
}

/** Developer IDs compare by code unit, as the texts' pages are ordered. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Stored form of a run's entries: `[row id, stamp, developer ID, length, variables?, name offsets?]` each. */
type EncodedEntry = [number, string, string, number, (readonly string[] | 0)?, (readonly number[])?];

/** A run's digest as the texts core gives it for the run's range (`stampsDigest`). */
const digestOf = (entries: readonly { textId: number; stamp: string }[]) =>
  stampsDigest(entries.map((entry) => ({ id: entry.textId, stamp: entry.stamp })));

async function encodeRun(entries: readonly FreshEntry[]): Promise<repo.RunRow> {
  let body = '';
  const encoded: EncodedEntry[] = [];
  for (const { textId, stamp, developerId, fragment } of entries) {
    const row: EncodedEntry = [textId, stamp, developerId, fragment ? fragment.body.length : -1];
    if (fragment) {
      body += fragment.body;
      const nameAt = fragment.nameAt && fragment.nameAt.length > 0 ? fragment.nameAt : null;
      if (fragment.variables.length > 0 || nameAt) row.push(fragment.variables.length > 0 ? fragment.variables : 0);
      if (nameAt) row.push(nameAt);
    }
    encoded.push(row);
  }
  // Compressed on the thread pool, once per stored run, for every gzip export that places it unchanged.
  const { deflated, crc, size } = await deflateBlocks(Buffer.from(body));
  return {
    stamps: digestOf(entries),
    first_key: (entries[0] as FreshEntry).developerId,
    last_key: (entries[entries.length - 1] as FreshEntry).developerId,
    entries: JSON.stringify(encoded),
    body,
    deflated,
    crc: crc | 0,
    size,
  };
}

const NO_VARIABLES: readonly string[] = [];

function decodeEntries(encoded: string): StoredEntry[] {
  const entries: StoredEntry[] = [];
  let at = 0;
  for (const [textId, stamp, developerId, length, variables, nameAt] of JSON.parse(encoded) as EncodedEntry[]) {
    const entry: StoredEntry = { textId, stamp, id: developerId, at, length, variables: variables || NO_VARIABLES };
    if (nameAt) entry.nameAt = nameAt;
    entries.push(entry);
    if (length > 0) at += length;
  }
  return entries;
}

function decodeRun(id: number, row: repo.RunHead): StoredRun {
  let entries: StoredEntry[] | null = null;
  const decoded = () => {
    entries ??= decodeEntries(row.entries);
    return entries;
  };
  const deflated =
    row.deflated !== null && row.crc !== null && row.size !== null
      ? { deflated: row.deflated, crc: row.crc >>> 0, size: Number(row.size) }
      : null;
  return {
    id,
    body: null,
    deflated,
    entries: decoded,
    empty: deflated ? deflated.size === 0 : decoded().every((entry) => entry.length <= 0),
    stamps: row.stamps ?? digestOf(decoded()),
  };
}

/** Texts per run by default: a cold export reads a few rows, and a changed text costs one run's rewrite. */
export const RUN_TEXTS = 512;

export function createFragmentStore(db: Kysely<Database>, { runTexts = RUN_TEXTS }: { runTexts?: number } = {}) {
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
      runTexts,
      async runs(executor) {
        const all = (await repo.readRunHeaders(executor, id))
          .map((row) => ({ id: row.id, first: row.first_key, last: row.last_key }))
          .sort((a, b) => compare(a.first, b.first) || a.id - b.id);
        const runs: RunBounds[] = [];
        const superseded: number[] = [];
        for (const run of all) {
          const before = runs[runs.length - 1];
          if (before && compare(run.first, before.last) <= 0) superseded.push(run.id);
          else runs.push(run);
        }
        return { runs, superseded };
      },
      async load(executor, ids) {
        const rows = await repo.readRuns(executor, ids);
        return new Map(rows.map((row) => [row.id, decodeRun(row.id, row)]));
      },
      async body(executor, run) {
        if (run.body === null) {
          const body = await repo.readRunBody(executor, run.id);
          if (body === undefined) throw new Error(`stored run ${run.id} vanished from the export's snapshot`);
          run.body = body;
        }
        return run.body;
      },
      async replace(remove, add) {
        const rows = await Promise.all(add.filter((entries) => entries.length > 0).map(encodeRun));
        if (remove.length === 0 && rows.length === 0) return;
        try {
          await repo.replaceRuns(db, id, remove, rows);
        } catch {
          // The set was evicted meanwhile, or the database is busy: the next export renders again.
        }
      },
    };
  }

  return { open };
}

export type FragmentStore = ReturnType<typeof createFragmentStore>;
