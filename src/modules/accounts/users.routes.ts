import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, scopeOf, workspaceOf } from '../../http/auth.js';
import { Success, withErrors } from '../../http/schemas.js';
import type { AccountsService } from './accounts.service.js';
import { type PeopleService, passwordLinkUrl } from './people.service.js';

const Role = Type.Union(
  [Type.Literal('admin'), Type.Literal('editor'), Type.Literal('commenter'), Type.Literal('viewer')],
  {
    description:
      '`admin`: people, keys, webhooks, the status workflow and settings; `editor`: all text; ' +
      '`commenter`: read, export and comment; `viewer`: read and export',
  },
);
export const User = Type.Object({ email: Type.String(), name: Type.String(), role: Role });
const WithLink = Type.Object({
  email: Type.String(),
  role: Role,
  passwordLink: Type.String({ description: 'A one-time link that lets the user set a password; share it privately' }),
  emailed: Type.Boolean({
    description:
      'Whether the link was also emailed to the user: true when the server sends email and queued it; false without SMTP_URL or when the user turned email off',
  }),
});
const EmailParams = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) });

export const usersRoutes: FastifyPluginAsyncTypebox<{
  accounts: AccountsService;
  people: PeopleService;
  publicUrl: string;
}> = async (app, { accounts, people, publicUrl }) => {
  app.get(
    '/users',
    {
      schema: {
        tags: ['users'],
        summary: "List the workspace's users, the valid assignees, with their roles",
        response: withErrors({ 200: Type.Array(User) }),
      },
    },
    (request) => accounts.listUsers(workspaceOf(request)),
  );

  app.post(
    '/users',
    {
      schema: {
        tags: ['users'],
        summary:
          'Add a user (admins); answers a one-time link for them to set a password, also emailed to them when the server sends email',
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: 320 }),
            name: Type.Optional(Type.String({ maxLength: 200 })),
            role: Role,
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 201: WithLink }, 403, 409),
      },
    },
    async (request, reply) => {
      const { email, token, emailed } = await people.invite(scopeOf(request), request.body);
      return reply
        .status(201)
        .send({ email, role: request.body.role, passwordLink: passwordLinkUrl(publicUrl, token), emailed });
    },
  );

  app.patch(
    '/users/:email',
    {
      schema: {
        tags: ['users'],
        summary: "Change a user's role or name (admins); the workspace always keeps an admin",
        params: EmailParams,
        body: Type.Object(
          { role: Type.Optional(Role), name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: withErrors({ 200: User }, 403, 404, 409),
      },
    },
    (request) => people.update(scopeOf(request), request.params.email, request.body),
  );

  app.delete(
    '/users/:email',
    {
      schema: {
        tags: ['users'],
        summary: 'Remove a user (admins): their sessions and keys end, their texts lose them as assignee',
        description:
          'What they changed stays in history under their email. The workspace always keeps an admin, and nobody removes themselves (409).',
        params: EmailParams,
        response: withErrors({ 200: Success }, 403, 404, 409),
      },
    },
    async (request) => {
      await people.remove(scopeOf(request), request.params.email);
      return { success: true as const };
    },
  );

  app.post(
    '/users/:email/passwordLink',
    {
      schema: {
        tags: ['users'],
        summary:
          'A new one-time link for a user to set (or reset) their password (admins); also emailed to them when the server sends email',
        params: EmailParams,
        response: withErrors({ 201: WithLink }, 403, 404),
      },
    },
    async (request, reply) => {
      const workspaceId = workspaceOf(request);
      const { token, emailed } = await people.passwordLink(
        workspaceId,
        request.params.email,
        principalOf(request).email,
      );
      const user = (await accounts.listUsers(workspaceId)).find((u) => u.email === request.params.email.toLowerCase());
      return reply.status(201).send({
        email: user?.email ?? request.params.email,
        role: user?.role ?? 'viewer',
        passwordLink: passwordLinkUrl(publicUrl, token),
        emailed,
      });
    },
  );
};
