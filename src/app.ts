import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import ipaddr from 'ipaddr.js';
import { Type } from 'typebox';
import type { Config, Timeouts } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { Role } from './db/schema.js';
import { registerAuth, registerRevisionHeader } from './http/auth.js';
import { httpCache } from './http/cache/index.js';
import { answerClientError } from './http/client-errors.js';
import { capConnectionsPerAddress } from './http/connection-cap.js';
import { registerErrorHandling } from './http/error-handler.js';
import { codeForStatus } from './http/errors.js';
import { documentTransportStatuses } from './http/openapi.js';
import { registerRateLimits } from './http/rate-limit.js';
import { ErrorResponse } from './http/schemas.js';
import { registerStorableText } from './http/storable-text.js';
import { endUnusedConnectionsOnClose } from './http/unused-connections.js';
import { validatorCompiler } from './http/validation.js';
import { appNavigationUrl, registerWebApp } from './http/web-app.js';
import { keysRoutes } from './modules/accounts/keys.routes.js';
import { sessionRoutes } from './modules/accounts/session.routes.js';
import { usersRoutes } from './modules/accounts/users.routes.js';
import { workspaceRoutes } from './modules/accounts/workspace.routes.js';
import { blocksRoutes } from './modules/blocks/blocks.routes.js';
import { historyRoutes } from './modules/changes/history.routes.js';
import { commentsRoutes } from './modules/comments/comments.routes.js';
import { componentsRoutes } from './modules/components/components.routes.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { exportsRoutes } from './modules/exports/exports.routes.js';
import { foldersRoutes } from './modules/folders/folders.routes.js';
import { importsRoutes } from './modules/imports/imports.routes.js';
import { legacyRoutes } from './modules/legacy/legacy.routes.js';
import { machineTranslationRoutes } from './modules/machine-translation/mt.routes.js';
import { mailRoutes } from './modules/mail/mail.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { basesRoutes } from './modules/projects/bases.routes.js';
import { projectsRoutes } from './modules/projects/projects.routes.js';
import { deliveryRoutes, distributionsRoutes } from './modules/releases/distributions.routes.js';
import { pinsRoutes } from './modules/releases/pins.routes.js';
import { releasesRoutes } from './modules/releases/releases.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { statusesRoutes } from './modules/statuses/statuses.routes.js';
import { styleguideEntriesRoutes } from './modules/styleguides/entries.routes.js';
import { styleguidesRoutes } from './modules/styleguides/styleguides.routes.js';
import { suggestionsRoutes } from './modules/suggestions/suggestions.routes.js';
import { legacySwiftDriverRoutes, swiftDriverRoutes } from './modules/swift-driver/swift-driver.routes.js';
import { textItemsRoutes } from './modules/text-items/text-items.routes.js';
import { translationMemoryRoutes } from './modules/translation-memory/translation-memory.routes.js';
import { translationStateRoutes } from './modules/translation-state/translation-state.routes.js';
import { variablesRoutes } from './modules/variables/variables.routes.js';
import { variantsRoutes } from './modules/variants/variants.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import type { Services } from './services.js';
import { minOf } from './shared/arrays.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  /** Built once by the caller (`servicesFor`), so background jobs and the app share them. */
  services: Services;
  /** `false` for silence, or pino options / a logger instance. */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /**
   * Builds the response serializers in place of Fastify's own (fast-json-stringify through
   * `@fastify/fast-json-stringify-compiler`). The tests hand one that keeps the serializers it
   * compiled for the next app (test/helpers/serializers.ts); the server leaves it out.
   */
  buildSerializer?: SerializerFactory;
}

type SerializerFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildSerializer'];

export const API_VERSION = '1.0.0';

/**
 * Who may call a route, by the user's role, whether they come with a key or a session. Reads are
 * for everyone; changing people, webhooks, the status workflow and the workspace's settings is for
 * admins; writing comments and suggesting changes are for commenters (and up: the comments
 * service then lets only a comment's author or an admin edit or delete it); accepting or rejecting
 * a suggestion, and every other write, is for editors, so a commenter is refused everywhere a
 * viewer is but under `/v2/comments` and `/v2/suggestions`. A few POSTs only compute
 * an answer: they are reads. (Keys are everyone's own business: the keys routes check ownership
 * themselves; so are notifications, follows and presence, each user's own state, written by any role.)
 */
const ADMIN_PREFIXES = [
  '/v2/users',
  '/v2/webhooks',
  '/v2/statuses',
  '/v2/workspace',
  '/v2/machineTranslation/providers',
  '/v2/distributions',
  '/v2/releasePins',
];
const COMMENTER_PREFIXES = ['/v2/comments', '/v2/suggestions'];
/** Under the commenters' prefixes, the writes that decide: an editor's (docs/suggestions.md). */
const EDITOR_WRITES = new Set(['/v2/suggestions/accept', '/v2/suggestions/reject']);
const ADMIN_READS = ['/v2/webhooks', '/v2/distributions'];
const RELEASE_PREFIXES = ['/v2/releases'];
const OWN_STATE = ['/v2/notifications', '/v2/follows', '/v2/presence'];
const READS_BY_POST = new Set(['/v2/styleguides/lint', '/v2/cli/swiftDriver', '/v1/ios/swift-driver']);
/** Requests that may write: the search index's background pass waits for them (docs/search.md). */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const under = (url: string, prefixes: string[]) => prefixes.some((p) => url === p || url.startsWith(`${p}/`));

function leastRole(method: string | string[], url: string): Role {
  const methods = Array.isArray(method) ? method : [method];
  if (under(url, ADMIN_READS)) return 'admin';
  if (url === '/v2/session' || url.startsWith('/v2/keys') || under(url, OWN_STATE)) return 'viewer';
  if (methods.every((m) => m === 'GET' || m === 'HEAD') || READS_BY_POST.has(url)) return 'viewer';
  if (under(url, COMMENTER_PREFIXES) && !EDITOR_WRITES.has(url)) return 'commenter';
  // Deleting a release is an admin's: apps may be pinned to it.
  if (methods.includes('DELETE') && under(url, RELEASE_PREFIXES)) return 'admin';
  return under(url, ADMIN_PREFIXES) ? 'admin' : 'editor';
}

/**
 * Node checks the headers and request deadlines on a timer (every 30 s by default), so a deadline
 * is enforced within a fifth of the shortest one instead, and a small limit works as configured.
 */
function connectionTimeouts(timeouts: Timeouts) {
  const shortest = minOf(
    [timeouts.headersMs, timeouts.requestMs].filter((ms) => ms > 0),
    150_000,
  );
  const checkEvery = Math.max(50, Math.min(30_000, Math.floor(shortest / 5)));
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: checkEvery,
    },
  };
}

/** Builds the Fastify application. It never listens: `server.ts` does, tests use `inject()`. */
export async function buildApp(deps: AppDeps) {
  const { config, database, services } = deps;
  const loggerOption =
    deps.logger === undefined ? { level: config.logLevel, redact: ['req.headers.authorization'] } : deps.logger;

  const app = Fastify({
    ...(loggerOption && typeof (loggerOption as FastifyBaseLogger).child === 'function'
      ? { loggerInstance: loggerOption as FastifyBaseLogger }
      : { logger: loggerOption as FastifyServerOptions['logger'] }),
    bodyLimit: config.limits.bodyBytes,
    ...connectionTimeouts(config.timeouts),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    // Parse errors and request timeouts: our error shape, and never a body for a HEAD.
    clientErrorHandler: answerClientError,
    // A hop count or the proxies' addresses: the client is found from the right of X-Forwarded-For.
    trustProxy: trustedProxies(config.trustProxy),
    // The router's own errors (a malformed URL) skip every hook: give them our shape and request id.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode ?? 400;
      const body = { message: error.message, code: codeForStatus(status), requestId: request.id };
      (reply as unknown as FastifyReply).header('x-request-id', request.id).status(status).send(body);
    },
    routerOptions: { ignoreTrailingSlash: true },
    // A browser opening the app's link to a project shares its path with a v0 read: it gets the app.
    rewriteUrl: appNavigationUrl,
    ...(deps.buildSerializer
      ? { schemaController: { compilersFactory: { buildSerializer: deps.buildSerializer } } }
      : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  capConnectionsPerAddress(app.server, config.maxConnectionsPerAddress, isTrustedProxy(config.trustProxy));
  endUnusedConnectionsOnClose(app);

  // Every route under /v2 takes an API key (the raw `Authorization` value) unless it is listed
  // here. This is the one place that decides it; it runs before any plugin looks at a route.
  const PUBLIC_UNDER_V2 = new Set(['/v2/openapi.json', '/v2/session', '/v2/session/password', '/v2/email/unsubscribe']);
  app.addHook('onRoute', (route) => {
    const keyed = route.url.startsWith('/v2/') && !PUBLIC_UNDER_V2.has(route.url);
    const auth = route.config?.auth ?? (keyed ? 'v2' : undefined);
    if (!auth) return;
    route.config = { ...route.config, auth, role: route.config?.role ?? leastRole(route.method, route.url) };
  });

  // The search index is worked off in the background after writes: no pass outlives the app, and
  // none starts while a write request is under way here (from its first byte to its response).
  app.addHook('onClose', () => services.searchIndex.stop());
  const indexHolds = new WeakMap<FastifyRequest, () => void>();
  app.addHook('onRequest', (request, _reply, done) => {
    if (WRITE_METHODS.has(request.method)) indexHolds.set(request, services.searchIndex.hold());
    done();
  });
  const releaseIndexHold = (request: FastifyRequest, done: () => void) => {
    indexHolds.get(request)?.();
    done();
  };
  app.addHook('onResponse', (request, _reply, done) => releaseIndexHold(request, done));
  app.addHook('onRequestAbort', releaseIndexHold);

  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ErrorResponse);
  // Only JSON bodies: anything else is a 415.
  app.removeContentTypeParser(['text/plain']);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Every answer: never sniffed as another type; anything that is not a page (API JSON, files,
  // errors) may load and frame nothing. Pages (the app, /docs) carry a policy of their own.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    // An error answered before the body arrived (no key, a limit): the connection closes after
    // it, so a client trickling a body it was refused cannot hold a socket until the timeout.
    if (reply.statusCode >= 400 && !request.raw.complete) reply.header('connection', 'close');
    const header = (name: string) => reply.getHeader(name) ?? reply.raw.getHeader(name);
    if (!header('content-security-policy') && !String(header('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    }
    done(null, payload);
  });
  registerErrorHandling(app);
  await app.register(cookie);
  const limits = await registerRateLimits(app, config);
  registerAuth(app, services.accounts, services.people, limits.keyless);
  registerRevisionHeader(app);
  registerStorableText(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'copydesk: Workspace Text Content API',
        description:
          'The Workspace Text Content API (version 2), served by copydesk. Send your API key as the raw value of the `Authorization` header.',
        version: API_VERSION,
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' },
          session: { type: 'apiKey', in: 'cookie', name: 'copydesk_session' },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
    transform: documentTransportStatuses,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  // ETags, 304s, the response cache and compression. Its hooks reach the routes registered after
  // this line; where it stands relative to auth and the rate limiter does not matter.
  await app.register(httpCache, { maxBytes: config.responseCacheBytes });

  const Health = Type.Object({ status: Type.String(), redis: Type.Optional(Type.String()) });
  app.get('/healthz', { schema: { hide: true, response: { 200: Health } } }, async () => ({ status: 'ok' }));
  // Ready while the database answers; a Redis that does not is reported, not fatal: limits are
  // then counted per process and requests pass.
  app.get('/readyz', { schema: { hide: true, response: { 200: Health, 503: Health } } }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready', ...(limits.redisState ? { redis: limits.redisState() } : {}) };
    } catch (error) {
      app.log.warn({ err: error }, 'database not reachable');
      return reply.status(503).send({ status: 'database unreachable' });
    }
  });
  app.get(
    '/token-check',
    {
      // Its answer is about the key, not the workspace's content: nothing to cache.
      config: { auth: 'either', cache: false },
      schema: {
        tags: ['auth'],
        summary: 'Check an API key (raw or `token <KEY>`)',
        response: { 200: Type.Object({ success: Type.Literal(true) }), 401: Type.Ref('Error') },
      },
    },
    async () => ({ success: true as const }),
  );
  app.get('/v2/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(
    async (v2) => {
      await v2.register(statusesRoutes, { statuses: services.statuses });
      await v2.register(styleguidesRoutes, { styleguides: services.styleguides, limits: config.limits });
      await v2.register(styleguideEntriesRoutes, { styleguides: services.styleguides, limits: config.limits });
      await v2.register(foldersRoutes, { folders: services.folders, limits: config.limits });
      await v2.register(componentsRoutes, { components: services.components, limits: config.limits });
      await v2.register(usersRoutes, {
        accounts: services.accounts,
        people: services.people,
        publicUrl: config.publicUrl,
      });
      await v2.register(variantsRoutes, { variants: services.variants, limits: config.limits });
      await v2.register(variablesRoutes, { variables: services.variables, limits: config.limits });
      await v2.register(projectsRoutes, { projects: services.projects, limits: config.limits });
      await v2.register(basesRoutes, { projects: services.projects, limits: config.limits });
      await v2.register(blocksRoutes, { blocks: services.blocks, limits: config.limits });
      await v2.register(textItemsRoutes, { textItems: services.textItems, pins: services.pins, limits: config.limits });
      await v2.register(exportsRoutes, {
        exports: services.exports,
        releases: services.releases,
        pins: services.pins,
        limits: config.limits,
      });
      await v2.register(releasesRoutes, { releases: services.releases });
      await v2.register(pinsRoutes, { pins: services.pins });
      await v2.register(distributionsRoutes, { distributions: services.distributions, limits: config.limits });
      await v2.register(importsRoutes, { imports: services.imports, limits: config.limits });
      await v2.register(swiftDriverRoutes, { swiftDriver: services.swiftDriver, limits: config.limits });
      await v2.register(historyRoutes, { history: services.history, restore: services.restore });
      await v2.register(workspaceRoutes, { workspace: services.workspace });
      await v2.register(webhooksRoutes, { webhooks: services.webhooks, limits: config.limits });
      await v2.register(mailRoutes, { mail: services.mail.service });
      await v2.register(machineTranslationRoutes, { machineTranslation: services.machineTranslation });
      await v2.register(sessionRoutes, { people: services.people });
      await v2.register(keysRoutes, { accounts: services.accounts });
      await v2.register(searchRoutes, { search: services.search });
      await v2.register(translationMemoryRoutes, { translationMemory: services.translationMemory });
      await v2.register(translationStateRoutes, { translationState: services.translationState });
      await v2.register(commentsRoutes, { comments: services.comments, limits: config.limits });
      await v2.register(suggestionsRoutes, { suggestions: services.suggestions, limits: config.limits });
      await v2.register(notificationsRoutes, { notifications: services.notifications, limits: config.limits });
      await v2.register(eventsRoutes, { events: services.events });
    },
    { prefix: '/v2' },
  );
  // Its own plugin under /v1, beside the v1 API's, so the two register independently.
  await app.register(legacySwiftDriverRoutes, {
    prefix: '/v1',
    swiftDriver: services.swiftDriver,
    limits: config.limits,
  });
  // The deprecated APIs that existing clients still call: v0 at the host root, v1 under /v1.
  await app.register(legacyRoutes, { version: 'v0', legacy: services.legacy, limits: config.limits });
  await app.register(legacyRoutes, {
    version: 'v1',
    legacy: services.legacy,
    limits: config.limits,
    prefix: '/v1',
  });
  // Releases delivered to apps: public URLs, the token in the path (docs/releases.md#delivery).
  await app.register(deliveryRoutes, { distributions: services.distributions });
  // The writers' web app at /, on the same public API.
  await registerWebApp(app);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * Fastify's form of TRUST_PROXY. A hop count is a function of the hop's index from the socket
 * (0 is the peer itself): the first `n` are proxies, so the client is the address behind them.
 */
function trustedProxies(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return [...setting];
}

/** Whether a peer is one of the configured proxies (with a hop count, every peer is). */
function isTrustedProxy(setting: Config['trustProxy']): (address: string) => boolean {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return () => true;
  const ranges = setting.map((entry) =>
    entry.includes('/')
      ? ipaddr.parseCIDR(entry)
      : ipaddr.parseCIDR(`${entry}/${ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128}`),
  );
  return (address) => {
    if (!ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
  };
}
