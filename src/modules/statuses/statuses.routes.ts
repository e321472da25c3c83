import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { Success, withErrors } from '../../http/schemas.js';
import { ReplaceBody } from './statuses.schemas.js';
import type { StatusesService } from './statuses.service.js';

export const Status = Type.Object({
  id: Type.String({ description: 'Stable identifier: the value to send as `status` or in a `statuses` filter' }),
  name: Type.String({ description: 'Display name' }),
});

export const statusesRoutes: FastifyPluginAsyncTypebox<{ statuses: StatusesService }> = async (app, { statuses }) => {
  app.get(
    '/statuses',
    {
      schema: {
        tags: ['statuses'],
        summary: 'List the workflow statuses, earliest to latest',
        response: withErrors({ 200: Type.Array(Status) }),
      },
    },
    (request) => statuses.list(workspaceOf(request)),
  );

  app.put(
    '/statuses',
    {
      schema: {
        tags: ['statuses'],
        summary: 'Replace the workflow, in order',
        description:
          'Removing a status that records still use needs a `reassign` entry naming the kept status they move to. ' +
          'History records the workflow as one record (kind `statuses`, developer ID `statuses`) and every record that moved.',
        body: ReplaceBody,
        response: withErrors({ 200: Success }),
      },
    },
    async (request) => {
      await statuses.replace(scopeOf(request), request.body);
      return { success: true as const };
    },
  );
};
