/**
 * Distributions (docs/releases.md#delivery): read-only tokens that deliver a workspace's releases
 * to apps, limited to some projects (and the library, `_library`) and some formats, and the
 * release each serves as `latest`, which moves only when someone publishes one to it (a write:
 * recorded in the history, and the webhook event `release.published`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/schema.js';
import { FORMATS, type FormatName } from '../../formats/types.js';
import type { ContentAddressedBody } from '../../http/cache/index.js';
import { contentAddressed } from '../../http/cache/index.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import * as repo from './distributions.repository.js';
import type { ReleaseRow } from './releases.repository.js';
import { checkReleaseName, type FrozenRelease, type ReleasesService } from './releases.service.js';

/** The project segment of a delivery URL that names the library's components. */
export const LIBRARY = '_library';

/** What a format's files are called in the manifest and by clients (`<project>.<ext>`). */
const EXTENSIONS: Record<FormatName, string> = {
  json_icu: 'json',
  json_i18next: 'json',
  json_vue_i18n: 'json',
  arb: 'arb',
  android: 'xml',
  'ios-strings': 'strings',
  'ios-stringsdict': 'stringsdict',
};

export interface Distribution {
  name: string;
  projects: string[];
  formats: FormatName[];
  /** The release `latest` serves; null until one is published. */
  release: string | null;
  publishedAt: string | null;
  revoked: boolean;
  createdAt: string;
}

/** One file a token can fetch, as the manifest lists it. */
export interface ManifestFile {
  project: string;
  variant: string;
  format: FormatName;
  /** The pinned URL (path) of the file: its bytes never change. */
  url: string;
  etag: string;
  sha256: string;
  bytes: number;
}

/** A delivery request: the token as sent, the release (or `latest`), and the file. */
export interface DeliveryFile {
  token: string;
  release: string;
  variant: string;
  format: string;
  project: string;
}

/** A token's live distribution, read on every delivery request (a revoked token stops at once). */
interface LiveDistribution {
  workspaceId: number;
  name: string;
  projects: string[];
  formats: FormatName[];
  /** The release the URL names, loaded. */
  release: FrozenRelease;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => `cdd_${randomBytes(24).toString('base64url')}`;
/**
 * How the history names a token: the first characters of its stored hash, enough to tell one
 * token from the next and nothing to find the token by.
 */
const fingerprint = (tokenHash: string) => `sha256:${tokenHash.slice(0, 8)}`;

/** The history record of a write to one distribution, which it names by its name. */
function distributionChange(id: number, name: string, action: Change['action'], fields: Change['fields']): Change {
  return { kind: 'distribution', ref: `distribution:${id}`, developerId: name, variantId: null, action, fields };
}

function toDistribution(row: repo.DistributionRow, release: string | null): Distribution {
  return {
    name: row.name,
    projects: JSON.parse(row.projects) as string[],
    formats: JSON.parse(row.formats) as FormatName[],
    release,
    publishedAt: row.published_at,
    revoked: row.revoked_at !== null,
    createdAt: row.created_at,
  };
}

export interface DistributionsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  releases: Pick<ReleasesService, 'exportOf' | 'loadRow' | 'get'>;
}

export function createDistributionsService(deps: DistributionsDeps) {
  const { db, writes, releases } = deps;

  async function requireRow(workspaceId: number, name: string) {
    const row = await repo.findDistribution(db, workspaceId, name);
    if (!row) throw notFound(`Distribution ${name} not found`);
    return row;
  }

  /** The name of the release a distribution serves as `latest`; `on`: a write's transaction. */
  async function releaseName(
    workspaceId: number,
    row: repo.DistributionRow,
    on: Executor = db,
  ): Promise<string | null> {
    if (row.release_id === null) return null;
    const release = await on
      .selectFrom('releases')
      .select('name')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', row.release_id)
      .executeTakeFirst();
    return release?.name ?? null;
  }

  /**
   * The token's distribution and the release a URL names (a name, or `latest`), or a 404 that
   * says nothing of why (unknown or revoked token, no such release, nothing published).
   */
  async function live(token: string, release: string): Promise<LiveDistribution> {
    const row = token.length > 200 ? undefined : await repo.distributionByToken(db, hashToken(token), release);
    if (!row) throw notFound('Not found');
    if (row.release_id === null) {
      throw notFound(release === 'latest' ? `Nothing is published to ${row.name} yet` : `Release ${release} not found`);
    }
    const releaseRow: ReleaseRow = {
      id: row.release_id,
      workspace_id: row.workspace_id,
      name: row.release_name as string,
      filter: row.release_filter as string,
      basis_hash: row.basis_hash as string,
      content_hash: row.content_hash as string,
      components: row.components as number,
      text_items: row.text_items as number,
      created_by: row.created_by as string,
      created_at: row.created_at as string,
    };
    return {
      workspaceId: row.workspace_id,
      name: row.name,
      projects: JSON.parse(row.projects) as string[],
      formats: JSON.parse(row.formats) as FormatName[],
      release: await releases.loadRow(row.workspace_id, releaseRow),
    };
  }

  async function file(distribution: LiveDistribution, request: Pick<DeliveryFile, 'variant' | 'format' | 'project'>) {
    const { variant, format, project } = request;
    if (!(FORMATS as readonly string[]).includes(format) || !distribution.formats.includes(format as FormatName)) {
      throw notFound(`Format ${format} is not delivered by this token`);
    }
    if (!distribution.projects.includes(project)) throw notFound(`Project ${project} is not delivered by this token`);
    const { release } = distribution;
    const { language, frozen } = release;
    const name = release.row.name;
    const known = frozen.basis.variants.some((v) => v.developerId === variant);
    // `base`, or the base language's code, is the base text; anything else must be a variant of the release.
    const base = variant === 'base' || (variant === language && !known);
    if (!base && !known) throw notFound(`Variant ${variant} is not in release ${name}`);
    const kind = project === LIBRARY ? 'components' : 'textItems';
    const filter = project === LIBRARY ? undefined : JSON.stringify({ projects: [{ id: project }] });
    try {
      return await releases.exportOf(release, {
        kind,
        query: { format: format as FormatName, variantId: base ? 'base' : variant, ...(filter && { filter }) },
        maxFilterIds: 1,
      });
    } catch (error) {
      // A project the release does not know (made before the project existed) is no file of it.
      if ((error as { code?: string }).code === 'bad_request')
        throw notFound(`Project ${project} is not in release ${name}`);
      throw error;
    }
  }

  return {
    async list(workspaceId: number): Promise<Distribution[]> {
      const rows = await repo.listDistributions(db, workspaceId);
      return Promise.all(rows.map(async (row) => toDistribution(row, await releaseName(workspaceId, row))));
    },

    /**
     * POST /distributions: a new token, answered once; only its hash is kept. A write, in the
     * history (kind `distribution`, action `created`, its projects and formats).
     */
    async create(
      scope: WriteScope,
      input: { name: string; projects: string[]; formats: FormatName[] },
    ): Promise<Distribution & { token: string }> {
      const { workspaceId } = scope;
      checkReleaseName(input.name);
      if (input.projects.length === 0) throw badRequest('projects: name at least one project (or _library)');
      if (input.formats.length === 0) throw badRequest('formats: name at least one format');
      const token = newToken();
      const projects = [...new Set(input.projects)];
      const formats = [...new Set(input.formats)];
      try {
        await writes.write(scope, async (trx) => {
          // Written while planning: the history record names the row's id.
          const id = await repo.insertDistribution(trx, workspaceId, {
            name: input.name,
            token_hash: hashToken(token),
            projects: JSON.stringify(projects),
            formats: JSON.stringify(formats),
            release_id: null,
            published_at: null,
            revoked_at: null,
            created_at: new Date().toISOString(),
          });
          const change = distributionChange(id, input.name, 'created', {
            projects: { before: null, after: projects },
            formats: { before: null, after: formats },
          });
          return { changes: [change], result: undefined };
        });
      } catch (error) {
        // The name is taken, by a live or a revoked distribution: the write rolled back whole.
        if (isUniqueViolation(error)) throw conflict(`name: a distribution named ${input.name} already exists`);
        throw error;
      }
      return { ...toDistribution(await requireRow(workspaceId, input.name), null), token };
    },

    /** POST /distributions/:name/publish: `latest` serves the release from now on. */
    async publish(scope: WriteScope, name: string, releaseName_: string): Promise<Distribution> {
      const { workspaceId } = scope;
      const row = await requireRow(workspaceId, name);
      if (row.revoked_at !== null) throw conflict(`Distribution ${name} is revoked`);
      const release = await releases.get(workspaceId, releaseName_);
      const before = await releaseName(workspaceId, row);
      await writes.write(scope, async (trx) => {
        const target = await trx
          .selectFrom('releases')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('name', '=', release.name)
          .executeTakeFirst();
        if (!target) throw notFound(`Release ${release.name} not found`);
        const change = distributionChange(row.id, name, 'published', {
          release: { before, after: release.name },
          hash: { before: null, after: release.hash },
        });
        return {
          changes: [change],
          apply: (t) => repo.setPublished(t, row.id, { releaseId: target.id, at: new Date().toISOString() }),
          result: undefined,
        };
      });
      const updated = await requireRow(workspaceId, name);
      return toDistribution(updated, release.name);
    },

    /**
     * POST /distributions/:name/token: a new token in place of the old one, which stops at once;
     * answered once, like a new distribution's. A write: recorded in the history (no webhook event).
     */
    async reissue(scope: WriteScope, name: string): Promise<Distribution & { token: string }> {
      const { workspaceId } = scope;
      const token = newToken();
      const tokenHash = hashToken(token);
      const row = await writes.write(scope, async (trx) => {
        const current = await repo.findDistribution(trx, workspaceId, name);
        if (!current || current.revoked_at !== null) throw notFound(`Distribution ${name} not found`);
        const change = distributionChange(current.id, name, 'updated', {
          token: { before: fingerprint(current.token_hash), after: fingerprint(tokenHash) },
        });
        return { changes: [change], apply: (t) => repo.replaceToken(t, current.id, tokenHash), result: current };
      });
      return { ...toDistribution(row, await releaseName(workspaceId, row)), token };
    },

    /**
     * DELETE /distributions/:name: the token stops at once. A write, in the history (kind
     * `distribution`, action `deleted`); one already revoked stays as it was, and nothing is written.
     */
    async revoke(scope: WriteScope, name: string): Promise<void> {
      const { workspaceId } = scope;
      if ((await requireRow(workspaceId, name)).revoked_at !== null) return;
      await writes.write(scope, async (trx) => {
        const current = await repo.findDistribution(trx, workspaceId, name);
        if (!current) throw notFound(`Distribution ${name} not found`);
        if (current.revoked_at !== null) return { changes: [], result: undefined };
        // As other deletions: what it was, gone (the history shows what stopped being delivered).
        const release = await releaseName(workspaceId, current, trx);
        const change = distributionChange(current.id, name, 'deleted', {
          projects: { before: JSON.parse(current.projects) as string[], after: null },
          formats: { before: JSON.parse(current.formats) as string[], after: null },
          ...(release !== null && { release: { before: release, after: null } }),
        });
        return {
          changes: [change],
          apply: (t) => repo.revokeDistribution(t, current.id, new Date().toISOString()),
          result: undefined,
        };
      });
    },

    /** A delivered file: the release's export of one project (or the library), variant and format. */
    async deliver(request: DeliveryFile): Promise<ContentAddressedBody> {
      return file(await live(request.token, request.release), request);
    },

    /** The manifest: every file the token can fetch of the release, with its pinned URL and hash. */
    async manifest(token: string, release: string): Promise<ContentAddressedBody> {
      const distribution = await live(token, release);
      const loaded = distribution.release;
      const name = loaded.row.name;
      const variants = ['base', ...loaded.frozen.basis.variants.map((v) => v.developerId)];
      const files: ManifestFile[] = [];
      for (const project of distribution.projects) {
        for (const variant of variants) {
          for (const format of distribution.formats) {
            const url = `/delivery/${token}/${name}/${variant}/${format}/${project}`;
            try {
              const body = await file(distribution, { variant, format, project });
              const sha256 = createHash('sha256').update(body.body).digest('hex');
              files.push({ project, variant, format, url, etag: body.etag, sha256, bytes: body.body.length });
            } catch (error) {
              if ((error as { code?: string }).code !== 'not_found') throw error;
            }
          }
        }
      }
      const manifest = {
        distribution: distribution.name,
        release: name,
        hash: loaded.row.content_hash,
        createdAt: loaded.row.created_at,
        extensions: EXTENSIONS,
        files,
      };
      return contentAddressed(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'application/json; charset=utf-8');
    },
  };
}

export type DistributionsService = ReturnType<typeof createDistributionsService>;
