import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { clearSessionCookie, principalOf, setSessionCookie } from '../../http/auth.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import { PASSWORD_MAX_CHARS } from './passwords.js';
import type { PeopleService } from './people.service.js';

const Session = Type.Object({
  email: Type.String(),
  name: Type.String(),
  role: Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('commenter'), Type.Literal('viewer')]),
  workspaceId: Type.Integer(),
  csrfToken: Nullable(
    Type.String({ description: 'Send it as the `x-csrf-token` header of every write from this session' }),
  ),
  expiresAt: Nullable(Type.String()),
});

const SignIn = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_CHARS }),
    workspaceId: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Only when the email is in several workspaces' }),
    ),
  },
  { additionalProperties: false },
);

const SetPassword = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of a password link' }),
    password: Type.String({ maxLength: PASSWORD_MAX_CHARS }),
  },
  { additionalProperties: false },
);

/** Signing in and out of the web app. The session then authenticates the same /v2 API as a key. */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ people: PeopleService }> = async (app, { people }) => {
  app.post(
    '/session',
    {
      config: { cache: false },
      schema: {
        tags: ['session'],
        summary: 'Sign in with email and password: sets the session cookie',
        security: [],
        body: SignIn,
        response: withErrors({ 200: Session }),
      },
    },
    async (request, reply) => {
      const wait = people.signInWaitSeconds(request.body.email);
      if (wait > 0) reply.header('retry-after', wait);
      const { token, session } = await people.signIn(request.body);
      setSessionCookie(request, reply, token, session.expiresAt);
      return session;
    },
  );

  app.post(
    '/session/password',
    {
      config: { cache: false },
      schema: {
        tags: ['session'],
        summary: "Set a password with a one-time link's token, and sign in",
        security: [],
        body: SetPassword,
        response: withErrors({ 200: Session }),
      },
    },
    async (request, reply) => {
      const { token, session } = await people.setPassword(request.body.token, request.body.password);
      setSessionCookie(request, reply, token, session.expiresAt);
      return session;
    },
  );

  app.get(
    '/session',
    {
      config: { auth: 'v2', cache: false },
      schema: {
        tags: ['session'],
        summary: 'The signed-in person and the CSRF token of their session',
        response: withErrors({ 200: Session }, 403),
      },
    },
    async (request) => {
      if (request.session) return people.view(request.session.principal);
      // With a key: who the key acts as; there is no session to protect nor to expire.
      const { email, role, workspaceId } = principalOf(request);
      return { email, name: email, role, workspaceId, csrfToken: null, expiresAt: null };
    },
  );

  app.delete(
    '/session',
    {
      config: { auth: 'v2', cache: false },
      schema: {
        tags: ['session'],
        summary: 'Sign out: ends the session',
        response: withErrors({ 204: Type.Null() }, 403),
      },
    },
    async (request, reply) => {
      if (request.session) await people.signOut(request.session.token);
      clearSessionCookie(request, reply);
      return reply.status(204).send(null);
    },
  );
};
