import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import type { WorkspaceService } from './workspace.service.js';

export const Settings = Type.Object({
  name: Type.String(),
  baseLanguage: Type.String({ description: 'BCP 47 language tag: the locale of exports of base text' }),
  libraryDeveloperMode: Type.Boolean({
    description: 'Whether the deprecated v0 and v1 APIs may read and write the component library',
  }),
});

const UpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    baseLanguage: Type.Optional(
      Type.String({ description: 'A BCP 47 language tag such as `en` or `pt-BR`, stored in canonical form' }),
    ),
    libraryDeveloperMode: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const workspaceRoutes: FastifyPluginAsyncTypebox<{ workspace: WorkspaceService }> = async (
  app,
  { workspace },
) => {
  app.get(
    '/workspace',
    {
      schema: {
        tags: ['workspace'],
        summary: "The key's workspace: name, base language, library developer mode",
        response: withErrors({ 200: Settings }),
      },
    },
    (request) => workspace.get(workspaceOf(request)),
  );

  app.patch(
    '/workspace',
    {
      schema: {
        tags: ['workspace'],
        summary: 'Change workspace settings; only the fields sent change',
        description:
          'Answers the settings after the change. A change advances the workspace revision, so every ETag and cached export changes with it.',
        body: UpdateBody,
        response: withErrors({ 200: Settings }),
      },
    },
    (request) => workspace.update(scopeOf(request), request.body),
  );
};
