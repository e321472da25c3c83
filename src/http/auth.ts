import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountsService, Principal } from '../modules/accounts/accounts.service.js';
import type { WriteScope } from '../modules/changes/index.js';
import { unauthorized } from './errors.js';

/**
 * How a route reads its key: `v2` takes the raw key, `v0` takes only `token <KEY>`, `either`
 * takes both (token-check and the deprecated v0 and v1 APIs, whose clients send `token <KEY>`
 * while their newer reference pages show the raw key). Routes without `config.auth` are public.
 */
export type AuthScheme = 'v2' | 'v0' | 'either';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthScheme;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const TOKEN = /^token\s+(\S+)$/i;

export function keyFromHeader(header: string | undefined, scheme: AuthScheme): string | null {
  const value = header?.trim();
  if (!value) return null;
  const token = TOKEN.exec(value);
  if (scheme === 'v0') return token?.[1] ?? null;
  if (token) return scheme === 'either' ? (token[1] ?? null) : null;
  return /\s/.test(value) ? null : value;
}

export function registerAuth(app: FastifyInstance, accounts: AccountsService): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const scheme = request.routeOptions.config.auth;
    if (!scheme) return;
    const key = keyFromHeader(request.headers.authorization, scheme);
    const principal = key ? await accounts.authenticate(key) : null;
    if (!principal) throw unauthorized();
    request.principal = principal;
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
  return { workspaceId: principal.workspaceId, actor: { email: principal.email, keyId: principal.keyId } };
}
