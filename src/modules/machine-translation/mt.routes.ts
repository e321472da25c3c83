import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf, scopeOf } from '../../http/auth.js';
import { DeveloperId, Success, withErrors } from '../../http/schemas.js';
import type { MachineTranslationModule } from './index.js';
import {
  CreateJobBody,
  CreateProviderBody,
  JobDetail,
  JobRecord,
  ProviderRecord,
  TranslateBody,
  TranslationResult,
  UpdateProviderBody,
} from './mt.schemas.js';

const ProviderParams = Type.Object({ id: DeveloperId });
const JobParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const tags = ['machineTranslation'];

/** The actor of a write: the write's scope and the user the suggestions' authorship needs. */
function actorOf(request: FastifyRequest) {
  const principal = principalOf(request);
  return { scope: scopeOf(request), userId: principal.userId, email: principal.email };
}

export const machineTranslationRoutes: FastifyPluginAsyncTypebox<{
  machineTranslation: MachineTranslationModule;
}> = async (app, { machineTranslation }) => {
  const { service, jobs } = machineTranslation;

  app.get(
    '/machineTranslation/providers',
    {
      schema: {
        tags,
        summary: 'The machine translation providers (credentials are never answered)',
        response: withErrors({ 200: Type.Array(ProviderRecord) }),
      },
      // Provider settings are not content: their writes do not advance the workspace's revision,
      // on which the HTTP cache keys its answers, so this list is never answered from it.
      config: { cache: false },
    },
    (request) => service.listProviders(principalOf(request).workspaceId),
  );

  app.post(
    '/machineTranslation/providers',
    {
      schema: {
        tags,
        summary: 'Adds a provider (admins)',
        body: CreateProviderBody,
        response: withErrors({ 201: ProviderRecord }),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createProvider(principalOf(request).workspaceId, request.body);
    },
  );

  app.patch(
    '/machineTranslation/providers/:id',
    {
      schema: {
        tags,
        summary: 'Changes a provider (admins); `apiKey` replaces the credential, null removes it',
        params: ProviderParams,
        body: UpdateProviderBody,
        response: withErrors({ 200: ProviderRecord }),
      },
    },
    (request) => service.updateProvider(principalOf(request).workspaceId, request.params.id, request.body),
  );

  app.delete(
    '/machineTranslation/providers/:id',
    {
      schema: {
        tags,
        summary: 'Removes a provider (admins); its jobs still to run fail',
        params: ProviderParams,
        response: withErrors({ 200: Success }),
      },
    },
    async (request) => {
      await service.deleteProvider(principalOf(request).workspaceId, request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/machineTranslation/translate',
    {
      schema: {
        tags,
        summary: "Translates one text into a variant, as a suggestion or as the variant's WIP text",
        body: TranslateBody,
        response: withErrors({ 200: TranslationResult }),
      },
    },
    (request) => service.translate(actorOf(request), request.body),
  );

  app.post(
    '/translationJobs',
    {
      schema: {
        tags,
        summary: 'Starts translating what a variant lacks in a project, a folder or the workspace',
        body: CreateJobBody,
        response: withErrors({ 201: JobRecord }),
      },
    },
    async (request, reply) => {
      const job = await jobs.create(actorOf(request), principalOf(request).revision, request.body);
      reply.code(201);
      return job;
    },
  );

  app.get(
    '/translationJobs',
    {
      schema: {
        tags,
        summary: 'The last 100 translation jobs, newest first, with their progress',
        response: withErrors({ 200: Type.Array(JobRecord) }),
      },
      // Progress moves without a write of the workspace: never answered from the HTTP cache.
      config: { cache: false },
    },
    (request) => jobs.list(principalOf(request).workspaceId),
  );

  app.get(
    '/translationJobs/:id',
    {
      schema: {
        tags,
        summary: 'One translation job, its progress and the texts that failed or were skipped',
        params: JobParams,
        response: withErrors({ 200: JobDetail }),
      },
      config: { cache: false },
    },
    (request) => jobs.get(principalOf(request).workspaceId, request.params.id),
  );

  app.post(
    '/translationJobs/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancels a queued or running job',
        params: JobParams,
        response: withErrors({ 200: JobRecord }),
      },
    },
    (request) => jobs.cancel(principalOf(request).workspaceId, request.params.id),
  );
};
