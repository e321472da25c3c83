import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { MachineTranslationConfig } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { slugify } from '../../shared/developer-id.js';
import type { Change, WritePath } from '../changes/index.js';
import type { StyleguideRecord } from '../styleguides/styleguides.types.js';
import type { NewSuggestionInput, SuggestionActor, UpdateIn } from '../suggestions/suggestions.service.js';
import { loadTextsByDeveloperIds, type TextEntity, type TextKind } from '../texts/index.js';
import { invalidUrl, openKey, refusedAddress, sealKey } from '../webhooks/index.js';
import { gateOf } from './mt.gate.js';
import { RefusedTranslation } from './mt.protect.js';
import { ProviderFailure, type ProviderKind, type ProviderSettings, translateWith } from './mt.providers.js';
import * as repo from './mt.repository.js';
import type {
  CreateProviderInput,
  ProviderRecordType,
  TranslateInput,
  TranslationResultType,
  UpdateProviderInput,
} from './mt.schemas.js';
import { guidanceFor, limitOf, piecesOf, resultOf, type Translated } from './mt.translate.js';

/**
 * Machine translation (docs/machine-translation.md): the providers a workspace's admins configure,
 * one text's translation into a variant through one of them, and where it lands: a suggestion
 * (through the suggestions module's create) or the variant's value itself with status WIP (through
 * the text's own PATCH updates), marked in history with the provider and model. The jobs that
 * translate what is missing are in mt.jobs.ts, and use `translateEntity` and `land` from here.
 */

export interface MachineTranslationDeps {
  db: Kysely<Database>;
  writes: WritePath;
  config: MachineTranslationConfig;
  variantsOf: (
    executor: Executor,
    workspaceId: number,
  ) => Promise<readonly { id: number; developerId: string; localeCode: string | null }[]>;
  baseLanguage: (executor: Executor, workspaceId: number) => Promise<string>;
  supSubEnabled: (executor: Executor, workspaceId: number) => Promise<boolean>;
  styleguides: (workspaceId: number) => Promise<StyleguideRecord[]>;
  userIdsByEmail: (workspaceId: number) => Promise<ReadonlyMap<string, number>>;
  /** The text items' and components' PATCH updates inside a write. */
  updateIn: Record<TextKind, UpdateIn>;
  /** The suggestions module's create (with the users read before, inside a composed write). */
  suggest: (
    actor: SuggestionActor,
    inputs: readonly NewSuggestionInput[],
    userIds?: ReadonlyMap<string, number>,
  ) => Promise<string[]>;
}

export interface Provider extends ProviderSettings {
  developerId: string;
  name: string;
  requestsPerMinute: number;
  concurrency: number;
}

export interface Target {
  variantRowId: number;
  variantId: string;
  locale: string;
}

const DEFAULTS = { requestsPerMinute: 60, concurrency: 2, timeoutMs: 30_000 };

export const providerNotFound = (id: string) => `Machine translation provider ${id} not found`;

/** A provider failure as the API answers it. */
export function apiErrorOf(error: unknown): unknown {
  if (error instanceof RefusedTranslation) {
    return new AppError('bad_gateway', `the provider's translation was refused: ${error.message}`);
  }
  if (!(error instanceof ProviderFailure)) return error;
  if (error.reason === 'timeout') return new AppError('gateway_timeout', error.message);
  if (error.reason === 'rate_limited') return new AppError('unavailable', error.message, error.retryAfter ?? 1);
  return new AppError('bad_gateway', error.message);
}

export function createMachineTranslationService(deps: MachineTranslationDeps) {
  const { db, config } = deps;

  const toRecord = (row: repo.ProviderRow): ProviderRecordType => ({
    id: row.developer_id,
    name: row.name,
    kind: row.kind as ProviderKind,
    url: row.url,
    model: row.model,
    apiKey: {
      configured: row.api_key !== null,
      lastFour: row.api_key_last_four,
      readable: row.api_key === null || openKey(row.api_key, config.secret) !== null,
    },
    privateNetwork: row.private_network === 1,
    requestsPerMinute: row.requests_per_minute,
    concurrency: row.concurrency,
    timeoutMs: row.timeout_ms,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

  function toProvider(row: repo.ProviderRow): Provider {
    const apiKey = row.api_key === null ? null : openKey(row.api_key, config.secret);
    if (row.api_key !== null && apiKey === null) {
      throw conflict(
        `the credential of provider ${row.developer_id} cannot be read with the current COPYDESK_SECRET (it changed since it was set): set it again with PATCH /v2/machineTranslation/providers/${row.developer_id}`,
      );
    }
    return {
      id: row.id,
      developerId: row.developer_id,
      name: row.name,
      kind: row.kind as ProviderKind,
      url: row.url,
      model: row.model,
      apiKey,
      allowPrivateNetworks: config.allowPrivateNetworks && row.private_network === 1,
      timeoutMs: row.timeout_ms,
      requestsPerMinute: row.requests_per_minute,
      concurrency: row.concurrency,
    };
  }

  /** The rules a schema cannot say; `field` names the body's field in the message. */
  function checkSettings(settings: { kind: string; url: string; model: string | null; privateNetwork: boolean }) {
    const invalid = invalidUrl(settings.url);
    if (invalid) throw badRequest(`url: ${invalid}`);
    const host = new URL(settings.url).hostname.replace(/^\[|\]$/g, '');
    const refused = /^[\d.]+$|:/.test(host) ? refusedAddress(host, settings.privateNetwork) : null;
    if (refused) {
      throw badRequest(
        `url: ${refused.replace(/\(set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow it\)/, '(set privateNetwork: true to allow it)')}`,
      );
    }
    if (settings.privateNetwork && !config.allowPrivateNetworks) {
      throw badRequest(
        'privateNetwork: this server does not let providers use loopback or private addresses (its operator can allow it with MT_ALLOW_PRIVATE_NETWORKS=true)',
      );
    }
    if (settings.kind === 'openai' && settings.model === null) {
      throw badRequest('model: an OpenAI-compatible provider needs the model to ask for');
    }
  }

  const sealed = (apiKey: string) => ({
    api_key: sealKey(apiKey, config.secret),
    api_key_last_four: apiKey.slice(-4),
  });

  async function requireProvider(executor: Executor, workspaceId: number, developerId: string, field?: string) {
    const row = await repo.findProvider(executor, workspaceId, developerId);
    if (!row)
      throw field ? badRequest(`${field}: ${providerNotFound(developerId)}`) : notFound(providerNotFound(developerId));
    return row;
  }

  async function targetOf(executor: Executor, workspaceId: number, variantId: string): Promise<Target> {
    const variant = (await deps.variantsOf(executor, workspaceId)).find((v) => v.developerId === variantId);
    if (!variant) throw badRequest(`variantId: Variant with id ${variantId} not found`);
    if (variant.localeCode === null) {
      throw badRequest(
        `variantId: variant ${variantId} has no locale code; machine translation needs the language to translate into (set the variant's localeCode)`,
      );
    }
    return { variantRowId: variant.id, variantId, locale: variant.localeCode };
  }

  /** One text translated into `target` (not written). Throws ProviderFailure or RefusedTranslation. */
  async function translateEntity(
    provider: Provider,
    entity: TextEntity,
    context: { workspaceId: number; target: Target },
  ): Promise<Translated> {
    const { workspaceId, target } = context;
    const [source, guides, supSub] = await Promise.all([
      deps.baseLanguage(db, workspaceId),
      deps.styleguides(workspaceId),
      deps.supSubEnabled(db, workspaceId),
    ]);
    const pieces = piecesOf(entity, target.locale);
    const sourceText = [entity.text, ...(entity.plurals ?? []).map((p) => p.text)].join('\n');
    const answers = await translateWith(
      provider,
      {
        source,
        target: target.locale,
        texts: pieces.map((p) => p.wire.wire),
        hints: pieces.map((p) => p.hint),
        guidance: guidanceFor(guides, target.variantId, sourceText),
      },
      { maxRetryAfterSeconds: config.maxRetryAfterSeconds, acquire: () => gateOf(provider).acquire() },
    );
    const value = entity.variants.find((v) => v.variantId === target.variantRowId);
    return resultOf(pieces, answers, { characterLimit: limitOf(entity, value), supSub });
  }

  const byLine = (provider: Provider) =>
    `${provider.name} (${provider.kind}${provider.model ? `, model ${provider.model}` : ''})`;

  /**
   * Writes a translation where it lands, inside the caller's write when there is one (a job's
   * composed write, which joins these): a suggestion, or the variant's value with status WIP
   * (refused over a value a person wrote unless `overwrite`). Answers the suggestion's id.
   */
  async function land(
    trx: Transaction<Database>,
    landing: {
      actor: SuggestionActor;
      userIds: ReadonlyMap<string, number>;
      provider: Provider;
      entity: TextEntity;
      target: Target;
      result: Translated;
      landAs: 'suggestion' | 'wip';
      overwrite: boolean;
    },
  ): Promise<string | null> {
    const { actor, provider, entity, target, result } = landing;
    const field = entity.kind === 'text_item' ? 'textItemId' : 'componentId';
    if (landing.landAs === 'suggestion') {
      const limitNote = result.overLimit
        ? ` Longer than the character limit: ${result.characters} of ${result.characterLimit} characters.`
        : '';
      const [id] = await deps.suggest(
        actor,
        [
          {
            [field]: entity.developerId,
            variantId: target.variantId,
            ...(result.text !== null && { text: result.text }),
            ...(result.plurals !== null && { plurals: result.plurals }),
            ...(result.rich && { richText: 'html' as const }),
            note: `Machine translation by ${byLine(provider)}.${limitNote}`,
          },
        ],
        landing.userIds,
      );
      return id ?? null;
    }
    const [now] = await loadTextsByDeveloperIds(trx, actor.scope.workspaceId, entity.kind, [entity.developerId]);
    if (!now) throw notFound(`${field}: the text ${entity.developerId} was deleted`);
    const value = now.variants.find((v) => v.variantId === target.variantRowId);
    if (value && !landing.overwrite) {
      throw conflict(
        `${field}: ${entity.developerId} already has a text in variant ${target.variantId}; send overwrite: true to replace it, or land the translation as a suggestion`,
      );
    }
    const marked = { provider: provider.developerId, kind: provider.kind, model: provider.model };
    await deps.writes.write(actor.scope, async (inner) => {
      const planned = await deps.updateIn[entity.kind](
        inner,
        actor.scope.workspaceId,
        {
          variantId: target.variantId,
          ...(result.rich && { richText: 'html' as const }),
          updates: [
            {
              developerId: entity.developerId,
              ...(result.text !== null && { text: result.text }),
              ...(result.plurals !== null && { plurals: result.plurals }),
              status: 'WIP',
            } as never,
          ],
        },
        landing.userIds,
      );
      // History says the value came from a machine, and which.
      const changes = planned.changes.map(
        (change): Change =>
          change.variantId === target.variantId
            ? {
                // A plain change (not the created record's values the log would store instead).
                kind: change.kind,
                ref: change.ref,
                developerId: change.developerId,
                variantId: change.variantId,
                action: change.action,
                fields: { ...change.fields, machineTranslation: { before: null, after: marked } },
              }
            : change,
      );
      return { ...planned, changes };
    });
    return null;
  }

  return {
    toProvider,
    targetOf,
    translateEntity,
    land,
    requireProvider,

    async listProviders(workspaceId: number): Promise<ProviderRecordType[]> {
      return (await repo.listProviders(db, workspaceId)).map(toRecord);
    },

    async getProvider(workspaceId: number, developerId: string): Promise<ProviderRecordType> {
      return toRecord(await requireProvider(db, workspaceId, developerId));
    },

    async createProvider(workspaceId: number, input: CreateProviderInput): Promise<ProviderRecordType> {
      checkSettings({
        kind: input.kind,
        url: input.url,
        model: input.model ?? null,
        privateNetwork: input.privateNetwork ?? false,
      });
      const developerId = input.developerId ?? (slugify(input.name) || `provider-${randomBytes(3).toString('hex')}`);
      const at = now();
      try {
        await repo.insertProvider(db, {
          workspace_id: workspaceId,
          developer_id: developerId,
          name: input.name,
          kind: input.kind,
          url: input.url,
          model: input.model ?? null,
          ...(input.apiKey === undefined ? { api_key: null, api_key_last_four: null } : sealed(input.apiKey)),
          private_network: input.privateNetwork ? 1 : 0,
          requests_per_minute: input.requestsPerMinute ?? DEFAULTS.requestsPerMinute,
          concurrency: input.concurrency ?? DEFAULTS.concurrency,
          timeout_ms: input.timeoutMs ?? DEFAULTS.timeoutMs,
          created_at: at,
          updated_at: at,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`Machine translation provider ${developerId} already exists`);
        throw error;
      }
      return toRecord(await requireProvider(db, workspaceId, developerId));
    },

    async updateProvider(workspaceId: number, developerId: string, input: UpdateProviderInput) {
      const row = await requireProvider(db, workspaceId, developerId);
      const next = {
        kind: row.kind,
        url: input.url ?? row.url,
        model: input.model === undefined ? row.model : input.model,
        privateNetwork: input.privateNetwork ?? row.private_network === 1,
      };
      checkSettings(next);
      await repo.updateProvider(db, row.id, {
        ...(input.name !== undefined && { name: input.name }),
        url: next.url,
        model: next.model,
        private_network: next.privateNetwork ? 1 : 0,
        ...(input.apiKey === null && { api_key: null, api_key_last_four: null }),
        ...(typeof input.apiKey === 'string' && sealed(input.apiKey)),
        ...(input.requestsPerMinute !== undefined && { requests_per_minute: input.requestsPerMinute }),
        ...(input.concurrency !== undefined && { concurrency: input.concurrency }),
        ...(input.timeoutMs !== undefined && { timeout_ms: input.timeoutMs }),
        updated_at: now(),
      });
      return toRecord(await requireProvider(db, workspaceId, developerId));
    },

    async deleteProvider(workspaceId: number, developerId: string): Promise<void> {
      const row = await requireProvider(db, workspaceId, developerId);
      await repo.deleteProviders(db, [row.id]);
    },

    /** POST /v2/machineTranslation/translate: one text, translated and landed as asked. */
    async translate(actor: SuggestionActor, input: TranslateInput): Promise<TranslationResultType> {
      const { workspaceId } = actor.scope;
      if ((input.textItemId === undefined) === (input.componentId === undefined)) {
        throw badRequest('textItemId: name one text, textItemId or componentId');
      }
      const kind: TextKind = input.textItemId !== undefined ? 'text_item' : 'component';
      const field = kind === 'text_item' ? 'textItemId' : 'componentId';
      const developerId = (input.textItemId ?? input.componentId) as string;
      const provider = toProvider(await requireProvider(db, workspaceId, input.providerId, 'providerId'));
      const target = await targetOf(db, workspaceId, input.variantId);
      const [entity] = await loadTextsByDeveloperIds(db, workspaceId, kind, [developerId]);
      if (!entity) {
        throw notFound(
          `${field}: ${kind === 'text_item' ? 'Text item' : 'Component'} with developer ID ${developerId} not found`,
        );
      }
      if (entity.kind === 'text_item' && entity.componentId !== null) {
        throw badRequest(`${field}: ${developerId} is a linked instance of a component: translate the component`);
      }
      const landAs = input.landAs ?? 'suggestion';
      const overwrite = input.overwrite ?? false;
      // Refused before the provider is asked, when the write would be.
      if (landAs === 'wip' && !overwrite && entity.variants.some((v) => v.variantId === target.variantRowId)) {
        throw conflict(
          `${field}: ${developerId} already has a text in variant ${target.variantId}; send overwrite: true to replace it, or land the translation as a suggestion`,
        );
      }
      let result: Translated;
      try {
        result = await translateEntity(provider, entity, { workspaceId, target });
      } catch (error) {
        throw apiErrorOf(error);
      }
      let suggestionId: string | null = null;
      if (landAs !== 'none') {
        const userIds = await deps.userIdsByEmail(workspaceId);
        suggestionId = await deps.writes.composed(actor.scope, (trx) =>
          land(trx, { actor, userIds, provider, entity, target, result, landAs, overwrite }),
        );
      }
      return {
        provider: provider.developerId,
        model: provider.model,
        text: result.text,
        plurals: result.plurals,
        richText: result.rich,
        characterLimit: result.characterLimit,
        characters: result.characters,
        overLimit: result.overLimit,
        landedAs: landAs,
        suggestionId,
      };
    },
  };
}

export type MachineTranslationService = ReturnType<typeof createMachineTranslationService>;
