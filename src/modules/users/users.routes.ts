import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { workspaceOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import type { AccountsService } from '../accounts/accounts.service.js';

const User = Type.Object({ email: Type.String(), name: Type.String() });

export const usersRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountsService }> = async (app, { accounts }) => {
  app.get(
    '/users',
    {
      schema: {
        tags: ['users'],
        summary: "List the workspace's users, the valid assignees",
        response: withErrors({ 200: Type.Array(User) }),
      },
    },
    (request) => accounts.listUsers(workspaceOf(request)),
  );
};
