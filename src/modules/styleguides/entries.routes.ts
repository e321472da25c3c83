import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Limits } from '../../config.js';
import { scopeOf } from '../../http/auth.js';
import { DeveloperIds, Success, withErrors } from '../../http/schemas.js';
import { styleguideSchemas } from './styleguides.schemas.js';
import type { StyleguidesService } from './styleguides.service.js';

/** Rules and wordlist terms of the style guides: batch create, update and delete. */
export const styleguideEntriesRoutes: FastifyPluginAsyncTypebox<{
  styleguides: StyleguidesService;
  limits: Limits;
}> = async (app, { styleguides, limits }) => {
  const tags = ['styleguides'];
  const { rules, terms } = styleguides;
  const { CreateRulesBody, UpdateRulesBody, DeleteRulesBody, CreateTermsBody, UpdateTermsBody, DeleteTermsBody } =
    styleguideSchemas(limits);

  app.post(
    '/styleguides/rules',
    {
      schema: {
        tags,
        summary: 'Create rules, all or none',
        description:
          'Each rule names its guide and a rules section of it. Without `developerId` a rule gets a slug of its name, unique within its guide.',
        body: CreateRulesBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await rules.create(scopeOf(request), request.body.rules);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/styleguides/rules',
    {
      schema: {
        tags,
        summary: 'Update rules, all or none: only the fields given change',
        description: '`sectionId` moves a rule to another rules section of its guide; `check: null` removes its check.',
        body: UpdateRulesBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await rules.update(scopeOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/styleguides/rules',
    {
      schema: {
        tags,
        summary: 'Delete rules, all or none',
        body: DeleteRulesBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await rules.remove(scopeOf(request), request.body.rules);
      return { success: true as const };
    },
  );

  app.post(
    '/styleguides/terms',
    {
      schema: {
        tags,
        summary: 'Create wordlist terms, all or none',
        description:
          'Each term names its guide and a wordlist section of it. Without `developerId` a term gets a slug of its preferred term, unique within its guide.',
        body: CreateTermsBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await terms.create(scopeOf(request), request.body.terms);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/styleguides/terms',
    {
      schema: {
        tags,
        summary: 'Update wordlist terms, all or none: only the fields given change',
        body: UpdateTermsBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await terms.update(scopeOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/styleguides/terms',
    {
      schema: {
        tags,
        summary: 'Delete wordlist terms, all or none',
        body: DeleteTermsBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await terms.remove(scopeOf(request), request.body.terms);
      return { success: true as const };
    },
  );
};
