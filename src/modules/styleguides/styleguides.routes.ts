import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf, scopeOf, workspaceOf } from '../../http/auth.js';
import { DeveloperIds, Success, withErrors } from '../../http/schemas.js';
import { GlossaryQuery, GlossaryResponse } from './glossary.schemas.js';
import { LintResponse, lintBody } from './lint.schemas.js';
import { StyleguideRecord, styleguideSchemas } from './styleguides.schemas.js';
import type { StyleguidesService } from './styleguides.service.js';

export const styleguidesRoutes: FastifyPluginAsyncTypebox<{ styleguides: StyleguidesService; limits: Limits }> = async (
  app,
  { styleguides, limits },
) => {
  const tags = ['styleguides'];
  const { CreateBody, UpdateBody, DeleteBody } = styleguideSchemas(limits);

  app.get(
    '/styleguides',
    {
      schema: {
        tags,
        summary: 'List the style guides with their sections, rules and wordlist terms',
        response: withErrors({ 200: Type.Array(StyleguideRecord) }),
      },
    },
    (request) => styleguides.list(workspaceOf(request)),
  );

  app.post(
    '/styleguides',
    {
      schema: {
        tags,
        summary: 'Create style guides, all or none',
        description:
          'A guide without `sections` gets one rules section `rules` and one wordlist section `wordlist`. `default` is reserved for the built-in guide. Returns the developer IDs in request order.',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await styleguides.create(scopeOf(request), request.body.styleguides);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/styleguides',
    {
      schema: {
        tags,
        summary: 'Update one style guide: only the fields given change',
        description:
          'On the built-in guide `default` only `enabledByDefault` can change. `variantId` null clears the scope. `sections` replaces the whole list.',
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await styleguides.update(scopeOf(request), request.body);
      return { success: true as const };
    },
  );

  app.delete(
    '/styleguides',
    {
      schema: {
        tags,
        summary: 'Delete style guides with their rules and terms, all or none',
        description: 'The built-in guide `default` cannot be deleted.',
        body: DeleteBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await styleguides.remove(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );

  app.get(
    '/glossary',
    {
      schema: {
        tags,
        summary:
          "The wordlist terms that apply while writing a variant's text, with their preferred and forbidden forms",
        description:
          "Every term of the guides scoped to the variant's locale, and the terms of guides enabled by default that occur in `text` (the base text) or `variantText` (the variant's text as it is being written). Terms whose forbidden form `variantText` uses come first. See docs/translation-memory.md.",
        querystring: GlossaryQuery,
        response: withErrors({ 200: GlossaryResponse }),
      },
      // Cached by the HTTP cache (src/http/cache/index.ts) per workspace revision and URL.
      config: { cache: true },
    },
    (request) => styleguides.glossary(workspaceOf(request), request.query),
  );

  app.post(
    '/styleguides/lint',
    {
      schema: {
        tags,
        summary: 'Check texts, or stored components and text items, against the style guides in effect',
        description:
          'A guide is in effect for a text scoped to its variant, or enabled by default and not scoped to another variant. Findings are ordered by position; `start` and `end` count UTF-16 code units. A stored record over its own `characterLimit` gets a `characterLimit` finding.',
        body: lintBody(limits),
        response: withErrors({ 200: LintResponse }, 503),
      },
      // A turn among the server's lints before the body is read; the place is freed once the
      // answer is sent or the client has gone.
      onRequest: async (_request, reply) => {
        const release = await styleguides.lint.admit(limits);
        // A client that went while it waited for its turn gives the place back at once.
        if (reply.raw.closed) release();
        else reply.raw.once('close', release);
      },
    },
    // The service answers the JSON bytes it wrote as it linted (lint.service.ts).
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send((await styleguides.lint(principalOf(request), request.body, limits)) as never),
  );
};
