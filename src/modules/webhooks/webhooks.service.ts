import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WebhooksConfig } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { slugify, uniqueDeveloperId } from '../../shared/developer-id.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import { type Change, changeOf, changesOf, type WritePath, type WriteScope } from '../changes/index.js';
import { invalidUrl } from './webhooks.address.js';
import { testBody } from './webhooks.body.js';
import * as repo from './webhooks.repository.js';
import type { NewWebhookInput, WebhookUpdate } from './webhooks.schemas.js';
import { openKey, sealKey, UNREADABLE_KEY } from './webhooks.secret.js';
import { postSigned } from './webhooks.send.js';
import { signedHeaders } from './webhooks.signing.js';
import { ALL_EVENTS, EVENT_NAMES, type Webhook } from './webhooks.types.js';

export type { NewWebhookInput, Webhook, WebhookUpdate };

export const MIN_SIGNING_KEY_CHARS = 32;

const identity = (developerId: string, id: number) => ({
  kind: 'webhook' as const,
  ref: `webhook:${id}`,
  developerId,
});
const fieldsOf = (row: Pick<repo.WebhookRow, 'name' | 'url' | 'events' | 'enabled'>) => ({
  name: row.name,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  enabled: row.enabled === 1,
});

function checkEvents(events: readonly string[], path: string): void {
  events.forEach((name, index) => {
    if (name !== ALL_EVENTS && !(EVENT_NAMES as readonly string[]).includes(name)) {
      throw badRequest(`${path}[${index}]: '${name}' is not an event; use "*" or one of ${EVENT_NAMES.join(', ')}`);
    }
  });
}

function checkUrl(url: string, path: string): void {
  const reason = invalidUrl(url);
  if (reason) throw badRequest(`${path}: ${reason}`);
}

export interface WebhooksDeps {
  db: Kysely<Database>;
  writes: WritePath;
  config: Pick<WebhooksConfig, 'secret' | 'allowPrivateNetworks'>;
}

export function createWebhooksService(deps: WebhooksDeps) {
  const { db, writes, config } = deps;

  /** The workspace's signing key, or a 400 saying why there is none to sign with. */
  async function signingKey(workspaceId: number): Promise<string> {
    const stored = await repo.findSigningKey(db, workspaceId);
    if (!stored) {
      throw badRequest(
        'signingKey: set the workspace signing key (PUT /v2/webhooks/signingKey) before creating a webhook',
      );
    }
    const key = openKey(stored.stored, config.secret);
    if (key === null) throw badRequest(`signingKey: ${UNREADABLE_KEY}`);
    return key;
  }

  /** Sends each URL its signed test delivery; the first one not answered with a 2xx is the 400. */
  async function testUrls(workspaceId: number, tests: { path: string; url: string; webhookId: string }[]) {
    if (tests.length === 0) return;
    const key = await signingKey(workspaceId);
    const results = await Promise.all(
      tests.map(async (test) => {
        const body = testBody(test.webhookId, workspaceId, now(), randomUUID());
        return postSigned(test.url, body, signedHeaders(key, body), config);
      }),
    );
    results.forEach((result, index) => {
      if (result.ok) return;
      const test = tests[index] as (typeof tests)[number];
      const answer = result.statusCode === null ? result.error : `it answered HTTP ${result.statusCode}`;
      throw badRequest(`${test.path}: the test delivery to ${test.url} failed: ${answer}`);
    });
  }

  return {
    list: async (workspaceId: number): Promise<Webhook[]> =>
      (await repo.listWebhooks(db, workspaceId)).map(repo.toWebhook),

    /** Tests every URL, then creates all the webhooks or none. Answers their developer IDs. */
    async create(scope: WriteScope, inputs: readonly NewWebhookInput[]): Promise<string[]> {
      const { workspaceId } = scope;
      const explicit = inputs.flatMap((w) => (w.developerId === undefined ? [] : [w.developerId]));
      const seen = new Set<string>();
      inputs.forEach((w, i) => {
        if (w.developerId !== undefined) {
          if (seen.has(w.developerId)) {
            throw badRequest(`webhooks[${i}].developerId: duplicate developer ID '${w.developerId}'`);
          }
          seen.add(w.developerId);
        }
        checkUrl(w.url, `webhooks[${i}].url`);
        checkEvents(w.events, `webhooks[${i}].events`);
        if ((w.enabled ?? true) && w.events.length === 0) {
          throw badRequest(`webhooks[${i}].events: an enabled webhook needs at least one event`);
        }
      });
      const plan = (rows: repo.WebhookRow[]) => {
        const taken = new Set(rows.map((row) => row.developer_id));
        for (const id of explicit) {
          if (taken.has(id)) throw conflict(`Webhook with developer ID ${id} already exists in workspace`);
        }
        const reserved = new Set([...taken, ...explicit]);
        return inputs.map((w) => w.developerId ?? uniqueDeveloperId(slugify(w.name), reserved));
      };
      const developerIds = plan(await repo.listWebhooks(db, workspaceId));
      await testUrls(
        workspaceId,
        inputs.map((w, i) => ({ path: `webhooks[${i}].url`, url: w.url, webhookId: developerIds[i] as string })),
      );
      try {
        return await writes.write(scope, async (trx) => {
          const ids = plan(await repo.listWebhooks(trx, workspaceId));
          if (ids.some((id, i) => id !== developerIds[i]))
            throw conflict('Webhooks changed meanwhile: send the request again');
          const at = now();
          const rows = await repo.insertWebhooks(
            trx,
            inputs.map((w, i) => ({
              workspace_id: workspaceId,
              developer_id: developerIds[i] as string,
              name: w.name,
              url: w.url,
              events: JSON.stringify(w.events),
              enabled: w.enabled === false ? 0 : 1,
              disabled_reason: null,
              failing_since: null,
              created_at: at,
            })),
          );
          const changes = changesOf(
            rows.map((row) => ({
              identity: identity(row.developer_id, row.id),
              before: null,
              after: fieldsOf(row),
            })),
          );
          return { changes, result: developerIds };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('Webhook already exists in workspace');
        throw error;
      }
    },

    /** All or nothing; a new URL is tested first. Enabling a disabled webhook clears its reason. */
    async update(scope: WriteScope, updates: readonly WebhookUpdate[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(
        updates.map((u) => u.developerId),
        (index) => `updates[${index}].developerId`,
      );
      const resolve = (rows: repo.WebhookRow[]) => {
        const byId = new Map(rows.map((row) => [row.developer_id, row]));
        const missing = updates.filter((u) => !byId.has(u.developerId)).map((u) => u.developerId);
        if (missing.length > 0) throw notFound(`Webhooks not found: ${missing.join(', ')}`);
        return updates.map((u, i) => {
          const row = byId.get(u.developerId) as repo.WebhookRow;
          if (u.url !== undefined) checkUrl(u.url, `updates[${i}].url`);
          if (u.events !== undefined) checkEvents(u.events, `updates[${i}].events`);
          const events = u.events ?? (JSON.parse(row.events) as string[]);
          const enabled = u.enabled ?? row.enabled === 1;
          if (enabled && events.length === 0) {
            throw badRequest(`updates[${i}].events: an enabled webhook needs at least one event`);
          }
          const changes: repo.WebhookChanges = {};
          if (u.name !== undefined) changes.name = u.name;
          if (u.url !== undefined) changes.url = u.url;
          if (u.events !== undefined) changes.events = JSON.stringify(u.events);
          if (u.enabled !== undefined) changes.enabled = u.enabled ? 1 : 0;
          if (u.enabled === true && row.enabled === 0) {
            changes.disabled_reason = null;
            changes.failing_since = null;
          }
          return { row, changes, index: i };
        });
      };
      const plans = resolve(await repo.listWebhooks(db, workspaceId));
      await testUrls(
        workspaceId,
        plans
          .filter((p) => p.changes.url !== undefined && p.changes.url !== p.row.url)
          .map((p) => ({
            path: `updates[${p.index}].url`,
            url: p.changes.url as string,
            webhookId: p.row.developer_id,
          })),
      );
      await writes.write(scope, async (trx) => {
        const current = resolve(await repo.listWebhooks(trx, workspaceId));
        const changes = changesOf(
          current.map(({ row, changes }) => ({
            identity: identity(row.developer_id, row.id),
            before: fieldsOf(row),
            after: fieldsOf({ ...row, ...changes }),
          })),
        );
        return {
          changes,
          apply: async (trx) => {
            for (const { row, changes } of current) await repo.updateWebhook(trx, row.id, changes);
          },
          result: undefined,
        };
      });
    },

    async remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
      await writes.write(scope, async (trx) => {
        const byId = new Map((await repo.listWebhooks(trx, workspaceId)).map((row) => [row.developer_id, row]));
        const missing = developerIds.filter((id) => !byId.has(id));
        if (missing.length > 0) throw notFound(`Webhooks not found: ${missing.join(', ')}`);
        const rows = developerIds.map((id) => byId.get(id) as repo.WebhookRow);
        const changes = changesOf(
          rows.map((row) => ({
            identity: identity(row.developer_id, row.id),
            before: fieldsOf(row),
            after: null,
          })),
        );
        return {
          changes,
          apply: (trx) =>
            repo.deleteWebhooks(
              trx,
              workspaceId,
              rows.map((row) => row.id),
            ),
          result: undefined,
        };
      });
    },

    async signingKeyStatus(workspaceId: number): Promise<{ configured: boolean; lastFour: string | null }> {
      const stored = await repo.findSigningKey(db, workspaceId);
      return { configured: stored !== null, lastFour: stored?.lastFour ?? null };
    },

    /** Sets or rotates the key. History shows only its last four characters. */
    async setSigningKey(scope: WriteScope, key: string): Promise<void> {
      const { workspaceId } = scope;
      if (key.length < MIN_SIGNING_KEY_CHARS) {
        throw badRequest(`signingKey: must be at least ${MIN_SIGNING_KEY_CHARS} characters, got ${key.length}`);
      }
      const lastFour = key.slice(-4);
      await writes.write(scope, async (trx) => {
        const before = await repo.findSigningKey(trx, workspaceId);
        const change = changeOf(
          { kind: 'webhook', ref: `webhookSigningKey:${workspaceId}`, developerId: 'signingKey' },
          before ? { lastFour: before.lastFour } : null,
          { lastFour },
          before ? 'updated' : 'created',
        ) as Change;
        return {
          changes: [change],
          apply: (trx) =>
            repo.saveSigningKey(trx, workspaceId, { stored: sealKey(key, config.secret), lastFour }, now()),
          result: undefined,
        };
      });
    },

    /** How many stored keys the current COPYDESK_SECRET cannot read (said at start). */
    async unreadableKeys(): Promise<number> {
      const keys = await repo.allSigningKeys(db);
      return keys.filter((k) => openKey(k.stored, config.secret) === null).length;
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
