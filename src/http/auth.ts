import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../db/schema.js';
import type { AccountsService, Principal } from '../modules/accounts/accounts.service.js';
import type { PeopleService, SessionPrincipal } from '../modules/accounts/people.service.js';
import type { WriteScope } from '../modules/changes/index.js';
import { forbidden, unauthorized } from './errors.js';
import type { KeylessLimit } from './rate-limit.js';

/**
 * How a route reads its key: `v2` takes the raw key, `v0` takes only `token <KEY>`, `either`
 * takes both (token-check and the deprecated v0 and v1 APIs, whose clients send `token <KEY>`
 * while their newer reference pages show the raw key). Routes without `config.auth` are public.
 */
export type AuthScheme = 'v2' | 'v0' | 'either';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthScheme;
    /** The least role that may call the route (src/app.ts decides it for every route). */
    role?: Role;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** Set when the principal came from a session cookie rather than a key. */
    session: { token: string; principal: SessionPrincipal } | null;
    /** The workspace revision a write of this request made (see `registerRevisionHeader`). */
    writeRevision: number | null;
    /**
     * Looks the request's key or session up again: whether it still authenticates the same user
     * in the same workspace (a long-lived response, the event stream, asks now and then).
     */
    stillAuthenticated: (() => Promise<boolean>) | null;
  }
}

export const SESSION_COOKIE = 'copydesk_session';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RANK: Record<Role, number> = { viewer: 0, commenter: 1, editor: 2, admin: 3 };

const TOKEN = /^token\s+(\S+)$/i;

export function keyFromHeader(header: string | undefined, scheme: AuthScheme): string | null {
  const value = header?.trim();
  if (!value) return null;
  const token = TOKEN.exec(value);
  if (scheme === 'v0') return token?.[1] ?? null;
  if (token) return scheme === 'either' ? (token[1] ?? null) : null;
  return /\s/.test(value) ? null : value;
}

/**
/**
 * Who is calling: a key in `Authorization`, or else (on the v2 API only) a session cookie. A key
 * always wins, so a script's requests never depend on a browser's cookie. A session's writes must
 * carry its CSRF token in a header, which another site's page cannot read nor send. Then the
 * route's least role is checked against the user's role, whichever way they came. A request left
 * without a principal (a public route, a missing or invalid key, an ended session) first meets
 * `limitKeyless`, so failed attempts are counted too.
 */
export function registerAuth(
  app: FastifyInstance,
  accounts: AccountsService,
  people: Pick<PeopleService, 'authenticate'>,
  limitKeyless?: KeylessLimit | null,
): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('session', null);
  app.decorateRequest('stillAuthenticated', null);
  app.addHook('onRequest', async (request, reply) => {
    const { auth: scheme, role: needed } = request.routeOptions.config;
    if (!scheme) {
      await limitKeyless?.(request, reply);
      return;
    }
    let principal: Principal | null = null;
    // The refusal is built only when it is thrown: an Error captures a stack trace, a cost every
    // authenticated request (a 304 above all) would otherwise pay for nothing.
    let sessionEnded = false;
    const header = request.headers.authorization;
    const cookie = request.cookies?.[SESSION_COOKIE];
    if (scheme === 'v2' && !header?.trim() && cookie) {
      const session = await people.authenticate(cookie);
      if (!session) {
        sessionEnded = true;
      } else {
        if (!SAFE_METHODS.has(request.method) && request.headers[CSRF_HEADER] !== session.csrfToken) {
          throw forbidden(`${CSRF_HEADER}: a write from a session needs the session's CSRF token in this header`);
        }
        request.session = { token: cookie, principal: session };
        principal = session;
      }
    } else {
      const key = keyFromHeader(header, scheme);
      principal = key ? await accounts.authenticate(key) : null;
    }
    if (!principal) {
      await limitKeyless?.(request, reply);
      throw sessionEnded ? unauthorized('Your session has ended: sign in again') : unauthorized();
    }
    // An unknown role (a restored or hand-edited row) has no rights at all: roles fail closed.
    const rank = Object.hasOwn(RANK, principal.role) ? RANK[principal.role] : undefined;
    if (rank === undefined) {
      throw forbidden(
        `${principal.email} has the role '${principal.role}', which is not one of admin, editor, commenter, viewer`,
      );
    }
    if (needed && rank < RANK[needed]) {
      throw forbidden(
        `This needs the ${needed} role; ${principal.email} is ${principal.role === 'admin' ? 'an' : 'a'} ${principal.role}`,
      );
    }
    request.principal = principal;
    const first = principal;
    const same = (again: Principal | null) =>
      again !== null && again.workspaceId === first.workspaceId && again.userId === first.userId;
    request.stillAuthenticated = request.session
      ? async () => same(await people.authenticate(request.session?.token ?? ''))
      : async () => {
          const key = keyFromHeader(header, scheme);
          return key !== null && same(await accounts.authenticate(key));
        };
  });
}

/** The session cookie: HttpOnly and SameSite=Lax always, Secure whenever the request came over HTTPS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

/** The principal of an authenticated route; the hook above guarantees it is there. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

export function workspaceOf(request: FastifyRequest): number {
  return principalOf(request).workspaceId;
}

/** The workspace a write changes and who makes it, for the change log. */
export function scopeOf(request: FastifyRequest): WriteScope {
  const principal = principalOf(request);
  return {
    workspaceId: principal.workspaceId,
    actor: { email: principal.email, keyId: principal.keyId },
    onCommitted: (revision) => {
      request.writeRevision = revision;
    },
  };
}

export const REVISION_HEADER = 'copydesk-revision';

/**
 * Every successful write answers the workspace revision it made (`Copydesk-Revision`), so a
 * client can name that write later (`GET /v2/history?revision=N`, undo). A write that changed
 * nothing made none, and a failed one is not answered one.
 */
export function registerRevisionHeader(app: FastifyInstance): void {
  app.decorateRequest('writeRevision', null);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.writeRevision !== null && reply.statusCode < 400) {
      reply.header(REVISION_HEADER, String(request.writeRevision));
    }
    return payload;
  });
}
